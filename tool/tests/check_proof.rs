//! Reproduce pipes are exact and proven: each cause's pipe sends the lines
//! sent to the engine, earlier lines included, and before the report it is
//! run as printed on a fresh engine process; it is printed only if it
//! shows the finding again (`reproduced`, with a note saying what the fresh
//! engine did). Engines are our own with a deliberate fault
//! (`uhp --fault NAME`, src/faults/).

use std::io::Write;
use std::process::Stdio;

use serde_json::Value;

use crate::check_run::{faulty, shell, shortest, Check};
use crate::common::{scratch, text, BIN};

/// `check` on our engine with `fault` and `args`, as JSON; the exit status.
fn check(fault: &str, args: &[&str]) -> (Option<i32>, Value) {
    check_with(&faulty(fault), args)
}

/// `check` on the engine command line `engine` with `args`, as JSON; the
/// exit status.
fn check_with(engine: &str, args: &[&str]) -> (Option<i32>, Value) {
    Check::new()
        .engine(engine)
        .args(args)
        .json()
        .run()
        .verdict()
}

/// The lines a finding sent.
fn sent(finding: &Value) -> Vec<&str> {
    finding["sent"]
        .as_array()
        .expect("sent is an array")
        .iter()
        .map(|l| l.as_str().expect("a line"))
        .collect()
}

/// The `validmoves` answer of one fresh `uhp --fault FAULT` process in
/// the position after `wS1`, as listed.
fn listed_once(fault: &str) -> Vec<String> {
    let mut child = crate::common::command(BIN)
        .args(["uhp", "--fault", fault])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"newgame Base;InProgress;Black[1];wS1\nvalidmoves\nexit\n")
        .expect("the engine reads");
    drop(stdin);
    let out = child.wait_with_output().expect("the engine ends");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    // the banner's ok, the newgame's GameString and ok, then the list
    let list = lines
        .iter()
        .rev()
        .find(|l| l.contains(';') && !l.starts_with("Base"))
        .unwrap_or_else(|| panic!("no list in {text}"));
    list.split(';').map(str::to_string).collect()
}

#[test]
fn a_pipe_whose_moves_come_in_another_order_is_reproduced_as_a_set() {
    // §5.9 broken (a legal move not listed) by an engine that lists its
    // moves in an order drawn from its process id: a fresh process lists
    // them in another order, which must not make the pipe "not reproduced".
    let (first, second) = (
        listed_once("shuffled-drop-one-move"),
        listed_once("shuffled-drop-one-move"),
    );
    assert_ne!(first, second, "two processes list in the same order");
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    assert_eq!(sorted(first), sorted(second));

    let (status, report) = check(
        "shuffled-drop-one-move",
        &[
            "--case",
            "components.toml::no-expansion-piece-in-base",
            "--games",
            "1",
        ],
    );
    assert_eq!(status, Some(1), "{report:#}");
    let listings: Vec<&Value> = shortest(&report)
        .into_iter()
        .filter(|f| sent(f).last() == Some(&"validmoves"))
        .collect();
    assert!(
        listings.iter().any(|f| f["kind"] == "missing-moves"),
        "{report:#}"
    );
    for f in listings {
        assert_eq!(f["reproduced"], true, "{f:#}");
        let note = f["reproduce_note"].as_str().expect("a note");
        assert!(note.contains("compared as sets"), "{note}");
        // the printed pipe shows the same set again
        let answer = shell(f["reproduce"].as_str().expect("a pipe"));
        assert!(answer.contains("\nok\n"), "{answer}");
    }
}

#[test]
fn a_pipe_that_does_not_reproduce_is_not_printed_and_says_why() {
    // The engine crashes on its tenth command unless its parent is a shell,
    // as in a reproduce pipe: under check it crashes, its pipes never do.
    let (status, report) = check("crash-under-check", &["--no-corpus", "--games", "2"]);
    assert_eq!(status, Some(1), "{report:#}");
    let crashes: Vec<&Value> = shortest(&report)
        .into_iter()
        .filter(|f| f["kind"] == "crash" && !sent(f).is_empty())
        .collect();
    assert!(!crashes.is_empty(), "{report:#}");
    for f in crashes {
        assert_eq!(f["reproduced"], false, "{f:#}");
        assert_eq!(f["reproduce"], "", "{f:#}");
        let note = f["reproduce_note"].as_str().expect("a note");
        assert!(note.starts_with("a fresh engine answered"), "{note}");
    }
    // the text report says so where the pipe would be
    let out = Check::new()
        .fault("crash-under-check")
        .args(["--no-corpus", "--games", "1"])
        .run();
    let text = out.stdout();
    assert!(
        text.contains("reproduce: not reproduced: a fresh engine answered"),
        "{text}"
    );
}

