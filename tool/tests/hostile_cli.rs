//! Hostile input to the command line and the UHP server: every
//! command finishes with the exit status the README gives, its output under
//! a stated size and its memory under a stated bound, for pictures asked
//! for far from the hive, huge amounts of work, closed pipes and full disks.
//!
//! Memory is bounded for real: the binary runs under `ulimit -v` (virtual
//! memory, in KiB) in `sh`. Time is never asserted: a generous timeout only
//! catches a hang (the issue's inputs ran for minutes or forever before).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use hive_oracle::input::{load_game, GameInput};
use hive_oracle_rules::core::Hex;
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::records::MAX_GAME_STRING_BYTES;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::render;
use hive_oracle_rules::rules::Rules;
use hive_oracle_rules::search::{best_move, SearchLimits, TranspositionTable};
use hive_oracle_rules::uhp::MAX_LINE_BYTES;

use crate::check_run::{Check, Checked};
use crate::common::scratch;

const BIN: &str = env!("CARGO_BIN_EXE_hive-oracle");

/// The virtual memory every run gets, in KiB (512 MiB): the runs here peak
/// under 30 MiB of resident memory (the largest `TableSizeMiB` aside).
const MEMORY_KIB: u64 = 512 * 1024;

/// Longer than any of these runs takes on a loaded 2-core machine: only a
/// hang reaches it.
const HANG: Duration = Duration::from_secs(120);

/// A small position: wQ (-1, 0), wS1 (0, 0), bS1 (1, 0), bQ (2, 0).
const GAME: &str = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";

/// A Base+MLP midgame of 30 random plies (seed 3 of a Python `random`
/// walk over `validmoves`), where `bestmove depth 5` costs 6.6 s of CPU and
/// depth 6 22 s (README, "As a UHP engine").
const MIDGAME: &str = "Base+MLP;InProgress;White[16];wB1;bS1 /wB1;wP wB1/;bB1 /bS1;wM wP/;bS2 bB1\\;wQ wM-;bQ bS2-;wQ \\wM;bA1 bQ-;wQ wM/;bA1 -bS1;wL \\wQ;bB2 /bB1;wL wM\\;bA2 bQ\\;wB2 -wQ;bM -bB2;wL /wB2;bG1 \\bA1;wS1 \\wB2;bG2 /bG1;wG1 wP\\;bA3 -bG2;wG2 /wL;bP bM\\;wQ wB2/;bA3 bS2\\;wA1 -wS1;bL /bA3";

/// Starts the binary under the memory bound with the given stdout.
fn spawn(args: &[&str], stdin: Stdio, stdout: Stdio, memory_kib: u64) -> Child {
    spawn_limited(args, stdin, stdout, &[&format!("-v {memory_kib}")])
}

