//! The binary as a UHP engine (`hive-oracle uhp`): the session is the rules
//! package's (`hive_oracle_rules::uhp`, tested line by line in its
//! `tests/uhp.rs`); here the real process: its banner, a short session, a
//! clean exit at the end of its input or at `exit`, 1 MiB lines through its
//! reader, perft, and the sample session of docs/uhp-engine.md.

use std::fs;
use std::io::Write;
use std::process::Stdio;

use hive_oracle_rules::uhp::{EngineChoice, Session};

/// README.md's midgame position, four plies in.
const MIDGAME: &str = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";

/// A session holding [`MIDGAME`].
fn midgame() -> Session {
    let mut session = Session::new(EngineChoice::Fast);
    let reply = session.handle_line(format!("newgame {MIDGAME}").as_bytes());
    assert_eq!(reply, [MIDGAME, "ok"]);
    session
}

/// The sample session in docs/uhp-engine.md is what the engine prints.
#[test]
fn documented_session_is_what_the_engine_prints() {
    let page = fs::read_to_string(crate::common::repository("docs/uhp-engine.md"))
        .expect("docs/uhp-engine.md");
    let start = page
        .find("# As a UHP engine")
        .expect("the UHP page's title");
    let block = page[start..]
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a text block in the UHP page");
    let mut session = Session::new(EngineChoice::Fast);
    let mut printed = session.banner();
    for line in block.lines() {
        if let Some(input) = line.strip_prefix("> ") {
            printed.push(line.to_string());
            printed.extend(session.handle_line(input.as_bytes()));
        }
    }
    assert_eq!(block.lines().collect::<Vec<_>>(), printed);
}

// ---------------------------------------------------------------------------
// The real binary
// ---------------------------------------------------------------------------