#[test]
fn a_crash_pipe_reproduces_when_the_crash_comes_again_on_its_last_line() {
    // The engine exits on the first play after six plies, wherever it
    // starts from: the pipe's last line crashes a fresh engine too.
    let (status, report) = check("crash-mid-game", &["--no-corpus", "--games", "1"]);
    assert_eq!(status, Some(1), "{report:#}");
    let crash = shortest(&report)
        .into_iter()
        .find(|f| f["kind"] == "crash" && f["test"].as_str().is_some_and(|t| t.starts_with("game")))
        .unwrap_or_else(|| panic!("no crash in a game in {report:#}"));
    assert_eq!(crash["reproduced"], true, "{crash:#}");
    let note = crash["reproduce_note"].as_str().expect("a note");
    assert!(
        note.starts_with("a fresh engine exited again on `play"),
        "{note}"
    );
}

#[test]
fn a_corpus_pipe_sends_every_line_sent_before_its_question() {
    // §4.2 broken (the queen may be placed first under the tournament
    // opening): the case lists the valid moves before it plays `wQ`, and the
    // pipe used to drop that line (and to rebuild the others).
    let (status, report) = check(
        "queen-first-allowed",
        &[
            "--case",
            "options.toml::repetition-option-leaves-the-opening-alone",
        ],
    );
    assert_eq!(status, Some(1), "{report:#}");
    let accepted = shortest(&report)
        .into_iter()
        .find(|f| f["kind"] == "accepted-illegal")
        .unwrap_or_else(|| panic!("no accepted-illegal in {report:#}"));
    assert_eq!(
        sent(accepted),
        [
            "newgame Base",
            "options set TournamentOpening True",
            "options set RepetitionDraw True",
            "newgame Base+MLP;NotStarted;White[1]",
            "validmoves",
            "play wQ"
        ],
        "{accepted:#}"
    );
    assert_eq!(accepted["reproduced"], true, "{accepted:#}");
}

/// An engine command line that runs `uhp --fault FAULT` reading through
/// `tee`, so that every byte each engine process reads is logged, one file
/// per process (`DIR/log.PID`). The engine is what bash runs last, as in
/// `check_run::reading_through`.
fn logged_engine(fault: &str, dir: &std::path::Path) -> String {
    format!(
        "bash -c 'exec \"$1\" uhp --fault {fault} < <(tee \"$0.$$\")' '{}/log' '{BIN}'",
        dir.display()
    )
}

/// Whether the lines of `sent` from its last `newgame` on were read one
/// after the other, in this order, by one engine process of the check whose
/// log is in `dir` (not by the fresh process of the proof, whose log is the
/// pipe's input alone). The lines before it set the rules options on that
/// process earlier.
fn read_in_a_row(dir: &std::path::Path, sent: &[&str]) -> bool {
    let start = sent
        .iter()
        .rposition(|l| l.starts_with("newgame"))
        .unwrap_or(0);
    let block = format!("\n{}\n", sent[start..].join("\n"));
    let pipe_input = format!("{}\nexit\n", sent.join("\n"));
    std::fs::read_dir(dir)
        .expect("the logs")
        .filter_map(|entry| std::fs::read(entry.ok()?.path()).ok())
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .filter(|log| *log != pipe_input)
        .any(|log| format!("\n{log}").contains(&block))
}