/// Starts the binary under the `ulimit` settings `limits` (each one option
/// and its value: `-v KiB`, `-t CPU-seconds`) with the given stdout.
fn spawn_limited(args: &[&str], stdin: Stdio, stdout: Stdio, limits: &[&str]) -> Child {
    let limits: String = limits.iter().map(|l| format!("ulimit {l} && ")).collect();
    crate::common::command("sh")
        .arg("-c")
        .arg(format!("{limits}exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs")
}

/// Waits for a child, killing it (and failing) if it hangs.
fn wait(child: &mut Child, what: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("{what}: still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What a bounded run did.
struct Run {
    status: ExitStatus,
    /// The first 1 MiB of stdout.
    stdout: Vec<u8>,
    /// Every byte of stdout, counted.
    stdout_bytes: usize,
    stderr: String,
}

/// Runs the binary under the memory bound, stdin empty, stdout counted.
fn bounded(args: &[&str]) -> Run {
    bounded_with(args, b"", MEMORY_KIB)
}

fn bounded_with(args: &[&str], input: &[u8], memory_kib: u64) -> Run {
    bounded_limited(args, input, &[&format!("-v {memory_kib}")])
}

/// Runs the binary under the `ulimit` settings `limits`, `input` on stdin.
fn bounded_limited(args: &[&str], input: &[u8], limits: &[&str]) -> Run {
    let mut child = spawn_limited(args, Stdio::piped(), Stdio::piped(), limits);
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let counter = std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut total = 0usize;
        let mut buffer = [0u8; 1 << 16];
        while let Ok(n) = stdout.read(&mut buffer) {
            if n == 0 {
                break;
            }
            total += n;
            if kept.len() < 1 << 20 {
                kept.extend_from_slice(&buffer[..n]);
            }
        }
        (kept, total)
    });
    let mut stderr = child.stderr.take().expect("stderr");
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = wait(&mut child, &format!("{args:?}"));
    let _ = writer.join();
    let (stdout, stdout_bytes) = counter.join().expect("stdout read");
    let stderr = errors.join().expect("stderr read");
    Run {
        status,
        stdout,
        stdout_bytes,
        stderr,
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs each command under the memory bound: it exits with its status,
/// says `said` (on stderr or stdout) and prints little.
fn each_refuses(runs: &[(Vec<&str>, i32)], said: &str) {
    for (args, expected) in runs {
        let run = bounded(args);
        assert_eq!(
            run.status.code(),
            Some(*expected),
            "{args:?}: {}",
            run.stderr
        );
        let shown = format!("{}{}", run.stderr, text(&run.stdout));
        assert!(shown.contains(said), "{args:?}: {shown}");
        assert!(run.stdout_bytes < 4096, "{args:?}");
    }
}

// Pictures far from the hive ------------------------------------------------

#[test]
fn far_highlights_are_refused_with_the_allowed_range() {
    // Proves docs/limits.md `highlight-cells`.
    // Before: no output after 120 s and 797 MB; 21 s, 1.47 GB and 1.1 GB of
    // output; a 4 GiB allocation that aborted (134); a cell drawn in the
    // wrong place.
    for cells in [
        "2147483647,2147483647 -2147483648,-2147483648",
        "0,-50000000 0,50000000",
        "1073741824,0",
        "2147483647,0",
        "99999999999999999999999,0",
        "8,0",
        "0,-6",
    ] {
        for svg in [false, true] {
            let dir = scratch();
            let file = dir.path().join("picture.svg");
            let file_text = file.to_string_lossy().into_owned();
            let mut args = vec!["render", GAME, "--highlight", cells];
            if svg {
                args.extend(["--svg", &file_text]);
            }
            let run = bounded(&args);
            assert_eq!(run.status.code(), Some(1), "{cells}: {}", run.stderr);
            assert_eq!(run.stdout_bytes, 0, "{cells}");
            assert!(
                run.stderr
                    .contains("is outside the picture: a highlighted cell must have q from -6 to 7 and r from -5 to 5"),
                "{cells}: {}",
                run.stderr
            );
            assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
            assert!(!file.exists(), "{cells}: no SVG is written");
        }
    }
}

#[test]
fn a_highlight_at_the_edge_of_the_picture_is_drawn_in_its_place() {
    // the corners of the frame: q from -6 to 7, r from -5 to 5
    let run = bounded(&["render", GAME, "--highlight", "7,-5 -6,5"]);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let picture = text(&run.stdout);
    assert!(run.stdout_bytes < 4096, "{picture}");
    assert!(
        picture.contains("highlighted: (7, -5), (-6, 5)"),
        "{picture}"
    );
    let rows: Vec<&str> = picture.lines().collect();
    // (7, -5) is alone on the top row and (-6, 5) on the bottom row of the grid
    assert!(rows[0].trim() == "[.]", "{picture}");
    assert!(rows[10].trim() == "[.]", "{picture}");
    // column 2q + r: (7, -5) is at 9 half-cells, (-6, 5) at -7, the left edge
    assert_eq!(rows[10].find('['), Some(0), "{picture}");
    assert_eq!(rows[0].find('['), Some(16 * 4), "{picture}");
}

#[test]
fn pictures_of_extreme_coordinates_do_not_overflow() {
    // The library draws any cells it is given without overflowing (the test
    // profile checks overflow): cells beyond the frame are listed, not drawn.
    let game: ReferenceEngine = load_game(GAME, Default::default()).expect("loads");
    let extremes = [
        Hex::new(i32::MAX, i32::MAX),
        Hex::new(i32::MIN, i32::MIN),
        Hex::new(i32::MAX, i32::MIN),
        Hex::new(i32::MIN, 0),
        Hex::new(0, i32::MAX),
    ];
    let picture = render::ascii(&game, &extremes);
    assert!(picture.len() < 4096, "{picture}");
    assert!(picture.contains("(2147483647, 2147483647)"), "{picture}");
    let svg = render::svg(
        &game,
        &extremes,
        Some((Hex::new(i32::MAX, 0), Hex::new(i32::MIN, 0))),
    );
    assert!(svg.len() < 16384);
    assert!(render::check_highlight(&game, &extremes).is_err());
    let frame = render::Frame::of(&game);
    assert_eq!((frame.q, frame.r), ((-6, 7), (-5, 5)));
    assert!(frame.cell(i64::MAX, i64::MIN).is_err());
}

// Amounts of work -------------------------------------------------------------

#[test]
fn amounts_of_work_out_of_range_are_refused_before_any_work() {
    // Proves docs/limits.md `perft-depth`,
    // docs/limits.md `perft-threads`,
    // docs/limits.md `selfcheck-games`.
    for (args, range) in [
        (vec!["perft", "12"], "1..=11"),
        (vec!["perft", "4294967295"], "1..=11"),
        (vec!["perft", "0"], "1..=11"),
        (vec!["perft", "2", "--threads", "0"], "1..=256"),
        (vec!["perft", "2", "--threads", "100000"], "1..=256"),
        (
            vec!["selfcheck", "--games", "18446744073709551615"],
            "1..=1000000",
        ),
        (vec!["selfcheck", "--games", "0"], "1..=1000000"),
        (vec!["selfcheck", "--max-plies", "10000000"], "1..=10000"),
    ] {
        let run = bounded(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout_bytes, 0, "{args:?}");
        assert!(run.stderr.contains(range), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn a_game_string_over_the_limit_is_refused_unread() {
    // Proves docs/limits.md `game-string`.
    // Linux passes at most 128 KiB in one argument, so the limit is tested
    // through the library the command line loads with.
    let long = format!(
        "Base;InProgress;White[1];{}",
        "x".repeat(MAX_GAME_STRING_BYTES)
    );
    let refused = load_game::<ReferenceEngine>(&long, Default::default())
        .expect_err("too long")
        .to_string();
    assert!(
        refused.contains("the limit is 1048576 bytes (1 MiB)"),
        "{refused}"
    );
    assert!(GameInput::of_argument(&long).is_err());
}

// Write errors ----------------------------------------------------------------

/// One command of each kind, with what it prints.
fn printing_commands() -> Vec<Vec<&'static str>> {
    vec![
        vec!["perft", "7"],
        vec!["validmoves", GAME],
        vec!["play", GAME, "wA1 -wQ"],
        vec!["explain", GAME],
        vec!["explain", GAME, "wS1 wQ/"],
        vec!["render", GAME, "--move", "wQ \\wS1"],
        vec!["selfcheck", "--games", "1", "--max-plies", "20"],
        vec!["convert", GAME, "--to", "pgn"],
        vec!["replay", "tests/records/pgn"],
        vec!["check", "--print-schema"],
        // a real check of this binary's engine: protocol probes only
        vec!["check", "--no-corpus", "--games", "0"],
        vec!["uhp"],
        vec!["--help"],
    ]
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    // Proves docs/limits.md `closed-pipe`.
    // `perft 7 | head -1`: the reader takes one line and goes away.
    for args in printing_commands() {
        let mut child = spawn(&args, Stdio::piped(), Stdio::piped(), MEMORY_KIB);
        let mut stdin = child.stdin.take().expect("stdin");
        // the UHP server gets a session that would go on
        let _ = stdin.write_all(b"newgame Base\nvalidmoves\n");
        let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        let _ = reader.read_line(&mut first);
        drop(reader);
        // stdin stays open: the UHP server must write (and find its stdout
        // closed) to end, not see the end of its input
        let _ = stdin.write_all(b"validmoves\n");
        let _ = stdin.flush();
        let mut stderr = child.stderr.take().expect("stderr");
        let status = wait(&mut child, &format!("{args:?}"));
        drop(stdin);
        let mut errors = String::new();
        let _ = stderr.read_to_string(&mut errors);
        // replay's records include illegal games: its verdict (1) stands
        let expected = if args[0] == "replay" { 1 } else { 0 };
        assert_eq!(status.code(), Some(expected), "{args:?}: {errors}");
        assert!(!errors.contains("panicked"), "{args:?}: {errors}");
        assert!(!errors.contains("Broken pipe"), "{args:?}: {errors}");
    }
}

#[test]
fn a_full_disk_is_one_line_on_stderr_and_the_failure_status() {
    // Proves docs/limits.md `write-error`.
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    for args in printing_commands() {
        let output = full.try_clone().expect("clone");
        let mut child = spawn(&args, Stdio::piped(), Stdio::from(output), MEMORY_KIB);
        drop(child.stdin.take());
        let mut stderr = child.stderr.take().expect("stderr");
        let status = wait(&mut child, &format!("{args:?}"));
        let mut errors = String::new();
        let _ = stderr.read_to_string(&mut errors);
        let expected = match args[0] {
            // status 1 is their verdict; a report that cannot be written is 2
            "check" | "replay" => 2,
            _ => 1,
        };
        assert_eq!(status.code(), Some(expected), "{args:?}: {errors}");
        assert_eq!(errors.lines().count(), 1, "{args:?}: {errors}");
        assert!(
            errors.contains("No space left on device"),
            "{args:?}: {errors}"
        );
    }
}

// Exit statuses -----------------------------------------------------------------

#[test]
fn exit_statuses_agree_with_the_readme() {
    // Proves docs/limits.md `exit-0`, docs/limits.md `exit-1`, docs/limits.md `exit-2`.
    let missing = "/nonexistent/hive-oracle/game.pgn";
    let illegal = "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wQ -bQ";
    // (arguments, exit status, kind of bad input)
    let table: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["--help"], 0, "help"),
        (vec!["--version"], 0, "version"),
        (vec!["perft", "--help"], 0, "help"),
        (vec![], 2, "no command"),
        (vec!["frobnicate"], 2, "argument error"),
        (vec!["perft", "abc"], 2, "argument error"),
        (vec!["perft", "2", "Chess"], 1, "bad GameString"),
        (vec!["perft", "2", illegal], 1, "illegal move"),
        (vec!["perft", "2", missing], 1, "unreadable file"),
        (vec!["perft", "99"], 2, "out-of-range amount"),
        (vec!["validmoves"], 2, "argument error"),
        (vec!["validmoves", "Base;Bogus"], 1, "bad GameString"),
        (vec!["validmoves", illegal], 1, "illegal move"),
        (vec!["validmoves", missing], 1, "unreadable file"),
        (vec!["play", GAME], 2, "argument error"),
        (vec!["play", "Base;Bogus", "wS1"], 1, "bad GameString"),
        (vec!["play", GAME, "wQ -bQ"], 1, "illegal move"),
        (vec!["play", missing, "wS1"], 1, "unreadable file"),
        (vec!["render", GAME, "--colour"], 2, "argument error"),
        (vec!["render", "Base;Bogus"], 1, "bad GameString"),
        (vec!["render", GAME, "--move", "wQ -bQ -"], 1, "bad move"),
        (vec!["render", missing], 1, "unreadable file"),
        (
            vec!["render", GAME, "--highlight", "0,99"],
            1,
            "out-of-range amount",
        ),
        (
            vec!["render", GAME, "--svg", "/nonexistent/x.svg"],
            1,
            "unwritable file",
        ),
        (vec!["explain"], 2, "argument error"),
        (vec!["explain", "Base;Bogus"], 1, "bad GameString"),
        // an explained illegal move is the command's answer (README)
        (vec!["explain", GAME, "wQ -bQ"], 0, "illegal move"),
        (vec!["explain", missing], 1, "unreadable file"),
        (vec!["selfcheck", "--seed", "x"], 2, "argument error"),
        (
            vec!["selfcheck", "--game-type", "Chess"],
            2,
            "bad game type",
        ),
        (vec!["selfcheck", "--games", "0"], 2, "out-of-range amount"),
        (vec!["convert"], 2, "argument error"),
        (vec!["convert", "Base;Bogus"], 1, "bad GameString"),
        (vec!["convert", illegal], 1, "illegal move"),
        (
            vec!["convert", GAME, "--game", "0"],
            2,
            "out-of-range amount",
        ),
        (vec!["uhp", "--engine", "slow"], 2, "argument error"),
        // a usage error is 2 in every command (a mistyped option, a missing
        // or malformed argument, an amount outside its range): never taken
        // for a verdict or a refusal (1)
        (
            vec!["replay", "tests/records/pgn", "--jbos", "2"],
            2,
            "argument error",
        ),
        (vec!["selfcheck", "--gmaes", "2"], 2, "argument error"),
        (
            vec!["validmoves", "Base", "--engine", "slow"],
            2,
            "argument error",
        ),
        (vec!["check-merge", "--frobnicate"], 2, "argument error"),
        // replay: 2 when there is nothing to replay
        (vec!["replay"], 2, "argument error"),
        (vec!["replay", missing], 2, "unreadable file"),
        (
            vec!["replay", "tests/records/pgn", "--jobs", "0"],
            2,
            "out-of-range amount",
        ),
        // check: 2 when it cannot run, bad arguments included (README)
        (vec!["check", "--frobnicate"], 2, "argument error"),
        (vec!["check", "--jobs", "0"], 2, "out-of-range amount"),
        (
            vec!["check", "--corpus", "/nonexistent"],
            2,
            "unreadable folder",
        ),
    ];
    for (args, expected, kind) in table {
        let run = bounded(&args);
        assert_eq!(
            run.status.code(),
            Some(expected),
            "{kind}: {args:?}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
        if expected != 0 {
            assert!(!run.stderr.is_empty(), "{kind}: {args:?} says why");
        }
    }
}

// The UHP server --------------------------------------------------------------

/// Runs a UHP session under a memory bound and returns its output lines.
fn uhp_session(input: &[u8], memory_kib: u64) -> (Vec<String>, Run) {
    let run = bounded_with(&["uhp"], input, memory_kib);
    let lines = text(&run.stdout).lines().map(str::to_string).collect();
    (lines, run)
}

#[test]
fn uhp_amounts_out_of_range_get_err_and_keep_the_game() {
    // Proves docs/limits.md `bestmove-time`, docs/limits.md `undo`, docs/limits.md `table-size`.
    let input = b"newgame Base\nplay wS1\nbestmove time 99:99:99\nundo 99999999999999999999\nundo 2\noptions set TableSizeMiB 1099511627776\noptions set TableSizeMiB 0\nvalidmoves\nexit\n";
    let (lines, run) = uhp_session(input, MEMORY_KIB);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let errs: Vec<&String> = lines.iter().filter(|l| l.starts_with("err")).collect();
    assert_eq!(errs.len(), 5, "{lines:?}");
    assert!(errs[0].contains("from 00:00:01 to 24:00:00"), "{lines:?}");
    assert!(errs[1].contains("from 1 to 1"), "{lines:?}");
    assert!(errs[3].contains("from 1 to 1024"), "{lines:?}");
    // validmoves answers in the position after wS1: the game is unchanged
    let moves = &lines[lines.len() - 2];
    assert!(moves.starts_with("bA1 -wS1;"), "{lines:?}");
}

#[test]
fn uhp_the_largest_table_under_a_small_memory_bound_still_answers() {
    // Proves docs/limits.md `table-size`.
    // 1024 MiB asked for with 384 MiB of address space: the table halves
    // until it fits, and nothing aborts.
    let input = b"options set TableSizeMiB 1024\nnewgame Base\nbestmove depth 2\nexit\n";
    let (lines, run) = uhp_session(input, 384 * 1024);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("TableSizeMiB;int;") && l.ends_with(";16;1;1024")),
        "{lines:?}"
    );
    // the move: after the option line, the new game and their `ok`s
    assert!(lines[lines.len() - 2].starts_with('w'), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("err")), "{lines:?}");
}

#[test]
fn uhp_a_game_string_over_the_line_limit_is_refused_and_the_game_kept() {
    // Proves docs/limits.md `uhp-line`.
    // the size of the issue's 2-million-ply game (16 MB), built cheaply
    let mut input =
        b"newgame Base\nplay wS1\nnewgame Base;InProgress;White[1000001];wS1;bS1 wS1-".to_vec();
    while input.len() < 16_000_000 {
        input.extend_from_slice(b";wQ \\wS1;bQ bS1/");
    }
    input.extend_from_slice(b"\nvalidmoves\nexit\n");
    let (lines, run) = uhp_session(&input, MEMORY_KIB);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    assert!(run.stdout_bytes < 4096);
    assert!(
        lines
            .iter()
            .any(|l| l
                == &format!("err the line is longer than {MAX_LINE_BYTES} bytes and was skipped")),
        "{lines:?}"
    );
    assert!(lines[lines.len() - 2].starts_with("bA1 -wS1;"), "{lines:?}");
}

#[test]
fn uhp_a_time_search_stops_when_the_input_ends() {
    // Before: `bestmove time 99:99:99` searched on after the client left
    // (about 100 hours). Now the longest budget is refused, and the end of
    // the input stops a running time search, which answers its best move.
    let (lines, run) = uhp_session(b"newgame Base\nbestmove time 24:00:00\n", MEMORY_KIB);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    assert_eq!(lines.last().map(String::as_str), Some("ok"), "{lines:?}");
    assert!(lines[lines.len() - 2].starts_with('w'), "{lines:?}");
}

#[test]
fn uhp_a_depth_search_stops_when_the_input_ends() {
    // Proves docs/limits.md `bestmove-depth`.
    // Before: a depth search ran to its end after the client left (depth 6
    // of this midgame: 22 s of CPU, the issue's: 92 s). Now the end of the
    // input stops it at once and it answers its best move so far. Work is
    // counted, not time: the run gets 5 s of CPU (`ulimit -t`), many times
    // what the stopped search spends and a fraction of the full one's.
    let input = format!("options set MaxDepth 6\nnewgame {MIDGAME}\nbestmove depth 9\n");
    let run = bounded_limited(
        &["uhp"],
        input.as_bytes(),
        &[&format!("-v {MEMORY_KIB}"), "-t 5"],
    );
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let lines: Vec<String> = text(&run.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.last().map(String::as_str), Some("ok"), "{lines:?}");
    let answer = &lines[lines.len() - 2];
    assert!(answer.starts_with('w'), "a move of White: {lines:?}");
    // the answer is a legal move of the position
    let moves = bounded(&["validmoves", MIDGAME]);
    assert!(
        text(&moves.stdout).trim().split(';').any(|m| m == answer),
        "{answer} is not among the legal moves"
    );
}

/// The CPU time the process `pid` has used so far, in clock ticks (user and
/// system, fields 14 and 15 of `/proc/PID/stat`), or `None` once it is gone.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // the command name (field 2) is in parentheses and may hold spaces
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let user: u64 = fields.get(11)?.parse().ok()?;
    let system: u64 = fields.get(12)?.parse().ok()?;
    Some(user + system)
}

