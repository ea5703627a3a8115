//! `hive-oracle check`: our own engine checks clean, the
//! reports have their documented shape, and broken engines give the right
//! findings and exit statuses.

use serde_json::Value;

use crate::check_run::{
    cause_of_kind, finding_of_kind, ours, plies, reading_through, shell, shortest, Check, Checked,
};
use crate::common::{scratch, text, BIN};

fn corpus_size() -> usize {
    hive_oracle_rules::cases::builtin_corpus()
        .expect("the corpus loads")
        .len()
}

#[test]
fn our_engine_checks_clean_with_json_report() {
    let out = Check::new()
        .args(["--games", "4", "--seed", "11", "--max-plies", "80"])
        .json()
        .run();
    let report = out.report();
    assert_eq!(report["findings"], serde_json::json!([]), "{report:#}");
    assert_eq!(out.status, Some(0));
    assert!(report["run"]["engine"].as_str().unwrap().ends_with("uhp"));
    assert_eq!(report["passed"], true);
    let summary = &report["summary"];
    assert_eq!(summary["games"], 4);
    assert!(summary["plies"].as_u64().unwrap() > 40, "{summary:#}");
    assert!(
        summary["corpus_cases"].as_u64().unwrap() > 100,
        "{summary:#}"
    );
    assert!(summary["illegal_probes"].as_u64().unwrap() > 0);
    assert!(summary["undo_checks"].as_u64().unwrap() > 0);
    assert_eq!(
        report["engine"]["id"],
        concat!("hive-oracle ", env!("CARGO_PKG_VERSION"))
    );
    // our engine lists TournamentOpening and RepetitionDraw, so the cases
    // with other rules options (§4.2, §8.7.2) run too: none is skipped
    assert_eq!(summary["corpus_cases_skipped"], 0, "{summary:#}");
}

#[test]
fn text_report_and_junit_file() {
    let dir = scratch();
    let file = dir.path().join("report.xml");
    let out = Check::new()
        .args(["--games", "3", "--max-plies", "30", "--format", "junit"])
        .args(["--out", &text(&file)])
        .run();
    assert_eq!(out.status, Some(0), "{}", out.stdout());
    assert!(out.stdout().contains("no findings"), "{}", out.stdout());
    let xml = std::fs::read_to_string(&file).expect("the report is written");
    assert!(xml.starts_with("<?xml"));
    assert!(xml.contains("<testsuite "));
    // One test case per corpus case, per game, and one for the protocol.
    assert_eq!(xml.matches("<testcase ").count(), corpus_size() + 3 + 1);
    assert!(!xml.contains("<failure"));
    assert!(xml.trim_end().ends_with("</testsuites>"));
}

#[test]
fn an_engine_that_cannot_start_is_exit_2() {
    let out = Check::new()
        .engine("/nonexistent/engine uhp")
        .args(["--games", "1"])
        .run();
    assert_eq!(out.status, Some(2));
    let out = Check::new()
        .args(["--corpus", "/nonexistent/corpus", "--games", "1"])
        .run();
    assert_eq!(out.status, Some(2));
    let out = Check::new().args(["--game-types", "Base+XYZ"]).run();
    assert_eq!(out.status, Some(2));
}

#[test]
fn an_engine_that_answers_garbage_is_a_finding() {
    // A banner, then garbage and never `ok`.
    let engine = "sh -c \"echo 'id fixture 1.0'; echo ok; while read line; do echo garbage; done\"";
    let out = Check::new()
        .engine(engine)
        .args(["--games", "2", "--timeout-ms", "200"])
        .json()
        .run();
    assert_eq!(out.status, Some(1));
    let report = out.report();
    let kinds = out.kinds();
    assert!(
        kinds.iter().any(|k| k == "timeout" || k == "protocol"),
        "{kinds:?}"
    );
    for f in shortest(&report) {
        for field in ["game_string", "detail", "reproduce"] {
            assert!(f[field].is_string(), "{field} in {f:#}");
        }
        assert!(f["moves"].is_array() && f["clauses"].is_array());
    }
}

#[test]
fn an_engine_that_answers_garbage_then_ok_is_a_protocol_finding() {
    let engine =
        "sh -c \"echo 'id fixture 1.0'; echo ok; while read line; do echo garbage; echo ok; done\"";
    let out = Check::new()
        .engine(engine)
        .args(["--games", "1", "--corpus", "/dev/null/none"])
        .args(["--timeout-ms", "500"])
        .json()
        .run();
    // An unreadable corpus directory is exit 2: the check cannot run.
    assert_eq!(out.status, Some(2));
    let out = Check::new()
        .engine(engine)
        .args(["--games", "1", "--no-corpus", "--timeout-ms", "500"])
        .json()
        .run();
    assert_eq!(out.status, Some(1));
    let kinds = out.kinds();
    assert!(kinds.iter().any(|k| k == "protocol"), "{kinds:?}");
}

