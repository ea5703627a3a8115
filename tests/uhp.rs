//! The UHP engine session (`src/uhp/`, what `hive-oracle uhp` runs).
//!
//! * Transcripts: every `tests/uhp/*.txt` is a list of input lines (raw
//!   bytes, one command per line; a line starting with `# ` is a comment and
//!   is not sent). Each is run through a [`Session`] on the fast engine and
//!   its whole output is snapshotted with insta (`tests/snapshots/uhp_*.snap`); the same
//!   transcript on the reference engine must print the same output (the
//!   `Engine` option line aside). Every refused command (`err`, `invalidmove`)
//!   must leave the GameString and the options as they were.
//! * A seeded stream of random and hostile lines: no panic, every non-blank
//!   line answered and ending with `ok`, refused commands change nothing.
//! * The real binary (banner, a short session, a clean exit at end of input)
//!   is the tool's (`tool/tests/uhp_binary.rs`).
//!
//! Update the snapshots with `INSTA_UPDATE=always cargo test --test integration uhp::`
//! (or `cargo insta review`), then read the diff.

use std::fs;
use std::path::Path;

use hive_oracle_rules::fuzzing::{is_refusal, reply_problem};
use hive_oracle_rules::uhp::{EngineChoice, Options, Session};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The input lines of a transcript file: split on `\n` only, so that `\r`
/// and every other byte reach the session as they are.
fn transcript_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// An input line as shown in a snapshot: control bytes and invalid UTF-8 escaped.
fn shown(line: &[u8]) -> String {
    line.utf8_chunks()
        .flat_map(|chunk| {
            let valid: String = chunk
                .valid()
                .chars()
                .map(|c| {
                    if c.is_control() {
                        c.escape_default().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            let invalid: String = chunk
                .invalid()
                .iter()
                .map(|b| format!("\\x{b:02x}"))
                .collect();
            [valid, invalid]
        })
        .collect()
}

/// Checks the framing of one reply and that a refusal changed nothing
/// (the rule the `uhp_session` fuzz target checks too).
fn check_reply(
    line: &[u8],
    reply: &[String],
    before: &(Option<String>, Options),
    session: &Session,
) {
    if let Err(problem) = reply_problem(line, reply, before, session) {
        panic!("{:?}: {problem}: {reply:?}", shown(line));
    }
}

/// Runs a transcript on a new session and returns its output, with each
/// input line shown after `> `.
fn run_transcript(bytes: &[u8], engine: EngineChoice) -> String {
    let mut session = Session::new(engine);
    let mut out = String::new();
    for line in session.banner() {
        out.push_str(&line);
        out.push('\n');
    }
    for line in transcript_lines(bytes) {
        if line.starts_with(b"# ") {
            out.push_str(&String::from_utf8_lossy(line));
            out.push('\n');
            continue;
        }
        let before = (session.game_string(), *session.options());
        let reply = session.handle_line(line);
        check_reply(line, &reply, &before, &session);
        out.push_str(&format!("> {}\n", shown(line)));
        for l in reply {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

/// The transcript files, sorted by name.
fn transcript_files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/uhp");
    let mut files: Vec<_> = fs::read_dir(dir)
        .expect("tests/uhp")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn transcripts() {
    let files = transcript_files();
    assert!(files.len() >= 10, "{files:?}");
    for path in files {
        let bytes = fs::read(&path).expect("transcript");
        let fast = run_transcript(&bytes, EngineChoice::Fast);
        let reference = run_transcript(&bytes, EngineChoice::Reference);
        let without_engine_line = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| !l.starts_with("Engine;enum;"))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(
            without_engine_line(&fast),
            without_engine_line(&reference),
            "{}: the engines answer differently",
            path.display()
        );
        let name = path
            .file_stem()
            .and_then(|stem| stem.to_str())
            .expect("a file name");
        insta::with_settings!({
            input_file => &path,
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("uhp_{name}"), fast);
        });
    }
}

/// The transcripts together use every command and every game type.
#[test]
fn transcripts_cover_every_command() {
    let mut all = String::new();
    for path in transcript_files() {
        all.push_str(&String::from_utf8_lossy(&fs::read(&path).expect("file")));
    }
    for command in [
        "info",
        "newgame",
        "play",
        "pass",
        "validmoves",
        "bestmove depth",
        "bestmove time",
        "undo",
        "perft",
        "options get",
        "options set",
        "exit",
    ] {
        assert!(all.contains(command), "no transcript uses {command}");
    }
    for game_type in [
        "Base+M\n",
        "Base+L\n",
        "Base+P\n",
        "Base+ML\n",
        "Base+MP\n",
        "Base+LP\n",
        "Base+MLP\n",
    ] {
        assert!(all.contains(game_type), "no transcript plays {game_type}");
    }
}

/// A depth search gives the same move whatever was searched before
/// (the table of earlier searches is not consulted).
#[test]
fn depth_searches_do_not_depend_on_earlier_searches() {
    let position = format!("newgame {}", POSITIONS[1]);
    let mut fresh = Session::new(EngineChoice::Fast);
    fresh.handle_line(position.as_bytes());
    fresh.handle_line(b"play wS1");
    let expected = fresh.handle_line(b"bestmove depth 3");
    let mut used = Session::new(EngineChoice::Fast);
    for line in [
        "newgame Base+MLP",
        "play wS1",
        "bestmove depth 2",
        "play bS1 wS1-",
        "bestmove depth 3",
        "undo",
        "bestmove depth 1",
    ] {
        used.handle_line(line.as_bytes());
    }
    assert_eq!(used.handle_line(b"bestmove depth 3"), expected);
}

// ---------------------------------------------------------------------------
// Random and hostile input
// ---------------------------------------------------------------------------

const POSITIONS: &[&str] = &[
    "Base",
    "Base+MLP",
    "Base+M",
    "Base+LP",
    // White must pass (§7.2).
    "Base;InProgress;White[15];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wQ wS1/;bB1 \\bS1;wQ wS1-;bA1 -bQ;wQ wS1/;bA2 bA1\\;wQ wS1-;bA3 -bB1;wQ wS1/;bA1 wS1\\;wQ bA1/;bA2 wQ\\;wQ bA2/;bB1 \\wS1;wQ \\bA2;bB1 wS1;wQ bA2/;bB2 \\bS1;wQ \\bA2;bB2 \\bB1;wQ bA2/;bB2 bB1/;wQ bB2\\;bA3 wQ/",
    // White wins with wA1 wQ/ (§8.2).
    "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wQ wS1/;bG1 bQ-;wG1 -wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 /wS1;bA1 bS1\\",
    // Over: a draw (§8.3).
    "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wQ wS1/;bG1 bQ-;wG1 \\wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 -wS1;bA1 bS1\\;wA1 wQ/",
];

const WORDS: &[&str] = &[
    "info",
    "newgame",
    "play",
    "pass",
    "validmoves",
    "bestmove",
    "undo",
    "options",
    "get",
    "set",
    "depth",
    "time",
    "exit",
    "wS1",
    "bQ",
    "-wS1",
    "wS1/",
    "\\bQ",
    "Engine",
    "Reference",
    "Fast",
    "MaxDepth",
    "TableSizeMiB",
    "TournamentOpening",
    "RepetitionDraw",
    "True",
    "False",
    "99999999999999999999",
    "0",
    "-1",
    "Base;InProgress;White[2];wS1;bS1 wS1-;",
    ";",
    "",
];

fn pick<'a>(rng: &mut StdRng, items: &[&'a str]) -> &'a str {
    items[rng.random_range(0..items.len())]
}

/// A line of one of several kinds: a valid command, a legal or illegal move,
/// a mutated command, random bytes, a huge number, a long line.
fn random_line(rng: &mut StdRng, session: &Session) -> Vec<u8> {
    let legal: Vec<String> = session
        .game()
        .filter(|g| !g.state().is_over())
        .map(|g| {
            g.legal_moves()
                .into_iter()
                .map(|m| g.move_string(m))
                .collect()
        })
        .unwrap_or_default();
    let line: Vec<u8> = match rng.random_range(0..20) {
        0..=5 if !legal.is_empty() => {
            format!("play {}", legal[rng.random_range(0..legal.len())]).into_bytes()
        }
        0..=2 => format!("newgame {}", pick(rng, POSITIONS)).into_bytes(),
        3 => b"validmoves".to_vec(),
        4 => format!("undo {}", rng.random_range(0..4)).into_bytes(),
        5 => b"pass".to_vec(),
        6 => format!("bestmove depth {}", rng.random_range(0..3)).into_bytes(),
        7 => {
            let name = pick(
                rng,
                &[
                    "Engine",
                    "MaxDepth",
                    "TournamentOpening",
                    "RepetitionDraw",
                    "TableSizeMiB",
                    "Bogus",
                ],
            );
            let value = pick(
                rng,
                &["Fast", "Reference", "True", "False", "1", "2", "0", "x"],
            );
            format!("options set {name} {value}").into_bytes()
        }
        8 => {
            // Words thrown together.
            let n = rng.random_range(1..6);
            (0..n)
                .map(|_| pick(rng, WORDS))
                .collect::<Vec<_>>()
                .join(" ")
                .into_bytes()
        }
        9 | 10 => {
            // A valid command with bytes changed, inserted or removed.
            let base = pick(
                rng,
                &[
                    "play wS1",
                    "play bS1 wS1-",
                    "newgame Base+MLP",
                    "undo 2",
                    "options get Engine",
                    "bestmove depth 1",
                    "validmoves",
                    "newgame Base;InProgress;White[2];wS1;bS1 wS1-",
                ],
            );
            let mut bytes = base.as_bytes().to_vec();
            for _ in 0..rng.random_range(1..4) {
                let at = rng.random_range(0..=bytes.len());
                match rng.random_range(0..3) {
                    0 => bytes.insert(at, rng.random()),
                    1 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, b" \t;-/\\0123456789"[rng.random_range(0..16)]),
                }
            }
            bytes
        }
        11 => (0..rng.random_range(0..40)).map(|_| rng.random()).collect(),
        12 => {
            let digits: String = (0..rng.random_range(15..60))
                .map(|_| char::from(b'0' + rng.random_range(0..10u8)))
                .collect();
            let command = pick(
                rng,
                &[
                    "undo",
                    "bestmove depth",
                    "options set MaxDepth",
                    "options set TableSizeMiB",
                ],
            );
            format!("{command} {digits}").into_bytes()
        }
        13 => {
            // A long line: 1 MB of one token or of many.
            let filler = pick(rng, &["a", "wS1 ", ";", "\u{00e9}", "\t"]);
            let prefix = pick(rng, &["", "play ", "newgame ", "options set Engine "]);
            let mut line = prefix.as_bytes().to_vec();
            while line.len() < 1_000_000 {
                line.extend_from_slice(filler.as_bytes());
            }
            line
        }
        14 => pick(rng, &["", " ", "\r", "\t \r"]).as_bytes().to_vec(),
        15 => b"info".to_vec(),
        16 => b"options".to_vec(),
        _ => {
            let mut line = pick(rng, &["validmoves", "undo", "play pass"])
                .as_bytes()
                .to_vec();
            line.extend_from_slice(pick(rng, &["\r", "   ", "\t", "\r\r", "\u{00a0}"]).as_bytes());
            line
        }
    };
    // Never a valid time budget: it would make the test wait.
    if line.windows(4).any(|w| w.eq_ignore_ascii_case(b"time")) {
        return b"bestmove time 00:00:00".to_vec();
    }
    line
}

