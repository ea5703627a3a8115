//! `check` on real positions and across machines: `check --records`
//! replays game records on the engine under check (validmoves compared as
//! sets, the record's move played, the printed GameString replayed), and
//! `check --shard I/N` with `check-merge` splits a check into slices whose
//! merged report is the report of the whole run. The engines are our own
//! (`hive-oracle uhp`), clean or with a deliberate fault (`--fault NAME`,
//! `src/faults/`); the records are those of `tests/records/` (see its
//! README).

use std::path::Path;

use serde_json::Value;

use crate::check_run::{faulty, skipped, Check, Checked};
use crate::common::{scratch, text};

fn repo(path: &str) -> String {
    text(&crate::common::repository(path))
}

/// Runs `check ARGS --format json --out FILE` in `dir` (outside the
/// repository), with the report also kept as `dir/FILE` for `check-merge`:
/// the exit code and the report.
fn check_json(dir: &Path, file: &str, args: &[&str]) -> (Option<i32>, Value) {
    let out = text(&dir.join(file));
    let run = Check::new()
        .args(args)
        .args(["--format", "json", "--out", &out])
        .in_dir(dir)
        .run();
    let written =
        std::fs::read(&out).unwrap_or_else(|e| panic!("no report ({e}); stderr: {}", run.stderr));
    let report = serde_json::from_slice(&written).expect("the report is JSON");
    (run.status, report)
}

/// Runs `check ARGS` in `dir` (outside the repository).
fn check_in(dir: &Path, args: &[&str]) -> Checked {
    Check::new().args(args).in_dir(dir).run()
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
    skipped(report)
        .into_iter()
        .map(|(_, reason)| reason)
        .collect()
}

