//! `hive-oracle replay` and `convert` (spec/game-records.md): the test
//! records of `tests/records/` replayed by the binary, the reports pinned as
//! insta snapshots (`tests/snapshots/integration__records_replay__*.snap`), the exit
//! statuses, and reports that depend neither on the jobs nor on the engine.
//!
//! Update the snapshots with `INSTA_UPDATE=always cargo test --test integration records_replay::`,
//! then read the diff.

use crate::common;

use std::path::Path;

use common::{run, stderr, stdout};
use hive_oracle_rules::core::RulesOptions;
use hive_oracle_rules::records::{self, pgn, Format, Record};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;
use proptest::prelude::*;

fn records(folder: &str) -> String {
    crate::common::repository("tests/records")
        .join(folder)
        .display()
        .to_string()
}

/// The report with the repository's path cut off, so that the snapshot is
/// the same on every machine.
fn portable(text: &str) -> String {
    let root = format!("{}/", crate::common::root().display());
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
    let dir = crate::common::scratch();
    let mut paths = Vec::new();
    for (i, copies) in [400, 1, 3, 1, 2, 1, 1, 5, 1, 1].iter().enumerate() {
        let path = dir.path().join(format!("f{i}.pgn"));
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
    // a folder of files that are no records
    let empty = crate::common::repository("spec");
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
        let dir = crate::common::scratch();
        let path = dir.path().join("back.pgn");
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

/// The real records of `tests/records/real/mzinga/` (boardspace games, each
/// as its SGF and as the PGN Mzinga's converter made of it; MIT, see the
/// folder's LICENSE.md), read through `records::read` and named by file
/// name, in file-name order.
fn real_records() -> Vec<(String, Record)> {
    let dir = Path::new(&records("real")).join("mzinga");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/records/real/mzinga")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".pgn") || n.ends_with(".sgf"))
        .collect();
    names.sort();
    let mut games = Vec::new();
    for name in names {
        let bytes = std::fs::read(dir.join(&name)).expect("a real record");
        let read = records::read(&name, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(read.len(), 1, "{name}: one game per file");
        games.extend(read.into_iter().map(|g| (name.clone(), g)));
    }
    games
}

/// A record replayed on the reference engine with its opening and no
/// repetition draw (§10.12): the engine, or the first refused ply and why.
fn replayed(record: &Record) -> Result<ReferenceEngine, String> {
    let options = RulesOptions {
        tournament_opening: !record.standard_opening,
        repetition_draw: false,
    };
    let mut game = ReferenceEngine::new_game(record.game_type, options);
    for (i, m) in record.moves.iter().enumerate() {
        let refused = |e: &dyn std::fmt::Display| format!("ply {} {}: {e}", i + 1, m.uhp);
        let mv = game.parse_move(&m.uhp).map_err(|e| refused(&e))?;
        game.play(mv).map_err(|e| refused(&e))?;
    }
    Ok(game)
}

#[test]
fn real_records_replay_as_pinned() {
    // §10.7–§10.14 on games nobody here wrote: the 19 boardspace games of
    // Mzinga's test assets, each as SGF and as Mzinga's PGN of it. Every game
    // reads and replays legally on the reference engine; the snapshot pins,
    // per file, the game type, opening, plies, the declared result and how
    // it ended, the replayed state, and the reader's notes.
    let mut table = String::new();
    for (name, record) in real_records() {
        let state = match replayed(&record) {
            Ok(game) => format!("{:?}", game.state()),
            Err(why) => format!("illegal at {why}"),
        };
        table.push_str(&format!(
            "{name}: {} {}, {} plies, declared {} ({:?}), replayed {state}\n",
            record.game_type,
            if record.standard_opening {
                "standard opening"
            } else {
                "tournament opening"
            },
            record.moves.len(),
            record.result.name(),
            record.ending,
        ));
        for note in &record.notes {
            table.push_str(&format!("    {note}\n"));
        }
    }
    insta::assert_snapshot!("real_records", table);
    // The binary agrees: every game legal, every result as declared.
    let out = run(&["replay", &records("real")]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("all            38     38"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn each_real_sgf_and_its_mzinga_pgn_give_the_same_game_string() {
    // §10.11, §10.4: the SGF reader, replaying boardspace's coordinates, and
    // the PGN reader, reading Mzinga's conversion of the same file, give the
    // same game: the canonical GameString (§9.31) after the replay, the game
    // type and the opening.
    let games = real_records();
    let mut pairs = 0;
    for (name, sgf) in games.iter().filter(|(_, r)| r.format == Format::Sgf) {
        let stem = name.trim_end_matches(".sgf");
        let (_, pgn) = games
            .iter()
            .find(|(n, r)| r.format == Format::Pgn && n.trim_end_matches(".pgn") == stem)
            .unwrap_or_else(|| panic!("{name} has no PGN beside it"));
        assert_eq!(sgf.game_type, pgn.game_type, "{stem}");
        assert_eq!(sgf.standard_opening, pgn.standard_opening, "{stem}");
        let strings = [sgf, pgn].map(|r| {
            replayed(r)
                .unwrap_or_else(|why| panic!("{stem}: {why}"))
                .game_string()
        });
        assert_eq!(strings[0], strings[1], "{stem}");
        pairs += 1;
    }
    assert_eq!(pairs, 19);
}

#[test]
fn real_sgf_records_write_the_pgn_tags_mzinga_writes() {
    // §10.17: an SGF record written as PGN keeps no raw SGF property as a
    // tag; DT, GN and RE become SgfDate, SgfGameName and SgfResult, as in
    // the PGN Mzinga's converter made of the same file (its Date comes from
    // DT, ours from the file name, section 3.1; its Result of a file without
    // RE from its own replay), and the PGN reads back to the same game.
    let games = real_records();
    let tags_of = |text: &str| -> Vec<(String, String)> {
        pgn::read("t.pgn", text).expect("reads")[0].tags.clone()
    };
    for (name, sgf) in games.iter().filter(|(_, r)| r.format == Format::Sgf) {
        let stem = name.trim_end_matches(".sgf");
        let mzinga_text = std::fs::read_to_string(
            Path::new(&records("real"))
                .join("mzinga")
                .join(format!("{stem}.pgn")),
        )
        .expect("Mzinga's PGN");
        let mzinga = tags_of(&mzinga_text);
        let ours_text = pgn::write(sgf);
        let ours = tags_of(&ours_text);
        for (key, value) in &ours {
            assert!(
                !["GM", "VV", "SU", "DT", "GN", "RE", "P0", "P1"].contains(&key.as_str()),
                "{stem}: raw property {key} written:\n{ours_text}"
            );
            if key == "Date" {
                continue;
            }
            let theirs = mzinga.iter().find(|(k, _)| k == key).map(|(_, v)| v);
            assert_eq!(Some(value), theirs, "{stem}: tag {key}");
        }
        for key in ["SgfDate", "GameType", "White", "Black"] {
            assert!(ours.iter().any(|(k, _)| k == key), "{stem}: no {key}");
        }
        let back = &pgn::read("back.pgn", &ours_text).expect("reads back")[0];
        assert_eq!(back.move_strings(), sgf.move_strings(), "{stem}");
        assert_eq!(
            (back.game_type, back.result),
            (sgf.game_type, sgf.result),
            "{stem}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// §10.17: whatever an SGF's DT, GN and RE hold (quotes, backslashes,
    /// brackets and control characters included), the PGN written of it
    /// reads back with SgfDate, SgfGameName and SgfResult as the writer
    /// writes a tag value, and the same game.
    #[test]
    fn sgf_properties_round_trip_through_the_pgn_writer(
        dt in "\\PC{1,20}", gn in "[\\\\\"\\[\\]a-z \\x01\\t]{1,20}", re in "\\PC{1,20}",
    ) {
        let games = real_records();
        let (_, sgf) = games.iter().find(|(_, r)| r.format == Format::Sgf).expect("a real SGF");
        let mut record = sgf.clone();
        prop_assume!(![&dt, &gn, &re].iter().any(|v| v.trim().is_empty()));
        for (key, value) in [("DT", &dt), ("GN", &gn), ("RE", &re)] {
            record.tags.retain(|(k, _)| k != key);
            record.tags.push((key.to_string(), value.clone()));
        }
        let text = pgn::write(&record);
        let back = pgn::read("back.pgn", &text);
        prop_assert!(back.is_ok(), "{:?}\n{}", back, text);
        let back = back.unwrap_or_default();
        prop_assert_eq!(back.len(), 1);
        for (key, value) in [("SgfDate", &dt), ("SgfGameName", &gn), ("SgfResult", &re)] {
            let read = back[0].tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
            prop_assert_eq!(read, Some(pgn::written_tag_value(value)), "{}\n{}", key, text);
        }
        prop_assert_eq!(back[0].move_strings(), record.move_strings());
    }
}

#[test]
fn a_zip_archive_is_read_as_a_folder() {
    // §10.21, tests/records/zip/archive.zip (made with Python's zipfile): a
    // folder entry, two-games.pgn and variant-hive-ultimate.sgf deflated,
    // readme.txt (not read) and TRUNCATED.SGF stored. The two games replay,
    // the Ultimate Hive record is skipped and counted, the truncated one is
    // unreadable and named inside the archive.
    let archive = format!("{}/archive.zip", records("zip"));
    let out = run(&["replay", &archive]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("all             2      2"), "{text}");
    assert!(text.contains("skipped: not a UHP game type: 1\n"), "{text}");
    assert!(
        text.contains("skipped: not a UHP game type: ")
            && text.contains("archive.zip/games/variant-hive-ultimate.sgf:"),
        "{text}"
    );
    assert!(
        text.contains("unreadable: ") && text.contains("archive.zip/games/TRUNCATED.SGF"),
        "{text}"
    );
    assert!(text.contains("unreadable files: 1\n"), "{text}");
    // inside a folder, the archive is walked too
    let out = run(&["replay", &records("zip")]);
    assert_eq!(stdout(&out), text);
    // §10.21: an archive with no record entry is no record, as an empty
    // file is (the end record of an empty archive alone)
    let dir = crate::common::scratch();
    let empty = dir.path().join("empty.zip");
    std::fs::write(&empty, b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0").expect("write");
    let out = run(&["replay", &empty.display().to_string()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("empty.zip: a zip archive holding no .pgn or .sgf entry"),
        "{}",
        stdout(&out)
    );
    // convert names the archive instead of printing its bytes
    let out = run(&["convert", &archive]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(stderr(&out).contains("a zip archive"), "{}", stderr(&out));
}

#[test]
fn other_games_fail_a_replay_only_under_strict() {
    // §10.21: a run whose only problem is an Ultimate Hive record exits 0,
    // and 1 under --strict; JSON lists the record as not a UHP game.
    let ultimate = format!("{}/variant-hive-ultimate.sgf", records("sgf"));
    let legal = format!("{}/two-games.pgn", records("pgn"));
    let out = run(&["replay", &ultimate, &legal]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("skipped: not a UHP game type: 1"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).ends_with("\nPASS\n"), "{}", stdout(&out));
    // under --strict the exit status, the verdict line and JSON's `clean`
    // say the same
    let out = run(&["replay", "--strict", &ultimate, &legal]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).ends_with("\nFAIL\n"), "{}", stdout(&out));
    let out = run(&["replay", "--format", "json", &ultimate, &legal]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(json["not_a_uhp_game"].as_array().map(Vec::len), Some(1));
    assert_eq!(json["summary"]["not_a_uhp_game"], 1);
    assert_eq!(json["unreadable"].as_array().map(Vec::len), Some(0));
    assert_eq!(json["clean"], true);
    let out = run(&["replay", "--strict", "--format", "json", &ultimate, &legal]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(json["clean"], false);
}

#[test]
fn game_n_of_a_file_with_an_unreadable_game_or_of_an_archive() {
    // §10.16, second-game-unreadable.pgn: --game N reads game N even when
    // another game does not read; game 2 itself is refused naming its
    // number and line; the file holds 3 games, the unreadable one counted.
    let file = format!("{}/second-game-unreadable.pgn", records("pgn"));
    let out = run(&["convert", &file, "--game", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("Base;BlackWins;"),
        "{}",
        stdout(&out)
    );
    let out = run(&["validmoves", &file, "--game", "2"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("second-game-unreadable.pgn: game 2, line 32: ply 4"),
        "{}",
        stderr(&out)
    );
    let out = run(&["explain", &file, "--game", "4", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("holds 3 game(s), not a game 4"),
        "{}",
        stderr(&out)
    );
    // §10.21: an archive is not a record file: said, without its bytes;
    // with --game it is a usage error, as for any input that is no record
    let archive = format!("{}/archive.zip", records("zip"));
    for (args, status) in [
        (vec!["validmoves", archive.as_str()], 1),
        (vec!["convert", archive.as_str(), "--game", "2"], 2),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(status), "{args:?}");
        assert!(
            stderr(&out)
                .contains("is a zip archive, not a record file: `replay` reads the records in it"),
            "{}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains("PK"), "{}", stderr(&out));
    }
}

#[test]
fn a_zip_entry_is_read_no_further_than_a_record_file() {
    // §10.21, docs/limits.md `archive-bomb`: an entry that decompresses past
    // 64 MiB is unreadable, named, after at most 64 MiB + 1 bytes; the
    // entries after it are read. Its text is 65 MiB of comment lines, each
    // one of 256 lines of random letters: it deflates about 30 times, under
    // the ratio limit (100), so the record file's limit is the one reached.
    use std::io::Write as _;
    let dir = crate::common::scratch();
    let path = dir.path().join("bomb.zip");
    let file = std::fs::File::create(&path).expect("create");
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1));
    zip.start_file("big.pgn", options).expect("entry");
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let lines: Vec<Vec<u8>> = (0..256)
        .map(|_| {
            let mut line = vec![b'{'];
            line.extend((0..97).map(|_| b'a' + (next() % 26) as u8));
            line.extend_from_slice(b"}\n");
            line
        })
        .collect();
    let mut block = Vec::with_capacity(1 << 20);
    for _ in 0..65 {
        block.clear();
        while block.len() < 1 << 20 {
            block.extend_from_slice(&lines[(next() % 256) as usize]);
        }
        zip.write_all(&block).expect("write");
    }
    let game = std::fs::read(format!("{}/two-games.pgn", records("pgn"))).expect("record");
    zip.start_file("after.pgn", options).expect("entry");
    zip.write_all(&game).expect("write");
    zip.finish().expect("finish");
    let out = run(&["replay", &path.display().to_string()]);
    let text = stdout(&out);
    assert!(
        text.contains("bomb.zip/big.pgn: cannot read: the entry is more than"),
        "{text}"
    );
    assert!(text.contains("all             2      2"), "{text}");
}

/// A record with the same legacy spelling on several plies (each noted by
/// the reader, §10.6) and an illegal ply 7: the queen climbing onto the
/// other queen (§6.1). Made up from the §8.7.2 example's first six plies.
const NOTED_AND_ILLEGAL: &str = "[GameType \"Base\"]\n[Result \"BlackWins\"]\n\n\
1. wS1\n2. bS1 wS1-\n3. wQ1 -wS1\n4. bQ bS1-\n5. wQ1 \\wS1\n6. bQ bS1/\n7. wQ1 bQ\n";

#[test]
fn an_illegal_game_ends_with_its_notes_its_picture_and_an_explain_command() {
    // §10.14, §10.6: the game with a problem shows its reader's notes, the
    // same note on three lines once with its count; then the picture of the
    // position before the illegal ply, the ply's cells highlighted, and the
    // command that explains that ply, its file quoted for the shell.
    let dir = crate::common::scratch();
    let path = dir.path().join("a game's record.pgn");
    std::fs::write(&path, NOTED_AND_ILLEGAL).expect("write");
    let file = path.display().to_string();
    let out = run(&["replay", &file]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out).replace(&file, "FILE");
    let (game, closing) = text.split_once("\n\ngame type").expect("the table");
    assert!(closing.ends_with("FAIL\n"), "{closing}");
    let lines: Vec<&str> = game.lines().collect();
    assert!(
        lines[0].starts_with("FILE game 1 (line 1): illegal ply 7 (line 10): wQ bQ — "),
        "{game}"
    );
    assert!(
        lines.contains(&"  note: lines 6, 8, 10: wQ1 read as wQ (×3)"),
        "{game}"
    );
    // the picture: the board before ply 7, wQ's cell and bQ's highlighted
    let picture = game.find("    highlighted: ").expect("a picture");
    assert!(game[..picture].contains("[wQ]"), "{game}");
    assert!(game[..picture].contains("[bQ]"), "{game}");
    // the last line: the command, the file quoted as a POSIX shell reads it
    let quoted = format!("'{}'", file.replace('\'', "'\\''"));
    let last = stdout(&out)
        .lines()
        .find(|l| l.starts_with("  explain: "))
        .map(str::to_string)
        .expect("an explain command");
    assert_eq!(
        last,
        format!("  explain: hive-oracle explain {quoted} --game 1 7")
    );
    assert!(
        lines.last().is_some_and(|l| l.starts_with("  explain: ")),
        "{game}"
    );
    // the ply it names is the illegal one: `explain FILE 7` (game 1) refuses it
    let explained = run(&["explain", &file, "7"]);
    assert!(
        stdout(&explained).contains("illegal: wQ bQ"),
        "{}",
        stdout(&explained)
    );
    // --verbose lists each note on its own line, with its ply
    let verbose = stdout(&run(&["replay", "--verbose", &file]));
    for (line, ply) in [(6, 3), (8, 5), (10, 7)] {
        let note = format!("  note: line {line}, ply {ply}: wQ1 read as wQ");
        assert!(verbose.contains(&note), "{note}\n{verbose}");
    }
}

#[test]
fn notes_of_clean_games_are_shown_under_verbose_only() {
    // §10.6: a clean game's notes are not a problem: the default report
    // leaves them out, --verbose lists them under the game's name.
    let file = format!("{}/old-converter-numbered-singletons.pgn", records("pgn"));
    let quiet = stdout(&run(&["replay", &file]));
    assert!(!quiet.contains("note:"), "{quiet}");
    let verbose = stdout(&run(&["replay", "--verbose", &file]));
    let name = format!("{file} game 1 (line 1): ");
    let header = verbose
        .lines()
        .find(|l| l.starts_with(&name))
        .expect("the game's name");
    assert!(header.ends_with(" notes"), "{header}");
    assert!(verbose.contains("  note: line "), "{verbose}");
    assert!(verbose.ends_with("PASS\n"), "{verbose}");
}

#[test]
fn the_summary_counts_the_results_checked() {
    // §10.13: of the games legal to their end, the results the board checked
    // (agreeing or not), those it cannot decide, and those the record does
    // not declare, adding up to the games legal to their end.
    let out = run(&[
        "replay",
        "--format",
        "json",
        &records("pgn"),
        &records("sgf"),
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let all = &json["summary"]["all"];
    let n = |key: &str| all[key].as_u64().unwrap_or_else(|| panic!("{key}: {all}"));
    let r = |key: &str| {
        all["results"][key]
            .as_u64()
            .unwrap_or_else(|| panic!("{key}: {all}"))
    };
    assert_eq!(
        r("agree") + r("disagree") + r("undecidable") + r("unknown"),
        n("games") - n("illegal")
    );
    assert_eq!(r("checked"), r("agree") + r("disagree"));
    assert_eq!(r("disagree"), n("wrong_result"));
    let text = stdout(&run(&["replay", &records("pgn"), &records("sgf")]));
    let line = format!(
        "results of the {} games legal to their end: {} checked ({} agree, {} disagree), {} not decidable from the board, {} unknown",
        n("games") - n("illegal"),
        r("checked"),
        r("agree"),
        r("disagree"),
        r("undecidable"),
        r("unknown"),
    );
    assert!(text.contains(&line), "{line}\n{text}");
}

#[test]
fn a_repetition_draw_is_noted_and_agrees_under_the_option() {
    // §10.20, §8.7.2: the §8.7.2 example as a record declaring a draw. Without
    // the option the draw is not decidable from the board; with it the third
    // occurrence after ply 12 is noted and the declared draw agrees.
    let file = format!("{}/repetition-draw.pgn", records("replay"));
    let json_of = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["replay", "--format", "json"];
        all.extend(args);
        all.push(&file);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        serde_json::from_str(&stdout(&out)).expect("JSON")
    };
    let without = json_of(&[]);
    assert_eq!(without["games"][0]["outcome"]["result"], "undecidable");
    assert_eq!(without["games"][0]["notes"], serde_json::json!([]));
    let with = json_of(&["--repetition-draw"]);
    let game = &with["games"][0];
    assert_eq!(game["outcome"]["result"], "agrees");
    assert_eq!(game["outcome"]["state"], "Draw");
    assert_eq!(game["outcome"]["third_occurrence"], 12);
    assert_eq!(game["notes"][0]["kind"], "repetition");
    assert_eq!(game["notes"][0]["ply"], 12);
    let text = stdout(&run(&["replay", "--repetition-draw", "--verbose", &file]));
    assert!(
        text.contains("  note: ply 12: third occurrence after ply 12: a draw by repetition (§8.7.2), where the record ends"),
        "{text}"
    );
    assert!(text.contains("1 checked (1 agree, 0 disagree)"), "{text}");
}

#[test]
fn plies_after_a_third_occurrence_are_never_refused() {
    // §10.20: a record that goes on after the third occurrence (a site without
    // the rule) is replayed to its end: the note says how many plies follow,
    // no ply is illegal, and its draw is again not decidable from the board.
    let record = std::fs::read_to_string(format!("{}/repetition-draw.pgn", records("replay")))
        .expect("the test record")
        .replace("\nDraw\n", "\n13. wQ \\wS1\n14. bQ bS1/\nDraw\n");
    let dir = crate::common::scratch();
    let path = dir.path().join("went-on.pgn");
    std::fs::write(&path, &record).expect("write");
    let file = path.display().to_string();
    let out = run(&["replay", "--repetition-draw", "--format", "json", &file]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let game = &json["games"][0];
    assert_eq!(game["outcome"]["legal"], true);
    assert_eq!(game["outcome"]["state"], "InProgress");
    assert_eq!(game["outcome"]["result"], "undecidable");
    assert_eq!(game["plies"], 14);
    assert_eq!(
        game["notes"][0]["text"],
        "third occurrence after ply 12: a draw by repetition (§8.7.2), but the record goes on for 2 more plies"
    );
}

/// The committed schema of replay's JSON report.
fn committed_schema() -> String {
    let path = crate::common::repository("spec/replay-report.schema.json");
    std::fs::read_to_string(path).expect("spec/replay-report.schema.json exists")
}

#[test]
fn the_committed_replay_schema_is_the_one_the_types_give() {
    let out = run(&["replay", "--print-schema"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        committed_schema(),
        "regenerate: cargo run -- replay --print-schema > spec/replay-report.schema.json"
    );
}

#[test]
fn real_replay_reports_validate_against_the_schema() {
    // Reports with every kind of game (legal, illegal, wrong result, notes,
    // a resignation, a repetition draw) and unreadable files validate; the
    // schema lets a later version add fields, but not drop or retype one.
    let schema: serde_json::Value = serde_json::from_str(&committed_schema()).expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let reports = [
        run(&[
            "replay",
            "--format",
            "json",
            &records("pgn"),
            &records("sgf"),
        ]),
        run(&[
            "replay",
            "--format",
            "json",
            "--repetition-draw",
            &records("replay"),
        ]),
    ];
    let mut endings = std::collections::BTreeSet::new();
    for out in &reports {
        let report: serde_json::Value = serde_json::from_str(&stdout(out)).expect("JSON");
        let errors: Vec<String> = validator
            .iter_errors(&report)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
        assert_eq!(report["format_version"], "2.1");
        for game in report["games"].as_array().expect("games") {
            endings.insert(game["ending"]["kind"].as_str().expect("a kind").to_string());
        }
    }
    assert_eq!(
        endings.into_iter().collect::<Vec<_>>(),
        ["agreed_draw", "resignation", "unstated"]
    );
    let mut report: serde_json::Value = serde_json::from_str(&stdout(&reports[1])).expect("JSON");
    report["a_field_of_a_later_version"] = serde_json::json!(1);
    report["games"][0]["notes"][0]["since"] = serde_json::json!("0.3.0");
    assert!(validator.is_valid(&report));
    report["games"][0]["notes"][0]["ply"] = serde_json::json!("twelve");
    assert!(!validator.is_valid(&report));
    let mut report: serde_json::Value = serde_json::from_str(&stdout(&reports[1])).expect("JSON");
    report["summary"]["all"]
        .as_object_mut()
        .expect("counts")
        .remove("results");
    assert!(!validator.is_valid(&report));
}

#[test]
fn an_illegal_pre_2013_pillbug_game_shows_the_prototype_warning() {
    // §10.14: the test record with an illegal ply 5, made a pillbug game of
    // November 2012 (SU[hive-p], its GN date): the report of the illegal game
    // carries the reader's warning that the pillbug of then was a prototype,
    // which tells the reader whether the refusal may be the rules' change.
    let record = std::fs::read_to_string(format!("{}/illegal-move.sgf", records("sgf")))
        .expect("the test record")
        .replace("SU[Hive]", "SU[hive-p]")
        .replace("2019-02-02", "2012-11-02");
    let dir = crate::common::scratch();
    let path = dir.path().join("HV-jon-kai-2012-11-02-1414.sgf");
    std::fs::write(&path, &record).expect("write");
    let out = run(&["replay", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(": illegal ply 5 (line 23): "), "{text}");
    assert!(
        text.contains("\n  note: the game is from 2012.11: pillbug games before about March 2013 used a prototype pillbug, whose moves the rules may refuse\n"),
        "{text}"
    );
}