#[test]
fn random_and_hostile_lines_never_break_the_session() {
    // 1000 lines on the fast engine and 250 on the reference in a default
    // run, each session capped at `MaxDepth 2` (a `bestmove depth` of 30
    // digits searches to the cap: seconds on the reference engine at the
    // default cap); four times as many lines at the default cap in the
    // twin at full size
    random_and_hostile_lines(1000, 250, Some("2"));
}

#[test]
#[ignore = "full size: .ci/run runs it"]
fn random_and_hostile_lines_never_break_the_session_at_full_size() {
    random_and_hostile_lines(4000, 1000, None);
}

/// Sends `fast` seeded random and hostile lines to a session on the fast
/// engine and `reference` to one on the reference engine, checking every
/// reply; at least 80 % of the lines are answered and 20 % refused. Each
/// new session is given `options set MaxDepth D` first when `max_depth` is
/// `Some(D)` (the random lines may set it again).
fn random_and_hostile_lines(fast: usize, reference: usize, max_depth: Option<&str>) {
    let start = |engine| {
        let mut session = Session::new(engine);
        if let Some(depth) = max_depth {
            let reply = session.handle_line(format!("options set MaxDepth {depth}").as_bytes());
            assert_eq!(reply.last().map(String::as_str), Some("ok"), "{reply:?}");
        }
        session
    };
    let mut rng = StdRng::seed_from_u64(20261129);
    let (mut sent, mut answered, mut refused) = (0, 0, 0);
    for engine in [EngineChoice::Fast, EngineChoice::Reference] {
        let mut session = start(engine);
        let lines = if engine == EngineChoice::Fast {
            fast
        } else {
            reference
        };
        for _ in 0..lines {
            let line = random_line(&mut rng, &session);
            let before = (session.game_string(), *session.options());
            let reply = session.handle_line(&line);
            check_reply(&line, &reply, &before, &session);
            sent += 1;
            answered += usize::from(!reply.is_empty());
            refused += usize::from(is_refusal(&reply));
            if session.has_exited() {
                session = start(engine);
            }
            if let Some(game) = session.game() {
                let text = game.game_string();
                assert!(!text.is_empty());
            }
        }
    }
    assert!(
        answered * 5 > sent * 4,
        "only {answered} of {sent} lines answered"
    );
    assert!(refused * 5 > sent, "only {refused} of {sent} lines refused");
    println!("{sent} lines, {answered} answered, {refused} refused");
}