#[test]
fn an_engine_that_drops_beetle_climbs_is_missing_moves_with_the_clause() {
    // Our engine behind a filter that deletes every beetle climb from
    // `validmoves` lines (`wB1 wA1`: a target without a direction).
    let engine =
        format!("sh -c \"{BIN} uhp | sed -u 's/;[wb]B[12] [wb][A-Z][0-9]*\\(;\\|\\$\\)/\\1/g'\"");
    let (out, report) = check_without_corpus(&engine, "3", "Base");
    assert_eq!(out.status, Some(1), "{}", out.stdout());
    let finding = finding_of_kind(&report, "missing-moves");
    let moves: Vec<&str> = finding["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(moves.iter().all(|m| m.contains('B')), "{moves:?}");
    assert!(
        finding["clauses"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| ["§6.2.1", "§6.2.2", "§6.2.3"].contains(&c.as_str().unwrap())),
        "{finding:#}"
    );
    // The reproduction asks the engine itself: its validmoves lacks the move.
    let answer = shell(finding["reproduce"].as_str().unwrap());
    // the answer to validmoves: the line before the last `ok`
    let lines: Vec<&str> = answer.lines().collect();
    let listed: Vec<&str> = lines
        .len()
        .checked_sub(2)
        .map(|i| lines[i].split(';').collect())
        .unwrap_or_default();
    assert!(!listed.is_empty(), "validmoves answered: {answer}");
    assert!(
        !listed.contains(&moves[0]),
        "{} is listed: {answer}",
        moves[0]
    );
    // The explanation says the rules allow it, as the verdicts do.
    let explained = shell(finding["explain"].as_str().unwrap());
    assert!(explained.starts_with("legal"), "{explained}");
    let verdicts = finding["verdicts"].as_array().unwrap();
    assert_eq!(verdicts.len(), moves.len().min(16), "{finding:#}");
    assert_eq!(verdicts[0]["move"], moves[0]);
    assert_eq!(verdicts[0]["legal"], true);
    assert!(verdicts.iter().all(|v| v["clauses"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "§6.2.1")));
}

#[test]
fn our_engine_with_a_dropped_move_is_missing_moves() {
    let out = Check::new()
        .fault("drop-one-move")
        .args(["--games", "2", "--max-plies", "30"])
        .json()
        .run();
    assert_eq!(out.status, Some(1), "{}", out.stdout());
    let kinds = out.kinds();
    assert!(kinds.iter().any(|k| k == "missing-moves"), "{kinds:?}");
}

/// Runs `check` with no corpus (`--no-corpus`) and returns the run and
/// its report.
fn check_without_corpus(engine: &str, games: &str, game_types: &str) -> (Checked, Value) {
    let out = Check::new()
        .engine(engine)
        .args(["--games", games, "--game-types", game_types, "--no-corpus"])
        .json()
        .run();
    let report = out.report();
    (out, report)
}

#[test]
fn an_engine_that_refuses_beetle_climbs_is_rejected_legal_shrunk_to_a_short_game() {
    // Our engine behind a filter on its input that garbles every `play` of a
    // beetle climb (`play wB1 wA1`), so it refuses moves it lists (§6.2.1).
    // The finding is shrunk with the refused move as its focus.
    let engine = reading_through(
        "sed -u 's/^play [wb]B[12] [wb][A-Z][0-9]*$/play garbled/'",
        &ours(),
    );
    let (out, report) = check_without_corpus(&engine, "6", "Base");
    assert_eq!(out.status, Some(1), "{}", out.stdout());
    let finding = finding_of_kind(&report, "rejected-legal");
    let mv = finding["moves"][0].as_str().unwrap();
    assert!(
        regex::Regex::new(r"^[wb]B[12] [wb][A-Z][0-9]*$")
            .unwrap()
            .is_match(mv),
        "the refused move is a climb: {mv}"
    );
    assert!(
        finding["clauses"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "§6.2.1"),
        "{finding:#}"
    );
    // A beetle can climb after five plies (wB1; bB1; wQ; bQ; wB1 bB1): the
    // shrunk position before the climb has at most 12 plies.
    let plies = plies(finding["game_string"].as_str().unwrap());
    assert!(plies <= 12, "{plies} plies: {finding:#}");
    // The reproduction loads the position and plays the move: refused.
    let reproduce = finding["reproduce"].as_str().unwrap();
    assert!(
        reproduce.starts_with("printf '") && reproduce.contains("\\nexit\\n' | "),
        "{reproduce}"
    );
    let answer = shell(reproduce);
    assert!(answer.contains("\ninvalidmove "), "{answer}");
    let explained = shell(finding["explain"].as_str().unwrap());
    assert!(explained.starts_with("legal"), "{explained}");
    assert_eq!(finding["verdicts"][0]["move"], mv);
    assert_eq!(finding["verdicts"][0]["legal"], true);
}

#[test]
fn an_engine_that_misreports_the_state_after_a_play_is_a_state_finding_at_that_move() {
    // Our engine behind a filter on its output that prints `Draw` instead of
    // `InProgress` once White is at turn 5: the state after the eighth ply
    // is wrong (§8.8). The finding names the move after which it shows.
    let engine =
        format!("sh -c \"{BIN} uhp | sed -u 's/;InProgress;White\\[5\\]/;Draw;White[5]/'\"");
    let (out, report) = check_without_corpus(&engine, "2", "Base");
    assert_eq!(out.status, Some(1), "{}", out.stdout());
    let finding = finding_of_kind(&report, "state");
    let game_string = finding["game_string"].as_str().unwrap();
    assert!(
        game_string.contains(";InProgress;White[5];"),
        "the position after the move: {game_string}"
    );
    assert_eq!(
        finding["clauses"],
        serde_json::json!(["§8.8"]),
        "{finding:#}"
    );
    let detail = finding["detail"].as_str().unwrap();
    assert!(
        detail.contains("the engine says Draw;White[5], the rules say InProgress;White[5]"),
        "{detail}"
    );
}

#[test]
fn a_refusal_the_engine_does_not_repeat_from_a_loaded_position_is_reported_as_played() {
    // Our engine behind a shell filter on its input that garbles the ninth
    // and later `play` commands that follow a `validmoves` (as in a played
    // game), never one that follows a `newgame` (as when the shrinker loads
    // a position): the refusal shows in the played game only. The finding
    // keeps the played position and says so, and its reproduction replays
    // the seeded game.
    let dir = scratch();
    let script = dir.path().join("refuses-in-play.sh");
    std::fs::write(
        &script,
        format!(
            r#"exec {BIN} uhp < <(set -f
n=0
prev=
while IFS= read -r line; do
  set -- $line
  if [ "$1" = play ] && [ "$prev" = validmoves ]; then n=$((n + 1)); fi
  if [ "$1" = play ] && [ "$prev" = validmoves ] && [ "$n" -gt 8 ]; then
    echo "play garbled"
  else
    printf '%s
' "$line"
  fi
  prev=$1
done)
"#
        ),
    )
    .unwrap();
    // run by bash, the engine what bash runs last (as in reading_through)
    let engine = format!("bash {}", script.display());
    let (out, report) = check_without_corpus(&engine, "1", "Base");
    assert_eq!(out.status, Some(1), "{}", out.stdout());
    let finding = finding_of_kind(&report, "rejected-legal");
    let detail = finding["detail"].as_str().unwrap();
    assert!(
        detail.contains("not shown again after `newgame`"),
        "{detail}"
    );
    assert!(
        detail.contains("invalidmove"),
        "the engine's answer is quoted: {detail}"
    );
    let plies = plies(finding["game_string"].as_str().unwrap());
    assert!(plies >= 8, "not before the ninth play: {finding:#}");
    assert_eq!(finding["verdicts"][0]["legal"], true, "{finding:#}");
    // The reproduction replays the whole conversation of the game, so the
    // filter garbles the same play: the engine refuses it again.
    let answer = shell(finding["reproduce"].as_str().unwrap());
    assert!(answer.contains("\ninvalidmove "), "{answer}");
}

