//! `hive-oracle check` against hostile engines and hostile input:
//! whatever the engine does, the check finishes with the documented exit
//! status, a report of bounded size, bounded memory, no terminal escape
//! from the engine in any report, and no process of the engine left behind.
//!
//! The engines are our own UHP engine with a deliberate fault (`uhp --fault
//! NAME`, src/faults/: floods of output, a 1 GiB line, escape codes,
//! heavy stderr, lists with duplicates or 100,000 entries, random crashes)
//! and the shell scripts of `tests/hostile/` (wrappers with and without
//! `exec`, a background job, a grandchild holding stdout, an echo, a banner
//! without `ok`); each of them used to hang the check, use gigabytes or
//! leave processes behind, as measured before the bounds below.
//!
//! How each property is enforced:
//! * memory: the check runs under `ulimit -v` of [`MEMORY_KIB`] (address
//!   space, threads and engines included): past it an allocation fails and
//!   the check aborts, which fails the exit-status assertion;
//! * size: the JSON report and the text on stdout under [`MAX_REPORT_BYTES`];
//! * hangs: a generous limit that only a hang reaches
//!   ([`crate::check_run::HANG_LIMIT`], a run takes seconds); no assertion
//!   on speed;
//! * processes: every process started for a run carries an environment
//!   marker of its own; once the check has exited, none with it may be
//!   alive (processes are looked up in /proc, [`Check::run`]).

use std::path::Path;
use std::process::Command;

use crate::check_run::{faulty, shell_quote, Check, Checked};
use crate::common::{scratch, text};

/// The bound on the check's address space, in KiB (`ulimit -v`): 512 MiB.
/// A flooding engine once cost the check 2.3 to 6.8 GB.
const MEMORY_KIB: u64 = 512 * 1024;

/// The bound on each report (JSON file, text on stdout): 256 KiB. A 1 GB
/// line and 100,000 junk moves once gave reports of 219 MB and 441 MB.
const MAX_REPORT_BYTES: usize = 256 * 1024;

/// The fixtures of `tests/hostile/`.
fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hostile")
        .join(name);
    format!("sh {}", shell_quote(&text(&path)))
}

/// Runs `check` with `args` under the memory bound, with a JSON report
/// (`--out`) unless `json` is false, and asserts what every hostile run
/// must show: it ends, leaves no process ([`Check::run`]), and its reports
/// are bounded and hold no terminal escape.
fn check_with(args: &[&str], json: bool) -> Checked {
    let check = Check::new()
        .args(args)
        .memory_kib(MEMORY_KIB)
        .outside_repository();
    let run = if json { check.json_file() } else { check }.run();
    let report = run.report_file.clone().unwrap_or_default();
    for (what, bytes) in [("report", &report), ("stdout", &run.stdout)] {
        assert!(
            bytes.len() < MAX_REPORT_BYTES,
            "check {args:?}: the {what} has {} bytes",
            bytes.len()
        );
        assert!(
            !bytes.contains(&0x1b) && !bytes.contains(&0x07),
            "check {args:?}: the {what} passes on a terminal escape"
        );
    }
    run
}

/// [`check_with`] with a JSON report.
fn check(args: &[&str]) -> Checked {
    check_with(args, true)
}

/// `check` of the built-in faulty engine `fault` (`uhp --fault`) on `games`
/// random games and no corpus.
fn check_faulty(fault: &str, games: &str) -> Checked {
    check(&["--engine", &faulty(fault), "--no-corpus", "--games", games])
}

/// Asserts the report holds a finding of `kind` with `pattern` whose
/// detail contains `detail`.
fn assert_cause(run: &Checked, kind: &str, pattern: &str, detail: &str) {
    let causes = run.causes();
    assert!(
        causes
            .iter()
            .any(|c| c.kind == kind && c.pattern == pattern && c.detail.contains(detail)),
        "no {kind} finding {pattern:?} with {detail:?} in {causes:?}"
    );
}