#[test]
fn uhp_a_perft_stops_when_the_input_ends_in_the_middle_of_a_depth() {
    // Before: the end of the input stopped `perft` only between two depths,
    // so `perft 8` from the Base start ran its last depth (2.9 billion
    // leaves, some 16 s of CPU) after the client left. Now it stops within
    // the depth. Work is counted, not time: the input ends once the server
    // has spent 2.5 s of CPU (250 ticks of 1/100 s; depths 1 to 7 cost
    // about 1 s, so depth 8 is under way), and the run gets 6 s of CPU in
    // all (`ulimit -t`).
    let mut child = spawn_limited(
        &["uhp"],
        Stdio::piped(),
        Stdio::piped(),
        &[&format!("-v {MEMORY_KIB}"), "-t 6"],
    );
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"newgame Base\nperft 8\n")
        .expect("the server reads its input");
    stdin.flush().expect("flushed");
    let pid = child.id();
    let start = Instant::now();
    while cpu_ticks(pid).is_some_and(|ticks| ticks < 250) && start.elapsed() < HANG {
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
    let status = wait(&mut child, "uhp perft 8");
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("stdout read");
    assert_eq!(status.code(), Some(0), "{status:?}: {out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[lines.len().saturating_sub(2)..],
        ["err the input ended: perft stopped", "ok"],
        "{out}"
    );
    assert!(
        !out.contains("perft(1)"),
        "a stopped count prints no count: {out}"
    );
}