/// Lines the random generator makes rarely, each in every state.
#[test]
fn every_command_in_every_state() {
    let states: &[&[&str]] = &[
        &[],
        &["newgame Base"],
        &["newgame Base", "play wS1", "undo"],
        &["newgame Base+MLP", "play wM", "play bL wM-"],
        &[&format!("newgame {}", POSITIONS[4])],
        &[&format!("newgame {}", POSITIONS[6])],
    ];
    let commands = [
        "info",
        "newgame",
        "newgame Base+MLP",
        "newgame Base;x",
        "play",
        "play wS1",
        "play pass",
        "play bS1 wS1-",
        "pass",
        "validmoves",
        "bestmove depth 1",
        "bestmove depth 99999999999999999999",
        "bestmove time 00:00:00",
        "bestmove",
        "undo",
        "undo 0",
        "undo 99999999999999999999",
        "options",
        "options get Engine",
        "options set Engine Reference",
        "options set TournamentOpening False",
        "options set RepetitionDraw True",
        "options set MaxDepth 99999999999999999999",
        "exit",
    ];
    for setup in states {
        for command in commands {
            let mut session = Session::new(EngineChoice::Fast);
            for line in *setup {
                let reply = session.handle_line(line.as_bytes());
                assert!(!is_refusal(&reply), "{line}: {reply:?}");
            }
            let before = (session.game_string(), *session.options());
            let reply = session.handle_line(command.as_bytes());
            check_reply(command.as_bytes(), &reply, &before, &session);
        }
    }
}