#[test]
fn junit_has_one_failure_per_cause_and_crashes_are_errors() {
    // One bug used to be five JUnit test cases with two failures each.
    // Now a cause is one test case with one failure (an error for a crash),
    // and a unit that showed no finding is a passing test case.
    let dir = scratch();
    let file = dir.path().join("report.xml");
    let out = Check::new()
        .fault("crash-mid-game")
        .args(["--games", "2", "--timeout-ms", "1000", "--format", "junit"])
        .args(["--out", &text(&file)])
        .run();
    assert_eq!(out.status, Some(1), "{}", out.stdout());
    let xml = std::fs::read_to_string(&file).expect("the report is written");
    for case in xml.split("<testcase ").skip(1) {
        let case = case.split("</testcase>").next().unwrap_or("");
        let failures = case.matches("<failure").count() + case.matches("<error").count();
        assert!(failures <= 1, "{case}");
    }
    assert!(xml.contains("<error type=\"crash\""), "{xml}");
    assert!(
        xml.contains("<property name=\"corpus\" value=\"built-in\"/>"),
        "{xml}"
    );
}

/// Runs `check` on our engine behind a filter that garbles the `play`
/// lines matching the sed pattern `garble`, with the one corpus case `case`
/// and no random game; returns the exit code, the JSON report and the
/// rejected-legal cause (its group in the report).
fn check_refusing(garble: &str, case: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let engine = reading_through(
        &format!("sed -u 's/^play {garble}$/play garbled/'"),
        &ours(),
    );
    let out = Check::new()
        .engine(&engine)
        .args(["--case", case])
        .args(extra)
        .json()
        .run();
    let cause = cause_of_kind(&out.report(), "rejected-legal").clone();
    (out.status, cause)
}