#[test]
fn uhp_a_script_ending_with_exit_gets_the_whole_depth_search() {
    // The reader is at most one line ahead: while the search before `exit`
    // runs, the input has not ended, so the search is not cut short, and two
    // runs give the same (deterministic) answer as the search itself.
    let input = format!("newgame {MIDGAME}\nbestmove depth 2\nexit\n");
    let first = uhp_session(input.as_bytes(), MEMORY_KIB).0;
    let second = uhp_session(input.as_bytes(), MEMORY_KIB).0;
    assert_eq!(first, second);
    let answer = first.iter().rfind(|l| *l != "ok").expect("an answer");
    let game: FastEngine = load_game(MIDGAME, Default::default()).expect("the midgame");
    let limits = SearchLimits {
        depth: Some(2),
        time: None,
    };
    let best = best_move(&game, &limits, &mut TranspositionTable::new(16)).expect("a move");
    assert_eq!(answer, &game.move_string(best.best), "{first:?}");
}

#[test]
fn uhp_options_get_says_the_table_size_in_effect() {
    // 1024 MiB asked for under 384 MiB of address space: the table is
    // halved until it fits, and the option says the size it has.
    let input = b"options set TableSizeMiB 1024\noptions get TableSizeMiB\nexit\n";
    let (lines, run) = uhp_session(input, 384 * 1024);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let sizes: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("TableSizeMiB;"))
        .collect();
    assert_eq!(sizes.len(), 2, "{lines:?}");
    assert_eq!(sizes[0], sizes[1], "{lines:?}");
    let in_effect: u32 = sizes[0]
        .split(';')
        .nth(2)
        .and_then(|v| v.parse().ok())
        .expect("a size");
    assert!((1..=256).contains(&in_effect), "{lines:?}");
    assert!(in_effect.is_power_of_two(), "{lines:?}");
}

