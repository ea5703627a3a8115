//! The faults of the process and the framing of `hive-oracle uhp --fault
//! NAME` (feature `faults`, `src/cli/faulty_process.rs`): each makes the
//! binary misbehave as documented, and the binary without the fault is right
//! on the same input. The faults of the session itself are the rules
//! package's, tested in process in its `tests/uhp_faults.rs`.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_hive-oracle");

/// The binary with `--fault` (or without), fed `input` and run to its end.
fn run_binary(fault: Option<&str>, input: impl AsRef<[u8]>) -> (Option<i32>, String) {
    let mut command = crate::common::command(BIN);
    command.arg("uhp");
    if let Some(fault) = fault {
        command.args(["--fault", fault]);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // the engine may exit before reading everything: ignore a broken pipe
    let _ = stdin.write_all(input.as_ref());
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn fault_option_is_hidden() {
    let help = crate::common::command(BIN)
        .args(["uhp", "--help"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&help.stdout).contains("--fault"));
}

#[test]
fn missing_ok() {
    let input = "info\n".repeat(7) + "exit\n";
    let count_ok = |out: &str| out.lines().filter(|l| *l == "ok").count();
    let (status, out) = run_binary(Some("missing-ok"), &input);
    assert_eq!(status, Some(0));
    // banner + 7 responses, one of them (the sixth) without ok
    assert_eq!(count_ok(&out), 7, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    // banner (3 lines), five full responses (3 lines each), then the sixth
    assert_eq!(
        &lines[18..20],
        &[hive_oracle_rules::uhp::ID, "Mosquito;Ladybug;Pillbug"]
    );
    assert_eq!(lines[20], hive_oracle_rules::uhp::ID);
    let (_, out) = run_binary(None, &input);
    assert_eq!(count_ok(&out), 8);
}

const SIX_PLIES: &str =
    "newgame Base\nplay wS1\nplay bS1 wS1-\nplay wQ -wS1\nplay bQ bS1-\nplay wA1 -wQ\nplay bA1 bQ-\n";

#[test]
fn crash_mid_game() {
    let input = format!("{SIX_PLIES}play wG1 -wA1\nvalidmoves\n");
    let (status, out) = run_binary(Some("crash-mid-game"), &input);
    assert_eq!(status, Some(101));
    // the six plies were answered, then nothing
    let last = out.lines().rev().nth(1).unwrap();
    assert!(last.ends_with("bA1 bQ-"), "{out}");
    let (status, out) = run_binary(None, &input);
    assert_eq!(status, Some(0));
    assert!(out.contains("wG1 -wA1"), "{out}");
}

#[test]
fn hang() {
    let input = "newgame Base\nplay wS1\nplay bS1 wS1-\nplay wQ -wS1\nplay bQ bS1-\nvalidmoves\n";
    let mut child = crate::common::command(BIN)
        .args(["uhp", "--fault", "hang"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    while let Ok(Ok(line)) = receiver.recv_timeout(Duration::from_secs(1)) {
        lines.push(line);
    }
    let still_running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stdin);
    assert!(still_running);
    // banner, newgame and four plays answered; validmoves never
    assert_eq!(lines.iter().filter(|l| *l == "ok").count(), 6, "{lines:?}");
    assert!(lines.last().is_some_and(|l| l == "ok"));
    assert!(lines.iter().rev().nth(1).unwrap().ends_with("bQ bS1-"));

    let (status, out) = run_binary(None, input);
    assert_eq!(status, Some(0));
    assert_eq!(out.lines().filter(|l| *l == "ok").count(), 7);
}

#[test]
fn exit_on_non_utf8() {
    let input = b"newgame Base\nplay wS1\n\r\n\nplay bS1 \xff\nvalidmoves\n";
    let (status, out) = run_binary(Some("exit-on-non-utf8"), input);
    assert_eq!(status, Some(1));
    // blank lines are still ignored; the line with \xff gets no answer at all
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3 + 2 + 2, "{out}");
    assert_eq!(lines[5], "Base;InProgress;Black[1];wS1");
    let (status, out) = run_binary(None, input);
    assert_eq!(status, Some(0));
    assert!(out.contains("err the line is not valid UTF-8"), "{out}");
    assert!(out.contains("bA1 -wS1;"), "{out}");
}