/// Asserts the engine was given up on after repeated failures of the kind
/// that counts (crash, timeout, flood), so that the rest was skipped.
fn assert_given_up(run: &Checked) {
    let report = run.report();
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("failed repeatedly"),
        "the engine was not given up on: {notes}"
    );
}

// --- engines that flood ---

#[test]
fn an_engine_printing_y_lines_without_end_is_a_flood_and_given_up_on() {
    // `yes` as an answer used to cost 12-114 s and 2.3-6.8 GB per answer,
    // and was restarted for every case and game
    let run = check_faulty("flood-lines", "6");
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    assert_cause(&run, "protocol", "flood on validmoves", "10000 lines");
    assert_given_up(&run);
}

#[test]
fn an_engine_printing_bytes_without_a_line_break_is_a_flood() {
    // the same flood without newlines
    let run = check_faulty("flood-bytes", "6");
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    assert_cause(&run, "protocol", "flood on validmoves", "2097152 bytes");
    assert_given_up(&run);
}

#[test]
fn a_line_of_one_gigabyte_is_a_flood_quoted_in_a_few_hundred_bytes() {
    // one 1 GB line used to give a 219 MB report, each finding quoting it
    let run = check_faulty("huge-line", "6");
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let report = run.report();
    let answer = &report["findings"][0]["shortest"]["answer"];
    let quoted = answer[0].as_str().unwrap_or_default();
    assert!(
        quoted.len() < 400 && quoted.contains("more bytes)"),
        "{quoted}"
    );
    assert_given_up(&run);
}

#[test]
fn a_list_of_100000_junk_moves_is_a_flood() {
    // 100,000 junk moves used to give a 441 MB report and use 1.6 GB
    let run = check_faulty("junk-moves", "3");
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let causes = run.causes();
    assert!(
        causes
            .iter()
            .any(|c| c.kind == "protocol" && c.detail.contains("entries in the list")),
        "{causes:?}"
    );
}

#[test]
fn escape_codes_from_the_engine_reach_no_report_format() {
    // the text report used to pass the engine's terminal escape codes
    // (on stdout and stderr) to the user's terminal; check_with asserts no
    // ESC or BEL byte in any of the three formats
    let engine = faulty("escape-codes");
    let args = [
        "--engine",
        engine.as_str(),
        "--case",
        "opening.toml::tournament-opening-binds-black-too",
        "--games",
        "0",
    ];
    let run = check_with(&args, true);
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let json = String::from_utf8_lossy(run.report_bytes()).into_owned();
    assert!(
        json.contains("\\\\x1b[2J"),
        "the escape is shown escaped: {json}"
    );
    for format in ["text", "junit"] {
        let mut args = args.to_vec();
        args.extend(["--format", format]);
        let run = check_with(&args, false);
        assert_eq!(run.status, Some(1), "{}", run.stderr);
        let text = run.stdout();
        assert!(text.contains("\\x1b[2J"), "{format}: {text}");
    }
}

#[test]
fn heavy_stderr_is_not_a_finding_and_stays_bounded() {
    // stderr is not protocol; 64 KiB of noise before every answer
    let run = check_faulty("stderr-flood", "2");
    assert_eq!(run.status, Some(0), "{}", run.stderr);
}

// --- processes left behind ---

#[test]
fn a_wrapper_without_exec_leaves_no_hung_engine() {
    // only the direct child (the shell) used to be killed, leaving 3 hung
    // engines; Check::run asserts none is left
    let run = check(&[
        "--engine",
        &fixture("no-exec-wrapper.sh"),
        "--no-corpus",
        "--games",
        "3",
        "--timeout-ms",
        "1000",
    ]);
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let causes = run.causes();
    assert!(causes.iter().any(|c| c.kind == "timeout"), "{causes:?}");
}

