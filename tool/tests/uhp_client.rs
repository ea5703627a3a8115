//! The UHP client (`src/check/client/`): against our own engine
//! (`hive-oracle uhp`), and against small misbehaving fixture engines written
//! as `sh -c` scripts: silent at start-up, hanging, crashing, CRLF, garbage.
//! Every test checks that the engine process is gone once the client is.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use hive_oracle::check::client::{resolve_moves, ClientError, Shutdown, UhpClient, STARTUP};
use hive_oracle_rules::core::GameType;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The timeout of the engines expected to answer: only a hang reaches it.
const TIMEOUT: Duration = Duration::from_secs(20);
/// The timeout for fixtures expected to hang.
const SHORT: Duration = Duration::from_millis(400);
/// The bound on what must end at once (a drop, a kill, a timeout past
/// [`SHORT`]): the hung fixtures sleep 30 s, so a client that waited for
/// them would take longer; how long the client takes on a loaded machine
/// is not asserted.
const MARGIN: Duration = Duration::from_secs(20);

fn our_engine() -> UhpClient {
    let command = format!("\"{}\" uhp", env!("CARGO_BIN_EXE_hive-oracle"));
    UhpClient::spawn(&command, TIMEOUT).expect("our engine starts")
}

/// A fixture engine: `script` run by `sh -c` (no double quotes inside).
fn fixture(script: &str, timeout: Duration) -> Result<UhpClient, ClientError> {
    assert!(!script.contains('"'));
    UhpClient::spawn(&format!("sh -c \"{script}\""), timeout)
}

/// Whether process `pid` is gone (checked through /proc where there is one).
fn gone(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.exists() || !proc.join(pid.to_string()).exists()
}

/// Drops the client promptly and checks that its engine is gone.
fn drop_and_check(client: UhpClient) {
    let pid = client.pid();
    let start = Instant::now();
    drop(client);
    assert!(start.elapsed() < MARGIN, "drop took {:?}", start.elapsed());
    assert!(gone(pid), "engine {pid} still running after drop");
}

/// How a start-up failed: an engine that never answers its banner is a
/// start-up failure ([`ClientError::StartUp`], which carries the engine's
/// stderr too); this is the failure inside it.
fn start_up(err: ClientError) -> ClientError {
    match err {
        ClientError::StartUp { error, .. } => *error,
        other => panic!("expected a start-up failure, got {other:?}"),
    }
}

