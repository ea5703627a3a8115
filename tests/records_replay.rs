//! `hive-oracle replay` and `convert` (spec/game-records.md): the test
//! records of `tests/records/` replayed by the binary, the reports pinned as
//! insta snapshots (`tests/snapshots/records_replay__*.snap`), the exit
//! statuses, and reports that depend neither on the jobs nor on the engine.
//!
//! Update the snapshots with `INSTA_UPDATE=always cargo test --test records_replay`,
//! then read the diff.

mod common;

use std::path::Path;

use common::{run, stderr, stdout};

fn records(folder: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/records")
        .join(folder)
        .display()
        .to_string()
}

/// The report with the repository's path cut off, so that the snapshot is
/// the same on every machine.
fn portable(text: &str) -> String {
    let root = format!("{}/", env!("CARGO_MANIFEST_DIR"));
    text.replace(&root, "")
}

#[test]
fn replay_report_of_every_test_record_as_text() {
    // §10.14, §10.13: every game of every test record, the illegal plies with
    // their clause and facts, the wrong results, the unreadable files and the
    // table by game type; exit 1, since some test records are bad on purpose.
    let out = run(&["replay", &records("pgn"), &records("sgf")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    insta::assert_snapshot!("replay_text", portable(&stdout(&out)));
    assert!(stderr(&out).contains("games a minute"), "{}", stderr(&out));
}

#[test]
fn replay_report_as_json_names_every_game() {
    // §10.14: the JSON report lists every game with its outcome, and its
    // summary counts add up.
    let out = run(&["replay", "--format", "json", &records("pgn")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let all = &json["summary"]["all"];
    let games = all["games"].as_u64().expect("a count");
    assert_eq!(
        games,
        all["legal"].as_u64().unwrap_or(0)
            + all["illegal"].as_u64().unwrap_or(0)
            + all["wrong_result"].as_u64().unwrap_or(0)
    );
    assert_eq!(json["games"].as_array().map(Vec::len), Some(games as usize));
    insta::assert_snapshot!("replay_json_pgn", portable(&stdout(&out)));
}

#[test]
fn the_report_depends_neither_on_the_jobs_nor_on_the_engine() {
    // §10.14: files are reported in the order given, and a refusal is always
    // the reference engine's, whichever engine replays; text and JSON alike.
    for format in ["text", "json"] {
        let (pgn, sgf) = (records("pgn"), records("sgf"));
        let base = run(&["replay", "--format", format, &pgn, &sgf]);
        for args in [
            vec!["--jobs", "1"],
            vec!["--jobs", "7"],
            vec!["--engine", "reference"],
        ] {
            let mut all = vec!["replay", "--format", format];
            all.extend(args.iter().copied());
            all.push(&pgn);
            all.push(&sgf);
            let out = run(&all);
            assert_eq!(stdout(&out), stdout(&base), "{format} {args:?}");
            assert_eq!(out.status.code(), base.status.code(), "{format} {args:?}");
        }
    }
}

#[test]
fn files_finished_early_are_reported_after_the_files_before_them() {
    // §10.14: each file is reported as the files before it are done, in the
    // order given: a long file first (many games) and short files after it,
    // replayed by four jobs, give the report of one job, byte for byte. The
    // records are the test record with an illegal ply, so that every file
    // prints lines that name it.
    let illegal = std::fs::read_to_string(format!("{}/illegal-move.pgn", records("pgn")))
        .expect("the test record");
    let dir = tempdir();
    let mut paths = Vec::new();
    for (i, copies) in [400, 1, 3, 1, 2, 1, 1, 5, 1, 1].iter().enumerate() {
        let path = dir.join(format!("f{i}.pgn"));
        std::fs::write(&path, format!("{illegal}\n\n").repeat(*copies)).expect("write");
        paths.push(path.display().to_string());
    }
    for format in ["text", "json"] {
        let report = |jobs: &str| {
            let mut args = vec!["replay", "--format", format, "--jobs", jobs];
            args.extend(paths.iter().map(String::as_str));
            run(&args)
        };
        let one = report("1");
        assert_eq!(one.status.code(), Some(1), "{}", stderr(&one));
        let four = report("4");
        assert_eq!(stdout(&four), stdout(&one), "{format}");
        assert_eq!(four.status.code(), Some(1));
        // The files' first mentions come in the order given.
        let text = stdout(&four);
        let firsts: Vec<usize> = paths
            .iter()
            .map(|p| text.find(p.as_str()).expect("every file is named"))
            .collect();
        assert!(
            firsts.windows(2).all(|w| w[0] < w[1]),
            "{format}: {firsts:?}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_clean_set_of_records_exits_zero() {
    // §10.14: exit 0 when every game is legal and ends as declared.
    let out = run(&["replay", &format!("{}/two-games.pgn", records("pgn"))]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(stdout(&out).contains("all "), "{}", stdout(&out));
}

#[test]
fn nothing_to_replay_exits_two() {
    // A missing path, or a folder without a record, is exit 2 with a message.
    let out = run(&["replay", "no/such/folder"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no such file or folder"),
        "{}",
        stderr(&out)
    );
    let empty = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let out = run(&["replay", &empty.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds no record file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn convert_prints_a_game_string_that_loads_and_a_pgn_that_reads_back() {
    // §10.14, §9.31: a record converted to a GameString loads in any engine;
    // converted to PGN it reads back to the same GameString.
    let file = format!("{}/two-games.pgn", records("pgn"));
    for game in ["1", "2"] {
        let out = run(&["convert", &file, "--game", game]);
        assert!(out.status.success(), "{}", stderr(&out));
        let game_string = stdout(&out).trim().to_string();
        let loaded = run(&["validmoves", &game_string]);
        assert!(loaded.status.success(), "{}", stderr(&loaded));
        let pgn = run(&["convert", &file, "--game", game, "--to", "pgn"]);
        assert!(pgn.status.success(), "{}", stderr(&pgn));
        let dir = tempdir();
        let path = dir.join("back.pgn");
        std::fs::write(&path, stdout(&pgn)).expect("write");
        let back = run(&["convert", &path.display().to_string()]);
        assert_eq!(stdout(&back).trim(), game_string);
    }
    // A GameString converts to a PGN record too.
    let out = run(&[
        "convert",
        "Base;InProgress;White[2];wS1;bS1 wS1-",
        "--to",
        "pgn",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1. wS1\n2. bS1 wS1-"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn explain_reads_a_record_and_a_ply_number() {
    // §10.14: `explain FILE N` explains the record's N-th ply in the position
    // before it; the illegal ply of a record is explained with its clause.
    let file = format!("{}/illegal-move.pgn", records("pgn"));
    let out = run(&["replay", "--format", "json", &file]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let ply = json["games"][0]["outcome"]["ply"]
        .as_u64()
        .expect("an illegal ply");
    let out = run(&["explain", &file, &ply.to_string()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("illegal:"), "{}", stdout(&out));
    let legal = run(&["explain", &file, "1"]);
    assert!(stdout(&legal).contains("legal:"), "{}", stdout(&legal));
    let out = run(&["explain", &file, "999"]);
    assert!(!out.status.success());
}

fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hive-oracle-records-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}
