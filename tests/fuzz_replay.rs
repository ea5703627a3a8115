//! The fuzz corpora replayed on stable Rust: every file under
//! `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/` goes through
//! `hive_oracle_rules::fuzzing::Target::replay`, which decodes it as the cargo-fuzz
//! target does and checks the same property. Each regression also has a
//! named test below whose comment gives the root cause of the bug it found.
//!
//! The seed files of the corpora (`case-*`, `transcript-*` and the
//! hand-written ones named below) are written by the ignored test
//! `write_seed_corpus`:
//!
//! ```sh
//! cargo test --test fuzz_replay -- --ignored write_seed_corpus
//! ```

use std::collections::BTreeMap;
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use hive_oracle_rules::cases::{builtin_corpus, Case, LoadedCase};
use hive_oracle_rules::core::{BoardView, GameType, Move, RulesOptions};
use hive_oracle_rules::fuzzing::{GameSetup, Step, Target};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The committed corpus must hold at least this many files in all.
const MIN_CORPUS_FILES: usize = 20;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The input files of a directory, sorted: every file but hidden ones
/// (`.gitkeep`) and `README.md`. `Err` when the directory is missing.
fn input_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| !name.starts_with('.') && name != "README.md")
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Replays one file; `Err` with the file, the input's `Debug` form and the
/// panic message when the property fails or the bytes decode to no input.
fn replay_file(target: Target, path: &Path) -> Result<(), String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let outcome = catch_unwind(AssertUnwindSafe(|| target.replay(&bytes)));
    match outcome {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!(
            "{}: decodes to no {} input",
            path.display(),
            target.name()
        )),
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let input = catch_unwind(AssertUnwindSafe(|| target.describe(&bytes)))
                .ok()
                .flatten()
                .unwrap_or_default();
            Err(format!(
                "{} ({}): {message}\n  input: {input}",
                path.display(),
                target.name()
            ))
        }
    }
}

/// Replays one committed regression file of a target: what each named
/// regression test below calls.
#[allow(dead_code)] // no regression yet: the fuzzing runs found no crash
fn replay_regression(target: Target, name: &str) {
    let path = fuzz_dir()
        .join("regressions")
        .join(target.name())
        .join(name);
    if let Err(why) = replay_file(target, &path) {
        panic!("{why}");
    }
}