#[test]
fn refusing_a_lenient_spelling_is_an_advisory() {
    // §9.27 (rulings.md#notation-standard-and-lenient): a stack target that
    // names a covered piece is a leniency an engine MAY refuse, as Mzinga
    // does. An engine that refuses `bB2 wS1` (wS1 under bB1) gets an
    // advisory citing §9.27, and passes unless --strict-notation.
    let (code, cause) = check_refusing("bB2 wS1", "covered-piece-as-stack-reference", &[]);
    assert_eq!(code, Some(0), "{cause:#}");
    assert_eq!(cause["severity"], "advisory", "{cause:#}");
    let clauses = &cause["shortest"]["clauses"];
    assert!(
        clauses.as_array().unwrap().iter().any(|c| c == "§9.27"),
        "{cause:#}"
    );
    let (code, _) = check_refusing(
        "bB2 wS1",
        "covered-piece-as-stack-reference",
        &["--strict-notation"],
    );
    assert_eq!(code, Some(1));
}

#[test]
fn refusing_a_standard_spelling_is_an_error() {
    // §9.24 (rulings.md#notation-standard-and-lenient): every engine MUST
    // accept the moving piece as its own reference. An engine that refuses
    // `wQ wQ/` and `wQ wQ\` gets an error citing §9.24: the check fails.
    let (code, cause) = check_refusing("wQ wQ.", "the-moving-piece-as-its-own-reference", &[]);
    assert_eq!(code, Some(1), "{cause:#}");
    assert_eq!(cause["severity"], "error", "{cause:#}");
    let clauses = &cause["shortest"]["clauses"];
    assert!(
        clauses.as_array().unwrap().iter().any(|c| c == "§9.24"),
        "{cause:#}"
    );
}

/// PASS means that something was checked: a check that gave up on the
/// engine fails, baseline or not. The engine crashes in every game
/// (`crash-mid-game`: exit 101 on the 7th `play`); a baseline written from
/// that run accepts the crash, so no cause is new, yet the check gave up
/// after three failed units in a row and fails (exit 1), saying so in the
/// text, the JSON (`incomplete`) and JUnit (one failing test case). Before:
/// such a one-entry baseline turned an engine that crashes in every game
/// into PASS, with 0 failures in JUnit (the hostile-user review).
#[test]
fn a_check_that_gave_up_on_the_engine_fails_whatever_its_baseline() {
    let dir = scratch();
    let baseline = text(&dir.path().join("baseline.json"));
    let args = [
        "--no-corpus",
        "--games",
        "8",
        "--max-plies",
        "30",
        "--timeout-ms",
        "2000",
    ];
    let first = Check::new()
        .fault("crash-mid-game")
        .args(args)
        .args(["--write-baseline", &baseline])
        .run();
    assert_eq!(first.status, Some(1), "{}", first.stdout());
    let (status, report) = Check::new()
        .fault("crash-mid-game")
        .args(args)
        .args(["--baseline", &baseline])
        .json()
        .run()
        .verdict();
    assert_eq!(status, Some(1), "{report:#}");
    assert_eq!(report["passed"], false);
    // every cause is known: no new error fails it
    assert!(
        report["summary"]["causes"].as_u64() >= Some(1),
        "{report:#}"
    );
    assert_eq!(
        report["summary"]["known"], report["summary"]["causes"],
        "{report:#}"
    );
    let incomplete = report["incomplete"].as_array().cloned().unwrap_or_default();
    assert!(
        incomplete.iter().any(|r| r
            .as_str()
            .is_some_and(|r| r.starts_with("the check gave up on the engine"))),
        "{report:#}"
    );
    let text_run = Check::new()
        .fault("crash-mid-game")
        .args(args)
        .args(["--baseline", &baseline])
        .run();
    assert_eq!(text_run.status, Some(1));
    assert!(
        text_run
            .last_line()
            .contains("the check gave up on the engine"),
        "{}",
        text_run.last_line()
    );
    let junit = Check::new()
        .fault("crash-mid-game")
        .args(args)
        .args(["--baseline", &baseline, "--format", "junit"])
        .run();
    let xml = junit.stdout();
    assert!(
        xml.contains("classname=\"hive-oracle.check.completeness\""),
        "{xml}"
    );
    assert!(!xml.contains(" failures=\"0\""), "{xml}");
}