#[test]
fn banner_id_and_capabilities_of_our_engine() {
    let engine = our_engine();
    assert_eq!(
        engine.id(),
        concat!("hive-oracle ", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(engine.banner().len(), 2);
    let caps = engine.capabilities();
    assert!(caps.mosquito && caps.ladybug && caps.pillbug);
    assert!(caps.unknown.is_empty());
    assert!(GameType::ALL.iter().all(|&t| caps.supports(t)));
    let pid = engine.pid();
    match engine.exit() {
        Shutdown::Exited(status) => assert!(status.success(), "{status}"),
        Shutdown::Killed => panic!("our engine did not exit on `exit`"),
    }
    assert!(gone(pid));
}

#[test]
fn newgame_play_validmoves_undo_round_trip() {
    let mut engine = our_engine();
    let r = engine.newgame("Base").unwrap();
    assert_eq!(r.single_line(), Some("Base;NotStarted;White[1]"));
    assert!(!r.is_error() && !r.garbled && r.stray.is_empty());
    let mut first = engine.validmoves().unwrap();
    first.sort();
    assert_eq!(first, ["wA1", "wB1", "wG1", "wS1"]);
    let r = engine.play("wS1").unwrap();
    assert_eq!(r.single_line(), Some("Base;InProgress;Black[1];wS1"));
    assert_eq!(engine.validmoves().unwrap().len(), 24);
    let r = engine.play("bS1 wS1-").unwrap();
    assert_eq!(
        r.single_line(),
        Some("Base;InProgress;White[2];wS1;bS1 wS1-")
    );
    let r = engine.undo(2).unwrap();
    assert_eq!(r.single_line(), Some("Base;NotStarted;White[1]"));
    let mut again = engine.validmoves().unwrap();
    again.sort();
    assert_eq!(again, first);
    // A refused move is an ordinary response, and changes nothing.
    let r = engine.play("wQ").unwrap();
    assert!(r.is_error() && r.is_invalid_move(), "{r:?}");
    assert!(!r.error_text().unwrap().is_empty());
    let r = engine.command("info").unwrap();
    assert_eq!(r.lines, engine.banner());
    drop_and_check(engine);
}

#[test]
fn unknown_command_is_an_error() {
    let mut engine = our_engine();
    let r = engine.command("hi").unwrap();
    assert!(r.is_error() && !r.is_invalid_move(), "{r:?}");
    assert!(!r.error_text().unwrap().is_empty());
    // No game yet: validmoves is refused.
    match engine.validmoves() {
        Err(ClientError::Refused { command, lines }) => {
            assert_eq!(command, "validmoves");
            assert!(lines[0].starts_with("err"));
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    // The engine is still usable after refusals.
    assert!(!engine.newgame("").unwrap().is_error());
    assert!(engine.defunct().is_none());
    drop_and_check(engine);
}

#[test]
fn validmoves_resolve_to_the_reference_legal_moves() {
    let positions = [
        "Base",
        "Base+MLP",
        "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
        "Base+MLP;InProgress;White[4];wL;bM wL-;wQ -wL;bQ bM-;wP \\wQ;bP bQ/",
    ];
    let mut engine = our_engine();
    for game in positions {
        let r = engine.newgame(game).unwrap();
        assert!(!r.is_error(), "{game}: {r:?}");
        let game_string = r.single_line().unwrap().to_string();
        let reference = ReferenceEngine::load(&game_string).unwrap();
        let texts = engine.validmoves().unwrap();
        let (moves, unresolvable) = resolve_moves(&reference, &texts);
        assert!(unresolvable.is_empty(), "{game}: {unresolvable:?}");
        assert_eq!(moves.len(), texts.len(), "{game}: duplicate moves");
        let legal: BTreeSet<_> = reference.legal_moves().into_iter().collect();
        assert_eq!(moves, legal, "{game}");
    }
    let reference = ReferenceEngine::load("Base;InProgress;Black[1];wS1").unwrap();
    let texts = [
        "bS1 -wS1",
        "bS1 \\wS1",
        "bS1 wS1-",
        "bS1 -wS1",
        "bX1",
        "bA1 bS1-",
    ]
    .map(String::from);
    let (moves, unresolvable) = resolve_moves(&reference, &texts);
    assert_eq!(moves.len(), 3);
    assert_eq!(unresolvable, ["bX1", "bA1 bS1-"]);
    drop_and_check(engine);
}

#[test]
fn no_ok_at_start_up_times_out() {
    let start = Instant::now();
    let err = start_up(fixture("echo 'id silent 1'; exec sleep 30", SHORT).unwrap_err());
    assert!(start.elapsed() < SHORT + MARGIN, "{:?}", start.elapsed());
    match &err {
        ClientError::Timeout {
            command,
            after,
            partial_output,
        } => {
            assert_eq!(command, STARTUP);
            assert_eq!(*after, SHORT);
            assert_eq!(partial_output, &["id silent 1"]);
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
    assert!(err.to_string().contains("id silent 1"), "{err}");
}

#[test]
fn no_ok_at_start_up_then_exit() {
    let err = start_up(fixture("echo 'id quitter'; exit 4", TIMEOUT).unwrap_err());
    match err {
        ClientError::Exited {
            command,
            status,
            partial_output,
        } => {
            assert_eq!(command, STARTUP);
            assert_eq!(status.and_then(|s| s.code()), Some(4));
            assert_eq!(partial_output, ["id quitter"]);
        }
        other => panic!("expected an exit, got {other:?}"),
    }
}

#[test]
fn banner_without_id_or_with_garbage_is_a_protocol_error() {
    for script in [
        "echo hello; echo ok",
        "printf '\\377\\376id\\nok\\n'",
        "echo ok",
    ] {
        match fixture(script, TIMEOUT).map_err(start_up) {
            Err(ClientError::Protocol { command, detail }) => {
                assert_eq!(command, STARTUP, "{script}: {detail}");
            }
            other => panic!("{script}: expected a protocol error, got {other:?}"),
        }
    }
}

#[test]
fn hang_after_banner_times_out_and_is_killed() {
    let mut engine = fixture("echo 'id hang'; echo ok; exec sleep 30", SHORT).unwrap();
    assert_eq!(engine.id(), "hang");
    assert!(engine.capabilities().game_types() == [GameType::BASE]);
    let start = Instant::now();
    let err = engine.newgame("Base").unwrap_err();
    let took = start.elapsed();
    assert!(took >= SHORT && took < SHORT + MARGIN, "{took:?}");
    match &err {
        ClientError::Timeout { command, .. } => assert_eq!(command, "newgame Base"),
        other => panic!("expected a timeout, got {other:?}"),
    }
    // Nothing more is sent to a hung engine: the command is refused as
    // defunct, where one sent would have timed out.
    match engine.command("info") {
        Err(ClientError::Defunct { command, .. }) => assert_eq!(command, "info"),
        other => panic!("expected defunct, got {other:?}"),
    }
    drop_and_check(engine);
}

#[test]
fn exit_kills_an_engine_that_ignores_it() {
    let engine = fixture("echo 'id deaf'; echo ok; exec sleep 30", TIMEOUT).unwrap();
    let pid = engine.pid();
    let start = Instant::now();
    assert_eq!(engine.exit(), Shutdown::Killed);
    assert!(start.elapsed() < MARGIN, "{:?}", start.elapsed());
    assert!(gone(pid));
}

#[test]
fn exit_mid_game_is_reported_with_partial_output() {
    let script = "echo 'id crash'; echo ok; read l; echo 'Base;NotStarted;White[1]'; echo ok; \
                  read l; echo half; exit 3";
    let mut engine = fixture(script, TIMEOUT).unwrap();
    let r = engine.newgame("Base").unwrap();
    assert_eq!(r.single_line(), Some("Base;NotStarted;White[1]"));
    let err = engine.play("wS1").unwrap_err();
    let text = err.to_string();
    match err {
        ClientError::Exited {
            command,
            status,
            partial_output,
        } => {
            assert_eq!(command, "play wS1");
            assert_eq!(status.and_then(|s| s.code()), Some(3));
            assert_eq!(partial_output, ["half"]);
        }
        other => panic!("expected an exit, got {other:?}"),
    }
    assert!(text.contains("play wS1") && text.contains("half"), "{text}");
    assert!(matches!(
        engine.validmoves(),
        Err(ClientError::Defunct { .. })
    ));
    drop_and_check(engine);
}

#[test]
fn engine_dead_before_the_command_is_an_exit() {
    // It exits right after its banner; the next command meets a closed pipe
    // or an ended output, and either way is reported as an exit.
    let mut engine = fixture("echo 'id brief'; echo ok; exit 0", TIMEOUT).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    match engine.command("info") {
        Err(ClientError::Exited { command, .. }) => assert_eq!(command, "info"),
        other => panic!("expected an exit, got {other:?}"),
    }
    drop_and_check(engine);
}

#[test]
fn crlf_engine_works() {
    let script = "printf 'id crlf 1\\r\\nmosquito;LADYBUG\\r\\nok\\r\\n'; \
                  while read l; do printf 'wS1;wG1;;wA1\\r\\nok\\r\\n'; done";
    let mut engine = fixture(script, TIMEOUT).unwrap();
    assert_eq!(engine.id(), "crlf 1");
    let caps = engine.capabilities();
    assert!(caps.mosquito && caps.ladybug && !caps.pillbug);
    assert!(caps.supports(GameType::from_flags(true, true, false)));
    assert!(!caps.supports(GameType::BASE_MLP));
    assert_eq!(engine.validmoves().unwrap(), ["wS1", "wG1", "wA1"]);
    let r = engine.command("anything").unwrap();
    assert_eq!(r.lines, ["wS1;wG1;;wA1"]);
    drop_and_check(engine);
}

#[test]
fn garbage_bytes_are_flagged_not_fatal() {
    let script = "echo 'id junk'; echo ok; read l; printf '\\377\\376 bad\\n\\200\\nok\\n'; \
                  read l; echo 'err Nope'; echo ok; read l; echo; echo ok";
    let mut engine = fixture(script, TIMEOUT).unwrap();
    let r = engine.command("validmoves").unwrap();
    assert!(r.garbled);
    assert_eq!(r.lines.len(), 2);
    assert!(r.lines[0].contains('\u{FFFD}') && r.lines[0].ends_with(" bad"));
    assert!(!r.is_error());
    // The engine is still usable after garbage.
    let r = engine.command("hi").unwrap();
    assert!(r.is_error() && !r.garbled);
    assert_eq!(r.error_text(), Some("Nope"));
    // An empty validmoves line means no moves.
    assert!(engine.validmoves().unwrap().is_empty());
    drop_and_check(engine);
}

#[test]
fn stray_output_is_kept_apart() {
    let script = "echo 'id chatty'; echo ok; read l; echo one; echo ok; echo extra; \
                  read l; echo two; echo ok; exec sleep 30";
    let mut engine = fixture(script, TIMEOUT).unwrap();
    assert_eq!(engine.command("a").unwrap().lines, ["one"]);
    std::thread::sleep(Duration::from_millis(100));
    let r = engine.command("b").unwrap();
    assert_eq!(r.lines, ["two"]);
    assert_eq!(r.stray, ["extra"]);
    drop_and_check(engine);
}

#[test]
fn missing_program_is_a_spawn_error() {
    for command_line in ["/nonexistent/hive-engine-xyz uhp", "", "   ", "sh \"-c"] {
        match UhpClient::spawn(command_line, TIMEOUT) {
            Err(err @ ClientError::Spawn { .. }) => {
                assert!(err.to_string().contains("cannot start engine"), "{err}");
            }
            other => panic!("{command_line:?}: expected a spawn error, got {other:?}"),
        }
    }
}

// --- hostile engines ---

/// Whether process `pid` is gone or a zombie (a killed process whose parent
/// is gone waits for init to reap it).
fn ended(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            stat.rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z'))
        })
        .unwrap_or(true)
}

/// The pid a fixture wrote to `file`, waiting for it to be written.
fn pid_in(file: &Path) -> u32 {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        if let Some(pid) = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "no pid in {}", file.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A file for a fixture to write a process id to, in a folder removed
/// when the folder is dropped.
fn pid_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = crate::common::scratch();
    let file = dir.path().join("pid");
    (dir, file)
}

#[test]
fn a_flood_of_lines_at_start_up_is_a_flood_not_gigabytes() {
    // `yes` as an engine used to cost gigabytes of memory per start-up;
    // the answer is bounded at MAX_ANSWER_LINES lines
    let err = start_up(fixture("exec yes", TIMEOUT).unwrap_err());
    match &err {
        ClientError::Flood {
            command,
            partial_output,
            ..
        } => {
            assert_eq!(command, STARTUP);
            assert!(partial_output.len() <= 20, "{}", partial_output.len());
        }
        other => panic!("expected a flood, got {other:?}"),
    }
    assert!(err.to_string().contains("10000 lines"), "{err}");
}

#[test]
fn output_without_a_line_break_is_a_flood_of_bytes() {
    // a line without end; the bytes dropped count toward the bound
    let err = start_up(fixture("exec cat /dev/zero", TIMEOUT).unwrap_err());
    assert!(
        matches!(&err, ClientError::Flood { .. }) && err.to_string().contains("2097152 bytes"),
        "{err:?}"
    );
}

#[test]
fn an_engine_whose_child_holds_stdout_is_reported_as_such_and_the_child_killed() {
    // the engine exits while a process it started keeps its stdout open;
    // that used to be a timeout, and the process was left running
    let (_dir, file) = pid_file();
    let script = format!(
        "sleep 30 & echo $! > {}; echo 'id held'; echo ok; read line; exit 3",
        file.display()
    );
    let mut engine = fixture(&script, TIMEOUT).expect("starts");
    let holder = pid_in(&file);
    match engine.command("info") {
        Err(ClientError::OutputHeldOpen {
            command, status, ..
        }) => {
            assert_eq!(command, "info");
            assert_eq!(status.and_then(|s| s.code()), Some(3));
        }
        other => panic!("expected the output held open, got {other:?}"),
    }
    let deadline = Instant::now() + TIMEOUT;
    while !ended(holder) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        ended(holder),
        "the process holding stdout, {holder}, is still running"
    );
}

#[test]
fn dropping_the_client_ends_what_the_engine_started() {
    // a background job of the engine (or the engine under a wrapper
    // without exec) used to outlive the check; the group is killed
    let (_dir, file) = pid_file();
    let script = format!(
        "sleep 30 & echo $! > {}; echo 'id parent'; echo ok; exec cat > /dev/null",
        file.display()
    );
    let engine = fixture(&script, TIMEOUT).expect("starts");
    let job = pid_in(&file);
    assert!(!ended(job));
    drop(engine);
    let deadline = Instant::now() + TIMEOUT;
    while !ended(job) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(ended(job), "the background job {job} is still running");
}
