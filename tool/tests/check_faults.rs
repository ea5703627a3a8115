//! Proof that `hive-oracle check` catches real faults:
//! our own UHP engine with a deliberate fault (`uhp --fault NAME`, hidden,
//! `src/faults/`) is checked, and each fault must be found, reported
//! with the clause it breaks, and shown in a short game. The clean engine is
//! checked in `tests/check.rs`; 200 clean games are an `#[ignore]`d test here.
//!
//! Sizes: a default run plays the few random games each test states (none
//! where the corpus cases alone show the fault), so that each test takes
//! seconds. The full size, [`FULL_GAMES`] random games of each fault (30
//! for the beetle's, whose one height gate is in game 29), is the
//! `#[ignore]`d twin of each test, named `…_at_full_size`, which `.ci/run`
//! runs (`cargo test -p hive-oracle --test tool -- --ignored at_full_size`).

use serde_json::Value;

use crate::check_run::{cause_of_kind, causes, faulty, ours, Cause, Check};

/// Runs `check` against `engine` (games, seed, per-command timeout, more
/// arguments) and returns its exit code and JSON report. The corpus is the
/// built-in one: the check runs from a folder outside the repository.
fn check(
    engine: &str,
    games: u32,
    seed: u32,
    timeout_ms: u32,
    extra: &[&str],
) -> (Option<i32>, Value) {
    Check::new()
        .engine(engine)
        .args(["--games", &games.to_string(), "--seed", &seed.to_string()])
        .args(["--timeout-ms", &timeout_ms.to_string()])
        .args(extra)
        .outside_repository()
        .json_file()
        .run()
        .verdict()
}

/// The random games of each fault at full size (the `…_at_full_size`
/// twins), of seed 1 unless a test says otherwise.
const FULL_GAMES: u32 = 20;

/// The per-command timeout of the faults that are not protocol faults: only
/// a hang reaches it, so that a loaded machine adds no finding.
const TIMEOUT_MS: u32 = 20_000;

/// The kinds of finding of a move the rules refuse, listed or accepted.
const EXTRA: &[&str] = &["extra-moves", "accepted-illegal"];

/// Asserts that a faulty engine is caught with `games` random games of
/// seed 1: exit status 1, a finding of one of `kinds` citing `clause` (when
/// given), in a game of at most `max_plies`. Returns the findings.
fn assert_caught(
    fault: &str,
    kinds: &[&str],
    clause: Option<&str>,
    max_plies: usize,
    games: u32,
) -> Vec<Cause> {
    assert_caught_with(fault, kinds, clause, max_plies, games, 1, &[])
}

/// [`assert_caught`] with `games` random games of `seed` and more arguments.
fn assert_caught_with(
    fault: &str,
    kinds: &[&str],
    clause: Option<&str>,
    max_plies: usize,
    games: u32,
    seed: u32,
    extra: &[&str],
) -> Vec<Cause> {
    let engine = faulty(fault);
    // protocol faults cost a timeout each: few games, short timeouts
    let protocol = max_plies == usize::MAX;
    let (games, timeout_ms) = if protocol {
        (2, 300)
    } else {
        (games, TIMEOUT_MS)
    };
    let (code, report) = check(&engine, games, seed, timeout_ms, extra);
    assert_eq!(code, Some(1), "{fault}: check should exit 1 with findings");
    let found = causes(&report);
    let hit = found.iter().any(|f| {
        kinds.contains(&f.kind.as_str())
            && clause.is_none_or(|c| f.clauses.iter().any(|x| x == c))
            && f.plies <= max_plies
    });
    assert!(
        hit,
        "{fault}: no {kinds:?} finding citing {clause:?} within {max_plies} plies in {found:?}"
    );
    found
}

/// Asserts that the findings of random games (the corpus cases are short
/// already) were shrunk: there is at least one, and every one has at most
/// `max_plies` plies. Random games run to 100 plies; the unshrunk findings
/// of these faults were first seen after up to 97 plies (seed 1).
fn assert_shrunk(fault: &str, found: &[Cause], max_plies: usize) {
    let from_games: Vec<&Cause> = found.iter().filter(|f| f.longest_in_a_game > 0).collect();
    assert!(
        !from_games.is_empty(),
        "{fault}: no finding from a random game"
    );
    for f in from_games {
        assert!(
            f.longest_in_a_game <= max_plies,
            "{fault}: an instance of {} plies, more than {max_plies}: {f:?}",
            f.longest_in_a_game
        );
    }
}

