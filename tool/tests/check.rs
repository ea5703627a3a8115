//! `hive-oracle check`: our own engine checks clean, the
//! reports have their documented shape, and broken engines give the right
//! findings and exit statuses.

use std::process::Output;

const BIN: &str = env!("CARGO_BIN_EXE_hive-oracle");

fn check(args: &[&str]) -> Output {
    crate::common::command(BIN)
        .arg("check")
        .args(args)
        .current_dir(crate::common::root())
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            stdout(out),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn corpus_size() -> usize {
    hive_oracle_rules::cases::builtin_corpus()
        .expect("the corpus loads")
        .len()
}

fn kinds(report: &serde_json::Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .expect("findings is an array")
        .iter()
        .map(|f| f["kind"].as_str().expect("kind is a string").to_string())
        .collect()
}

/// The shortest instance of each cause of a JSON report.
fn instances(report: &serde_json::Value) -> Vec<&serde_json::Value> {
    report["findings"]
        .as_array()
        .expect("findings is an array")
        .iter()
        .map(|g| &g["shortest"])
        .collect()
}

#[test]
fn our_engine_checks_clean_with_json_report() {
    let out = check(&[
        "--games",
        "4",
        "--seed",
        "11",
        "--max-plies",
        "80",
        "--format",
        "json",
    ]);
    let report = json(&out);
    assert_eq!(report["findings"], serde_json::json!([]), "{report:#}");
    assert_eq!(out.status.code(), Some(0));
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
    let dir = std::env::temp_dir().join(format!("hive-oracle-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.xml");
    let out = check(&[
        "--games",
        "3",
        "--max-plies",
        "30",
        "--format",
        "junit",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("no findings"), "{}", stdout(&out));
    let xml = std::fs::read_to_string(&file).expect("the report is written");
    assert!(xml.starts_with("<?xml"));
    assert!(xml.contains("<testsuite "));
    // One test case per corpus case, per game, and one for the protocol.
    assert_eq!(xml.matches("<testcase ").count(), corpus_size() + 3 + 1);
    assert!(!xml.contains("<failure"));
    assert!(xml.trim_end().ends_with("</testsuites>"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_cannot_start_is_exit_2() {
    let out = check(&["--engine", "/nonexistent/engine uhp", "--games", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let out = check(&["--corpus", "/nonexistent/corpus", "--games", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let out = check(&["--game-types", "Base+XYZ"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_engine_that_answers_garbage_is_a_finding() {
    // A banner, then garbage and never `ok`.
    let engine = "sh -c \"echo 'id fixture 1.0'; echo ok; while read line; do echo garbage; done\"";
    let out = check(&[
        "--engine",
        engine,
        "--games",
        "2",
        "--timeout-ms",
        "200",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let report = json(&out);
    let kinds = kinds(&report);
    assert!(
        kinds.iter().any(|k| k == "timeout" || k == "protocol"),
        "{kinds:?}"
    );
    for f in instances(&report) {
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
    let out = check(&[
        "--engine",
        engine,
        "--games",
        "1",
        "--corpus",
        "/dev/null/none",
        "--timeout-ms",
        "500",
        "--format",
        "json",
    ]);
    // An unreadable corpus directory is exit 2: the check cannot run.
    assert_eq!(out.status.code(), Some(2));
    let out = check(&[
        "--engine",
        engine,
        "--games",
        "1",
        "--no-corpus",
        "--timeout-ms",
        "500",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let kinds = kinds(&json(&out));
    assert!(kinds.iter().any(|k| k == "protocol"), "{kinds:?}");
}

#[test]
fn an_engine_that_drops_beetle_climbs_is_missing_moves_with_the_clause() {
    // Our engine behind a filter that deletes every beetle climb from
    // `validmoves` lines (`wB1 wA1`: a target without a direction).
    let engine =
        format!("sh -c \"{BIN} uhp | sed -u 's/;[wb]B[12] [wb][A-Z][0-9]*\\(;\\|\\$\\)/\\1/g'\"");
    let (out, report) = check_without_corpus(&engine, "3", "Base");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
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

/// Runs a reported command line in `sh`, with `hive-oracle` meaning the
/// binary under test; returns its output.
fn shell(command: &str) -> String {
    let command = match command.strip_prefix("hive-oracle ") {
        Some(rest) => format!("{BIN} {rest}"),
        None => command.to_string(),
    };
    let out = crate::common::command("sh")
        .arg("-c")
        .arg(&command)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn our_engine_with_a_dropped_move_is_missing_moves() {
    let engine = format!("{BIN} uhp --fault drop-one-move");
    let out = check(&[
        "--engine",
        &engine,
        "--games",
        "2",
        "--max-plies",
        "30",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let kinds = kinds(&json(&out));
    assert!(kinds.iter().any(|k| k == "missing-moves"), "{kinds:?}");
}

/// The shortest instance of the first cause of `kind` in a JSON report.
fn finding_of_kind<'a>(report: &'a serde_json::Value, kind: &str) -> &'a serde_json::Value {
    report["findings"]
        .as_array()
        .and_then(|all| all.iter().find(|f| f["kind"] == kind))
        .map(|g| &g["shortest"])
        .unwrap_or_else(|| panic!("no {kind} finding: {report:#}"))
}

/// Runs `check` with no corpus (`--no-corpus`) and returns the report.
fn check_without_corpus(
    engine: &str,
    games: &str,
    game_types: &str,
) -> (Output, serde_json::Value) {
    let out = check(&[
        "--engine",
        engine,
        "--games",
        games,
        "--game-types",
        game_types,
        "--no-corpus",
        "--format",
        "json",
    ]);
    let report = json(&out);
    (out, report)
}

#[test]
fn an_engine_that_refuses_beetle_climbs_is_rejected_legal_shrunk_to_a_short_game() {
    // Our engine behind a filter on its input that garbles every `play` of a
    // beetle climb (`play wB1 wA1`), so it refuses moves it lists (§6.2.1).
    // The finding is shrunk with the refused move as its focus.
    let engine =
        format!("sh -c \"sed -u 's/^play [wb]B[12] [wb][A-Z][0-9]*$/play garbled/' | {BIN} uhp\"");
    let (out, report) = check_without_corpus(&engine, "6", "Base");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
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
    let plies = finding["game_string"].as_str().unwrap().split(';').count() - 3;
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
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
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
    let script = std::env::temp_dir().join(format!(
        "hive-oracle-refuses-in-play-{}.sh",
        std::process::id()
    ));
    std::fs::write(
        &script,
        format!(
            r#"set -f
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
done | {BIN} uhp
"#
        ),
    )
    .unwrap();
    let engine = format!("sh {}", script.display());
    let (out, report) = check_without_corpus(&engine, "1", "Base");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
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
    let plies = finding["game_string"].as_str().unwrap().split(';').count() - 3;
    assert!(plies >= 8, "not before the ninth play: {finding:#}");
    assert_eq!(finding["verdicts"][0]["legal"], true, "{finding:#}");
    // The reproduction replays the whole conversation of the game, so the
    // filter garbles the same play: the engine refuses it again.
    let answer = shell(finding["reproduce"].as_str().unwrap());
    let _ = std::fs::remove_file(&script);
    assert!(answer.contains("\ninvalidmove "), "{answer}");
}

#[test]
fn junit_has_one_failure_per_cause_and_crashes_are_errors() {
    // One bug used to be five JUnit test cases with two failures each.
    // Now a cause is one test case with one failure (an error for a crash),
    // and a unit that showed no finding is a passing test case.
    let dir = std::env::temp_dir().join(format!("hive-oracle-junit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.xml");
    let engine = format!("'{BIN}' uhp --fault crash-mid-game");
    let out = check(&[
        "--engine",
        &engine,
        "--games",
        "2",
        "--timeout-ms",
        "1000",
        "--format",
        "junit",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let xml = std::fs::read_to_string(&file).expect("the report is written");
    let _ = std::fs::remove_dir_all(&dir);
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
fn check_refusing(garble: &str, case: &str, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let engine = format!("sh -c \"sed -u 's/^play {garble}$/play garbled/' | {BIN} uhp\"");
    let mut args = vec!["--engine", &engine, "--case", case, "--format", "json"];
    args.extend(extra);
    let out = check(&args);
    let report = json(&out);
    let cause = report["findings"]
        .as_array()
        .and_then(|all| all.iter().find(|g| g["kind"] == "rejected-legal"))
        .cloned()
        .unwrap_or_else(|| panic!("no rejected-legal finding: {report:#}"));
    (out.status.code(), cause)
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