#[test]
fn a_record_pipe_sends_the_lines_the_record_was_played_with() {
    // §5.10 broken (a pillbug throws the piece moved last) on a real record
    // (tests/records/sgf, boardspace): the pipe used to load the position
    // with the reference's canonical GameString; it now holds the lines the
    // engine read: the record's `newgame`, its plays, then `validmoves`.
    let scratch = scratch();
    let dir = scratch.path();
    let engine = logged_engine("pillbug-throws-last-moved", dir);
    let (status, report) = check_with(&engine, &["--records", "tests/records/sgf"]);
    assert_eq!(status, Some(1), "{report:#}");
    let listed = shortest(&report)
        .into_iter()
        .find(|f| f["test"].as_str().is_some_and(|t| t.contains(".sgf")))
        .unwrap_or_else(|| panic!("no record finding in {report:#}"));
    let lines = sent(listed);
    let start = lines
        .iter()
        .position(|l| *l == "newgame Base+P")
        .unwrap_or_else(|| panic!("no newgame of the record's type: {listed:#}"));
    assert!(
        lines[start + 1..]
            .iter()
            .all(|l| l.starts_with("play ") || *l == "validmoves"),
        "{listed:#}"
    );
    assert!(lines.iter().any(|l| l.starts_with("play ")), "{listed:#}");
    assert_eq!(lines.last(), Some(&"validmoves"), "{listed:#}");
    assert!(read_in_a_row(dir, &lines), "{listed:#}");
    assert_eq!(listed["reproduced"], true, "{listed:#}");
    // the printed pipe, through sh, lists the same moves as a set
    let answer = shell(listed["reproduce"].as_str().expect("a pipe"));
    let list = answer
        .lines()
        .rev()
        .find(|l| l.contains(';') && !l.starts_with("Base"))
        .unwrap_or_else(|| panic!("no list in {answer}"));
    let set = |text: &str| -> std::collections::BTreeSet<String> {
        text.split(';').map(str::to_string).collect()
    };
    let recorded = listed["answer"][0].as_str().expect("the list");
    assert_eq!(set(list), set(recorded));
}

/// One random Base game of at most 24 plies, no corpus case.
const ONE_SHORT_BASE_GAME: [&str; 7] = [
    "--no-corpus",
    "--games",
    "1",
    "--game-types",
    "Base",
    "--max-plies",
    "24",
];

#[test]
fn a_game_pipe_after_a_reload_starts_at_the_reload() {
    // §5.9 broken (one legal move left out of every list): each cause is
    // shrunk, and the shrinker loads its candidate games with `newgame
    // GameString` and plays on from there. A cause's pipe starts at that
    // load, as the engine read it, not at the start of the random game.
    let scratch = scratch();
    let dir = scratch.path();
    let engine = logged_engine("drop-one-move", dir);
    let args = ONE_SHORT_BASE_GAME;
    let (status, report) = check_with(&engine, &args);
    assert_eq!(status, Some(1), "{report:#}");
    let reloaded: Vec<&Value> = shortest(&report)
        .into_iter()
        .filter(|f| f["test"].as_str().is_some_and(|t| t.starts_with("game")))
        .filter(|f| {
            let lines = sent(f);
            let start = lines.iter().rposition(|l| l.starts_with("newgame"));
            start.is_some_and(|i| lines[i].contains(';') && i + 2 < lines.len())
        })
        .collect();
    assert!(!reloaded.is_empty(), "{report:#}");
    for f in reloaded {
        let lines = sent(f);
        assert_eq!(lines.last(), Some(&"validmoves"), "{f:#}");
        assert!(lines.iter().any(|l| l.starts_with("play ")), "{f:#}");
        assert!(read_in_a_row(dir, &lines), "{f:#}");
        assert_eq!(f["reproduced"], true, "{f:#}");
    }
}