/// §6.4.2 no cell twice in one spider move, in `games` random games.
fn spider_backtracks(games: u32) {
    let found = assert_caught("spider-backtracks", EXTRA, Some("§6.4.2"), 10, games);
    // A mosquito copying the spider (§6.7.4 its moves are the copied bug's)
    // backtracks too, and is its own cause since causes are keyed by the
    // clauses that grant the move: in game 13 (Base+MP) its shortest
    // instance needs 15 plies, to bring a mosquito next to a spider with
    // room to walk. The spider's own causes shrink to 10 plies or fewer.
    let (copied, own): (Vec<Cause>, Vec<Cause>) = found
        .into_iter()
        .partition(|f| f.clauses.iter().any(|c| c == "§6.7.4"));
    assert_shrunk("spider-backtracks", &own, 10);
    for f in copied.iter().filter(|f| f.longest_in_a_game > 0) {
        let plies = f.longest_in_a_game;
        assert!(plies <= 16, "a mosquito's instance of {plies} plies: {f:?}");
    }
}

#[test]
fn a_spider_that_backtracks_is_caught() {
    // 2 games: games 0 (Base) and 1 (Base+M) show the spider's own cause
    spider_backtracks(2);
}

#[test]
#[ignore = "full size: .ci/run runs it"]
fn a_spider_that_backtracks_is_caught_at_full_size() {
    spider_backtracks(FULL_GAMES);
}

/// §6.2.2 beetles obey the height gate rule. A height gate is rare in
/// random play: of 100 games (seed 1, Base+M, Base+ML, Base+MP, Base+MLP)
/// only game 29, a Base+ML game, reaches one. A game is keyed by (seed,
/// type, index), so `--game-types Base+ML` keeps game 29.
fn beetle_ignores_height_gates(games: u32) -> Vec<Cause> {
    assert_caught_with(
        "beetle-ignores-height-gates",
        EXTRA,
        Some("§6.2.2"),
        24,
        games,
        1,
        &["--game-types", "Base+ML", "--jobs", "2"],
    )
}

#[test]
fn a_beetle_without_height_gates_is_caught() {
    // the corpus cases alone: the one random game with a height gate is
    // game 29, played at full size
    beetle_ignores_height_gates(0);
}

#[test]
#[ignore = "full size: .ci/run runs it"]
fn a_beetle_without_height_gates_is_caught_at_full_size() {
    let found = beetle_ignores_height_gates(30);
    assert_shrunk("beetle-ignores-height-gates", &found, 24);
}

/// §5.10 the piece moved last turn cannot be thrown, in `games` random
/// games.
fn pillbug_throws_last_moved(games: u32) {
    let found = assert_caught("pillbug-throws-last-moved", EXTRA, Some("§5.10"), 12, games);
    assert_shrunk("pillbug-throws-last-moved", &found, 12);
}

#[test]
fn a_pillbug_throwing_the_piece_just_moved_is_caught() {
    // 4 games: game 3 (Base+P) is the first to throw the piece moved last
    pillbug_throws_last_moved(4);
}

#[test]
#[ignore = "full size: .ci/run runs it"]
fn a_pillbug_throwing_the_piece_just_moved_is_caught_at_full_size() {
    pillbug_throws_last_moved(FULL_GAMES);
}

/// §6.7.2 copying a mosquito gives nothing, in `games` random games of seed
/// 4 (the 20 games of seed 1 never put a mosquito next to mosquitoes only).
fn mosquito_copies_mosquito(games: u32) -> Vec<Cause> {
    assert_caught_with(
        "mosquito-copies-mosquito",
        EXTRA,
        Some("§6.7.2"),
        14,
        games,
        4,
        &[],
    )
}

#[test]
fn a_mosquito_moving_next_to_a_mosquito_only_is_caught() {
    // the corpus cases alone: the first random game of seed 4 that shows
    // it is game 17, played at full size
    mosquito_copies_mosquito(0);
}

#[test]
#[ignore = "full size: .ci/run runs it"]
fn a_mosquito_moving_next_to_a_mosquito_only_is_caught_at_full_size() {
    let found = mosquito_copies_mosquito(FULL_GAMES);
    assert_shrunk("mosquito-copies-mosquito", &found, 14);
}