/// Our engine agrees with the rules at every position of every legal test
/// record (tests/records/README.md): no finding. The files that do not read
/// and the plies the rules refuse are listed with why, never dropped; and
/// as 9 of the files given (and an entry of an archive) could not be read at all, the check does not
/// pass (exit 1): a PASS means that every record given was checked. The
/// real records alone, which all read, pass.
#[test]
fn the_test_records_agree_with_our_engine_and_their_unreadable_files_fail_the_check() {
    let scratch = scratch();
    let dir = scratch.path();
    let real = repo("tests/records/real");
    let (code, report) = check_json(dir, "real.json", &["--records", &real]);
    assert_eq!(code, Some(0), "{report:#}");
    assert!(report.get("incomplete").is_none(), "{report:#}");
    let records = repo("tests/records");
    let (code, report) = check_json(dir, "clean.json", &["--records", &records]);
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(report["passed"], false);
    assert_eq!(report["findings"].as_array().map(Vec::len), Some(0));
    // 9 files and the truncated entry of zip/archive.zip: an entry of an
    // archive that does not read is a file not read, as it would be beside
    // the archive (its Ultimate Hive entry is no UHP game, skipped)
    let incomplete = strings(&report["incomplete"]);
    assert_eq!(incomplete.len(), 10, "{incomplete:#?}");
    assert!(
        incomplete
            .iter()
            .any(|r| r.contains("zip/archive.zip/games/TRUNCATED.SGF could not be read")),
        "{incomplete:#?}"
    );
    assert!(
        incomplete
            .iter()
            .all(|r| r.starts_with("the record file ") && r.contains(" could not be read: ")),
        "{incomplete:#?}"
    );
    let s = &report["summary"];
    // records alone: no corpus case, no random game
    assert_eq!(s["corpus_cases"], 0);
    assert_eq!(s["games"], 0);
    // 87 games read: the 47 legal or illegal made-up test games (2 of them
    // in zip/archive.zip, 1 the repetition draw of replay/, 2 the house
    // rules' repetitions of house-rules/) and the 38 real
    // ones (tests/records/real/); 12 do not read: 9 files, a game of
    // pgn/second-game-unreadable.pgn, and the Ultimate Hive and truncated
    // entries of the archive (tests/records/README.md and sgf/README.md)
    assert_eq!(s["record_games"], 87, "{s:#}");
    assert_eq!(s["record_games_skipped"], 12, "{s:#}");
    let plies = s["record_plies"].as_u64().unwrap_or(0);
    assert!(plies > 400, "{s:#}");
    // one move set per position: every ply and each game's final position
    assert!(s["validmoves_compared"].as_u64().unwrap_or(0) >= plies + 87);
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
        reasons
            .iter()
            .any(|r| r.contains("illegal-move.pgn game 1: ply 14")
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
    let scratch = scratch();
    let dir = scratch.path();
    let engine = faulty("drop-one-move");
    let record = repo("tests/records/pgn/two-games.pgn");
    let (code, report) = check_json(
        dir,
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
    // both games, 13 and 15 plies: seen at (nearly) every position, not
    // only the first (the omitted move differs, so it is several causes)
    let tests: Vec<&str> = groups
        .iter()
        .filter(|g| g["kind"] == "missing-moves")
        .flat_map(|g| g["seen_in"].as_array().into_iter().flatten())
        .filter_map(|s| s["test"].as_str())
        .collect();
    assert!(tests.len() > 20, "seen {} times: {report:#}", tests.len());
    assert!(tests.iter().any(|t| t.ends_with("two-games.pgn game 2")));
}

/// The text report of `check --records` escapes every control character
/// that file names and record contents bring (as every other output does):
/// an escape sequence, a carriage return or a line feed in a file name, in
/// a tag or in an unreadable file's text reaches the terminal as `\x1b`,
/// `\x0d`, `\x0a`, and no line of the report is forged. Before: a file
/// name's carriage return reached the "skipped" line and the verdict line
/// as it was.
#[test]
fn the_records_text_report_escapes_what_the_files_bring() {
    // Proves docs/limits.md `escapes`.
    let scratch = scratch();
    let dir = scratch.path();
    let records = dir.join("records");
    std::fs::create_dir_all(&records).expect("a records folder");
    let game = std::fs::read_to_string(crate::common::repository("tests/records/pgn/crlf.pgn"))
        .expect("a record");
    std::fs::write(records.join("ev\u{1b}[2Jil.pgn"), &game).expect("written");
    std::fs::write(
        records.join("tag.pgn"),
        format!("[Event \"x\u{1b}[31m\r\"]\n{game}"),
    )
    .expect("written");
    std::fs::write(
        records.join("bad\rname\nPASS: forged.pgn"),
        "junk\u{1b}[31m\u{7}",
    )
    .expect("written");
    let records = text(&records);
    let run = check_in(
        dir,
        &[
            "--engine",
            &faulty("wrong-game-string"),
            "--records",
            &records,
        ],
    );
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let out = run.stdout();
    let raw: Vec<char> = out
        .chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect();
    assert!(raw.is_empty(), "raw control characters {raw:?} in:\n{out}");
    assert!(!out.lines().any(|l| l.starts_with("PASS")), "{out}");
    assert!(out.contains("bad\\x0dname\\x0aPASS: forged.pgn"), "{out}");
    assert!(out.contains("ev\\x1b[2Jil.pgn"), "{out}");
    assert!(run.last_line().starts_with("FAIL"), "{out}");
}

/// A path that is neither a file nor a folder, and a folder without record
/// files, stop the check before it runs (exit 2), naming the path.
#[test]
fn records_that_are_not_there_stop_the_check() {
    let scratch = scratch();
    let dir = scratch.path();
    let out = check_in(dir, &["--records", "no-such-folder"]);
    assert_eq!(out.status, Some(2));
    let err = &out.stderr;
    assert!(
        err.contains("--records") && err.contains("no-such-folder"),
        "{err}"
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("empty folder");
    let out = check_in(dir, &["--records", "empty"]);
    assert_eq!(out.status, Some(2));
    let err = &out.stderr;
    assert!(err.contains("holds no record file"), "{err}");
}

/// The report without what may differ between a sharded and an unsharded
/// run: the timings and the run parameters.
fn comparable(report: &Value) -> Value {
    let mut report = report.clone();
    if let Some(map) = report.as_object_mut() {
        map.remove("timings");
        map.remove("run");
    }
    report
}

/// Runs `check-merge FILES --format json --out merged.json` in `dir`: the
/// exit code, the report (Null when none) and stderr.
fn merge_json(dir: &Path, files: &[&str]) -> (Option<i32>, Value, String) {
    let run = Check::merge().args(files).in_dir(dir).json_file().run();
    let report = serde_json::from_slice(run.report_bytes()).unwrap_or(Value::Null);
    (run.status, report, run.stderr)
}

/// Three shards of a check that finds several causes (a fault engine whose
/// `validmoves` omits a move, `drop-one-move`, §5.9, over corpus cases,
/// random games and records), merged in any order, give the report of the
/// unsharded run, but for its timings and run parameters: the same causes
/// in the same order with the same instances and shortest instance, the
/// same counts, skips and notes.
#[test]
fn three_shards_merged_are_the_whole_check() {
    let scratch = scratch();
    let dir = scratch.path();
    let engine = faulty("drop-one-move");
    let records = repo("tests/records/pgn");
    let common = [
        "--engine",
        &engine,
        "--corpus",
        "builtin",
        "--games",
        "4",
        "--max-plies",
        "30",
        "--seed",
        "5",
        "--records",
        &records,
    ];
    let (code, whole) = check_json(dir, "whole.json", &common);
    assert_eq!(code, Some(1), "the fault is found");
    let causes = whole["findings"].as_array().map(Vec::len).unwrap_or(0);
    assert!(causes >= 2, "several causes to order: {causes}");
    let mut shard_files = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let mut args: Vec<&str> = common.to_vec();
        args.extend(["--shard", &shard]);
        let file = format!("shard{i}.json");
        let (_, report) = check_json(dir, &file, &args);
        assert_eq!(report["shard"]["index"], i);
        // each shard runs about a third of the units
        let ran = report["shard"]["tests"]
            .as_array()
            .map(Vec::len)
            .unwrap_or(0);
        let all = report["shard"]["units"]
            .as_array()
            .map(Vec::len)
            .unwrap_or(0);
        assert!(ran * 3 <= all + 3 && ran * 3 + 3 >= all, "{ran} of {all}");
        shard_files.push(file);
    }
    // in any order
    let (code, merged, err) = merge_json(dir, &[&shard_files[2], &shard_files[0], &shard_files[1]]);
    assert_eq!(code, Some(1), "the merge fails as the check does: {err}");
    assert_eq!(comparable(&merged), comparable(&whole));
}

/// Reports that are not every shard of one check are refused with exit 2
/// and a message saying why: a shard missing or given twice, another
/// seed, another shard count, a report of an unsharded run, a file that
/// is not a report; `--shard` itself must read as I/N.
#[test]
fn reports_of_different_checks_are_not_merged() {
    let scratch = scratch();
    let dir = scratch.path();
    let base = ["--no-corpus", "--games", "1", "--max-plies", "4"];
    let run = |file: &str, more: &[&str]| {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(more);
        check_json(dir, file, &args)
    };
    run("s1.json", &["--shard", "1/2"]);
    run("s2-seed9.json", &["--shard", "2/2", "--seed", "9"]);
    run("s1-of3.json", &["--shard", "1/3"]);
    run("whole.json", &[]);
    std::fs::write(dir.join("junk.json"), "{\"not\": \"a report\"}").expect("write");
    for (files, says) in [
        (&["s1.json"][..], "shard(s) 2 of 2 missing"),
        (&["s1.json", "s1.json"][..], "shard 1/2 is given twice"),
        (&["s1.json", "s2-seed9.json"][..], "(`seed`) differ"),
        (&["s1.json", "s1-of3.json"][..], "shard counts (2 and 3)"),
        (&["whole.json"][..], "not a shard's report"),
        (&["junk.json"][..], "not a JSON report"),
        (&["absent.json"][..], "absent.json: cannot read"),
    ] {
        let (code, report, err) = merge_json(dir, files);
        assert_eq!(code, Some(2), "{files:?}: {err}");
        assert_eq!(report, Value::Null, "{files:?}: no report");
        assert!(err.contains(says), "{files:?}: {err}");
    }
    for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
        let out = check_in(dir, &["--shard", bad]);
        assert_eq!(out.status, Some(2), "--shard {bad}");
        let err = &out.stderr;
        assert!(err.contains("expected I/N"), "--shard {bad}: {err}");
    }
}

/// Reports can evolve: a report carries its `format_version` (MAJOR.MINOR);
/// `check-merge` reads shard reports with fields it does not know (a newer
/// minor version adds some) and refuses another major version, or a report
/// without a version (hive-oracle 0.2.0), saying which and what to do.
#[test]
fn shard_reports_with_unknown_fields_merge_and_another_major_version_is_refused() {
    let scratch = scratch();
    let dir = scratch.path();
    let base = ["--no-corpus", "--games", "1", "--max-plies", "4"];
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let mut args: Vec<&str> = base.to_vec();
        args.extend(["--shard", &shard]);
        let (_, report) = check_json(dir, &format!("s{i}.json"), &args);
        assert_eq!(report["format_version"], "1.1");
    }
    let edit = |from: &str, to: &str, change: &dyn Fn(&mut Value)| {
        let text = std::fs::read_to_string(dir.join(from)).expect("a shard report");
        let mut report: Value = serde_json::from_str(&text).expect("JSON");
        change(&mut report);
        std::fs::write(dir.join(to), report.to_string()).expect("write");
    };
    let newer = |report: &mut Value| {
        report["format_version"] = serde_json::json!("1.7");
        report["a_new_section"] = serde_json::json!({"added": true});
        report["summary"]["a_new_count"] = serde_json::json!(3);
        report["run"]["a_new_option"] = serde_json::json!("on");
    };
    edit("s1.json", "s1-newer.json", &newer);
    edit("s2.json", "s2-newer.json", &newer);
    let (code, merged, err) = merge_json(dir, &["s1-newer.json", "s2-newer.json"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        merged["format_version"], "1.1",
        "the merge writes its own format"
    );
    edit("s2.json", "s2-major.json", &|r| {
        r["format_version"] = serde_json::json!("2.0")
    });
    edit("s2.json", "s2-none.json", &|r| {
        if let Some(map) = r.as_object_mut() {
            map.remove("format_version");
        }
    });
    for (file, says) in [
        ("s2-major.json", "format_version \"2.0\""),
        (
            "s2-none.json",
            "no format_version (a report of hive-oracle 0.2.0",
        ),
    ] {
        let (code, report, err) = merge_json(dir, &["s1.json", file]);
        assert_eq!(code, Some(2), "{file}: {err}");
        assert_eq!(report, Value::Null, "{file}: no report");
        assert!(
            err.contains(says) && err.contains("reads check reports of format 1.x"),
            "{file}: {err}"
        );
    }
}

/// `check-merge` refuses a hostile or forged report with status 2, within
/// the memory bound and a few CPU seconds, naming the file: a shard count of
/// 10^18 (before: the merge listed the missing shards one by one, for ever)
/// or 0, a slice past its count, a test of another shard's unit, a FIFO
/// (before: the merge waited for a writer), `/dev/zero` (before: read until
/// memory ran out), a sparse file of 300 MiB (over the 256 MiB a report may
/// hold; refused unread), and shards of another engine or other records
/// (docs/limits.md `merge-report`).
#[test]
fn check_merge_refuses_hostile_and_forged_reports() {
    let scratch = scratch();
    let dir = scratch.path();
    let shard = |name: &str, index: &str, extra: &[&str]| -> Value {
        let path = dir.join(name).display().to_string();
        let mut args = vec![
            "--no-corpus",
            "--games",
            "2",
            "--max-plies",
            "10",
            "--shard",
            index,
        ];
        args.extend_from_slice(extra);
        args.extend(["--format", "json", "--out", &path]);
        let run = Check::new().args(&args).in_dir(dir).run();
        assert!(matches!(run.status, Some(0 | 1)), "{}", run.stderr);
        serde_json::from_slice(&std::fs::read(&path).expect("the shard report")).expect("JSON")
    };
    let first = shard("1.json", "1/2", &[]);
    shard("2.json", "2/2", &[]);
    let put = |name: &str, report: &Value| -> String {
        let path = dir.join(name);
        std::fs::write(&path, serde_json::to_vec(report).expect("JSON")).expect("written");
        path.display().to_string()
    };
    let forged = |edit: &dyn Fn(&mut Value)| {
        let mut report = first.clone();
        edit(&mut report);
        report
    };
    let huge = put(
        "huge.json",
        &forged(&|r| r["shard"]["count"] = serde_json::json!(1_000_000_000_000_000_000u64)),
    );
    let zero = put(
        "zero.json",
        &forged(&|r| r["shard"]["count"] = serde_json::json!(0)),
    );
    let past = put(
        "past.json",
        &forged(&|r| r["shard"]["index"] = serde_json::json!(3)),
    );
    let other_unit = put(
        "other-unit.json",
        &forged(&|r| {
            let units = r["shard"]["units"].clone();
            r["shard"]["tests"][0]["name"] = units[1].clone();
        }),
    );
    let fifo = dir.join("fifo.json");
    let made = crate::common::command("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let fifo = fifo.display().to_string();
    let sparse = dir.join("sparse.json");
    std::fs::File::create(&sparse)
        .and_then(|f| f.set_len(300 << 20))
        .expect("a sparse file");
    let sparse = sparse.display().to_string();
    shard(
        "engine.json",
        "2/2",
        &["--engine", &faulty("drop-one-move")],
    );
    let records = repo("tests/records/pgn/two-games.pgn");
    shard("records.json", "2/2", &["--records", &records]);
    let two = dir.join("2.json").display().to_string();
    let one = dir.join("1.json").display().to_string();
    for (files, said) in [
        (
            vec![huge.as_str(), two.as_str()],
            "expected I/N with 1 <= I <= N <= 10000",
        ),
        (
            vec![zero.as_str(), two.as_str()],
            "expected I/N with 1 <= I <= N <= 10000",
        ),
        (
            vec![past.as_str(), two.as_str()],
            "expected I/N with 1 <= I <= N <= 10000",
        ),
        (
            vec![other_unit.as_str(), two.as_str()],
            "which is not shard 1/2's",
        ),
        (
            vec![one.as_str(), fifo.as_str()],
            "a FIFO (named pipe), not a regular file",
        ),
        (
            vec![one.as_str(), "/dev/zero"],
            "a character device, not a regular file",
        ),
        (vec![one.as_str(), sparse.as_str()], "314572800"),
        (
            vec![one.as_str(), "engine.json"],
            "their engines (id, capabilities or options) differ",
        ),
        (
            vec![one.as_str(), "records.json"],
            "their run parameters (`records`) differ",
        ),
    ] {
        let run = Check::merge()
            .args(&files)
            .in_dir(dir)
            .memory_kib(512 * 1024)
            .cpu_seconds(20)
            .run();
        assert_eq!(run.status, Some(2), "{files:?}: {}", run.stderr);
        assert!(run.stderr.contains(said), "{files:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{files:?}");
    }
    // the two shards as written merge
    let run = Check::merge().args([&one, &two]).in_dir(dir).run();
    assert!(matches!(run.status, Some(0 | 1)), "{}", run.stderr);
}

/// One run gives every report a CI needs: the text on stdout, the JSON
/// report (`--out-json`, for `check-merge`) and the JUnit report
/// (`--out-junit`), all of the same run and agreeing on its counts; two
/// outputs naming one file are refused before the run (exit 2), and
/// `check-merge` writes its reports the same way. The engine is the
/// drop-one-move fault (§5.9), so that there are causes to count.
#[test]
fn one_run_writes_its_text_json_and_junit_reports_at_once() {
    let scratch = scratch();
    let dir = scratch.path();
    let engine = faulty("drop-one-move");
    let (json, junit) = (text(&dir.join("r.json")), text(&dir.join("r.xml")));
    let common = ["--engine", &engine, "--games", "2", "--max-plies", "30"];
    let run = Check::new()
        .args(common)
        .args(["--out-json", &json, "--out-junit", &junit])
        .in_dir(dir)
        .run();
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let stdout = run.stdout();
    assert!(
        stdout.contains("cause(s) from"),
        "the text report on stdout: {stdout}"
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(&json).expect("the JSON report")).expect("JSON");
    let causes = report["findings"].as_array().map(Vec::len).unwrap_or(0);
    assert!(causes > 0, "{report:#}");
    assert!(
        stdout.contains(&format!("{causes} cause(s) from")),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report");
    assert!(xml.starts_with("<?xml"), "{xml}");
    let failures: usize = xml
        .split("<testcase")
        .skip(1)
        .filter(|case| {
            case.split("</testcase>")
                .next()
                .is_some_and(|c| c.contains("<failure"))
        })
        .count();
    assert!(
        failures > 0,
        "the JUnit report fails the units the JSON one does: {xml}"
    );
    // one file for two outputs: refused, nothing written
    std::fs::remove_file(&json).expect("removed");
    let run = Check::new()
        .args(common)
        .args(["--out-json", &json, "--out-junit", &json])
        .in_dir(dir)
        .run();
    assert_eq!(run.status, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("--out-junit"), "{}", run.stderr);
    assert!(!Path::new(&json).exists());
    // the shards' JSON reports merge into all three too
    let shard = text(&dir.join("s1.json"));
    let run = Check::new()
        .args(common)
        .args(["--shard", "1/1", "--out-json", &shard])
        .in_dir(dir)
        .run();
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let merged_xml = text(&dir.join("m.xml"));
    let run = Check::merge()
        .args([shard.as_str(), "--out-junit", &merged_xml])
        .in_dir(dir)
        .run();
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    assert!(run.stdout().contains("cause(s) from"), "{}", run.stdout());
    let merged = std::fs::read_to_string(&merged_xml).expect("the merged JUnit report");
    assert!(merged.contains("<failure"), "{merged}");
}
