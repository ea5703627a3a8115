//! `check` on real positions and across machines: `check --records`
//! replays game records on the engine under check (validmoves compared as
//! sets, the record's move played, the printed GameString replayed), and
//! `check --shard I/N` with `check-merge` splits a check into slices whose
//! merged report is the report of the whole run. The engines are our own
//! (`hive-oracle uhp`), clean or with a deliberate fault (`--fault NAME`,
//! `src/faults/`); the records are those of `tests/records/` (see its
//! README).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_hive-oracle")
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

/// A scratch folder of its own for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hive-oracle-check-scale-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Runs `hive-oracle ARGS` in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("hive-oracle runs")
}

/// Runs `check ARGS --format json --out FILE` in `dir`: the exit code and
/// the report.
fn check_json(dir: &Path, file: &str, args: &[&str]) -> (Option<i32>, Value) {
    let out = dir.join(file);
    let mut all: Vec<&str> = vec!["check"];
    all.extend(args);
    let out_text = out.display().to_string();
    all.extend(["--format", "json", "--out", &out_text]);
    let output = run_in(dir, &all);
    let text = std::fs::read_to_string(&out).unwrap_or_else(|e| {
        panic!(
            "no report ({e}); stderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let report = serde_json::from_str(&text).expect("the report is JSON");
    (output.status.code(), report)
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The skip reasons of a report.
fn skip_reasons(report: &Value) -> Vec<String> {
    report["skipped"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s["reason"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Our engine agrees with the rules at every position of every legal test
/// record (tests/records/README.md), so the check passes; the files that
/// do not read and the plies the rules refuse are listed with why, never
/// dropped.
#[test]
fn the_test_records_run_clean_on_our_engine() {
    let dir = scratch("records-clean");
    let records = repo("tests/records");
    let (code, report) = check_json(&dir, "clean.json", &["--records", &records]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["findings"].as_array().map(Vec::len), Some(0));
    let s = &report["summary"];
    // records alone: no corpus case, no random game
    assert_eq!(s["corpus_cases"], 0);
    assert_eq!(s["games"], 0);
    // 41 games read from the 41 legal or illegal test games, 9 files do not
    // read (tests/records/README.md and sgf/README.md)
    assert_eq!(s["record_games"], 41, "{s:#}");
    assert_eq!(s["record_games_skipped"], 9, "{s:#}");
    let plies = s["record_plies"].as_u64().unwrap_or(0);
    assert!(plies > 400, "{s:#}");
    // one move set per position: every ply and each game's final position
    assert!(s["validmoves_compared"].as_u64().unwrap_or(0) >= plies + 41);
    assert!(s["game_strings_replayed"].as_u64().unwrap_or(0) >= plies);
    let reasons = skip_reasons(&report);
    for unreadable in [
        "truncated-mid-tag.pgn:3",
        "truncated-mid-move.pgn:11",
        "unknown-gametype-letter.pgn:1",
        "sgf/truncated.sgf",
        "not-sgf-lisp.sgf",
    ] {
        assert!(
            reasons
                .iter()
                .any(|r| r.starts_with("the record file does not read") && r.contains(unreadable)),
            "{unreadable} not listed: {reasons:#?}"
        );
    }
    // the illegal ply of illegal-move.pgn (One Hive, §5.3) is refused by
    // the engine too, and what follows it is listed as not checked
    assert!(
        reasons.iter().any(|r| r.contains("illegal-move.pgn game 1: ply 14")
            && r.contains("§5.3")
            && r.contains("not checked")),
        "{reasons:#?}"
    );
    assert!(s["illegal_probes"].as_u64().unwrap_or(0) >= 2);
    assert_eq!(strings(&report["run"]["records"]), vec![records]);
}

/// A fault engine whose `validmoves` omits a move (`drop-one-move`, §5.9)
/// is caught at a record's position: the finding names the record game,
/// shows the record's position and reproduces from it; the replay goes on
/// after the finding, so every position of the record shows it.
#[test]
fn a_fault_engine_shows_a_finding_at_a_record_position() {
    let dir = scratch("records-fault");
    let engine = format!("{} uhp --fault drop-one-move", bin());
    let record = repo("tests/records/pgn/two-games.pgn");
    let (code, report) = check_json(
        &dir,
        "fault.json",
        &["--engine", &engine, "--records", &record],
    );
    assert_eq!(code, Some(1), "{report:#}");
    let groups = report["findings"].as_array().cloned().unwrap_or_default();
    let missing = groups
        .iter()
        .find(|g| g["kind"] == "missing-moves")
        .unwrap_or_else(|| panic!("no missing-moves cause: {report:#}"));
    let shortest = &missing["shortest"];
    assert!(
        shortest["test"]
            .as_str()
            .is_some_and(|t| t.ends_with("two-games.pgn game 1")),
        "{shortest:#}"
    );
    assert!(shortest["reproduce"]
        .as_str()
        .is_some_and(|r| r.contains("validmoves")));
    // both games, 13 and 15 plies: seen at (nearly) every position with two
    // moves or more, not only the first
    let seen = missing["seen_in"].as_array().map(Vec::len).unwrap_or(0);
    assert!(seen > 20, "seen {seen} times: {missing:#}");
    let tests: Vec<&str> = missing["seen_in"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["test"].as_str())
        .collect();
    assert!(tests.iter().any(|t| t.ends_with("two-games.pgn game 2")));
}

/// A path that is neither a file nor a folder, and a folder without record
/// files, stop the check before it runs (exit 2), naming the path.
#[test]
fn records_that_are_not_there_stop_the_check() {
    let dir = scratch("records-missing");
    let out = run_in(&dir, &["check", "--records", "no-such-folder"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--records") && err.contains("no-such-folder"),
        "{err}"
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("empty folder");
    let out = run_in(&dir, &["check", "--records", "empty"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("holds no record file"), "{err}");
}