#[test]
fn a_simultaneous_surround_scored_as_a_win_is_caught() {
    // §8.3 both queens surrounded is a draw; the corpus cases alone
    assert_caught(
        "simultaneous-surround-wins",
        &["state"],
        Some("§8.3"),
        60,
        0,
    );
}

#[test]
#[ignore = "full size: .ci/run runs it"]
fn a_simultaneous_surround_scored_as_a_win_is_caught_at_full_size() {
    assert_caught(
        "simultaneous-surround-wins",
        &["state"],
        Some("§8.3"),
        60,
        FULL_GAMES,
    );
}

#[test]
fn a_queen_on_the_first_turn_under_the_tournament_rule_is_caught() {
    // §4.2 tournament opening; the corpus cases alone
    assert_caught("queen-first-allowed", EXTRA, Some("§4.2"), 2, 0);
}

#[test]
#[ignore = "full size: .ci/run runs it"]
fn a_queen_on_the_first_turn_under_the_tournament_rule_is_caught_at_full_size() {
    assert_caught("queen-first-allowed", EXTRA, Some("§4.2"), 2, FULL_GAMES);
}

#[test]
fn a_silently_dropped_move_is_caught() {
    // §5.9 every legal move listed once; the corpus cases alone (a random
    // game's are in tests/check.rs)
    assert_caught("drop-one-move", &["missing-moves"], None, 2, 0);
}

#[test]
#[ignore = "full size: .ci/run runs it"]
fn a_silently_dropped_move_is_caught_at_full_size() {
    assert_caught("drop-one-move", &["missing-moves"], None, 2, FULL_GAMES);
}

#[test]
fn a_missing_ok_is_caught() {
    assert_caught("missing-ok", &["timeout", "protocol"], None, usize::MAX, 2);
}

#[test]
fn a_crash_mid_game_is_caught() {
    assert_caught("crash-mid-game", &["crash"], None, usize::MAX, 2);
    // Crashes are shrunk too: this engine exits on the first `play` after
    // six plies, so the shortest game that shows it has six plies.
    let (code, report) = check(
        &faulty("crash-mid-game"),
        2,
        1,
        TIMEOUT_MS,
        &["--no-corpus"],
    );
    assert_eq!(code, Some(1));
    let found = causes(&report);
    let from_games: Vec<&Cause> = found
        .iter()
        .filter(|f| f.kind == "crash" && f.test.starts_with("game "))
        .collect();
    assert!(!from_games.is_empty(), "{found:?}");
    assert!(from_games.iter().all(|f| f.plies == 6), "{found:?}");
}

#[test]
fn a_hang_is_caught() {
    assert_caught("hang", &["timeout"], None, usize::MAX, 2);
}

#[test]
#[ignore = "about a minute; run with --release --ignored"]
fn two_hundred_clean_games_find_nothing() {
    let (code, report) = check(&ours(), 200, 11, TIMEOUT_MS, &["--jobs", "2"]);
    assert_eq!(code, Some(0), "{:?}", causes(&report));
}

/// Runs `check` on a fault engine (`games` random games of seed 1, more
/// arguments) and returns the exit code and the report.
fn check_fault(fault: &str, games: u32, extra: &[&str]) -> (Option<i32>, Value) {
    check(&faulty(fault), games, 1, TIMEOUT_MS, extra)
}

/// Asserts a cause of `kind` and `severity` whose pattern contains `pattern`.
fn assert_cause(report: &Value, kind: &str, severity: &str, pattern: &str) {
    let all = causes(report);
    assert!(
        all.iter()
            .any(|c| c.kind == kind && c.severity == severity && c.pattern.contains(pattern)),
        "no {severity} {kind} cause with pattern {pattern:?} in {all:#?}"
    );
}

#[test]
fn a_printed_game_string_that_does_not_replay_is_caught() {
    // §9.31, §9.29: every printed GameString is replayed by the oracle; this
    // engine swaps `/` and `\` in the moves it prints.
    let (code, report) = check_fault(
        "wrong-game-string",
        1,
        &["--case", "spider-moves-exactly-three-steps"],
    );
    assert_eq!(code, Some(1));
    assert_cause(&report, "game-string", "error", "printed GameString");
}

#[test]
fn an_illegal_bestmove_is_caught() {
    // spec/sources/uhp-notes.md section 5.6: bestmove answers a legal move
    let (code, report) = check_fault("bestmove-illegal", 2, &["--no-corpus"]);
    assert_eq!(code, Some(1));
    assert_cause(&report, "bestmove", "error", "bestmove");
}