#[test]
fn a_known_list_cause_in_a_game_costs_no_reload_and_keeps_its_pipe() {
    // §5.9 broken (one legal move left out of every list): each list's
    // cause is known from a baseline, so each is reported where it was
    // seen, unshrunk. `validmoves` changes no game, so the game goes on
    // without reloading the engine, and each pipe runs from the game's own
    // `newgame`, as the engine read it.
    let scratch = scratch();
    let dir = scratch.path();
    let engine = logged_engine("drop-one-move", dir);
    let baseline = text(&dir.join("baseline.json"));
    let baseline = baseline.as_str();
    let args = ONE_SHORT_BASE_GAME;
    let (status, _) = check_with(
        &engine,
        &[&args[..], &["--write-baseline", baseline]].concat(),
    );
    assert_eq!(status, Some(1));
    let (status, report) = check_with(&engine, &[&args[..], &["--baseline", baseline]].concat());
    assert_eq!(status, Some(0), "{report:#}");
    assert_eq!(
        report["summary"]["game_reloads"], 0,
        "{:#}",
        report["summary"]
    );
    let in_game: Vec<&Value> = shortest(&report)
        .into_iter()
        .filter(|f| f["test"].as_str().is_some_and(|t| t.starts_with("game")))
        .collect();
    assert!(in_game.len() >= 2, "{report:#}");
    for f in in_game {
        let lines = sent(f);
        assert_eq!(lines.last(), Some(&"validmoves"), "{f:#}");
        let load = lines.iter().rposition(|l| l.starts_with("newgame"));
        assert_eq!(load.map(|i| lines[i]), Some("newgame Base"), "{f:#}");
        assert!(read_in_a_row(dir, &lines), "{f:#}");
        assert_eq!(f["reproduced"], true, "{f:#}");
    }
}

#[test]
fn a_protocol_probe_pipe_holds_the_earlier_lines_of_its_process() {
    // The engine exits on a play once six plies are on the board: the
    // non-UTF-8 probe's `play` crashes it only because the bestmove probe
    // loaded a finished game on the same process just before. Its pipe used
    // to send the probe's line alone and did not reproduce.
    let scratch = scratch();
    let dir = scratch.path();
    let repro = text(&dir.join("reproduce dir"));
    let repro_arg = repro.as_str();
    let (status, report) = check(
        "crash-mid-game",
        &["--no-corpus", "--games", "0", "--reproduce-dir", repro_arg],
    );
    assert_eq!(status, Some(0), "advisories only: {report:#}");
    let probe = shortest(&report)
        .into_iter()
        .find(|f| f["pattern"] == "non-UTF-8")
        .unwrap_or_else(|| panic!("no non-UTF-8 finding in {report:#}"));
    let lines = sent(probe);
    assert!(lines[0].starts_with("newgame Base;WhiteWins;"), "{probe:#}");
    assert!(lines.len() > 2, "{probe:#}");
    assert_eq!(probe["reproduced"], true, "{probe:#}");

    // the reproduce file holds what the pipe sends, byte for byte
    let pipe = probe["reproduce"].as_str().expect("a pipe");
    let (printf, _) = pipe.split_once(" | ").expect("printf | engine");
    let input = crate::common::command("sh")
        .args(["-c", printf])
        .output()
        .expect("sh runs")
        .stdout;
    let file = probe["reproduce_file"].as_str().expect("a reproduce file");
    assert_eq!(std::fs::read(file).expect("the file"), input);
    assert!(input.ends_with(b"\nexit\n"));
    // its line that is not UTF-8 is sent as it was: no PowerShell command
    assert!(input.windows(2).any(|w| w == b"\xff\xfe"));
    assert!(probe.get("reproduce_powershell").is_none(), "{probe:#}");
    // the POSIX command, run by sh, crashes the engine again (status 101)
    let sh_command = probe["reproduce_sh"].as_str().expect("a sh command");
    assert!(sh_command.ends_with(&format!("< '{file}'")), "{sh_command}");
    let status = crate::common::command("sh")
        .args(["-c", sh_command])
        .stdout(Stdio::null())
        .status()
        .expect("sh runs");
    assert_eq!(status.code(), Some(101));
}