/// 1 MB lines are answered like any other; non-UTF-8 is an `err`.
#[test]
fn long_lines_and_invalid_utf8_get_an_err() {
    let mut session = Session::new(EngineChoice::Fast);
    session.handle_line(b"newgame Base");
    let long = "x".repeat(1 << 20);
    for line in [
        format!("play {long}"),
        format!("newgame {long}"),
        long.clone(),
        format!("newgame Base;InProgress;White[1];{long}"),
        format!("options set Engine {long}"),
    ] {
        let reply = session.handle_line(line.as_bytes());
        assert_eq!(reply.len(), 2, "{reply:?}");
        assert!(reply[0].len() < 400, "the message quotes too much");
        assert!(is_refusal(&reply));
    }
    let reply = session.handle_line(b"play \xff");
    assert!(
        reply[0].starts_with("err ") && reply[0].contains("UTF-8"),
        "{reply:?}"
    );
    assert_eq!(
        session.game_string().as_deref(),
        Some("Base;NotStarted;White[1]")
    );
}

// ---------------------------------------------------------------------------
// The probes of `hive-oracle check`: what the checker sends to any engine,
// ours included, and the answer spec/notation.md ("UHP engine conventions")
// and spec/sources/uhp-notes.md require of it.
// ---------------------------------------------------------------------------

/// README.md's midgame position, four plies in.
const MIDGAME: &str = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";

/// A session holding [`MIDGAME`].
fn midgame() -> Session {
    let mut session = Session::new(EngineChoice::Fast);
    let reply = session.handle_line(format!("newgame {MIDGAME}").as_bytes());
    assert_eq!(reply, [MIDGAME, "ok"]);
    session
}