#[test]
fn a_bestmove_that_overruns_its_time_is_caught() {
    // spec/sources/uhp-notes.md section 5.6: `bestmove time 00:00:01` answers within its
    // budget plus the stated grace (2 s); this engine takes 4 s
    let (code, report) = check_fault("bestmove-slow", 0, &["--no-corpus"]);
    assert_eq!(code, Some(1));
    assert_cause(&report, "bestmove", "error", "bestmove time budget");
}

#[test]
fn a_refused_newgame_that_loses_the_game_is_caught() {
    // spec/sources/uhp-notes.md section 2.3: a refused command leaves the game unchanged
    let (code, report) = check_fault("newgame-refusal-loses-game", 0, &["--no-corpus"]);
    assert_eq!(code, Some(1));
    assert_cause(&report, "state", "error", "refused `newgame`");
}

#[test]
fn an_engine_that_exits_on_a_non_utf8_byte_is_an_advisory() {
    // spec/notation.md, UHP engine conventions: no established engine
    // answers a line that is not UTF-8 (one exits): advisory, so the check
    // still passes, and the finding quotes the bytes in its pipe
    let (code, report) = check_fault("exit-on-non-utf8", 0, &["--no-corpus"]);
    assert_cause(&report, "crash", "advisory", "non-UTF-8");
    assert_eq!(code, Some(0), "{report:#}");
    let group = cause_of_kind(&report, "crash");
    let reproduce = group["shortest"]["reproduce"].as_str().unwrap();
    assert!(reproduce.contains("\\377\\376"), "{reproduce}");
}

#[test]
fn a_covered_piece_named_as_the_mover_is_caught() {
    // §9.25, §5.2 (rulings.md#notation-covered-mover): the piece named is the
    // piece that moves, and a covered piece cannot move; this engine moves
    // the piece on top of it instead. The random probes name covered pieces
    // as movers, and so does the case of the ruling.
    let (code, report) = check_fault(
        "covered-name-moves-top",
        20,
        &["--no-corpus", "--jobs", "2"],
    );
    assert_eq!(code, Some(1), "{report:#}");
    assert_cause(&report, "accepted-illegal", "error", "");
    assert!(causes(&report)
        .iter()
        .any(|c| c.kind == "accepted-illegal" && c.clauses.iter().any(|x| x == "§5.2")));
    let (code, report) = check_fault(
        "covered-name-moves-top",
        0,
        &["--case", "covered-piece-named-as-the-mover"],
    );
    assert_eq!(code, Some(1), "{report:#}");
    assert_cause(&report, "accepted-illegal", "error", "");
}

#[test]
fn an_unannounced_repetition_draw_is_caught_unless_declared() {
    // §8.7.2 is a rules option (off by default, §8.7.4). An engine that
    // always plays it without listing the option is wrong under the default
    // rules, and clean once it declares them with --rules.
    let (code, report) = check_fault("repetition-draw", 2, &[]);
    assert_eq!(code, Some(1));
    assert_cause(&report, "state", "error", "");
    let (code, report) = check_fault("repetition-draw", 2, &["--rules", "repetition-draw"]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["run"]["rules"]["source"], "--rules");
    assert!(report["summary"]["corpus_cases_skipped"].as_u64().unwrap() > 0);
}

#[test]
fn a_position_answered_with_another_game_is_one_finding_and_its_case_is_still_judged() {
    // spec/sources/uhp-notes.md sections 5.2 and 2.3: `newgame GameString`
    // loads the game or says `err`. This engine, as one real engine does,
    // keeps its previous game for a finished one and prints that game's
    // GameString with `ok`. Before: 5 `state [§8.2]/[§8.3]/[§8.7.2]` causes
    // for positions it never loaded, and a `bestmove after the end`. Now:
    // one cause, and every case asked of its position reached by `play`,
    // where this engine is right, so no other cause.
    let (code, report) = check_fault("finished-game-answers-previous", 2, &[]);
    assert_eq!(code, Some(1), "{report:#}");
    let all = causes(&report);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(all[0].kind, "rejected-legal");
    assert_eq!(
        all[0].pattern,
        "newgame GameString answered with another game"
    );
    assert_eq!(all[0].clauses, ["§9.31"]);
    let reached = report["summary"]["positions_reached_by_moves"].as_u64();
    assert!(reached.unwrap_or(0) >= 10, "{:#}", report["summary"]);
    // its pipe shows it on a fresh engine
    let finding = &report["findings"][0]["shortest"];
    assert_eq!(finding["reproduced"], true, "{finding:#}");
}