/// The binary as a UHP engine, given `input` and then the end of its input.
fn spawn_binary(input: &[u8]) -> std::process::Child {
    let mut child = crate::common::command(crate::common::BIN)
        .args(["uhp", "--engine", "fast"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("write");
    drop(stdin); // end of input
    child
}

fn run_binary(input: &[u8]) -> (String, bool) {
    let out = spawn_binary(input)
        .wait_with_output()
        .expect("the binary ends");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.success() && out.stderr.is_empty(),
    )
}

#[test]
fn the_binary_answers_a_session_and_exits_at_end_of_input() {
    let (out, clean) = run_binary(
        b"info\r\nnewgame Base\nplay wS1\n\nplay bQ wS1-\nvalidmoves\n\xff\nundo 5\nundo",
    );
    assert!(clean, "{out}");
    let expected = format!(
        "id hive-oracle {v}\nMosquito;Ladybug;Pillbug\nok\n\
         id hive-oracle {v}\nMosquito;Ladybug;Pillbug\nok\n\
         Base;NotStarted;White[1]\nok\n\
         Base;InProgress;Black[1];wS1\nok\n\
         invalidmove the queen cannot be a player's first placement (tournament opening) (§4.2)\nok\n\
         bA1 -wS1;bA1 /wS1;bA1 \\wS1;bA1 wS1-;bA1 wS1/;bA1 wS1\\;bB1 -wS1;bB1 /wS1;bB1 \\wS1;bB1 wS1-;bB1 wS1/;bB1 wS1\\;bG1 -wS1;bG1 /wS1;bG1 \\wS1;bG1 wS1-;bG1 wS1/;bG1 wS1\\;bS1 -wS1;bS1 /wS1;bS1 \\wS1;bS1 wS1-;bS1 wS1/;bS1 wS1\\\nok\n\
         err the line is not valid UTF-8 (bad byte at offset 0); UHP commands are ASCII\nok\n\
         err undo takes a number of plies from 1 to 1, not \"5\"\nok\n\
         Base;NotStarted;White[1]\nok\n",
        v = env!("CARGO_PKG_VERSION")
    );
    assert_eq!(out, expected);
}

#[test]
fn the_binary_stops_at_exit_and_skips_an_over_long_line() {
    let mut input = b"newgame Base\n".to_vec();
    input.extend(std::iter::repeat_n(
        b'a',
        hive_oracle_rules::uhp::MAX_LINE_BYTES + 10,
    ));
    input.extend_from_slice(b"\ninfo\nexit\ninfo\n");
    let (out, clean) = run_binary(&input);
    assert!(clean, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3 + 2 + 2 + 3, "{out}");
    assert!(lines[5].starts_with("err the line is longer than"), "{out}");
    assert_eq!(lines[9], "ok");
}

/// 1 MiB lines through the binary's reader, a command and garbage: each is
/// answered `err` then `ok` and the session goes on (spec/notation.md, "UHP
/// engine conventions", reading lines: no input line stops the engine).
#[test]
fn probe_one_mib_lines_through_the_binary() {
    let long = "x".repeat(1 << 20);
    let mut input = format!("newgame {MIDGAME}\n").into_bytes();
    for line in [
        format!("play {long}"),
        long.clone(),
        format!("newgame {long}"),
        format!("undo {long}"),
    ] {
        input.extend_from_slice(line.as_bytes());
        input.extend_from_slice(b"\r\n");
    }
    input.extend_from_slice(b"validmoves\n");
    let (out, clean) = run_binary(&input);
    assert!(clean, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.len(),
        3 + 2 + 4 * 2 + 2,
        "{}",
        &out[..out.len().min(2000)]
    );
    for reply in lines[5..13].chunks(2) {
        assert!(reply[0].starts_with("err ") || reply[0].starts_with("invalidmove "));
        assert!(reply[0].len() < 400, "the message quotes too much");
        assert_eq!(reply[1], "ok");
    }
    let mut session = midgame();
    assert_eq!(lines[13], session.handle_line(b"validmoves")[0]);
}

/// spec/sources/uhp-notes.md section 5.9 and spec/notation.md, "UHP engine conventions",
/// framing: at the end of its input, without `exit`, the engine stops at
/// once with status 0, in the middle of a game or of a line.
#[test]
fn probe_end_of_input_exits_promptly() {
    for input in [
        format!("newgame {MIDGAME}\nplay wA1 -wQ\n"),
        format!("newgame {MIDGAME}\nplay wA1"),
        String::new(),
    ] {
        let mut child = spawn_binary(input.as_bytes());
        let closed = std::time::Instant::now();
        // a bound only a hang reaches: how soon it stops is not asserted
        let deadline = closed + std::time::Duration::from_secs(60);
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if std::time::Instant::now() > deadline {
                child.kill().expect("kill");
                child.wait().expect("reap");
                panic!("{input:?}: still running 60 s after the end of input");
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        assert_eq!(status.code(), Some(0), "{input:?}");
        let out = child.wait_with_output().expect("output");
        assert!(out.stderr.is_empty(), "{input:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.ends_with("ok\n"), "{input:?}: {stdout}");
    }
}

/// `printf 'newgame Base\nperft 3\nexit\n' | hive-oracle uhp`: the counts
/// from the Base start under the tournament opening, 4, 96 and 1440
/// (spec/sources/uhp-notes.md section 5.5, the counts Mzinga and nokamute
/// publish), one `perft(d) = COUNT` line per depth (spec/notation.md, UHP
/// engine conventions), and nothing after `exit`.
#[test]
fn the_binary_answers_perft() {
    let (out, clean) = run_binary(b"newgame Base\nperft 3\nexit\n");
    assert!(clean, "{out}");
    let expected = format!(
        "id hive-oracle {v}\nMosquito;Ladybug;Pillbug\nok\n\
         Base;NotStarted;White[1]\nok\n\
         perft(1) = 4\nperft(2) = 96\nperft(3) = 1440\nok\n",
        v = env!("CARGO_PKG_VERSION")
    );
    assert_eq!(out, expected);
}