/// Sends `line` to a midgame session and returns the reply, checking its
/// framing and that the game is as before, `validmoves` included
/// (spec/sources/uhp-notes.md section 2.3: state on error unchanged).
fn probe(line: &[u8]) -> Vec<String> {
    let mut session = midgame();
    let moves = session.handle_line(b"validmoves");
    let before = (session.game_string(), *session.options());
    let reply = session.handle_line(line);
    check_reply(line, &reply, &before, &session);
    assert_eq!(
        session.game_string().as_deref(),
        Some(MIDGAME),
        "{:?}",
        shown(line)
    );
    assert_eq!(
        session.handle_line(b"validmoves"),
        moves,
        "{:?}",
        shown(line)
    );
    reply
}

/// A refusal is exactly one `err` line and `ok` (spec/sources/uhp-notes.md section 2.3).
fn assert_err(line: &[u8], reply: &[String]) {
    assert_eq!(reply.len(), 2, "{:?}: {reply:?}", shown(line));
    assert!(reply[0].starts_with("err "), "{:?}: {reply:?}", shown(line));
    assert_eq!(reply[1], "ok");
}

/// spec/notation.md, "UHP engine conventions", reading lines: a line that
/// is not valid UTF-8 is answered `err` then `ok`, whatever command it
/// holds, and the game is unchanged (spec/sources/uhp-notes.md section 2.3).
#[test]
fn probe_a_line_that_is_not_utf8_is_an_err() {
    for line in [
        b"\xff".as_slice(),
        b"\xc3\x28",
        b"play bA1 \xffwS1-",
        b"validmoves\xfe",
        b"newgame Base\x80",
        b"undo \xed\xa0\x80",
        b"options set Engine \xc0\xaf",
    ] {
        assert_err(line, &probe(line));
    }
}

/// spec/notation.md, "UHP engine conventions", reading lines (spec/sources/uhp-notes.md
/// section 1: engines accept `\n` or `\r\n`): a line ending in CRLF is the
/// same command as without the CR, answered and acting the same.
#[test]
fn probe_a_crlf_line_is_the_same_command() {
    for command in [
        "info",
        "validmoves",
        "play wA1 -wQ",
        "play wQ wS1",
        "pass",
        "undo",
        "undo 3",
        "undo 0",
        "bestmove depth 1",
        "newgame Base+M",
        "newgame Base;InProgress;White[2];wS1;bS1 wS1/",
        "options",
        "options get MaxDepth",
        "options set MaxDepth 2",
    ] {
        let (mut plain, mut crlf) = (midgame(), midgame());
        let expected = plain.handle_line(command.as_bytes());
        assert_eq!(
            crlf.handle_line(format!("{command}\r\n").as_bytes()),
            expected,
            "{command}"
        );
        assert_eq!(crlf.game_string(), plain.game_string(), "{command}");
        assert_eq!(crlf.options(), plain.options(), "{command}");
    }
}

/// spec/notation.md, "UHP engine conventions", reading lines (spec/sources/uhp-notes.md
/// section 7): a blank line is ignored entirely, without `ok`.
#[test]
fn probe_a_blank_line_gets_no_answer() {
    for line in [b"".as_slice(), b"\n", b"\r\n", b"   \t", b"\t \r\n"] {
        assert!(probe(line).is_empty(), "{:?}", shown(line));
    }
}

/// spec/sources/uhp-notes.md section 5.7 and spec/notation.md, "UHP engine conventions",
/// `undo`: N must be decimal digits with 1 ≤ N ≤ the plies played; anything
/// else is refused with `err` and changes nothing.
#[test]
fn probe_a_bad_undo_is_refused() {
    for line in [
        "undo 0",
        "undo 5",
        "undo 99999999999999999999",
        "undo abc",
        "undo -1",
        "undo +1",
        "undo 1.5",
        "undo 1 2",
    ] {
        assert_err(line.as_bytes(), &probe(line.as_bytes()));
    }
    // with nothing to undo, even `undo` is refused
    let mut session = Session::new(EngineChoice::Fast);
    session.handle_line(b"newgame Base");
    assert_err(b"undo", &session.handle_line(b"undo"));
}

/// spec/sources/uhp-notes.md sections 2.3 and 5.2, spec/notation.md, "UHP engine
/// conventions", `newgame`: a refused `newgame` keeps the previous game,
/// its legal moves included.
#[test]
fn probe_a_refused_newgame_keeps_the_game() {
    for line in [
        "newgame garbage",
        "newgame Base+X",
        "newgame Base;garbage",
        "newgame ;;;",
        "newgame Base;InProgress;White[2];wS1;zz",
        "newgame Base;InProgress;White[2];wS1;bQ wS1-",
        "newgame Base;InProgress;Black[1];wS1;",
        "newgame \u{1}",
    ] {
        assert_err(line.as_bytes(), &probe(line.as_bytes()));
    }
}