#[test]
fn a_reproduce_file_of_ascii_lines_has_a_powershell_command() {
    // A crash in a random game (six plies on the board, then a play):
    // the file, the sh command and the PowerShell command name one file.
    let scratch = scratch();
    let dir = scratch.path();
    let repro = text(&dir.join("it's $HOME"));
    let repro_arg = repro.as_str();
    let (status, report) = check(
        "crash-mid-game",
        &["--no-corpus", "--games", "1", "--reproduce-dir", repro_arg],
    );
    assert_eq!(status, Some(1), "{report:#}");
    let crash = shortest(&report)
        .into_iter()
        .find(|f| f["kind"] == "crash" && f["test"].as_str().is_some_and(|t| t.starts_with("game")))
        .unwrap_or_else(|| panic!("no crash in a game in {report:#}"));
    let file = crash["reproduce_file"].as_str().expect("a file");
    assert!(
        file.starts_with(repro_arg) && file.ends_with("-crash.uhp"),
        "{file}"
    );
    let bytes = std::fs::read(file).expect("the file");
    let mut expected: Vec<u8> = sent(crash).join("\n").into_bytes();
    expected.extend(b"\nexit\n");
    assert_eq!(bytes, expected);
    let quoted = file.replace('\'', "''");
    assert_eq!(
        crash["reproduce_powershell"].as_str(),
        Some(format!("Get-Content -Raw -LiteralPath '{quoted}' | & '{BIN}' 'uhp' '--fault' 'crash-mid-game'").as_str()),
        "{crash:#}"
    );
}

/// `--reproduce-dir` never follows a symbolic link and never leaves an
/// earlier run's files beside this run's: before writing, every
/// `cause-NN-KIND.uhp` of the folder is removed (a link is removed, not
/// followed), other files are kept, and each file is created new. Before: a
/// link planted under a reproduce file's name had its target replaced, and
/// `cause-42-state.uhp` of an earlier run stayed, to be mistaken for one of
/// this run's. A record of the check named as a reproduce file is refused
/// at the start (docs/limits.md `reproduce-folder`).
#[cfg(unix)]
#[test]
fn a_reproduce_folder_follows_no_link_and_keeps_no_earlier_file() {
    let scratch = scratch();
    let dir = scratch.path();
    let repro = dir.join("reproduce");
    let repro_arg = text(&repro);
    let args = ["--no-corpus", "--games", "1", "--reproduce-dir", &repro_arg];
    let files = |report: &Value| -> Vec<String> {
        let mut files: Vec<String> = shortest(report)
            .into_iter()
            .filter_map(|f| f["reproduce_file"].as_str().map(str::to_string))
            .collect();
        files.sort();
        files
    };
    let (_, first) = check("crash-mid-game", &args);
    let written = files(&first);
    assert!(!written.is_empty(), "{first:#}");
    // a link under each name, to a file outside; an earlier run's file; a
    // file of the user's
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, b"keep me\n").expect("written");
    for file in &written {
        std::fs::remove_file(file).expect("removed");
        std::os::unix::fs::symlink(&victim, file).expect("a link");
    }
    std::fs::write(repro.join("cause-42-state.uhp"), b"stale\n").expect("written");
    std::fs::write(repro.join("notes.txt"), b"mine\n").expect("written");
    let (_, second) = check("crash-mid-game", &args);
    assert_eq!(files(&second), written, "{second:#}");
    assert_eq!(std::fs::read(&victim).expect("read"), b"keep me\n");
    for file in &written {
        let meta = std::fs::symlink_metadata(file).expect("the file");
        assert!(meta.is_file(), "{file} is a regular file, not the link");
        assert!(std::fs::read(file).expect("read").ends_with(b"\nexit\n"));
    }
    let mut names: Vec<String> = std::fs::read_dir(&repro)
        .expect("listed")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = written
        .iter()
        .map(|f| f.rsplit('/').next().unwrap_or(f).to_string())
        .chain(["notes.txt".to_string()])
        .collect();
    expected.sort();
    assert_eq!(names, expected);
    // a record the check reads, named as a reproduce file in the folder,
    // would be removed with the earlier run's files: refused at the start
    // (status 2), before any work, and kept
    let record = repro.join("cause-01-state.uhp");
    std::fs::copy(
        crate::common::repository("tests/records/pgn/two-games.pgn"),
        &record,
    )
    .expect("copied");
    let record_arg = text(&record);
    let refused = Check::new()
        .fault("crash-mid-game")
        .args(args)
        .args(["--records", &record_arg])
        .run();
    assert_eq!(refused.status, Some(2), "{}", refused.stderr);
    assert!(
        refused.stderr.contains("cause-01-state.uhp") && refused.stderr.contains("--records"),
        "{}",
        refused.stderr
    );
    assert!(record.exists(), "the record is kept");
}
