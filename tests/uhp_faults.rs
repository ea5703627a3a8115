//! The deliberate faults of our UHP engine (`hive-oracle uhp --fault NAME`,
//! `src/uhp/fault.rs`), which the checker's tests run against: each rule
//! fault really shows in a concrete position (and the engine without the
//! fault is right there), each protocol fault makes the binary misbehave as
//! documented. Positions are the verified ones of `tests/cases/*.toml`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use hive_oracle::uhp::{EngineChoice, Fault, Session};

const BIN: &str = env!("CARGO_BIN_EXE_hive-oracle");

/// tests/cases/spider.toml "spider-never-steps-back".
const SPIDER: &str = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wS2 -wQ;bG1 bQ-";
/// tests/cases/beetle.toml "beetle-climb-blocked-by-a-height-gate".
const BEETLE: &str = r"Base;InProgress;White[8];wB1;bS1 wB1-;wQ \wB1;bQ bS1-;wA1 /wQ;bA1 bQ-;wA1 \bS1;bA1 wB1\;wB2 /wQ;bB1 bQ/;wB2 /wB1;bB1 \bQ;wB2 bA1;bB1 wA1";
/// tests/cases/pillbug.toml "queen-just-moved-cannot-be-thrown".
const PILLBUG: &str = r"Base+P;InProgress;White[4];wP;bS1 wP-;wQ -wP;bQ bS1/;wA1 -wQ;bQ \bS1";
/// tests/cases/mosquito.toml "mosquito-next-to-mosquito-only-cannot-move".
const MOSQUITO: &str =
    r"Base+M;InProgress;White[5];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM \wA1;bM bQ-;wM bM/;bA2 bQ\";
/// tests/cases/end.toml "surrounding-both-queens-draws" (White moved last).
const DRAW: &str = r"Base;Draw;Black[7];wS1;bS1 wS1-;wQ \wS1;bQ bS1/;wQ -bQ;bG1 bQ-;wG1 -wQ;bG2 \bG1;wG2 \wQ;bG3 bQ\;wA1 /wG1;bA1 bS1\;wA1 -bG2";

/// The first line of the response to `line`, which must end with `ok`.
fn ask(session: &mut Session, line: &str) -> String {
    let reply = session.handle_line(line.as_bytes());
    assert_eq!(
        reply.last().map(String::as_str),
        Some("ok"),
        "{line}: {reply:?}"
    );
    reply.first().cloned().unwrap_or_default()
}

fn valid_moves(session: &mut Session) -> Vec<String> {
    ask(session, "validmoves")
        .split(';')
        .map(str::to_string)
        .collect()
}

/// A session with the fault and one without, both loaded with `game`.
fn sessions(fault: Fault, game: &str) -> (Session, Session) {
    let mut faulty = Session::with_fault(EngineChoice::Fast, Some(fault));
    let mut plain = Session::new(EngineChoice::Fast);
    for session in [&mut faulty, &mut plain] {
        let loaded = ask(session, &format!("newgame {game}"));
        assert!(!loaded.starts_with("err"), "{game}: {loaded}");
    }
    (faulty, plain)
}

/// The fault lists and accepts `mv`; the engine without it does neither.
fn assert_extra_move(fault: Fault, game: &str, mv: &str) {
    let (mut faulty, mut plain) = sessions(fault, game);
    let listed = valid_moves(&mut faulty);
    let legal = valid_moves(&mut plain);
    assert!(
        listed.iter().any(|m| m == mv),
        "{fault}: {mv} not in {listed:?}"
    );
    assert!(!legal.iter().any(|m| m == mv), "plain engine lists {mv}");
    // every legal move is still listed: the fault only adds
    assert!(
        legal.iter().all(|m| listed.contains(m)),
        "{fault}: {listed:?}"
    );

    let played = ask(&mut faulty, &format!("play {mv}"));
    assert!(played.ends_with(mv), "{fault}: play {mv} gave {played}");
    let refused = ask(&mut plain, &format!("play {mv}"));
    assert!(refused.starts_with("invalidmove"), "plain: {refused}");

    // the faulty game loads again in a faulty session (a checker replays games)
    let mut again = Session::with_fault(EngineChoice::Fast, Some(fault));
    assert_eq!(ask(&mut again, &format!("newgame {played}")), played);
    // and undo brings the position back
    assert_eq!(ask(&mut faulty, "undo"), game);
}