#[test]
fn record_files_over_the_limit_are_refused_unread() {
    // Proves docs/limits.md `record-file`.
    // A sparse 1 GiB file: reading it whole would pass the memory bound.
    let dir = scratch();
    let path = dir.path().join("huge.pgn");
    let file = std::fs::File::create(&path).expect("a temporary file");
    file.set_len(1 << 30).expect("a sparse file");
    drop(file);
    let name = path.to_string_lossy().into_owned();
    let runs = [
        (vec!["replay", name.as_str()], 1),
        (vec!["explain", name.as_str()], 1),
        (vec!["render", name.as_str()], 1),
        (vec!["validmoves", name.as_str()], 1),
        (vec!["convert", name.as_str()], 1),
    ];
    each_refuses(
        &runs,
        "the limit for a record file is 67108864 bytes (64 MiB)",
    );
}

/// An allocation the caps cannot prevent, refused by the allocator, is a
/// refusal naming the file with exit status 2, never an abort; the files
/// that fit are still replayed and reported. The refusal is forced by the
/// test hook of the `faults` feature (`HIVE_ORACLE_FAULT_ALLOCATION_LIMIT`:
/// requests over that many bytes are refused as an allocator out of memory
/// refuses them), so that no run here exhausts the machine's memory.
#[test]
fn a_record_too_large_for_memory_is_refused_with_status_2() {
    // Proves docs/limits.md `memory-refusal`.
    let scratch = scratch();
    let dir = scratch.path();
    let game = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/records/pgn/hivegame-trailing-spaces.pgn"
    ))
    .expect("the record");
    let small = put(dir, "a.pgn", &game);
    let large = put(dir, "b.pgn", &game.repeat(40));
    let run = |args: &[&str]| {
        let output = crate::common::command(BIN)
            .args(args)
            .env(hive_oracle::input::ALLOCATION_LIMIT_VARIABLE, "8192")
            .output()
            .expect("the binary runs");
        (
            output.status.code(),
            text(&output.stdout),
            text(&output.stderr),
        )
    };
    let refusal = format!("error: too large to replay in memory: {large}");
    for format in ["text", "json"] {
        let (status, stdout, stderr) = run(&["replay", "--format", format, &small, &large]);
        assert_eq!(status, Some(2), "{format}: {stderr}");
        assert!(stderr.contains(&refusal), "{format}: {stderr}");
        // the small file is replayed and reported
        assert!(
            stderr.contains("replayed 1 games") || stdout.contains("\"games\": 1"),
            "{format}: {stdout}{stderr}"
        );
    }
    let (_, stdout, _) = run(&["replay", &small, &large]);
    assert_eq!(stdout.lines().last(), Some("FAIL"), "{stdout}");
    for command in ["validmoves", "explain", "convert"] {
        let (status, _, stderr) = run(&[command, &large]);
        assert_eq!(status, Some(2), "{command}: {stderr}");
        assert!(stderr.contains(&refusal), "{command}: {stderr}");
    }
    // under the limit, the same file replays
    let (status, _, stderr) = run(&["replay", &small]);
    assert_eq!(status, Some(0), "{stderr}");
}

// Nothing destroyed: outputs checked at the start, written whole at the end -

/// Writes `bytes` to `dir/name` and returns the path as text.
fn put(dir: &std::path::Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("written");
    path.to_string_lossy().into_owned()
}

/// The names in `dir`, sorted: no temporary file may be left behind.
fn names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("listed")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Runs the binary and asserts its exit status and that every file of
/// `kept` holds the same bytes as before.
fn assert_kept(args: &[&str], status: i32, kept: &[&str]) -> Run {
    let before: Vec<Vec<u8>> = kept
        .iter()
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    let run = bounded(args);
    assert_eq!(run.status.code(), Some(status), "{args:?}: {}", run.stderr);
    for (path, bytes) in kept.iter().zip(before) {
        assert_eq!(
            std::fs::read(path).expect("read"),
            bytes,
            "{args:?} changed {path}"
        );
    }
    run
}

#[test]
fn a_check_whose_engine_is_missing_leaves_its_report_files_unchanged() {
    // Proves docs/limits.md `output-whole`.
    // Before: `--out` and `--write-baseline` were truncated at the start, so
    // a run whose engine did not start left both at 0 bytes.
    let scratch = scratch();
    let dir = scratch.path();
    let report = put(dir, "report.txt", b"last night's report\n");
    let baseline = put(dir, "baseline.json", b"{\"version\":2,\"findings\":[]}\n");
    let engine = dir.join("no-such-engine").to_string_lossy().into_owned();
    let args = [
        "check",
        "--engine",
        &engine,
        "--no-corpus",
        "--out",
        &report,
        "--write-baseline",
        &baseline,
    ];
    let run = assert_kept(&args, 2, &[&report, &baseline]);
    assert!(run.stderr.contains("error:"), "{}", run.stderr);
    assert_eq!(names(dir), ["baseline.json", "report.txt"]);
}

/// A corpus folder `corpus` in `dir` holding one case file (a copy of
/// tests/cases/queen-bee.toml): the folder's path and the file's.
fn corpus_folder(dir: &std::path::Path) -> (String, String) {
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).expect("a corpus folder");
    let case = put(
        &corpus,
        "queen-bee.toml",
        &std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/cases/queen-bee.toml"
        ))
        .expect("the case file"),
    );
    (corpus.to_string_lossy().into_owned(), case)
}