/// spec/sources/uhp-notes.md section 5.8 and spec/notation.md, "UHP engine conventions",
/// `options`: `options` lists one line per option, exactly the lines of the
/// table in spec/notation.md, in its order.
#[test]
fn probe_options_lists_every_option() {
    let notation =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/notation.md"))
            .expect("spec/notation.md");
    let documented: Vec<String> = notation
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` | `"))
        .map(|(_, rest)| rest.split('`').next().unwrap_or_default().to_string())
        .filter(|line| line.contains(";"))
        .collect();
    assert_eq!(documented.len(), 5, "{documented:?}");
    let mut expected = documented;
    expected.push("ok".to_string());
    assert_eq!(probe(b"options"), expected);
    assert_eq!(
        Session::new(EngineChoice::Fast).handle_line(b"options"),
        expected
    );
}

/// spec/notation.md, UHP engine conventions, `perft`: the work of one
/// `perft` is bounded by the leaves it counts, estimated depth by depth.
/// On the reference engine (a budget of 100 million leaves) from the
/// Base+MLP start, depths 1 to 5 count 5,585,773 leaves in all
/// (spec/sources/uhp-notes.md section 5.5) and depth 6 is estimated at
/// 5,427,108² / 151,686 ≈ 194 million: `perft 6` is refused with `err`
/// naming depth 5 as the deepest that fits, and prints no count; the game
/// is unchanged.
#[test]
fn perft_beyond_its_leaf_budget_is_refused() {
    // Proves docs/limits.md `uhp-perft`.
    let mut session = Session::new(EngineChoice::Reference);
    assert_eq!(
        session.handle_line(b"newgame Base+MLP"),
        ["Base+MLP;NotStarted;White[1]", "ok"]
    );
    let before = (session.game_string(), *session.options());
    let reply = session.handle_line(b"perft 6");
    check_reply(b"perft 6", &reply, &before, &session);
    assert_err(b"perft 6", &reply);
    assert_eq!(
        reply[0],
        "err perft 6 would count about 194174157 leaves at depth 6 after 5585773 below it, \
         beyond the 100000000 one perft may count on the Reference engine; \
         the deepest count within it from this position is perft 5"
    );
    assert_eq!(
        session.handle_line(b"perft 2"),
        ["perft(1) = 7", "perft(2) = 294", "ok"]
    );
}

/// §9.35: `validmoves` names each legal move once, in positions of the
/// whole case corpus on both engines: as many strings as legal moves, no
/// string twice, and no two strings that resolve to the same move.
#[test]
fn validmoves_names_each_legal_move_once() {
    use hive_oracle_rules::reference::ReferenceEngine;
    use hive_oracle_rules::rules::Rules;
    let corpus = hive_oracle_rules::cases::builtin_corpus().expect("the corpus reads");
    let mut positions = 0;
    for loaded in &corpus {
        let case = &loaded.case;
        let Ok(reference) = ReferenceEngine::load_with(&case.game, case.options.into()) else {
            continue;
        };
        if reference.state().is_over() {
            continue;
        }
        let options = case.options;
        for engine in [EngineChoice::Fast, EngineChoice::Reference] {
            let mut session = Session::new(engine);
            for (name, on) in [
                ("TournamentOpening", options.tournament_opening),
                ("RepetitionDraw", options.repetition_draw),
            ] {
                let set = format!("options set {name} {}", if on { "True" } else { "False" });
                session.handle_line(set.as_bytes());
            }
            let loaded_reply = session.handle_line(format!("newgame {}", case.game).as_bytes());
            assert_eq!(loaded_reply.last().map(String::as_str), Some("ok"));
            let reply = session.handle_line(b"validmoves");
            let listed: Vec<&str> = reply[0].split(';').filter(|m| *m != "pass").collect();
            let moves: std::collections::BTreeSet<_> = listed
                .iter()
                .map(|text| reference.parse_move(text).expect("a listed move reads"))
                .collect();
            assert_eq!(moves.len(), listed.len(), "{}: {}", loaded.id(), reply[0]);
            let legal = reference.legal_moves();
            let passing = legal.len() == 1 && reply[0] == "pass";
            assert!(passing || moves.len() == legal.len(), "{}", loaded.id());
            positions += 1;
        }
    }
    assert!(positions > 300, "only {positions} positions");
}