/// A real game whose players repeated a position three times within 32
/// plies after ply 88 and went on to ply 140 (boardspace's archive through
/// Mzinga's converter, tests/records/real/mzinga).
const REPEATING_RECORD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/records/real/mzinga/U!HV-kearf29-Dumbot-2013-04-20-0054.pgn"
);

#[test]
fn a_record_going_on_past_the_engines_repetition_draw_is_one_finding_about_the_end() {
    // §8.7.2 is a rules option; records are replayed without it (§10.12).
    // An engine that draws by repetition on its own ends the game after
    // ply 88 of REPEATING_RECORD: that is one finding, classified by the
    // option that explains it, and the 52 later plies are not judged
    // (before: the draw, a second draw after `newgame`, and a refused
    // `validmoves` for every later ply, three causes citing §8.8 and uhp).
    let (code, report) = check_fault("repetition-draw", 0, &["--records", REPEATING_RECORD]);
    assert_eq!(code, Some(1), "{report:#}");
    let all = causes(&report);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(all[0].kind, "state");
    assert_eq!(all[0].clauses, ["§8.7.2"]);
    assert!(all[0].pattern.contains("repetition draw"), "{all:#?}");
    let skipped = report["skipped"].to_string();
    assert!(
        skipped.contains("plies 89 to 140 are not checked"),
        "{skipped}"
    );
    // declared, the rule is judged: the record up to its draw, no finding
    let (code, report) = check_fault(
        "repetition-draw",
        0,
        &["--records", REPEATING_RECORD, "--rules", "repetition-draw"],
    );
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["summary"]["record_games"], 1, "{report:#}");
    assert_eq!(report["summary"]["record_plies"], 88, "{report:#}");
    // and our own engine, the rule declared by its option, draws there too
    let (code, report) = check(
        &ours(),
        0,
        1,
        TIMEOUT_MS,
        &["--records", REPEATING_RECORD, "--rules", "repetition-draw"],
    );
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["summary"]["record_plies"], 140, "{report:#}");
}

/// The two records of a repetition constructed for the house rules
/// (tests/records/house-rules/README.md): a 20-ply cycle played twice (a
/// position 40 plies apart, hivegame.com's rule draws after ply 28, the
/// spec's never) and a 6-ply cycle played four times (the spec's rule draws
/// after ply 18, nokamute's after ply 30).
const HOUSE_RECORDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/records/house-rules");

#[test]
fn an_engine_with_a_house_repetition_rule_is_checked_once_it_declares_it() {
    // rulings.md#house-repetition-rules: hivegame.com counts over the whole
    // game and folds rotations and mirror images. Undeclared, its draws
    // (after ply 18 of one record and ply 28 of the other) are one cause
    // about the game end, naming the rules that explain it; declared, there
    // is no finding, and each record is judged up to the house rule's draw
    // (18 + 28 plies), the plies after it listed as not checked.
    let args = ["--no-corpus", "--records", HOUSE_RECORDS];
    let (code, report) = check_fault("repetition-hivegame", 0, &args);
    assert_eq!(code, Some(1), "{report:#}");
    let all = causes(&report);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(
        (all[0].kind.as_str(), &all[0].clauses[..]),
        ("state", &["§8.7.2".to_string()][..])
    );
    assert!(
        all[0]
            .pattern
            .contains("repetition draw the rules judged under do not have"),
        "{all:#?}"
    );
    assert!(all[0].detail.contains("`repetition-hivegame`"), "{all:#?}");
    let declared = [
        "--no-corpus",
        "--records",
        HOUSE_RECORDS,
        "--rules",
        "repetition-hivegame",
    ];
    let (code, report) = check_fault("repetition-hivegame", 0, &declared);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["summary"]["record_plies"], 18 + 28, "{report:#}");
    assert_eq!(
        report["run"]["rules"]["house_repetition"],
        "repetition-hivegame"
    );
    let skipped = report["skipped"].to_string();
    assert!(
        skipped.contains("plies 29 to 48 are not checked: the rules judged under end the game"),
        "{skipped}"
    );
    // with the corpus and random games too: the cases judged under §8.7.2
    // are skipped with the reason, the rest pass
    let (code, report) = check_fault(
        "repetition-hivegame",
        2,
        &["--rules", "repetition-hivegame"],
    );
    assert_eq!(code, Some(0), "{report:#}");
    let skipped = report["skipped"].to_string();
    assert!(
        skipped.contains("the case is judged under the repetition draw of §8.7.2 and the engine plays the house rule `repetition-hivegame`"),
        "{skipped}"
    );
}