#[test]
fn a_background_job_of_a_correct_engine_is_ended_with_it() {
    // a wrapper with a CPU-burning background job used to leave it running
    let run = check(&[
        "--engine",
        &fixture("background-job.sh"),
        "--no-corpus",
        "--games",
        "1",
    ]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
}

#[test]
fn a_grandchild_holding_stdout_is_reported_as_such_not_as_a_timeout() {
    // an engine whose grandchild holds stdout used to leave 4 orphans and be
    // reported as a timeout; the engine crashes after six plies
    let run = check(&[
        "--engine",
        &fixture("grandchild-holds-stdout.sh"),
        "--no-corpus",
        "--games",
        "2",
        "--max-plies",
        "10",
    ]);
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let causes = run.causes();
    assert!(
        causes
            .iter()
            .any(|c| c.kind == "crash" && c.detail.contains("stdout stays open")),
        "{causes:?}"
    );
    assert!(!causes.iter().any(|c| c.kind == "timeout"), "{causes:?}");
}

#[test]
fn an_engine_that_echoes_without_ok_times_out_and_is_given_up_on() {
    // an echo engine; every answer lacks `ok`
    let run = check(&[
        "--engine",
        &fixture("echo.sh"),
        "--no-corpus",
        "--games",
        "4",
        "--timeout-ms",
        "500",
    ]);
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    assert_given_up(&run);
}

#[test]
fn a_banner_without_ok_is_a_start_up_failure_exit_2() {
    // an engine that never says `ok`: it never answered its banner, so the
    // check cannot run (exit 2), and the message says why
    let run = check(&[
        "--engine",
        &fixture("no-ok.sh"),
        "--no-corpus",
        "--games",
        "4",
        "--startup-timeout-ms",
        "500",
    ]);
    assert_eq!(run.status, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the engine never answered its start-up banner")
            && run.stderr.contains("id no-ok 1.0"),
        "{}",
        run.stderr
    );
}

#[test]
fn random_crashes_end_with_a_report_and_no_process_left() {
    // each process crashes at a command drawn from its pid
    let run = check_faulty("random-crash", "6");
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    assert!(run.causes().iter().any(|c| c.kind == "crash"));
}

// --- duplicates (§9.35) ---

#[test]
fn a_list_with_every_move_twice_breaks_the_rule_of_one_listing_each() {
    // §9.35 each legal move listed once; such an engine used to pass
    let run = check(&[
        "--engine",
        &faulty("duplicate-moves"),
        "--case",
        "opening.toml::tournament-opening-binds-black-too",
        "--games",
        "1",
    ]);
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let causes = run.causes();
    assert!(
        causes.iter().any(|c| c.kind == "protocol"
            && c.pattern == "move listed twice"
            && c.clauses == ["§9.35"]),
        "{causes:?}"
    );
}

#[test]
fn a_list_repeated_to_100000_entries_fails_the_check() {
    // §9.35; a list repeated to 100,000 entries used to pass with exit 0
    let run = check_faulty("repeated-moves", "2");
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let causes = run.causes();
    assert!(
        causes
            .iter()
            .any(|c| c.kind == "protocol" && c.detail.contains("entries in the list")),
        "{causes:?}"
    );
}

// --- hostile input ---

/// A corpus folder holding one file `cases.toml` with `cases`, removed
/// when dropped.
fn corpus(cases: &str) -> tempfile::TempDir {
    let dir = scratch();
    std::fs::write(dir.path().join("cases.toml"), cases).expect("corpus file");
    dir
}

/// Runs check on our engine with `args` and asserts it cannot run: exit 2
/// and a message on stderr holding every one of `words`.
fn assert_cannot_run(args: &[&str], words: &[&str]) {
    let run = check_with(args, false);
    assert_eq!(run.status, Some(2), "check {args:?}: {}", run.stderr);
    for word in words {
        assert!(run.stderr.contains(word), "check {args:?}: {}", run.stderr);
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

#[test]
fn a_fifo_in_the_corpus_folder_is_refused_unread() {
    // a FIFO named x.toml in --corpus used to block the check forever
    let dir = scratch();
    mkfifo(&dir.path().join("x.toml"));
    let shown = text(dir.path());
    assert_cannot_run(
        &["--corpus", &shown],
        &["x.toml", "a FIFO (named pipe), not a regular file"],
    );
}

#[test]
fn a_fifo_as_out_or_baseline_is_refused_before_the_run() {
    // a FIFO as --out used to block the check forever
    let dir = scratch();
    let fifo = dir.path().join("report.fifo");
    mkfifo(&fifo);
    let shown = text(&fifo);
    for option in ["--out", "--write-baseline", "--baseline"] {
        assert_cannot_run(
            &[option, &shown, "--no-corpus", "--games", "0"],
            &["a FIFO (named pipe), not a regular file"],
        );
    }
}

#[test]
fn a_zero_timeout_is_refused() {
    // --timeout-ms 0 used to be accepted, and a correct engine then got
    // three timeout findings
    assert_cannot_run(&["--timeout-ms", "0"], &["--timeout-ms 0"]);
    assert_cannot_run(&["--startup-timeout-ms", "0"], &["--startup-timeout-ms 0"]);
    assert_cannot_run(&["--jobs", "0"], &["--jobs 0"]);
}

#[test]
fn a_case_whose_game_string_does_not_load_is_a_corpus_error() {
    // such a case used to be skipped, and the run exited 0
    let dir = corpus(
        r#"
[[case]]
name = "bad-game"
clauses = ["§4.2"]
source = "a hostile corpus, to check that check refuses it"
game = "Base;InProgress;White[2];wS1;bQ wS1-"
state = "InProgress"
"#,
    );
    assert_cannot_run(
        &["--corpus", &text(dir.path())],
        &["cases.toml::bad-game", "does not load"],
    );
}

#[test]
fn a_legal_move_listed_as_illegal_is_a_corpus_error_not_a_finding() {
    // a legal move under `illegal` used to become a finding against a
    // correct engine
    let dir = corpus(
        r#"
[[case]]
name = "legal-as-illegal"
clauses = ["§4.2"]
source = "a hostile corpus, to check that check refuses it"
game = "Base;InProgress;Black[1];wS1"
illegal = [{ move = "bA1 wS1-", clause = "§4.2" }]
"#,
    );
    assert_cannot_run(
        &["--corpus", &text(dir.path())],
        &["cases.toml::legal-as-illegal", "bA1 wS1-"],
    );
}

#[test]
fn a_line_break_inside_an_entry_is_a_corpus_error() {
    // a newline inside an entry used to become a finding against a
    // correct engine
    let dir = corpus(
        r#"
[[case]]
name = "newline-in-entry"
clauses = ["§4.2"]
source = "a hostile corpus, to check that check refuses it"
game = "Base;InProgress;Black[1];wS1"
legal = ["bA1 wS1-\nvalidmoves"]
"#,
    );
    assert_cannot_run(
        &["--corpus", &text(dir.path())],
        &["cases.toml::newline-in-entry", "line break"],
    );
}

/// Ctrl-C (SIGINT) or SIGTERM of `check` ends every engine process it
/// started, and the check exits with 130 or 143. The engine is a script
/// that says it has started (a file), then spins without answering: before,
/// the signal ended the check alone, and the engine, in a process group of
/// its own that the terminal's Ctrl-C does not reach, spun on (a core
/// burnt until someone killed it). `Check::run` fails if any process of the
/// run is left.
#[cfg(unix)]
#[test]
fn a_signal_ends_the_check_and_every_engine_it_started() {
    // Proves docs/limits.md `exit-signal`.
    for (signal, status) in [("INT", 130), ("TERM", 143)] {
        let scratch = scratch();
        let started = scratch.path().join("started");
        let script = scratch.path().join("spinning-engine.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\n: > {}\nwhile :; do :; done\n",
                shell_quote(&text(&started))
            ),
        )
        .expect("the engine script");
        let engine = format!("sh {}", shell_quote(&text(&script)));
        let run = Check::new()
            .engine(&engine)
            .args([
                "--no-corpus",
                "--games",
                "1",
                "--startup-timeout-ms",
                "600000",
            ])
            .signal_when(signal, &started)
            .run();
        assert_eq!(run.status, Some(status), "SIG{signal}: {}", run.stderr);
    }
}
