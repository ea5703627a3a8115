//! Proof that `hive-oracle check` catches real faults:
//! our own UHP engine with a deliberate fault (`uhp --fault NAME`, hidden,
//! `src/faults/`) is checked, and each fault must be found, reported
//! with the clause it breaks, and shown in a short game. The clean engine is
//! checked in `tests/check.rs`; 200 clean games are an `#[ignore]`d test here.

use std::path::PathBuf;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_hive-oracle")
}

/// Runs `check` against `engine` (games, seed, per-command timeout, more
/// arguments) and returns its exit code and JSON report. The corpus is the
/// built-in one: the check runs from a folder outside the repository.
fn check(
    engine: &str,
    games: u32,
    seed: u32,
    timeout_ms: u32,
    extra: &[&str],
) -> (Option<i32>, serde_json::Value) {
    let dir = std::env::temp_dir().join(format!("hive-oracle-check-faults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let name: String = engine
        .chars()
        .chain(extra.concat().chars())
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let out: PathBuf = dir.join(format!("{name}-{games}-{seed}.json"));
    let status = crate::common::command(bin())
        .args([
            "check",
            "--engine",
            engine,
            "--games",
            &games.to_string(),
            "--seed",
            &seed.to_string(),
        ])
        .args([
            "--timeout-ms",
            &timeout_ms.to_string(),
            "--format",
            "json",
            "--out",
        ])
        .arg(&out)
        .args(extra)
        .current_dir(&dir)
        .output()
        .expect("check runs");
    let text = std::fs::read_to_string(&out).expect("the report is written");
    let report = serde_json::from_str(&text).expect("the report is JSON");
    (status.status.code(), report)
}

/// One cause of a report: kind, clauses, the plies of its shortest
/// instance's GameString, its test, and the most plies of an instance seen
/// in a random game (0: none).
type Found = (String, Vec<String>, usize, String, usize);

/// The causes of a report.
fn findings(report: &serde_json::Value) -> Vec<Found> {
    report["findings"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|g| {
                    let f = &g["shortest"];
                    let kind = f["kind"].as_str().unwrap_or_default().to_string();
                    let clauses = f["clauses"]
                        .as_array()
                        .map(|c| {
                            c.iter()
                                .filter_map(|x| x.as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default();
                    let plies = f["game_string"]
                        .as_str()
                        .map(|g| g.split(';').count().saturating_sub(3))
                        .unwrap_or(0);
                    let longest = g["seen_in"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|s| s["test"].as_str().is_some_and(|t| t.starts_with("game ")))
                        .filter_map(|s| s["plies"].as_u64())
                        .max()
                        .unwrap_or(0) as usize;
                    let test = f["test"].as_str().unwrap_or_default().to_string();
                    (kind, clauses, plies, test, longest)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Asserts that a faulty engine is caught: exit status 1, a finding of one of
/// `kinds` citing `clause` (when given), in a game of at most `max_plies`.
/// Returns the findings.
fn assert_caught(
    fault: &str,
    kinds: &[&str],
    clause: Option<&str>,
    max_plies: usize,
) -> Vec<Found> {
    assert_caught_with(fault, kinds, clause, max_plies, 20, 1, &[])
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
) -> Vec<Found> {
    let engine = format!("{} uhp --fault {fault}", bin());
    // protocol faults cost a timeout each: few games, short timeouts
    let protocol = max_plies == usize::MAX;
    let (games, timeout_ms) = if protocol { (2, 300) } else { (games, 2000) };
    let (code, report) = check(&engine, games, seed, timeout_ms, extra);
    assert_eq!(code, Some(1), "{fault}: check should exit 1 with findings");
    let found = findings(&report);
    let hit = found.iter().any(|(kind, clauses, plies, _, _)| {
        kinds.contains(&kind.as_str())
            && clause.is_none_or(|c| clauses.iter().any(|x| x == c))
            && *plies <= max_plies
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
fn assert_shrunk(fault: &str, found: &[Found], max_plies: usize) {
    let from_games: Vec<&Found> = found.iter().filter(|f| f.4 > 0).collect();
    assert!(
        !from_games.is_empty(),
        "{fault}: no finding from a random game"
    );
    for f in from_games {
        assert!(
            f.4 <= max_plies,
            "{fault}: an instance of {} plies, more than {max_plies}: {f:?}",
            f.4
        );
    }
}

#[test]
fn a_spider_that_backtracks_is_caught() {
    // §6.4.2 no cell twice in one spider move
    let found = assert_caught(
        "spider-backtracks",
        &["extra-moves", "accepted-illegal"],
        Some("§6.4.2"),
        10,
    );
    // A mosquito copying the spider (§6.7.4 its moves are the copied bug's)
    // backtracks too, and is its own cause since causes are keyed by the
    // clauses that grant the move: in game 13 (Base+MP) its shortest
    // instance needs 15 plies, to bring a mosquito next to a spider with
    // room to walk. The spider's own causes shrink to 10 plies or fewer.
    let (copied, own): (Vec<Found>, Vec<Found>) = found
        .into_iter()
        .partition(|f| f.1.iter().any(|c| c == "§6.7.4"));
    assert_shrunk("spider-backtracks", &own, 10);
    for f in copied.iter().filter(|f| f.4 > 0) {
        assert!(f.4 <= 16, "a mosquito's instance of {} plies: {f:?}", f.4);
    }
}

#[test]
fn a_beetle_without_height_gates_is_caught() {
    // §6.2.2 beetles obey the height gate rule. A height gate is rare in
    // random play: of 100 games (seed 1, Base+M, Base+ML, Base+MP, Base+MLP)
    // only game 29, a Base+ML game, reaches one. A game is keyed
    // by (seed, type, index), so `--game-types Base+ML` keeps game 29.
    let found = assert_caught_with(
        "beetle-ignores-height-gates",
        &["extra-moves", "accepted-illegal"],
        Some("§6.2.2"),
        24,
        30,
        1,
        &["--game-types", "Base+ML", "--jobs", "2"],
    );
    assert_shrunk("beetle-ignores-height-gates", &found, 24);
}

#[test]
fn a_pillbug_throwing_the_piece_just_moved_is_caught() {
    // §5.10 the piece moved last turn cannot be thrown
    let found = assert_caught(
        "pillbug-throws-last-moved",
        &["extra-moves", "accepted-illegal"],
        Some("§5.10"),
        12,
    );
    assert_shrunk("pillbug-throws-last-moved", &found, 12);
}

#[test]
fn a_mosquito_moving_next_to_a_mosquito_only_is_caught() {
    // §6.7.2 copying a mosquito gives nothing. Seed 4: the 20 games of
    // seed 1 never put a mosquito next to mosquitoes only.
    let found = assert_caught_with(
        "mosquito-copies-mosquito",
        &["extra-moves", "accepted-illegal"],
        Some("§6.7.2"),
        14,
        20,
        4,
        &[],
    );
    assert_shrunk("mosquito-copies-mosquito", &found, 14);
}

#[test]
fn a_simultaneous_surround_scored_as_a_win_is_caught() {
    // §8.3 both queens surrounded is a draw
    assert_caught("simultaneous-surround-wins", &["state"], Some("§8.3"), 60);
}

#[test]
fn a_queen_on_the_first_turn_under_the_tournament_rule_is_caught() {
    // §4.2 tournament opening
    assert_caught(
        "queen-first-allowed",
        &["extra-moves", "accepted-illegal"],
        Some("§4.2"),
        2,
    );
}

#[test]
fn a_silently_dropped_move_is_caught() {
    // §5.9 every legal move listed once
    assert_caught("drop-one-move", &["missing-moves"], None, 2);
}

#[test]
fn a_missing_ok_is_caught() {
    assert_caught("missing-ok", &["timeout", "protocol"], None, usize::MAX);
}

#[test]
fn a_crash_mid_game_is_caught() {
    assert_caught("crash-mid-game", &["crash"], None, usize::MAX);
    // Crashes are shrunk too: this engine exits on the first `play` after
    // six plies, so the shortest game that shows it has six plies.
    let engine = format!("'{}' uhp --fault crash-mid-game", bin());
    let (code, report) = check(&engine, 2, 1, 1000, &["--no-corpus"]);
    assert_eq!(code, Some(1));
    let found = findings(&report);
    let from_games: Vec<&Found> = found
        .iter()
        .filter(|f| f.0 == "crash" && f.3.starts_with("game "))
        .collect();
    assert!(!from_games.is_empty(), "{found:?}");
    assert!(from_games.iter().all(|f| f.2 == 6), "{found:?}");
}

#[test]
fn a_hang_is_caught() {
    assert_caught("hang", &["timeout"], None, usize::MAX);
}

#[test]
#[ignore = "about a minute; run with --release --ignored"]
fn two_hundred_clean_games_find_nothing() {
    let engine = format!("{} uhp", bin());
    let (code, report) = check(&engine, 200, 11, 2000, &["--jobs", "2"]);
    assert_eq!(code, Some(0), "{:?}", findings(&report));
}

/// Runs `check` on a fault engine (`games` random games of seed 1, more
/// arguments) and returns the exit code and the report.
fn check_fault(fault: &str, games: u32, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let engine = format!("'{}' uhp --fault {fault}", bin());
    check(&engine, games, 1, 2000, extra)
}

/// The causes of a report as (kind, severity, pattern, clauses).
fn causes(report: &serde_json::Value) -> Vec<(String, String, String, Vec<String>)> {
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|g| {
            let f = &g["shortest"];
            let clauses = f["clauses"]
                .as_array()
                .into_iter()
                .flatten()
                .map(text)
                .collect();
            (
                text(&g["kind"]),
                text(&g["severity"]),
                text(&f["pattern"]),
                clauses,
            )
        })
        .collect()
}

/// Asserts a cause of `kind` and `severity` whose pattern contains `pattern`.
fn assert_cause(report: &serde_json::Value, kind: &str, severity: &str, pattern: &str) {
    let all = causes(report);
    assert!(
        all.iter()
            .any(|(k, s, p, _)| k == kind && s == severity && p.contains(pattern)),
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
    let group = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kind"] == "crash")
        .unwrap();
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
        .any(|(k, _, _, c)| k == "accepted-illegal" && c.iter().any(|x| x == "§5.2")));
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
        all.iter().any(|(k, s, p, c)| {
            k == kind && s == "advisory" && p.contains(pattern) && c.iter().any(|x| x == clause)
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
    assert!(
        all.iter().all(|(_, severity, _, _)| severity == "advisory"),
        "only advisories: {all:#?}"
    );
    let (code, _) = check_fault("mzinga-readings", 1, &["--strict-notation"]);
    assert_eq!(code, Some(1));
}
