//! The command line: output formats, refusals with their
//! clause on stderr and a non-zero exit, and no panic on bad input. Positions
//! are the ones of `tests/rules_end.rs` and `tests/notation.rs`.

use crate::common;

use std::io::Write;
use std::process::{Output, Stdio};

use common::{run, stderr, stdout};

/// Black's queen has five occupied neighbours; `wA1 -bG2` fills the sixth.
const BLACK_QUEEN_ALMOST_SURROUNDED: &str = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wQ wS1/;bG1 bQ-;wG1 -wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 /wS1;bA1 bS1\\";

/// White can neither place nor move (tests/rules_end.rs, FORCED_PASS).
const FORCED_PASS: &str = "Base;InProgress;White[15];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wQ wS1/;bB1 \\bS1;wQ wS1-;bA1 -bQ;wQ wS1/;bA2 bA1\\;wQ wS1-;bA3 -bB1;wQ wS1/;bA1 wS1\\;wQ bA1/;bA2 wQ\\;wQ bA2/;bB1 \\wS1;wQ \\bA2;bB1 wS1;wQ bA2/;bB2 \\bS1;wQ \\bA2;bB2 \\bB1;wQ bA2/;bB2 bB1/;wQ bB2\\;bA3 wQ/";

#[test]
fn perft_prints_one_line_per_depth_with_plain_counts() {
    // §4.2: published counts from the start (spec/sources/uhp-notes.md section 5.5)
    let out = run(&["perft", "3", "Base+MLP", "--engine", "reference"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<Vec<String>> = stdout(&out)
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    let counts: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[0].as_str(), r[1].as_str()))
        .collect();
    assert_eq!(counts, [("1", "7"), ("2", "294"), ("3", "6678")]);
    assert!(rows.iter().all(|r| r[2].ends_with(" s")), "{rows:?}");
}

#[test]
fn perft_divide_rows_add_up() {
    // §3.4: the 24 second-ply placements split by root move
    let out = run(&["perft", "2", "Base", "--divide"]);
    let text = stdout(&out);
    let divide: u64 = text
        .lines()
        .skip(2)
        .map(|l| {
            l.rsplit('\t')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .expect("count")
        })
        .sum();
    assert_eq!(divide, 96, "{text}");
}