#[test]
fn nokamutes_later_draw_is_named_and_judged_when_declared() {
    // spec/sources/uhp-notes.md section 3.2: nokamute counts only the
    // positions 4, 8, …, 32 plies back. Judged under §8.7.2, its game goes on
    // after ply 18 of the six-ply record where the spec draws: one cause,
    // naming nokamute's rule; declared, the six-ply record is judged to ply
    // 30 and the other whole (48 plies: nokamute's rule never draws there).
    let spec = [
        "--no-corpus",
        "--records",
        HOUSE_RECORDS,
        "--rules",
        "repetition-draw",
    ];
    let (code, report) = check_fault("repetition-nokamute", 0, &spec);
    assert_eq!(code, Some(1), "{report:#}");
    let all = causes(&report);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert!(
        all[0]
            .pattern
            .contains("no repetition draw where the rules judged under have one"),
        "{all:#?}"
    );
    assert!(all[0].detail.contains("`repetition-nokamute`"), "{all:#?}");
    let declared = [
        "--no-corpus",
        "--records",
        HOUSE_RECORDS,
        "--rules",
        "repetition-nokamute",
    ];
    let (code, report) = check_fault("repetition-nokamute", 0, &declared);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["summary"]["record_plies"], 30 + 48, "{report:#}");
}