#[test]
fn spider_backtracks() {
    assert_extra_move(Fault::SpiderBacktracks, SPIDER, "wS2 /wQ");
    assert_extra_move(Fault::SpiderBacktracks, SPIDER, r"wS2 \wQ");
}

#[test]
fn beetle_ignores_height_gates() {
    assert_extra_move(Fault::BeetleIgnoresHeightGates, BEETLE, "wB1 bS1");
}

#[test]
fn pillbug_throws_last_moved() {
    // wP throws bQ, which has just moved, to its three free neighbours
    for throw in [r"bQ \wP", r"bQ wP\", r"bQ wQ\"] {
        assert_extra_move(Fault::PillbugThrowsLastMoved, PILLBUG, throw);
    }
}

#[test]
fn mosquito_copies_mosquito() {
    assert_extra_move(Fault::MosquitoCopiesMosquito, MOSQUITO, "wM bM-");
}

#[test]
fn queen_first_allowed() {
    let (mut faulty, mut plain) = sessions(Fault::QueenFirstAllowed, "Base");
    assert!(valid_moves(&mut faulty).contains(&"wQ".to_string()));
    assert!(!valid_moves(&mut plain).contains(&"wQ".to_string()));
    assert_eq!(ask(&mut faulty, "play wQ"), "Base;InProgress;Black[1];wQ");
    assert!(ask(&mut plain, "play wQ").starts_with("invalidmove"));
    // Black's first placement may be the queen too
    assert!(valid_moves(&mut faulty).contains(&r"bQ \wQ".to_string()));
    // the standard opening has nothing to add
    let mut standard = Session::with_fault(EngineChoice::Fast, Some(Fault::QueenFirstAllowed));
    ask(&mut standard, "options set TournamentOpening False");
    ask(&mut standard, "newgame Base");
    let mut plain_standard = Session::new(EngineChoice::Fast);
    ask(&mut plain_standard, "options set TournamentOpening False");
    ask(&mut plain_standard, "newgame Base");
    assert_eq!(valid_moves(&mut standard), valid_moves(&mut plain_standard));
}

#[test]
fn simultaneous_surround_wins() {
    let (mut faulty, mut plain) = sessions(Fault::SimultaneousSurroundWins, DRAW);
    assert_eq!(
        faulty.game_string().unwrap(),
        DRAW.replacen("Draw", "WhiteWins", 1)
    );
    assert_eq!(plain.game_string().unwrap(), DRAW);
    // the state printed after the surrounding move, too
    let before = DRAW
        .rsplit_once(';')
        .unwrap()
        .0
        .replacen("Draw", "InProgress", 1);
    let before = before.replacen("Black[7]", "White[7]", 1);
    ask(&mut faulty, &format!("newgame {before}"));
    ask(&mut plain, &format!("newgame {before}"));
    assert!(ask(&mut faulty, "play wA1 -bG2").starts_with("Base;WhiteWins;"));
    assert!(ask(&mut plain, "play wA1 -bG2").starts_with("Base;Draw;"));
}

#[test]
fn drop_one_move() {
    let (mut faulty, mut plain) = sessions(Fault::DropOneMove, SPIDER);
    let mut legal = valid_moves(&mut plain);
    let dropped = legal.pop().unwrap();
    assert_eq!(valid_moves(&mut faulty), legal);
    // the dropped move is still accepted
    assert!(ask(&mut faulty, &format!("play {dropped}")).ends_with(&dropped));
    // a lone move is not dropped
    let (mut faulty, mut plain) = sessions(Fault::DropOneMove, "Base");
    assert_eq!(
        valid_moves(&mut faulty).len(),
        valid_moves(&mut plain).len() - 1
    );
}

#[test]
fn fault_names_round_trip() {
    for fault in Fault::ALL {
        assert_eq!(fault.name().parse::<Fault>(), Ok(fault));
    }
    assert!("no-such-fault".parse::<Fault>().is_err());
}

/// The binary with `--fault` (or without), fed `input` and run to its end.
fn run_binary(fault: Option<&str>, input: &str) -> (Option<i32>, String) {
    let mut command = Command::new(BIN);
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
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn fault_option_is_hidden() {
    let help = Command::new(BIN).args(["uhp", "--help"]).output().unwrap();
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
        &[hive_oracle::uhp::ID, "Mosquito;Ladybug;Pillbug"]
    );
    assert_eq!(lines[20], hive_oracle::uhp::ID);
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
    let mut child = Command::new(BIN)
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