#[test]
fn validmoves_prints_canonical_moves_separated_by_semicolons() {
    // §9.30, §3.4: Mzinga's second-ply spellings
    let out = run(&["validmoves", "Base;InProgress;Black[1];wG1"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let moves: Vec<&str> = text.trim_end().split(';').collect();
    assert_eq!(moves.len(), 24, "{text}");
    assert!(
        moves.contains(&"bS1 \\wG1") && moves.contains(&"bA1 -wG1"),
        "{text}"
    );
}

/// The position after `wP;bP wP-;wQ -wP;bQ bP-;wQ \bP;bS1 bQ/;wP /bP;wQ bP\`
/// (docs/positions.md): Black's pillbug threw White's queen last.
const THROWN_QUEEN: &str = r"Base+P;Position;White[5];last=wQ;wP;bP wP/;wQ bP\;bQ wQ/;bS1 bQ/";

#[test]
fn position_prints_the_position_string_of_a_game_a_record_or_stdin() {
    // §9.41: a GameString, a record file's game N, stdin; §9.36 a position
    // string prints as itself
    let game = r"Base+P;InProgress;White[5];wP;bP wP-;wQ -wP;bQ bP-;wQ \bP;bS1 bQ/;wP /bP;wQ bP\";
    for args in [vec!["position", game], vec!["position", THROWN_QUEEN]] {
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out).trim_end(), THROWN_QUEEN);
    }
    let out = run(&["position", "tests/records/pgn/two-games.pgn", "--game", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("Base;Position;Black[8];last=wA2;"),
        "{}",
        stdout(&out)
    );
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hive-oracle"))
        .args(["position", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(game.as_bytes())
        .expect("writes");
    let out = child.wait_with_output().expect("ends");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim_end(),
        THROWN_QUEEN
    );
}

#[test]
fn a_position_string_is_taken_by_play_perft_and_refused_by_convert() {
    // §9.36: play answers with the position string after the moves; perft
    // counts from the position; convert has no moves to write
    let out = run(&["play", THROWN_QUEEN, "bP -wP"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("Base+P;Position;Black[5];last=bP;"),
        "{}",
        stdout(&out)
    );
    let from_position = run(&["perft", "2", THROWN_QUEEN]);
    let game = r"Base+P;InProgress;White[5];wP;bP wP-;wQ -wP;bQ bP-;wQ \bP;bS1 bQ/;wP /bP;wQ bP\";
    let from_game = run(&["perft", "2", game]);
    assert_eq!(perft_counts(&from_position), perft_counts(&from_game));
    let out = run(&["convert", THROWN_QUEEN]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("has no moves"), "{}", stderr(&out));
}

#[test]
fn validmoves_prints_pass_when_it_is_the_only_move() {
    // §7.2
    let out = run(&["validmoves", FORCED_PASS]);
    assert_eq!(stdout(&out), "pass\n");
}

#[test]
fn a_finished_game_has_no_moves_and_refuses_play() {
    // §8.2, §8.5
    let out = run(&["play", BLACK_QUEEN_ALMOST_SURROUNDED, "wA1 -bG2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let finished = stdout(&out).trim_end().to_string();
    assert!(
        finished.starts_with("Base;WhiteWins;Black[7];"),
        "{finished}"
    );
    let out = run(&["validmoves", &finished]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "");
    let out = run(&["play", &finished, "pass"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("§8.5"), "{}", stderr(&out));
}

#[test]
fn play_prints_the_game_string() {
    // §9.31
    let out = run(&["play", "Base", "wS1", "bS1 wS1-", "wQ -wS1"]);
    assert_eq!(
        stdout(&out),
        "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1\n"
    );
}

#[test]
fn play_refuses_an_illegal_move_citing_its_clause() {
    // §4.2 tournament opening, and the option that lifts it
    let out = run(&["play", "Base;InProgress;Black[1];wS1", "bQ wS1-"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("bQ wS1- is illegal") && stderr(&out).contains("§4.2"),
        "{}",
        stderr(&out)
    );
    let out = run(&[
        "play",
        "Base;InProgress;Black[1];wS1",
        "bQ wS1-",
        "--standard-opening",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_game_string_with_an_illegal_move_is_refused_naming_it() {
    // §9.34, §3.6
    let out = run(&[
        "validmoves",
        "Base;InProgress;White[2];wS1;bS1 wS1-;wA1 bS1-",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("move 3 \"wA1 bS1-\"") && err.contains("§3.6"),
        "{err}"
    );
}

#[test]
fn bad_input_gets_a_message_not_a_panic() {
    // §9.14
    for args in [
        vec!["validmoves", "Foo"],
        vec!["validmoves", "Base;Foo;White[1]"],
        vec!["validmoves", "Base;InProgress;Black[1];wS1;"],
        vec!["play", "Base", "wZ9"],
        vec!["play", "Base;InProgress;Black[1];wS1", "bS1"],
        vec!["perft", "2", "Base+Q"],
        vec!["perft", "-1"],
    ] {
        let out = run(&args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.trim().is_empty(), "{args:?} gave no message");
    }
}

// ---------------------------------------------------------------------------
// The fast engine on the command line: the same counts, moves and refusals
// as the reference engine, on any number of threads
// ---------------------------------------------------------------------------

/// The depth and leaf count columns of `perft` output.
fn perft_counts(out: &Output) -> Vec<(String, String)> {
    stdout(out)
        .lines()
        .map(|l| {
            let mut fields = l.split('\t');
            let depth = fields.next().unwrap_or_default().to_string();
            let count = fields.next().unwrap_or_default().to_string();
            (depth, count)
        })
        .collect()
}

#[test]
fn perft_counts_are_the_same_on_both_engines_and_any_thread_count() {
    // §4.2, §3.4: the default engine (fast), the reference engine and the
    // fast engine on two threads print the same published counts
    let fast = run(&["perft", "4", "Base+MLP"]);
    let reference = run(&["perft", "4", "Base+MLP", "--engine", "reference"]);
    let threads = run(&["perft", "4", "Base+MLP", "--threads", "2"]);
    for out in [&fast, &reference, &threads] {
        assert!(out.status.success(), "{}", stderr(out));
    }
    let expected: Vec<(String, String)> =
        [("1", "7"), ("2", "294"), ("3", "6678"), ("4", "151686")]
            .iter()
            .map(|&(d, n)| (d.to_string(), n.to_string()))
            .collect();
    assert_eq!(perft_counts(&fast), expected);
    assert_eq!(perft_counts(&reference), expected);
    assert_eq!(perft_counts(&threads), expected);
    let out = run(&["perft", "2", "--threads", "0"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--threads"), "{}", stderr(&out));
}

#[test]
fn validmoves_and_play_are_the_same_on_both_engines() {
    // §5.9, §9.30: the same moves, printed the same, on either engine
    for position in [FORCED_PASS, BLACK_QUEEN_ALMOST_SURROUNDED] {
        let fast = run(&["validmoves", position, "--engine", "fast"]);
        let reference = run(&["validmoves", position, "--engine", "reference"]);
        assert!(fast.status.success(), "{}", stderr(&fast));
        assert_eq!(stdout(&fast), stdout(&reference), "{position}");
    }
    let fast = run(&["play", BLACK_QUEEN_ALMOST_SURROUNDED, "wA1 -bG2"]);
    let reference = run(&[
        "play",
        BLACK_QUEEN_ALMOST_SURROUNDED,
        "wA1 -bG2",
        "--engine",
        "reference",
    ]);
    assert!(fast.status.success(), "{}", stderr(&fast));
    assert_eq!(stdout(&fast), stdout(&reference));
}

#[test]
fn selfcheck_plays_games_and_reports_the_rates() {
    // §5.9, §8.8, §9.31: a few short seeded games of every game type find no
    // disagreement; the report gives games and positions per second
    let out = run(&[
        "selfcheck",
        "--games",
        "8",
        "--seed",
        "1",
        "--max-plies",
        "40",
    ]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("8 games"), "{text}");
    assert!(
        text.contains("games/s") && text.contains("positions/s"),
        "{text}"
    );
    assert!(text.contains("no disagreement"), "{text}");
    // no progress bar when the output is not a terminal
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn selfcheck_takes_one_game_type_and_refuses_a_bad_one() {
    // §1.4, §9.15
    let out = run(&[
        "selfcheck",
        "--games",
        "2",
        "--seed",
        "5",
        "--game-type",
        "Base+MLP",
        "--max-plies",
        "30",
    ]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    // a bad game type is a usage error (2), not a disagreement (1)
    let out = run(&["selfcheck", "--games", "2", "--game-type", "Base+Q"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("GameTypeString") && !err.contains("panicked"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// Command-line conventions: exit statuses, version, stdin, completions
// ---------------------------------------------------------------------------

/// Every command of the binary, as typed.
const COMMANDS: [&str; 13] = [
    "perft",
    "validmoves",
    "play",
    "selfcheck",
    "render",
    "explain",
    "replay",
    "convert",
    "check",
    "check-merge",
    "uhp",
    "completions",
    "man",
];

#[test]
fn a_usage_error_exits_two_in_every_command() {
    // README, exit statuses: 2 is a usage error in every command, so that a
    // mistyped option is never read as a verdict or a refusal (1)
    for command in COMMANDS {
        let out = run(&[command, "--no-such-option"]);
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("--no-such-option"), "{command}: {err}");
        assert!(out.stdout.is_empty(), "{command}");
    }
    for args in [
        vec!["nosuchcommand"],
        vec!["perft", "abc"],
        vec!["selfcheck", "--games", "x"],
        vec!["replay", "tests/records/pgn", "--format", "yaml"],
        vec!["validmoves"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    // a refusal of the input stays 1
    let out = run(&["validmoves", "Base;Bogus"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn version_names_the_commit_and_the_features() {
    // build.rs: the commit from git when the package is the top of a git
    // checkout, else "unknown"; the features of this build (`cargo test`
    // turns on `faults` through the dev-dependency on the package)
    let out = run(&["--version"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let prefix = format!("hive-oracle {} (commit ", env!("CARGO_PKG_VERSION"));
    let rest = text
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{text}"));
    let (commit, features) = rest.split_once(", features: ").expect("features");
    let features: Vec<&str> = features
        .trim_end()
        .trim_end_matches(')')
        .split(", ")
        .collect();
    assert!(features.contains(&"faults"), "{text}");
    assert!(!features.contains(&"default"), "{text}");
    let checkout = std::process::Command::new("git")
        .args([
            "-C",
            env!("CARGO_MANIFEST_DIR"),
            "rev-parse",
            "--show-toplevel",
            "HEAD",
        ])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| stdout(&out));
    let top_and_head = checkout.as_deref().and_then(|text| text.split_once('\n'));
    match top_and_head {
        Some((top, head))
            if std::fs::canonicalize(top).ok()
                == std::fs::canonicalize(crate::common::root()).ok() =>
        {
            assert_eq!(commit.len(), 12, "{text}");
            assert!(head.starts_with(commit), "{text} is not HEAD {head}");
        }
        _ => assert_eq!(commit, "unknown", "{text}"),
    }
    assert_eq!(stdout(&run(&["-V"])), text);
}

#[test]
fn a_mistyped_path_is_neither_a_file_nor_a_game_type() {
    // §9.15: an argument without `;` is a GameTypeString or a file; a
    // mistyped record path is refused as both, not as a bad game type alone
    for command in [
        vec!["validmoves", "gmae.pgn"],
        vec!["explain", "gmae.pgn"],
        vec!["render", "gmae.pgn"],
        vec!["convert", "gmae.pgn"],
        vec!["perft", "1", "gmae.pgn"],
    ] {
        let out = run(&command);
        assert_eq!(out.status.code(), Some(1), "{command:?}");
        let err = stderr(&out);
        assert!(
            err.starts_with(
                "error: gmae.pgn is neither a file nor a game type: there is no such file"
            ),
            "{command:?}: {err}"
        );
        assert!(err.contains("§9.15"), "{command:?}: {err}");
    }
}

/// Runs the binary with `args` and `input` on its stdin.
fn run_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = crate::common::command(crate::common::BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // the command may stop reading early (a refusal): a closed pipe is fine
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("the binary ends")
}

#[test]
fn a_dash_reads_the_game_from_stdin_in_every_command_that_takes_one() {
    // §9.31: a GameString piped in is the GameString given as an argument
    let game = "Base;InProgress;Black[1];wG1\n";
    for args in [
        vec!["validmoves"],
        vec!["play", "bS1 wG1-"],
        vec!["render"],
        vec!["explain"],
        vec!["explain", "bS1 wG1-"],
        vec!["convert", "--to", "pgn"],
        vec!["perft", "2"],
    ] {
        let (command, rest) = args.split_first().expect("a command");
        let mut with_dash = vec![*command, "-"];
        let mut with_text = vec![*command, game.trim_end()];
        if *command == "perft" {
            with_dash = [&args[..], &["-"]].concat();
            with_text = [&args[..], &[game.trim_end()]].concat();
        } else {
            with_dash.extend(rest);
            with_text.extend(rest);
        }
        let piped = run_with_stdin(&with_dash, game.as_bytes());
        let given = run(&with_text);
        assert!(piped.status.success(), "{args:?}: {}", stderr(&piped));
        let strip_times = |text: String| -> String {
            text.lines()
                .map(|l| l.split('\t').take(2).collect::<Vec<_>>().join("\t") + "\n")
                .collect()
        };
        assert_eq!(
            strip_times(stdout(&piped)),
            strip_times(stdout(&given)),
            "{args:?}"
        );
    }
    // §10.14: a record piped in is read as the record file it came from
    let record = std::fs::read(crate::common::repository("tests/records/pgn/crlf.pgn"))
        .expect("the test record");
    let piped = run_with_stdin(&["convert", "-"], &record);
    let given = run(&["convert", "tests/records/pgn/crlf.pgn"]);
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert_eq!(stdout(&piped), stdout(&given));
    let piped = run_with_stdin(&["explain", "-", "2"], &record);
    assert!(
        stdout(&piped).starts_with("ply 2 of stdin (line "),
        "{}",
        stdout(&piped)
    );
}

#[test]
fn stdin_is_bounded_like_a_record_file() {
    // README, limits: a record file is at most 64 MiB; stdin is read to one
    // byte more and then refused, whatever follows
    let over = vec![b' '; 64 * 1024 * 1024 + 1];
    let out = run_with_stdin(&["validmoves", "-"], &over);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(
            "stdin is 67108865 bytes long; the limit for a record file is 67108864 bytes"
        ),
        "{}",
        stderr(&out)
    );
    let out = run_with_stdin(&["validmoves", "-"], b"  \n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("stdin: it is empty"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_illegal_game_read_from_stdin_is_explained_from_stdin() {
    // §10.14: the explain command of a game piped to `replay -` names `-`,
    // not the name "stdin" the report gives the records, and says that the
    // same records must be piped to it again.
    let record = std::fs::read(crate::common::repository(
        "tests/records/pgn/illegal-move.pgn",
    ))
    .expect("the test record");
    let out = run_with_stdin(&["replay", "-"], &record);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(
            "\n  explain: hive-oracle explain - --game 1 14 (with the same records on stdin)\n"
        ),
        "{}",
        stdout(&out)
    );
    let explained = run_with_stdin(&["explain", "-", "14"], &record);
    assert!(
        stdout(&explained).starts_with("ply 14 of "),
        "{}",
        stdout(&explained)
    );
}

#[test]
fn replay_reads_records_from_stdin_given_as_a_dash() {
    // §10.14: a record piped to `replay -` is replayed as the file it came
    // from, named stdin; a text that is not a record is an unreadable file
    let record = std::fs::read(crate::common::repository("tests/records/pgn/crlf.pgn"))
        .expect("the test record");
    let piped = run_with_stdin(&["replay", "-"], &record);
    let given = run(&["replay", "tests/records/pgn/crlf.pgn"]);
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    assert_eq!(stdout(&piped), stdout(&given));
    let both = run_with_stdin(&["replay", "tests/records/pgn/crlf.pgn", "-"], &record);
    assert!(
        stdout(&both).contains("all             2      2"),
        "{}",
        stdout(&both)
    );
    let out = run_with_stdin(&["replay", "-"], b"hello\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("unreadable: stdin:1: "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn completions_cover_every_command_in_every_shell() {
    // clap_complete, from the same definitions as the commands: every
    // command and an option of each is completed
    for shell in ["bash", "elvish", "fish", "powershell", "zsh"] {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for word in COMMANDS
            .iter()
            .chain(&["standard-opening", "strict-notation"])
        {
            assert!(script.contains(word), "{shell} completes no {word}");
        }
    }
    // the bash script is valid bash
    let script = stdout(&run(&["completions", "bash"]));
    if let Ok(check) = std::process::Command::new("bash")
        .args(["-n", "-c", &script])
        .output()
    {
        assert!(check.status.success(), "{}", stderr(&check));
    }
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn man_prints_the_page_of_the_tool_and_of_each_command() {
    // clap_mangen: roff pages, hive-oracle(1) listing the commands and
    // hive-oracle-COMMAND(1) with the command's options
    let out = run(&["man"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(page.contains(".TH hive-oracle 1"), "{page}");
    for command in COMMANDS {
        assert!(
            page.contains(&command.replace('-', "\\-")),
            "{command} not listed"
        );
        let out = run(&["man", command]);
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        let page = stdout(&out);
        assert!(
            page.contains(&format!(".TH hive-oracle-{command} 1")),
            "{page}"
        );
        assert!(page.contains(".SH OPTIONS"), "{command}: {page}");
    }
    assert!(stdout(&run(&["man", "check"])).contains("strict\\-notation"));
    let out = run(&["man", "chekc"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no command \"chekc\": the commands are perft,"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn replay_text_report_ends_with_its_verdict() {
    // the last line of the text report says what the exit status says
    let out = run(&["replay", "tests/records/pgn/crlf.pgn"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).ends_with("\nPASS\n"), "{}", stdout(&out));
    let out = run_with_stdin(&["replay", "-"], b"hello\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).ends_with("\nFAIL\n"), "{}", stdout(&out));
}

// ---------------------------------------------------------------------------
// `--game N`: the N-th game of a record file, in every command taking one
// ---------------------------------------------------------------------------

/// Two short games in progress in one PGN file (made up for these tests):
/// game 1 opens with spiders, game 2 with grasshoppers and an ant.
const TWO_GAMES: &str = "[GameType \"Base\"]\n[Result \"*\"]\n\n1. wS1\n2. bS1 wS1-\n\n*\n\n\
[GameType \"Base\"]\n[Result \"*\"]\n\n1. wG1\n2. bG1 wG1-\n3. wA1 -wG1\n\n*\n";
/// Game 2 of [`TWO_GAMES`] as a GameString.
const SECOND_GAME: &str = "Base;InProgress;Black[2];wG1;bG1 wG1-;wA1 -wG1";

/// [`TWO_GAMES`] written to a file of its own for one test, in a folder
/// removed when the folder is dropped; the file's path as text.
fn two_games_file() -> (tempfile::TempDir, String) {
    let dir = crate::common::scratch();
    let path = dir.path().join("two-games.pgn");
    std::fs::write(&path, TWO_GAMES).expect("a temporary file");
    let path = crate::common::text(&path);
    (dir, path)
}

#[test]
fn game_n_is_the_nth_game_of_a_record_file_in_every_command() {
    // spec/game-records.md: a file holds games in order, numbered from 1.
    // Each command given `FILE --game 2` says what it says of game 2's
    // GameString; `--game 3` of a two-game file, and a game number given
    // with a game type or a GameString, are usage errors (exit 2).
    let (_dir, file) = two_games_file();
    let file = file.as_str();
    let converted = run(&["convert", file, "--game", "2"]);
    assert_eq!(
        stdout(&converted).trim(),
        SECOND_GAME,
        "{}",
        stderr(&converted)
    );
    for (with_file, with_string) in [
        (
            vec!["validmoves", file, "--game", "2"],
            vec!["validmoves", SECOND_GAME],
        ),
        (
            vec!["play", file, "--game", "2", "bA1 bG1-"],
            vec!["play", SECOND_GAME, "bA1 bG1-"],
        ),
        (
            vec!["render", file, "--game", "2"],
            vec!["render", SECOND_GAME],
        ),
        (
            vec!["explain", file, "--game", "2"],
            vec!["explain", SECOND_GAME],
        ),
        (
            vec!["explain", file, "--game", "2", "bA1 bG1-"],
            vec!["explain", SECOND_GAME, "bA1 bG1-"],
        ),
    ] {
        let (a, b) = (run(&with_file), run(&with_string));
        assert!(a.status.success(), "{with_file:?}: {}", stderr(&a));
        assert_eq!(stdout(&a), stdout(&b), "{with_file:?}");
    }
    let perft = run(&["perft", "3", file, "--game", "2"]);
    assert_eq!(
        perft_counts(&perft),
        perft_counts(&run(&["perft", "3", SECOND_GAME]))
    );
    // a ply of game 2, in the position before it
    let ply = run(&["explain", file, "--game", "2", "3"]);
    assert!(
        stdout(&ply).starts_with(&format!("ply 3 of {file} game 2 (line ")),
        "{}{}",
        stdout(&ply),
        stderr(&ply)
    );
    // from stdin too
    let piped = run_with_stdin(&["validmoves", "-", "--game", "2"], TWO_GAMES.as_bytes());
    assert_eq!(stdout(&piped), stdout(&run(&["validmoves", SECOND_GAME])));
    for command in ["validmoves", "render", "explain", "convert"] {
        let out = run(&[command, file, "--game", "3"]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(
            stderr(&out).contains("--game 3:")
                && stderr(&out).contains("holds 2 game(s), not a game 3"),
            "{command}: {}",
            stderr(&out)
        );
        let out = run(&[command, "Base", "--game", "2"]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(
            stderr(&out).contains("Base is a game type, not a record file"),
            "{command}: {}",
            stderr(&out)
        );
        let out = run(&[command, SECOND_GAME, "--game", "1"]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(
            stderr(&out).contains("is a GameString, not a record file"),
            "{}",
            stderr(&out)
        );
    }
    for args in [
        vec!["perft", "1", file, "--game", "3"],
        vec!["perft", "1", "--game", "2"],
    ] {
        assert_eq!(run(&args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn the_old_spellings_of_game_are_read_for_one_version_with_a_warning() {
    // `perft --game GAME` and `selfcheck --game TYPE` (before 0.3.0) still
    // work, saying on stderr what to type instead; the counts are those of
    // the new spelling (§9.15 Base+MLP from the start).
    let old = run(&["perft", "2", "--game", "Base+MLP"]);
    assert!(old.status.success(), "{}", stderr(&old));
    assert_eq!(
        perft_counts(&old),
        perft_counts(&run(&["perft", "2", "Base+MLP"]))
    );
    let warning = stderr(&old);
    assert!(
        warning.contains("deprecated") && warning.contains("`perft 2 Base+MLP`"),
        "{warning}"
    );
    assert_eq!(warning.lines().count(), 1, "{warning}");
    assert!(stderr(&run(&["perft", "2", "Base+MLP"])).is_empty());
    // both the game and the old spelling: which is meant cannot be told
    let both = run(&["perft", "2", "Base", "--game", "Base+MLP"]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
    let selfcheck = run(&[
        "selfcheck",
        "--games",
        "1",
        "--max-plies",
        "5",
        "--game",
        "Base+M",
    ]);
    assert!(selfcheck.status.success(), "{}", stderr(&selfcheck));
    assert!(
        stderr(&selfcheck).contains("use `--game-type TYPE`"),
        "{}",
        stderr(&selfcheck)
    );
}

#[test]
fn convert_notes_the_other_games_of_the_file_and_a_queen_placed_first() {
    // A file of two games converts its first by default, saying so on
    // stderr; a game whose queen is placed on a player's first move (§4.2
    // forbids it under the tournament opening; the record is read under the
    // standard opening, §10.12) gets a note saying how engines must load it.
    let (_dir, file) = two_games_file();
    let file = file.as_str();
    let first = run(&["convert", file]);
    assert_eq!(
        stdout(&first).trim(),
        "Base;InProgress;White[2];wS1;bS1 wS1-"
    );
    assert_eq!(
        stderr(&first).trim(),
        format!("note: {file} holds 2 games; this is game 1 (choose another with --game N)")
    );
    let queen = run(&[
        "convert",
        "tests/records/pgn/queen-first-standard-opening.pgn",
    ]);
    assert!(queen.status.success(), "{}", stderr(&queen));
    let note = stderr(&queen);
    assert!(
        note.contains("ply 1 (wQ) places a queen")
            && note.contains("--standard-opening")
            && note.contains("TournamentOpening=false"),
        "{note}"
    );
    // a one-game file of the tournament opening: nothing to note
    let plain = run(&["convert", "tests/records/pgn/illegal-move.pgn"]);
    assert!(
        stderr(&plain).is_empty() || !plain.status.success(),
        "{}",
        stderr(&plain)
    );
}

// The documentation's commands -----------------------------------------------

// Unix only: the commands run in `sh`, the binary linked into a scratch folder.
#[cfg(unix)]
use crate::documented;

/// Every `hive-oracle …` and `cargo run --release -- …` command shown in
/// README.md and docs/*.md runs with the exit status and the output shown
/// (tests/documented/mod.rs gives the rules); blocks marked not run are
/// listed with their reason.
#[cfg(unix)]
#[test]
fn the_documented_commands_do_what_the_documentation_shows() {
    let scratch = documented::scratch_folder();
    let mut failures = Vec::new();
    let mut ran = 0;
    for file in documented::documentation() {
        let text = std::fs::read_to_string(&file).expect("readable");
        let name = file
            .strip_prefix(crate::common::root())
            .unwrap_or(&file)
            .display()
            .to_string();
        let (commands, not_run) = documented::commands_in(&name, &text);
        for skipped in &not_run {
            assert!(!skipped.reason.is_empty(), "{}: no reason", skipped.place);
            eprintln!("not run: {}: {}", skipped.place, skipped.reason);
        }
        for command in &commands {
            ran += 1;
            if let Some(why) = documented::run_documented(command, scratch.path()) {
                failures.push(format!("{}: {}\n{why}", command.place, command.command));
            }
        }
    }
    assert!(ran >= 10, "only {ran} documented commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The reading of the documentation's blocks: commands, what they show,
/// the blocks not run, and a shown line or status that drifts is caught.
#[cfg(unix)]
#[test]
fn a_documented_command_that_drifts_is_caught() {
    let markdown = "text\n\n```sh\n# a comment\ncargo run --release -- perft 2 \\\n  --game Base\n# 1\t4\t...\n# ...\n# exit status 1\n\nhive-oracle play x\n```\n\n<!-- not run: an engine of your own -->\n```sh\nhive-oracle check --engine mine\n```\n";
    let (commands, not_run) = documented::commands_in("R.md", markdown);
    assert_eq!(
        commands,
        [
            documented::Documented {
                place: "R.md:5".to_string(),
                command: "hive-oracle perft 2 --game Base".to_string(),
                status: 1,
                shown: vec!["1\t4\t...".to_string(), "...".to_string()],
            },
            documented::Documented {
                place: "R.md:11".to_string(),
                command: "hive-oracle play x".to_string(),
                status: 0,
                shown: vec![],
            },
        ]
    );
    assert_eq!(
        not_run,
        [documented::NotRun {
            place: "R.md:15".to_string(),
            reason: "an engine of your own".to_string(),
        }]
    );
    let shown = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let output = ["1\t4\t0.000 s", "2\t96\t0.000 s", "PASS"];
    assert_eq!(
        documented::output_differs(&shown(&["1\t4\t...", "...", "PASS"]), &output),
        None
    );
    assert!(documented::output_differs(&shown(&["1\t4\t...", "PASS"]), &output).is_some());
    assert!(documented::output_differs(&shown(&["1\t5\t..."]), &output).is_some());
    assert!(documented::output_differs(&shown(&["...", "FAIL"]), &output).is_some());
    assert!(documented::line_matches("a...c...e", "abcde"));
    assert!(!documented::line_matches("a...c", "abcd"));
}