#[test]
fn refusing_lower_case_input_is_advisory_unless_strict() {
    // §9.20 (rulings.md#notation-letter-case): letters in either case are a
    // leniency of ours; an engine MAY refuse them
    let (code, report) = check_fault("refuses-lowercase", 0, &[]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_cause(&report, "rejected-legal", "advisory", "lenient");
    let (code, _) = check_fault("refuses-lowercase", 0, &["--strict-notation"]);
    assert_eq!(code, Some(1));
}

#[test]
fn mzinga_readings_are_advisory_unless_strict() {
    // rulings.md#notation-glyph-on-both-sides (§9.22), rulings.md#notation-bare-name
    // (§9.10) and spec/sources/uhp-notes.md section 1 (CRLF, which an engine
    // *should* read): this engine reads `wA1 -wQ-` by its first glyph and a
    // bare name after the first move as the origin, as Mzinga does, and keeps
    // the `\r` of a CRLF line. Each is an advisory, the check passes; with
    // --strict-notation it fails. The positions are the corpus cases
    // glyph-on-both-sides-is-refused, malformed-targets-are-refused and
    // bare-piece-name-with-the-origin-free.
    let (code, report) = check_fault("mzinga-readings", 1, &[]);
    assert_eq!(code, Some(0), "{report:#}");
    let all = causes(&report);
    let advisory = |kind: &str, clause: &str, pattern: &str| {
        all.iter().any(|c| {
            c.kind == kind
                && c.severity == "advisory"
                && c.pattern.contains(pattern)
                && c.clauses.iter().any(|x| x == clause)
        })
    };
    assert!(
        advisory("accepted-illegal", "§9.22", "read by its first glyph"),
        "{all:#?}"
    );
    assert!(
        advisory("accepted-illegal", "§9.10", "read as the origin"),
        "{all:#?}"
    );
    assert!(advisory("protocol", "uhp", "CRLF"), "{all:#?}");
    // MzingaCpp's reader stops at the first glyph after the reference's
    // name: `bS1 wS1-/` and `bS1 wS1-zzz` are `bS1 wS1-` to it, one reading
    // of the same table, so one severity (tests/cases/notation.toml::
    // malformed-targets-are-refused and the protocol probe)
    assert!(
        advisory("accepted-illegal", "§9.21", "read up to its first glyph"),
        "{all:#?}"
    );
    assert!(
        all.iter().all(|c| c.severity == "advisory"),
        "only advisories: {all:#?}"
    );
    let (code, _) = check_fault("mzinga-readings", 1, &["--strict-notation"]);
    assert_eq!(code, Some(1));
}

#[test]
fn a_crash_inside_a_case_hides_none_of_its_other_questions() {
    // §1.5: a game has only its own pieces, numbered as the box numbers
    // them. This engine, as the rules library of a popular online Hive
    // server does, plays `wM1` and `wS3` and panics on `wG4`. The crash
    // comes first in this case (the corpus case
    // single-pieces-carry-no-number, its moves reordered): the engine is
    // started again, the case reloaded, and the two acceptances after the
    // crash are found too (before: the crash alone).
    let scratch = crate::common::scratch();
    let corpus = scratch.path().join("corpus");
    std::fs::create_dir_all(&corpus).expect("a corpus folder");
    std::fs::write(
        corpus.join("crash.toml"),
        r#"[[case]]
name = "a-crash-before-two-acceptances"
clauses = ["§1.5"]
source = "tests/cases/components.toml::single-pieces-carry-no-number, its illegal moves reordered"
game = "Base+M;NotStarted;White[1]"
legal = ["wS1"]
illegal = [
  { move = "wG4", clause = "§1.5" },
  { move = "wM1", clause = "§1.5" },
  { move = "wS3", clause = "§1.5" },
]
"#,
    )
    .expect("written");
    let corpus = crate::common::text(&corpus);
    let (code, report) = check_fault("lax-piece-numbers", 0, &["--corpus", &corpus]);
    assert_eq!(code, Some(1), "{report:#}");
    let all = causes(&report);
    assert!(
        all.iter().any(|c| c.kind == "crash" && c.pattern == "play"),
        "{all:#?}"
    );
    let accepted = cause_of_kind(&report, "accepted-illegal");
    let moves: Vec<String> = accepted["seen_in"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["test"].as_str().map(str::to_string))
        .collect();
    assert_eq!(accepted["occurrences"], 2, "wM1 and wS3: {accepted:#}");
    assert!(
        moves
            .iter()
            .all(|t| t.ends_with("a-crash-before-two-acceptances")),
        "{moves:?}"
    );
    // each acceptance's pipe starts from the new process, not through the crash
    let pipe = accepted["shortest"]["reproduce"].as_str().unwrap_or("");
    assert!(!pipe.contains("wG4"), "{pipe}");
    assert_eq!(accepted["shortest"]["reproduced"], true, "{accepted:#}");
}

#[test]
fn a_bug_that_recurs_at_every_ply_costs_no_reload_per_repeat() {
    // §6.4.2: a spider's three steps never revisit a cell. This engine's
    // spiders may backtrack, so nearly every position with a spider shows
    // the one cause again. A repeat in the same game is only counted: the
    // engine's game is unchanged by `validmoves`, so it is not reloaded
    // (before: 256 reloads for 4 games of seed 1, each one `newgame` with
    // the whole game; now one per shrink, which gave the engine other
    // positions). The findings are the same either way.
    let (code, report) = check_fault("spider-backtracks", 4, &["--no-corpus"]);
    assert_eq!(code, Some(1), "{report:#}");
    let summary = &report["summary"];
    let count = |field: &str| summary[field].as_u64().unwrap_or(u64::MAX);
    assert!(count("repeated_in_unit") > 100, "{summary:#}");
    assert!(count("game_reloads") <= count("shrinks"), "{summary:#}");
}

#[test]
fn a_crash_only_the_whole_process_shows_is_proven_from_its_start() {
    // spec/sources/uhp-notes.md section 2.3: an engine answers every
    // command. This engine exits on its 40th command, whatever it is: the
    // lines since the last `newgame` it accepted do not make a fresh engine
    // crash, every line since the process started does. The cause gets
    // that pipe, proven (before: "not reproduced", no pipe).
    let (code, report) = check_fault("crash-after-forty-commands", 1, &["--no-corpus"]);
    assert_eq!(code, Some(1), "{report:#}");
    let crash = cause_of_kind(&report, "crash");
    let shortest = &crash["shortest"];
    assert_eq!(shortest["reproduced"], true, "{crash:#}");
    assert_eq!(
        shortest["sent"].as_array().map(Vec::len),
        Some(40),
        "{crash:#}"
    );
    let note = shortest["reproduce_note"].as_str().unwrap_or("");
    assert!(note.contains("since the process started"), "{note}");
    assert!(!shortest["reproduce"].as_str().unwrap_or("").is_empty());
}