#[test]
fn every_corpus_file_and_regression_replays() {
    let mut failures = Vec::new();
    let mut counts = BTreeMap::new();
    for target in Target::ALL {
        let corpus = fuzz_dir().join("corpus").join(target.name());
        let corpus_files = input_files(&corpus).unwrap_or_else(|why| panic!("{why}"));
        assert!(
            !corpus_files.is_empty(),
            "{} is empty: the replay would test nothing",
            corpus.display()
        );
        let regressions = fuzz_dir().join("regressions").join(target.name());
        let regression_files = input_files(&regressions).unwrap_or_else(|why| panic!("{why}"));
        counts.insert(target.name(), (corpus_files.len(), regression_files.len()));
        for path in corpus_files.iter().chain(&regression_files) {
            if let Err(why) = replay_file(target, path) {
                failures.push(why);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} fuzz inputs fail:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    let corpus_total: usize = counts.values().map(|(corpus, _)| corpus).sum();
    assert!(
        corpus_total >= MIN_CORPUS_FILES,
        "only {corpus_total} corpus files: {counts:?}"
    );
    eprintln!("replayed (corpus, regressions) per target: {counts:?}");
}

/// The seeds encode the games they are named after: a game written by
/// `GameSetup::encode_game` decodes to the same game on both byte formats.
#[test]
fn encoded_games_decode_to_the_same_game() {
    let game =
        "Base+MLP;InProgress;White[5];wM;bL wM-;wQ -wM;bQ bL-;wP \\wQ;bP bQ-;wA1 /wP;bA1 bP\\";
    let reference = ReferenceEngine::load(game).expect("a legal game");
    let setup = GameSetup {
        game_type: GameType::BASE_MLP,
        options: RulesOptions::default(),
    };
    let bytes = setup
        .encode_game(reference.history(), 256)
        .expect("every index is below 256");
    let described = Target::Differential.describe(&bytes).expect("an input");
    assert!(described.contains(game), "{described}");
    let bytes = setup
        .encode_game(reference.history(), usize::from(Step::FIRST_UNDO_BYTE))
        .expect("every index is below 240");
    let described = Target::MakeUnmake.describe(&bytes).expect("an input");
    assert!(described.contains(game), "{described}");
    assert!(Target::Differential.replay(&bytes) && Target::MakeUnmake.replay(&bytes));
}

// ---------------------------------------------------------------------------
// Regressions: one named test per file of fuzz/regressions/TARGET/, named
// after the file, whose comment gives the root cause:
//
//     /// Root cause: what was wrong in the library, and how it was fixed.
//     #[test]
//     fn pillbug_throw_onto_a_stack() {
//         replay_regression(Target::Differential, "pillbug-throw-onto-a-stack");
//     }
// ---------------------------------------------------------------------------

/// A player's name holding control characters (a `Black` tag with `\x01` and
/// a NUL), found by `pgn_record` in CI. Root cause: the property, not the
/// library. The PGN writer escapes control characters in tag values so that
/// no name reaches a terminal raw (`written_tag_value`), and the reader keeps
/// what it reads, so the name reads back escaped; the round-trip property
/// still expected the raw name. It now expects the name as the writer writes
/// it.
#[test]
fn control_character_in_a_player_name() {
    replay_regression(Target::PgnRecord, "control-character-in-a-player-name");
}

/// A session that asks `perft 6` of a midgame over UHP (line 28 of the
/// input), found by `uhp_session` with a fixed seed: a timeout (over 10 s),
/// not a crash. Root cause: the target. The `perft N` command added to the
/// UHP server is bounded by leaves (10 G on the fast engine), which is
/// hours, and the target sent every `perft` as it sends every line but a
/// deep `bestmove`. It now sends `perft` only to depth 2; deeper counts are
/// tested in `tests/perft.rs` and `tests/uhp/perft.txt`.
#[test]
fn deep_perft_over_uhp() {
    replay_regression(Target::UhpSession, "deep-perft-over-uhp");
}

/// Every committed regression is replayed by a named test of this file, not
/// only by `every_corpus_file_and_regression_replays`.
#[test]
fn every_regression_has_a_named_test() {
    let source = include_str!("fuzz_replay.rs");
    let mut missing = Vec::new();
    for target in Target::ALL {
        let dir = fuzz_dir().join("regressions").join(target.name());
        for path in input_files(&dir).unwrap_or_else(|why| panic!("{why}")) {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let call = format!("replay_regression(Target::{target:?}, \"{name}\")");
            if !source.contains(&call) {
                missing.push(format!("{}: no test calls {call}", path.display()));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

// ---------------------------------------------------------------------------
// The seed corpus
// ---------------------------------------------------------------------------

/// Hand-written `notation` seeds: spellings of moves, refused strings, a won game.
const NOTATION_SEEDS: &[(&str, &str)] = &[
    (
        "spellings.txt",
        "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-\n\
         wA1 -wS1\n\
         WA1   -WS1\n\
         wa1\t/ws1\n\
         wA1 \\wS1\n\
         wQ wQ\\\n\
         wQ wS1\n\
         wQ -wQ\n\
         wS1 wS1/\n\
         pass\n\
         PASS\n\
         wS1\n\
         bQ\n\
         wA1 bQ-\n\
         wA1 /bQ\n\
         wA1 bQ\\\n\
         wA2 -wQ\n\
         wM -wS1\n\
         \u{20}wA1 -wS1 \r",
    ),
    (
        "refused.txt",
        "Base+MM;NotStarted;White[1]\n\
         Base;InProgress;White[0];wS1\n\
         Base;InProgress;Black[18446744073709551616];wS1\n\
         Base;InProgress;White[2];wS1;;bS1 wS1-\n\
         Base;InProgress;White[2];wS1;\n\
         Base;Done;White[1]\n\
         Base;InProgress;White[2];wQ\n\
         Base;InProgress;White[2];wS1;bS1 wS1-;wA2 -wS1\n\
         Base;InProgress;White[2];wS1;bS1 -bS1\n\
         wS3 -wS1\n\
         wQ1 wS1\n\
         wA1 -/wS1\n\
         wA1 wS1 /\n\
         wA1 -wS1 extra\n\
         wA1 \u{20a9}S1\n\
         bS1 wS1-/\n\
         -\n\
         w",
    ),
    (
        "any-letter-case-and-spacing.txt",
        "base+plm ; inprogress ; white[2] ; WS1 ; BP   -ws1\n\
         wq /ws1\n\
         WM \\WS1\n\
         wl bp\\",
    ),
    (
        "won-game.txt",
        "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wQ wS1/;bG1 bQ-;wG1 -wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 /wS1;bA1 bS1\\;wA1 wQ/\n\
         bA2 bA1\\\n\
         pass\n\
         wA1 /wS1",
    ),
];

/// The seed files, by target name and file name.
fn seed_corpus() -> Vec<(Target, String, Vec<u8>)> {
    let loaded = builtin_corpus().expect("the case corpus");
    let cases: Vec<Case> = loaded.iter().map(|l| l.case.clone()).collect();
    let mut seeds = Vec::new();
    notation_seeds(&loaded, &mut seeds);
    uhp_session_seeds(&cases, &mut seeds);
    game_seeds(&cases, &mut seeds);
    record_seeds(&mut seeds);
    seeds
}

/// The test record files of `tests/records/` as they are: the PGN files for
/// `pgn_record`, the SGF files for `sgf_record`, named `record-<file>`.
fn record_seeds(seeds: &mut Vec<(Target, String, Vec<u8>)>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records");
    for (target, folder) in [(Target::PgnRecord, "pgn"), (Target::SgfRecord, "sgf")] {
        let files = input_files(&root.join(folder)).unwrap_or_else(|why| panic!("{why}"));
        for path in files {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            seeds.push((target, format!("record-{name}"), bytes));
        }
    }
}

/// The longest game of every case file with the default options, then the
/// moves the case names, one per line; and the hand-written seeds.
fn notation_seeds(loaded: &[LoadedCase], seeds: &mut Vec<(Target, String, Vec<u8>)>) {
    let mut longest: BTreeMap<String, Case> = BTreeMap::new();
    for case in loaded {
        let options = RulesOptions::from(case.case.options);
        if options != RulesOptions::default() || ReferenceEngine::load(&case.case.game).is_err() {
            continue;
        }
        let entry = longest
            .entry(case.file.clone())
            .or_insert(case.case.clone());
        if case.case.game.len() > entry.game.len() {
            *entry = case.case.clone();
        }
    }
    for case in longest.values() {
        let mut lines = vec![case.game.clone()];
        let listed = case.valid_moves.iter().flatten();
        let moves = listed
            .chain(&case.valid_moves_include)
            .chain(&case.valid_moves_exclude)
            .chain(&case.legal)
            .chain(case.illegal.iter().map(|illegal| &illegal.mv));
        for mv in moves {
            if !lines.contains(mv) {
                lines.push(mv.clone());
            }
        }
        lines.truncate(hive_oracle_rules::fuzzing::MAX_NOTATION_LINES);
        seeds.push((
            Target::Notation,
            format!("case-{}.txt", case.name),
            lines.join("\n").into_bytes(),
        ));
    }
    for (name, text) in NOTATION_SEEDS {
        seeds.push((Target::Notation, name.to_string(), text.as_bytes().to_vec()));
    }
}

/// The UHP transcripts of `tests/uhp/` without their comment lines, and
/// sessions on case positions: options, newgame, validmoves, a legal move
/// and its undo, the refused moves.
fn uhp_session_seeds(cases: &[Case], seeds: &mut Vec<(Target, String, Vec<u8>)>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/uhp");
    let mut transcripts: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/uhp")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    transcripts.sort();
    for path in transcripts {
        let bytes = fs::read(&path).expect("a transcript");
        let mut out = Vec::new();
        for line in bytes.split(|&b| b == b'\n') {
            if !line.starts_with(b"# ") {
                out.extend_from_slice(line);
                out.push(b'\n');
            }
        }
        out.pop();
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("a name");
        seeds.push((Target::UhpSession, format!("transcript-{stem}.txt"), out));
    }
    for name in [
        "pillbug-throws-own-queen",
        "mosquito-copying-pillbug-throws-opponent-queen",
        "standard-opening-in-base-plus-mlp",
        "immune-cell-repetition-draws-later",
    ] {
        let Some(case) = cases.iter().find(|case| case.name == name) else {
            continue;
        };
        let options = RulesOptions::from(case.options);
        let mut lines = vec![
            format!(
                "options set TournamentOpening {}",
                if options.tournament_opening {
                    "True"
                } else {
                    "False"
                }
            ),
            format!(
                "options set RepetitionDraw {}",
                if options.repetition_draw {
                    "True"
                } else {
                    "False"
                }
            ),
            format!("newgame {}", case.game),
            "validmoves".to_string(),
        ];
        let legal = case
            .valid_moves
            .iter()
            .flatten()
            .chain(&case.valid_moves_include)
            .chain(&case.legal)
            .next();
        if let Some(mv) = legal {
            lines.push(format!("play {mv}"));
            lines.push("validmoves".to_string());
            lines.push("undo".to_string());
        }
        for illegal in &case.illegal {
            lines.push(format!("play {}", illegal.mv));
        }
        lines.push("bestmove depth 1".to_string());
        lines.push("undo 2".to_string());
        seeds.push((
            Target::UhpSession,
            format!("case-{name}.txt"),
            lines.join("\n").into_bytes(),
        ));
    }
}

/// For each game type and options of the case corpus, the case with the
/// longest game, encoded for `differential` (the moves) and `make_unmake`
/// (the moves, an undo of two plies and the same two moves again after
/// every fifth move, a search after every seventh, and an undo of eight
/// plies at the end).
fn game_seeds(cases: &[Case], seeds: &mut Vec<(Target, String, Vec<u8>)>) {
    let mut longest: BTreeMap<[u8; 3], (Case, Vec<Move>)> = BTreeMap::new();
    for case in cases {
        let options = RulesOptions::from(case.options);
        let Ok(game) = ReferenceEngine::load_with(&case.game, options) else {
            continue;
        };
        let setup = GameSetup {
            game_type: game.game_type(),
            options,
        };
        if setup
            .encode_game(game.history(), usize::from(Step::FIRST_UNDO_BYTE))
            .is_none()
        {
            continue;
        }
        let history = game.history().to_vec();
        let entry = longest
            .entry(setup.to_bytes())
            .or_insert((case.clone(), history.clone()));
        if history.len() > entry.1.len() {
            *entry = (case.clone(), history);
        }
    }
    for (setup_bytes, (case, history)) in longest {
        let setup = GameSetup {
            game_type: GameType::ALL[usize::from(setup_bytes[0])],
            options: RulesOptions::from(case.options),
        };
        let differential = setup.encode_game(&history, 256).expect("encodable");
        let described = Target::Differential
            .describe(&differential)
            .expect("an input");
        let canonical = ReferenceEngine::load_with(&case.game, setup.options)
            .expect("loaded above")
            .game_string();
        assert!(described.contains(&canonical), "{}: {described}", case.name);
        seeds.push((
            Target::Differential,
            format!("case-{}.bin", case.name),
            differential,
        ));

        let moves = setup
            .encode_game(&history, usize::from(Step::FIRST_UNDO_BYTE))
            .expect("encodable");
        let (head, choices) = moves.split_at(3);
        let mut steps = head.to_vec();
        for (i, &choice) in choices.iter().enumerate() {
            steps.push(choice);
            let played = i + 1;
            if played % 5 == 0 {
                steps.push(Step::undo_byte(2));
                steps.extend_from_slice(&choices[i - 1..=i]);
            }
            if played % 7 == 0 {
                steps.push(Step::SEARCH_BYTE);
            }
        }
        steps.push(Step::undo_byte(8));
        steps.push(Step::SEARCH_BYTE);
        seeds.push((
            Target::MakeUnmake,
            format!("case-{}-with-undos.bin", case.name),
            steps,
        ));
    }
}

/// Writes the seed files into `fuzz/corpus/<target>/` (overwriting files of
/// the same name, leaving others alone).
#[test]
#[ignore = "writes the seed corpus: cargo test --test fuzz_replay -- --ignored write_seed_corpus"]
fn write_seed_corpus() {
    for (target, name, bytes) in seed_corpus() {
        let dir = fuzz_dir().join("corpus").join(target.name());
        fs::create_dir_all(&dir).expect("the corpus directory");
        fs::write(dir.join(&name), bytes).expect("a seed file");
        eprintln!("{}/{name}", target.name());
    }
}