#[test]
fn a_report_onto_a_file_the_check_reads_is_refused_before_any_work() {
    // Proves docs/limits.md `output-not-input`.
    let scratch = scratch();
    let dir = scratch.path();
    let (corpus, case) = corpus_folder(dir);
    // an engine script that would run the check's own engine
    let script = put(
        dir,
        "engine.sh",
        format!("#!/bin/sh\nexec {BIN} uhp\n").as_bytes(),
    );
    let sh_engine = format!("sh {script}");
    let baseline = put(dir, "baseline.json", b"{\"version\":2,\"findings\":[]}\n");
    for (args, refused) in [
        (
            vec!["--corpus", &corpus, "--out", &case],
            "a corpus case file",
        ),
        (
            vec!["--corpus", &corpus, "--write-baseline", &case],
            "a corpus case file",
        ),
        (
            vec!["--engine", &sh_engine, "--out", &script],
            "engine's command line",
        ),
        (
            vec!["--baseline", &baseline, "--write-baseline", &baseline],
            "the baseline",
        ),
        (vec!["--out", BIN], "the engine"),
    ] {
        let mut all = vec!["check", "--games", "0"];
        if !args.contains(&"--corpus") {
            all.push("--no-corpus");
        }
        all.extend(args);
        let run = assert_kept(&all, 2, &[&case, &script, &baseline]);
        assert!(run.stderr.contains(refused), "{all:?}: {}", run.stderr);
        // before any work: no engine was started, no report printed
        assert!(run.stdout.is_empty(), "{all:?}: {}", text(&run.stdout));
    }
}

/// No output lands on an input: every file the `--records` folder walk
/// reads (its subfolders and zip archives included) is refused as the target
/// of `--out` and `--write-baseline` before any work, and so is a `.toml`
/// file in a `--corpus` folder, which the next check would read as cases.
/// Before: `check --records DIR --out DIR/game.pgn` replaced the record with
/// the report and exited 0 (the attack of the hostile-user review).
#[test]
fn a_report_onto_a_file_of_a_folder_walk_is_refused_before_any_work() {
    // Proves docs/limits.md `output-not-input`.
    let scratch = scratch();
    let dir = scratch.path();
    let records = dir.join("records");
    std::fs::create_dir_all(records.join("sub")).expect("the folders");
    let read = |path: &str| {
        std::fs::read(format!(
            "{}/../tests/records/{path}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("a test record")
    };
    let game = put(&records, "game.pgn", &read("pgn/crlf.pgn"));
    let nested = put(&records.join("sub"), "nested.PGN", &read("pgn/crlf.pgn"));
    let archive = put(&records, "archive.zip", &read("zip/archive.zip"));
    let records = records.to_string_lossy().into_owned();
    let (corpus, _) = corpus_folder(dir);
    let new_case = format!("{corpus}/report.toml");
    for target in [&game, &nested, &archive] {
        for option in ["--out", "--write-baseline"] {
            let args = [
                "check",
                "--no-corpus",
                "--games",
                "0",
                "--records",
                &records,
                option,
                target,
            ];
            let run = assert_kept(&args, 2, &[&game, &nested, &archive]);
            assert!(
                run.stderr.contains("a game record of a --records folder"),
                "{args:?}: {}",
                run.stderr
            );
            assert!(run.stdout.is_empty(), "{args:?}: {}", text(&run.stdout));
        }
    }
    for option in ["--out", "--write-baseline"] {
        let args = [
            "check", "--corpus", &corpus, "--games", "0", option, &new_case,
        ];
        let run = bounded(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("would be read as a case file"),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(
            names(std::path::Path::new(&corpus)),
            ["queen-bee.toml"],
            "{args:?} wrote into the corpus folder"
        );
    }
}

/// A corpus file that is not TOML is named with the line and column where
/// the reader stopped, in one line of stderr. Before: the TOML reader's
/// message of five lines (a picture of the text) was printed as one line
/// with every line break escaped as a literal `\x0a`.
#[test]
fn a_corpus_file_that_is_not_toml_is_named_in_one_readable_line() {
    let scratch = scratch();
    let corpus = scratch.path().join("corpus");
    std::fs::create_dir_all(&corpus).expect("a corpus folder");
    put(
        &corpus,
        "broken.toml",
        b"[[case]]\nname = \"x\"\nmoves = [\n",
    );
    let corpus = corpus.to_string_lossy().into_owned();
    let run = bounded(&["check", "--corpus", &corpus, "--games", "0"]);
    assert_eq!(run.status.code(), Some(2), "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert!(
        lines[0].contains("broken.toml: line 3, column 10: "),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("\\x0a"), "{}", run.stderr);
}

#[test]
fn two_outputs_naming_one_file_are_refused() {
    // Proves docs/limits.md `output-not-input`.
    let scratch = scratch();
    let dir = scratch.path();
    let report = put(dir, "report.json", b"kept\n");
    let other_spelling = dir
        .join(".")
        .join("report.json")
        .to_string_lossy()
        .into_owned();
    let args = [
        "check",
        "--no-corpus",
        "--games",
        "0",
        "--out",
        &report,
        "--write-baseline",
        &other_spelling,
    ];
    let run = assert_kept(&args, 2, &[&report]);
    assert!(run.stderr.contains("the output of --out"), "{}", run.stderr);
    // and the same file as a new one, not yet there
    let new = dir.join("new.json").to_string_lossy().into_owned();
    let run = bounded(&[
        "check",
        "--no-corpus",
        "--games",
        "0",
        "--out",
        &new,
        "--write-baseline",
        &new,
    ]);
    assert_eq!(run.status.code(), Some(2), "{}", run.stderr);
    assert_eq!(names(dir), ["report.json"]);
}

#[test]
fn a_passing_check_replaces_its_report_whole() {
    // Proves docs/limits.md `output-whole`.
    let scratch = scratch();
    let dir = scratch.path();
    let report = put(dir, "report.txt", b"last night's report\n");
    let args = [
        "check",
        "--no-corpus",
        "--games",
        "1",
        "--max-plies",
        "4",
        "--out",
        &report,
    ];
    let run = bounded(&args);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let written = std::fs::read(&report).expect("read");
    assert_eq!(written, run.stdout, "the file holds the report printed");
    assert_eq!(names(dir), ["report.txt"]);
}

#[test]
fn render_never_writes_its_picture_over_the_record_drawn() {
    // Proves docs/limits.md `output-not-input`.
    // Before: `render game.pgn --svg game.pgn` replaced the record with SVG.
    let scratch = scratch();
    let dir = scratch.path();
    let record = put(
        dir,
        "game.pgn",
        &std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/records/pgn/crlf.pgn"
        ))
        .expect("the record"),
    );
    let run = assert_kept(&["render", &record, "--svg", &record], 2, &[&record]);
    assert!(
        run.stderr.contains("the game record drawn"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
    // a game that does not load leaves an existing picture as it was
    let picture = put(dir, "old.svg", b"<svg/>\n");
    assert_kept(
        &["render", "Base;NotAState;White[1]", "--svg", &picture],
        1,
        &[&picture],
    );
    // and a picture drawn replaces it
    let run = bounded(&["render", &record, "--svg", &picture]);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let drawn = text(&std::fs::read(&picture).expect("read"));
    assert!(drawn.contains("<svg") && drawn.len() > 100, "{drawn}");
    assert_eq!(names(dir), ["game.pgn", "old.svg"]);
}

// The smaller points: empty lists, size limits, special files ---------------

#[test]
fn empty_lists_are_refused() {
    // Proves docs/limits.md `list-option`.
    for (args, status, said) in [
        (
            vec!["check", "--no-corpus", "--game-types", ",,,"],
            2,
            "--game-types: the list is empty",
        ),
        (
            vec!["check", "--no-corpus", "--game-types", ""],
            2,
            "--game-types: the list is empty",
        ),
        (
            vec!["check", "--no-corpus", "--rules", ", ,"],
            2,
            "--rules: the list is empty",
        ),
        (
            vec!["render", GAME, "--highlight", ";,;"],
            1,
            "--highlight: the list is empty",
        ),
    ] {
        let run = bounded(&args);
        assert_eq!(run.status.code(), Some(status), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(said), "{args:?}: {}", run.stderr);
        assert!(
            run.stdout.is_empty(),
            "{args:?}: nothing was played or drawn"
        );
    }
}

/// Runs `check` (no engine work) under the memory bound with a baseline
/// of `entries` short entries, written in `dir`.
fn check_with_baseline(dir: &std::path::Path, entries: usize) -> Checked {
    let listed: Vec<String> = (0..entries)
        .map(|i| format!("{{\"fingerprint\":\"f{i}\"}}"))
        .collect();
    let text = format!("{{\"version\":2,\"findings\":[{}]}}", listed.join(","));
    let baseline = put(dir, &format!("baseline-{entries}.json"), text.as_bytes());
    Check::new()
        .args(["--no-corpus", "--games", "0", "--baseline", &baseline])
        .memory_kib(MEMORY_KIB)
        .run()
}

#[test]
fn baseline_and_corpus_files_over_their_limits_are_refused() {
    // Proves docs/limits.md `baseline-file`, docs/limits.md `corpus-file`.
    let scratch = scratch();
    let dir = scratch.path();
    // 2 million entries (the issue's 157 MB of notes): refused unread
    let run = check_with_baseline(dir, 2_000_000);
    assert_eq!(run.status, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("the limit is 4194304 bytes"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.len() < 1000 && run.stdout.is_empty(),
        "{}",
        run.stderr
    );
    // within the size but with too many entries: refused too
    let run = check_with_baseline(dir, 10_001);
    assert_eq!(run.status, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("lists 10001 entries; the limit is 10000"),
        "{}",
        run.stderr
    );
    // a sparse corpus file of 1 GiB: refused unread
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).expect("a corpus folder");
    let file = std::fs::File::create(corpus.join("huge.toml")).expect("a file");
    file.set_len(1 << 30).expect("a sparse file");
    drop(file);
    let corpus = corpus.to_string_lossy().into_owned();
    let run = bounded(&["check", "--games", "0", "--corpus", &corpus]);
    assert_eq!(run.status.code(), Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the file is 1073741824 bytes long; the limit is 4194304 bytes"),
        "{}",
        run.stderr
    );
}

// Folder walks and paths that are not regular files ----------------------------
//
// A FIFO among a folder's files blocked `replay` forever; `x.pgn -> /dev/zero`
// was read until memory ran out (a device reports size 0); a link `a -> .`
// replayed each file again through the link, and two such links made the walk
// exponential. Each run below finishes at once; a regression would hang it
// until `wait` kills the child after `HANG`.

/// A short legal game: two plies, no result (nothing to check on the board).
#[cfg(unix)]
const TWO_PLIES: &str = "[GameType \"Base\"]\n\n1. wS1\n2. bS1 -wS1\n";

#[cfg(unix)]
fn make_fifo(path: &std::path::Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Replays `dir` and checks it counted `games` games from `files` files,
/// exit 0, with each of `notes` on stderr.
#[cfg(unix)]
fn replay_counts(dir: &std::path::Path, games: usize, files: usize, notes: &[&str]) {
    let name = dir.to_string_lossy().into_owned();
    let run = bounded(&["replay", &name]);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let summary = format!(
        "replayed {games} games ({} plies) from {files} files",
        2 * games
    );
    assert!(run.stderr.contains(&summary), "{}", run.stderr);
    for note in notes {
        assert!(run.stderr.contains(note), "no {note:?} in {}", run.stderr);
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_among_a_folders_files_is_skipped_with_a_note() {
    // Proves docs/limits.md `folder-walk`.
    let scratch = scratch();
    let dir = scratch.path();
    std::fs::write(dir.join("a.pgn"), TWO_PLIES).expect("a record");
    make_fifo(&dir.join("b.pgn"));
    std::fs::write(dir.join("c.pgn"), TWO_PLIES).expect("a record");
    replay_counts(
        dir,
        2,
        2,
        &["b.pgn: a FIFO (named pipe), not a regular file"],
    );
}

#[cfg(unix)]
#[test]
fn a_link_to_a_device_in_a_folder_is_skipped_unread() {
    let scratch = scratch();
    let dir = scratch.path();
    std::fs::write(dir.join("a.pgn"), TWO_PLIES).expect("a record");
    std::os::unix::fs::symlink("/dev/zero", dir.join("x.pgn")).expect("a link");
    replay_counts(dir, 1, 1, &["x.pgn: a link to a character device"]);
}

#[cfg(unix)]
#[test]
fn links_to_folders_are_not_followed_and_each_file_is_read_once() {
    // Proves docs/limits.md `folder-walk`.
    // One link back to the folder, then two (exponential before), then a
    // second name for the record itself: always one game from one file.
    let scratch = scratch();
    let dir = scratch.path();
    std::fs::create_dir(dir.join("games")).expect("a folder");
    std::fs::write(dir.join("games/a.pgn"), TWO_PLIES).expect("a record");
    std::os::unix::fs::symlink(".", dir.join("games/a")).expect("a link");
    replay_counts(dir, 1, 1, &["a: a link to a folder, not followed"]);
    std::os::unix::fs::symlink("..", dir.join("games/b")).expect("a link");
    replay_counts(dir, 1, 1, &["b: a link to a folder, not followed"]);
    std::os::unix::fs::symlink("a.pgn", dir.join("games/same.pgn")).expect("a link");
    std::fs::hard_link(dir.join("games/a.pgn"), dir.join("games/hard.pgn")).expect("a link");
    replay_counts(
        dir,
        1,
        1,
        &["same.pgn: the same file", "hard.pgn: the same file"],
    );
    // The folder named twice, and through a link given directly.
    let name = dir.to_string_lossy().into_owned();
    let link = dir.join("games/a").to_string_lossy().into_owned();
    let run = bounded(&["replay", &name, &name, &link]);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("replayed 1 games (2 plies) from 1 files"),
        "{}",
        run.stderr
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_or_device_given_as_a_record_is_named_for_what_it_is() {
    // Proves docs/limits.md `not-a-regular-file`.
    let scratch = scratch();
    let dir = scratch.path();
    let fifo = dir.join("game.pgn");
    make_fifo(&fifo);
    let fifo = fifo.to_string_lossy().into_owned();
    for (path, kind) in [
        (fifo.as_str(), "is a FIFO (named pipe), not a regular file"),
        ("/dev/zero", "is a character device, not a regular file"),
        ("/dev/null", "is a character device, not a regular file"),
    ] {
        for (args, expected) in [
            (vec!["replay", path], 2),
            (vec!["explain", path], 1),
            (vec!["render", path], 1),
            (vec!["validmoves", path], 1),
            (vec!["convert", path], 1),
        ] {
            let run = bounded(&args);
            assert_eq!(
                run.status.code(),
                Some(expected),
                "{args:?}: {}",
                run.stderr
            );
            assert!(run.stderr.contains(kind), "{args:?}: {}", run.stderr);
            assert!(
                !run.stderr.contains("no such file"),
                "{args:?}: {}",
                run.stderr
            );
        }
    }
}

// Control characters from outside --------------------------------------------
//
// Record contents and file names reached the terminal raw: an escape sequence
// in a tag recoloured it, and a line feed in a file name forged a report line
// ("FAKE: 0 problems"). Every byte the tool prints below 0x20 must now be a
// line feed it wrote itself.

/// The first control character of an output (other than a line feed), as
/// a byte offset and the character: C0, DEL and C1 (U+0080–U+009F).
fn raw_control(output: &str) -> Option<(usize, char)> {
    output
        .char_indices()
        .find(|&(_, c)| c != '\n' && c.is_control())
}

/// A legal record whose tags and comment hold terminal escapes, NUL, BEL,
/// DEL and a C1 CSI.
#[cfg(unix)]
const EVIL_LEGAL: &str = "[GameType \"Base\"]\n[White \"\u{1b}[31mred\u{0}\u{7}\"]\n\
[Black \"\u{9b}2J\u{7f}\"]\n{\u{1b}]0;title\u{7} comment}\n1. wS1\n2. bS1 -wS1\n3. wQ -wS1\n";

/// A record whose third ply is not a MoveString: its text (an escape
/// sequence, a NUL) is quoted in the error.
#[cfg(unix)]
const EVIL_PLY: &str = "[GameType \"Base\"]\n\n1. wS1\n2. bS1 -wS1\n3. wQ \u{1b}[2J\u{0}\n";

#[cfg(unix)]
#[test]
fn no_control_character_from_a_file_name_or_a_record_reaches_the_output() {
    // Proves docs/limits.md `escapes`.
    let scratch = scratch();
    let dir = scratch.path();
    let folder = dir.join("games\u{1b}[31m\rcr\nFAKE: 0 problems\n");
    std::fs::create_dir(&folder).expect("a folder with controls in its name");
    let legal = folder.join("legal\u{1b}]0;t\u{7}\n.pgn");
    let illegal = folder.join("bad\r\u{1b}[2K\nFAKE.pgn");
    std::fs::write(&legal, EVIL_LEGAL).expect("a record");
    std::fs::write(&illegal, EVIL_PLY).expect("a record");
    let (folder, legal, illegal) = (
        folder.to_string_lossy().into_owned(),
        legal.to_string_lossy().into_owned(),
        illegal.to_string_lossy().into_owned(),
    );
    let missing = format!("{folder}/missing\u{1b}[1m\n.pgn");
    let engine = format!("'{folder}/engine\u{1b}[5m\n'");
    let runs: Vec<Vec<&str>> = vec![
        vec!["replay", &folder],
        vec!["replay", &legal, &illegal],
        vec!["replay", &missing],
        vec!["convert", &legal, "--to", "pgn"],
        vec!["convert", &illegal],
        vec!["explain", &legal, "2"],
        vec!["explain", &legal, "wQ \u{1b}[2J"],
        vec!["explain", &illegal],
        vec!["validmoves", &legal],
        vec!["validmoves", &illegal],
        vec!["validmoves", &missing],
        vec!["render", &legal, "--highlight", "\u{1b}[31m"],
        vec!["render", &illegal],
        vec!["play", &legal, "wQ\u{1b}[2J"],
        // clap quotes a refused value with its control characters removed
        vec!["replay", "--format", "\u{7}\u{1b}[31m\r", &legal],
        vec!["check", "--engine", &engine, "--no-corpus", "--games", "0"],
    ];
    for args in &runs {
        let run = bounded(args);
        let stdout = text(&run.stdout);
        for (stream, output) in [("stdout", &stdout), ("stderr", &run.stderr)] {
            if let Some((at, c)) = raw_control(output) {
                panic!("{args:?}: {stream} holds {c:?} at byte {at}:\n{output}");
            }
        }
        // What came from outside is shown, escaped: the test sees it.
        let shown = format!("{stdout}{}", run.stderr);
        if args[1] == "--format" {
            assert!(shown.contains("invalid value"), "{shown}");
            continue;
        }
        assert!(
            shown.contains("\\x"),
            "{args:?}: nothing escaped shown:\n{shown}"
        );
    }
}

// Memory bounded by the limits -------------------------------------------------

#[cfg(unix)]
#[test]
fn a_record_game_over_the_game_string_limit_is_refused_by_every_command() {
    // 400,000 plies (3.2 MiB of GameString): `validmoves game.pgn` took 41 s
    // and 3.3 GB with 2.8 million; now refused as the reader reaches ply
    // 131,073, within the 512 MiB bound of `bounded`.
    let scratch = scratch();
    let dir = scratch.path();
    let path = dir.join("long.pgn");
    let mut record = String::from("[GameType \"Base\"]\n\n");
    for ply in 1..=400_000 {
        record.push_str(&format!("{ply}. wQ wS1-\n"));
    }
    std::fs::write(&path, record).expect("a record");
    let name = path.to_string_lossy().into_owned();
    let runs = [
        (vec!["validmoves", name.as_str()], 1),
        (vec!["explain", name.as_str(), "3"], 1),
        (vec!["convert", name.as_str()], 1),
        (vec!["replay", name.as_str()], 1),
    ];
    each_refuses(&runs, "the game is too large");
}
