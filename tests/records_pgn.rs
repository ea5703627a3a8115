//! The PGN-style record reader and writer (`hive_oracle_rules::records::pgn`;
//! spec/game-records.md chapter 10, spec/sources/records-notes.md section 2):
//! what `records::read` returns for every test record under
//! `tests/records/pgn/` (listed in `tests/records/README.md`), that the legal
//! games replay on the reference engine and the illegal one is refused where
//! expected, that what `write` prints reads back to the same game, the
//! reader's rulings on inputs too small to deserve a file, and that no input
//! makes the reader panic.

use crate::common;

use common::game_from_choices;
use std::path::Path;

use hive_oracle_rules::core::notation::parse_game_string;
use hive_oracle_rules::core::{GameState, GameType, RulesOptions};
use hive_oracle_rules::records::{self, pgn, DeclaredResult, Ending, Format, Record};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;
use proptest::prelude::*;

const DIR: &str = "tests/records/pgn";

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Reads a test record through `records::read` (decoding included).
fn read_file(name: &str) -> Result<Vec<Record>, records::RecordError> {
    let path = Path::new(DIR).join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    records::read(name, &bytes)
}

/// Reads a record that must be readable.
fn games(name: &str) -> Vec<Record> {
    read_file(name).unwrap_or_else(|e| panic!("{name} should read: {e}"))
}

/// Reads text that must be readable, as one game.
fn one(text: &str) -> Record {
    let mut games = pgn::read("t.pgn", text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(games.len(), 1, "{text:?}");
    games.remove(0)
}

/// Reads text that must be refused: (line, message).
fn refused(text: &str) -> (usize, String) {
    match pgn::read("t.pgn", text) {
        Ok(games) => panic!("{text:?} should be refused, read {games:?}"),
        Err(e) => {
            assert_eq!(e.file, "t.pgn");
            (e.line, e.message)
        }
    }
}

/// How a game ends when replayed on the reference engine.
#[derive(Debug, PartialEq, Eq)]
enum Replay {
    /// Every ply legal; the final state.
    Legal(GameState),
    /// The 1-based ply refused, and the engine's message.
    Refused(usize, String),
}

/// Replays a record on the reference engine, with the standard opening when
/// the record says the game used it.
fn replay(record: &Record) -> Replay {
    let options = RulesOptions {
        tournament_opening: !record.standard_opening,
        ..Default::default()
    };
    let mut game = ReferenceEngine::new_game(record.game_type, options);
    for (i, mv) in record.moves.iter().enumerate() {
        let played = game
            .parse_move(&mv.uhp)
            .map_err(|e| e.to_string())
            .and_then(|m| game.play(m).map_err(|e| e.to_string()));
        if let Err(message) = played {
            return Replay::Refused(i + 1, message);
        }
    }
    Replay::Legal(game.state())
}

/// What a test record must read as.
#[derive(Clone, Copy)]
struct Expected {
    game_type: &'static str,
    plies: usize,
    result: DeclaredResult,
    standard_opening: bool,
    white: Option<&'static str>,
    black: Option<&'static str>,
    date: Option<&'static str>,
    notes: &'static [&'static str],
    replay: fn() -> Replay,
}

fn game_is(name: &str, record: &Record, e: &Expected) {
    assert_eq!(record.format, Format::Pgn, "{name}");
    assert_eq!(record.file, name);
    assert_eq!(record.game_type.to_string(), e.game_type, "{name}");
    assert_eq!(record.moves.len(), e.plies, "{name}");
    assert_eq!(record.result, e.result, "{name}");
    assert_eq!(
        record.ending,
        Ending::Unstated,
        "{name}: PGN never says how"
    );
    assert_eq!(record.standard_opening, e.standard_opening, "{name}");
    assert_eq!(record.white.as_deref(), e.white, "{name}");
    assert_eq!(record.black.as_deref(), e.black, "{name}");
    assert_eq!(record.date.as_deref(), e.date, "{name}");
    assert_eq!(record.notes, e.notes, "{name}");
    assert_eq!(replay(record), (e.replay)(), "{name}");
}

fn legal(state: GameState) -> fn() -> Replay {
    match state {
        GameState::NotStarted => || Replay::Legal(GameState::NotStarted),
        GameState::InProgress => || Replay::Legal(GameState::InProgress),
        GameState::Draw => || Replay::Legal(GameState::Draw),
        GameState::WhiteWins => || Replay::Legal(GameState::WhiteWins),
        GameState::BlackWins => || Replay::Legal(GameState::BlackWins),
    }
}

const NO_NOTES: &[&str] = &[];

// ---------------------------------------------------------------------------
// Every test record, pinned
// ---------------------------------------------------------------------------

/// Pins, for every readable file: the game type, the number of plies, the
/// declared result, the opening, players, date, every note, and how the game
/// replays on the reference engine (spec/sources/records-notes.md section 2; README in tests/records).
#[test]
fn every_readable_test_record_reads_and_replays_as_pinned() {
    // §10.1, §10.3, §10.4, §10.12, §10.13, §10.14
    let in_progress = legal(GameState::InProgress);
    let cases: Vec<(&str, Expected)> = vec![
        (
            "mzinga-comments-unfinished.pgn",
            Expected {
                game_type: "Base",
                plies: 13,
                result: DeclaredResult::Unfinished,
                standard_opening: false,
                white: Some("carol"),
                black: Some("dave"),
                date: Some("2019.04.01"),
                notes: &[
                    "line 11: comment before the first ply: \"a comment before the first ply\"",
                    "line 13: comment after ply 1: \"quiet opening\"",
                    "line 17: comment after ply 4: \"a comment over three lines that ends here\"",
                    "line 29: comment after ply 13: \"White to think\"",
                ],
                replay: in_progress,
            },
        ),
        (
            "hivegame-trailing-spaces.pgn",
            Expected {
                game_type: "Base+MLP",
                plies: 40,
                result: DeclaredResult::BlackWins,
                standard_opening: false,
                white: Some("erin"),
                black: Some("frank"),
                date: Some("05-Mar-2024_18:02:11"),
                notes: NO_NOTES,
                replay: legal(GameState::BlackWins),
            },
        ),
        (
            "hivegame-status-word-pass.pgn",
            Expected {
                game_type: "Base",
                plies: 31,
                result: DeclaredResult::Unfinished,
                standard_opening: false,
                white: Some("gwen"),
                black: Some("hal"),
                date: Some("12-Jan-2025_09:30:00"),
                notes: NO_NOTES,
                replay: in_progress,
            },
        ),
        (
            "hivegame-event-site-unkown.pgn",
            Expected {
                game_type: "Base",
                plies: 8,
                result: DeclaredResult::Unknown,
                standard_opening: false,
                white: None,
                black: None,
                date: None,
                notes: NO_NOTES,
                replay: in_progress,
            },
        ),
        (
            "hivegame-pre-2024-dot-climb-selfref.pgn",
            Expected {
                game_type: "Base+L",
                plies: 10,
                result: DeclaredResult::Unfinished,
                standard_opening: false,
                white: Some("mia"),
                black: Some("ned"),
                date: Some("17-Nov-2023_21:14:05"),
                notes: &["line 8: first ply \"wL .\" read as \"wL\" (a \".\" destination, as hivegame wrote before 2024)"],
                replay: in_progress,
            },
        ),
        (
            "old-converter-numbered-singletons.pgn",
            Expected {
                game_type: "Base+MLP",
                plies: 13,
                result: DeclaredResult::WhiteWins,
                standard_opening: false,
                white: Some("ivan"),
                black: Some("judy"),
                date: Some("2012.07.14"),
                notes: &[
                    "line 11: bL1 read as bL",
                    "line 12: wQ1 read as wQ",
                    "line 13: bL1 read as bL",
                    "line 14: wM1 read as wM",
                    "line 14: wQ1 read as wQ",
                    "line 15: bP1 read as bP",
                    "line 15: bL1 read as bL",
                    "line 16: wP1 read as wP",
                    "line 16: wQ1 read as wQ",
                    "line 17: bM1 read as bM",
                    "line 19: bM1 read as bM",
                    "line 19: bL1 read as bL",
                    "line 20: wL1 read as wL",
                    "line 20: wP1 read as wP",
                    "line 21: bP1 read as bP",
                    "line 22: wQ1 read as wQ",
                    "line 22: wM1 read as wM",
                ],
                // 1-0 with the game unfinished: a resignation or a time loss,
                // which a PGN result does not distinguish (Ending::Unstated).
                replay: in_progress,
            },
        ),
        (
            "old-converter-bare-result.pgn",
            Expected {
                game_type: "Base",
                plies: 13,
                result: DeclaredResult::Draw,
                standard_opening: false,
                white: Some("kim"),
                black: Some("lou"),
                date: Some("2011.02.03"),
                notes: NO_NOTES,
                replay: legal(GameState::Draw),
            },
        ),
        (
            "pass-and-PASS.pgn",
            Expected {
                game_type: "Base",
                plies: 32,
                result: DeclaredResult::BlackWins,
                standard_opening: false,
                white: Some("olga"),
                black: Some("pete"),
                date: Some("2020.06.06"),
                notes: &["line 37: \"PASS\" read as \"pass\" (letter case)"],
                replay: legal(GameState::BlackWins),
            },
        ),
        (
            "queen-first-standard-opening.pgn",
            Expected {
                game_type: "Base",
                plies: 8,
                result: DeclaredResult::Unfinished,
                standard_opening: true,
                white: Some("gina"),
                black: Some("Dumbot"),
                date: Some("2006.06.04"),
                notes: &["line 7: a queen placed on ply 1: the game was played without the tournament opening"],
                replay: in_progress,
            },
        ),
        (
            "crlf.pgn",
            Expected {
                game_type: "Base",
                plies: 13,
                result: DeclaredResult::BlackWins,
                standard_opening: false,
                white: Some("sam"),
                black: Some("tess"),
                date: Some("2022.02.22"),
                notes: NO_NOTES,
                replay: legal(GameState::BlackWins),
            },
        ),
        (
            "mixed-line-endings.pgn",
            Expected {
                game_type: "Base",
                plies: 9,
                result: DeclaredResult::Unfinished,
                standard_opening: false,
                white: Some("uma"),
                black: Some("vic"),
                date: Some("2022.03.03"),
                notes: NO_NOTES,
                replay: in_progress,
            },
        ),
        (
            "utf8-bom-non-ascii-names.pgn",
            Expected {
                game_type: "Base",
                plies: 13,
                result: DeclaredResult::Draw,
                standard_opening: false,
                white: Some("Zoë Ångström"),
                black: Some("Алёна"),
                date: Some("2024.05.05"),
                notes: NO_NOTES,
                replay: legal(GameState::Draw),
            },
        ),
        (
            "latin1-names.pgn",
            Expected {
                game_type: "Base",
                plies: 13,
                result: DeclaredResult::BlackWins,
                standard_opening: false,
                white: Some("José Müller"),
                black: Some("Françoise"),
                date: Some("2008.08.08"),
                notes: NO_NOTES,
                replay: legal(GameState::BlackWins),
            },
        ),
        (
            "lenient-spellings.pgn",
            Expected {
                game_type: "Base+ML",
                plies: 6,
                result: DeclaredResult::Unknown,
                standard_opening: false,
                white: Some("dora"),
                black: Some("eli"),
                date: None,
                notes: &[
                    "line 1: GameType \"base+lm\" read as Base+ML",
                    "line 6: \"bl -ws1\" read as \"bL -wS1\" (letter case)",
                    "line 7: \"wQ   wS1-\" read as \"wQ wS1-\" (blank space)",
                    "line 7: comment after ply 3: \"inline comment\"",
                    "line 8: ply numbered 5, expected 4: plies are read in file order",
                ],
                replay: in_progress,
            },
        ),
        (
            "no-gametype-tag.pgn",
            Expected {
                game_type: "Base",
                plies: 4,
                result: DeclaredResult::Unfinished,
                standard_opening: false,
                white: Some("fay"),
                black: Some("gus"),
                date: None,
                notes: &["no GameType tag: read as Base"],
                replay: in_progress,
            },
        ),
        (
            "not-started.pgn",
            Expected {
                game_type: "Base+P",
                plies: 0,
                result: DeclaredResult::Unfinished,
                standard_opening: false,
                white: Some("ida"),
                black: Some("jon"),
                date: Some("2019.12.12"),
                notes: NO_NOTES,
                replay: legal(GameState::NotStarted),
            },
        ),
        (
            "illegal-move.pgn",
            Expected {
                game_type: "Base",
                plies: 16,
                result: DeclaredResult::Unfinished,
                standard_opening: false,
                white: Some("walt"),
                black: Some("xena"),
                date: Some("2023.09.09"),
                notes: NO_NOTES,
                replay: || {
                    Replay::Refused(
                        14,
                        "bQ cannot move: lifting it splits the hive (§5.3)".to_string(),
                    )
                },
            },
        ),
        (
            "wrong-declared-result.pgn",
            Expected {
                game_type: "Base",
                plies: 13,
                // declared Black, but the board says White won
                result: DeclaredResult::BlackWins,
                standard_opening: false,
                white: Some("yara"),
                black: Some("zed"),
                date: Some("2023.10.10"),
                notes: NO_NOTES,
                replay: legal(GameState::WhiteWins),
            },
        ),
    ];
    for (name, expected) in &cases {
        let games = games(name);
        assert_eq!(games.len(), 1, "{name}");
        assert_eq!((games[0].index, games[0].line), (1, 1), "{name}");
        game_is(name, &games[0], expected);
    }

    // two-games.pgn: game 2 starts at its tag line after game 1's result line.
    let two = games("two-games.pgn");
    assert_eq!(two.len(), 2);
    assert_eq!((two[0].index, two[0].line), (1, 1));
    assert_eq!((two[1].index, two[1].line), (2, 23));
    let first = Expected {
        game_type: "Base",
        plies: 13,
        result: DeclaredResult::WhiteWins,
        standard_opening: false,
        white: Some("quinn"),
        black: Some("rosa"),
        date: Some("2021.01.01"),
        notes: NO_NOTES,
        replay: legal(GameState::WhiteWins),
    };
    let second = Expected {
        game_type: "Base",
        plies: 15,
        result: DeclaredResult::BlackWins,
        white: Some("rosa"),
        black: Some("quinn"),
        date: Some("2021.01.02"),
        replay: legal(GameState::BlackWins),
        ..first
    };
    game_is("two-games.pgn", &two[0], &first);
    game_is("two-games.pgn", &two[1], &second);
    assert_eq!(two[1].moves[0].line, 29);
}

/// Pins the error (file, line, message) of every unreadable test record: a
/// file cut inside a tag or a ply, an unknown GameType letter, a Rust source
/// and a JSON file (spec/sources/records-notes.md section 2.8: anything else is an error with its line).
#[test]
fn every_unreadable_test_record_is_refused_with_its_line() {
    // §10.2
    let cases = [
        (
            "truncated-mid-tag.pgn",
            3,
            "a tag must end with \"]\", found \"[White \"al\" (the file ends on this line without a line break: is it cut short?)",
        ),
        (
            "truncated-mid-move.pgn",
            11,
            "ply 7: invalid MoveString \"wG1 \\w\": invalid piece name \"w\": expected a colour letter w or b, a bug letter and, for S, B, G, A, a number (§9.19) (the file ends on this line without a line break: is it cut short?)",
        ),
        (
            "unknown-gametype-letter.pgn",
            1,
            "tag GameType: invalid GameTypeString \"Base+MX\": unexpected \"X\": expansions are M, L and P (§9.15)",
        ),
        (
            "not-a-record.rs",
            1,
            "expected a tag [Name \"value\"], a numbered ply such as \"1. wS1\", a result such as \"WhiteWins\" or a {comment}, found \"//! Not a game record: a Rust source file.\"",
        ),
        (
            "not-a-record.json",
            4,
            "expected a tag [Name \"value\"], a numbered ply such as \"1. wS1\", a result such as \"WhiteWins\" or a {comment}, found \"],\"",
        ),
    ];
    for (name, line, message) in cases {
        let e = read_file(name).expect_err(name);
        assert_eq!(
            (e.file.as_str(), e.line, e.message.as_str()),
            (name, line, message)
        );
        assert_eq!(e.to_string(), format!("{name}:{line}: {message}"));
    }
}

/// §10.16: in second-game-unreadable.pgn (made up: the two games of
/// two-games.pgn with a game between them whose ply 4 names no bug, `bX1`)
/// the second game is reported with its number and line, and the reader
/// goes on: the first and third games read as they do in two-games.pgn.
#[test]
fn a_game_that_does_not_read_is_reported_and_the_next_one_read() {
    let name = "second-game-unreadable.pgn";
    let bytes = std::fs::read(format!("{DIR}/{name}")).expect("the test record");
    let text = records::decode(&bytes);
    let mut games = Vec::new();
    let read = records::read_each(name, &text, &mut |game| games.push(game));
    assert_eq!(read, Ok(2));
    assert_eq!(games.len(), 3);
    let error = games[1].clone().expect_err("game 2 does not read");
    assert_eq!((error.game, error.line), (Some(2), 32));
    assert!(
        error.to_string().starts_with(
            "second-game-unreadable.pgn: game 2, line 32: ply 4: invalid MoveString \"bX1 bS1/\""
        ),
        "{error}"
    );
    let both = read_file("two-games.pgn").expect("two-games.pgn reads");
    for (game, same) in [(&games[0], &both[0]), (&games[2], &both[1])] {
        let game = game.as_ref().expect("reads");
        assert_eq!(game.move_strings(), same.move_strings());
        assert_eq!(game.result, same.result);
    }
    let third = games[2].as_ref().expect("reads");
    assert_eq!((third.index, third.line), (3, 35));
    // Read whole, the file is refused at its first bad game, named.
    assert_eq!(read_file(name), Err(error));
}

#[test]
fn a_file_of_one_game_that_does_not_read_is_the_files_error() {
    // §10.16: the error of a file of one game names no game, and reading
    // resumes after a bad game only at a tag line after other text (a bad
    // tag followed by good ones is still the same game).
    let text = "[GameType \"Base\"]\n[White \"al\n[Black \"bo\"]\n\n1. wS1\n";
    let mut games = 0;
    let e = records::read_each("t.pgn", text, &mut |_| games += 1).expect_err("refused");
    assert_eq!((e.game, e.line, games), (None, 2, 0));
    assert_eq!(e.to_string(), format!("t.pgn:2: {}", e.message));
    // every game bad: each is reported, none read
    let text = "1. wX1\n\n[GameType \"Base\"]\n\n1. bX1\n";
    let mut errors = Vec::new();
    let read = records::read_each("t.pgn", text, &mut |game| errors.push(game.map(|_| ())));
    assert_eq!(read, Ok(0));
    let lines: Vec<_> = errors
        .iter()
        .map(|e| e.as_ref().map_err(|e| (e.game, e.line)))
        .collect();
    assert_eq!(lines, vec![Err((Some(1), 1)), Err((Some(2), 5))]);
}

/// Every file under tests/records/pgn/ is pinned by one of the two tests
/// above and listed in tests/records/README.md.
#[test]
fn every_test_record_is_pinned_and_listed() {
    let readme = std::fs::read_to_string("tests/records/README.md").expect("README");
    let mut names: Vec<String> = std::fs::read_dir(DIR)
        .expect("test records")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names.len(),
        25,
        "{names:?}: pin new files in the tests above"
    );
    for name in &names {
        assert!(
            readme.contains(&format!("| `{name}` |")),
            "{name} is not listed in tests/records/README.md"
        );
    }
}

/// The quirks of single records, beyond the counts: the ply as written and
/// as UHP, the lines, the tags kept in order (spec/sources/records-notes.md section 2.2, section 2.3, section 2.6,
/// section 2.7).
#[test]
fn test_records_keep_what_is_written() {
    // hivegame's trailing space is trimmed from `written`; a `.` first
    // destination is kept in `written` and dropped from `uhp`.
    let hg = &games("hivegame-trailing-spaces.pgn")[0];
    assert_eq!(
        (hg.moves[0].written.as_str(), hg.moves[0].uhp.as_str()),
        ("wP", "wP")
    );
    assert_eq!(hg.moves[0].line, 8);
    let dot = &games("hivegame-pre-2024-dot-climb-selfref.pgn")[0];
    assert_eq!(dot.moves[0].written, "wL .");
    assert_eq!(
        dot.move_strings(),
        [
            "wL", "bL wL-", "wQ -wL", "bQ bL-", "wB1 \\wQ", "bB1 bQ/", "wB1 -wL", "bB1 bQ",
            "wB1 -wB1", "bB1 bB1/"
        ],
        "a glyph pointing at a stack and a self-reference are left for the engine"
    );
    // numbered singletons: written as in the file, read without the 1
    let old = &games("old-converter-numbered-singletons.pgn")[0];
    assert_eq!(old.moves[4].written, "wM1 \\wQ1");
    assert_eq!(old.moves[4].uhp, "wM \\wQ");
    assert_eq!(
        old.tags.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType"]
    );
    // passes
    let passes = &games("pass-and-PASS.pgn")[0];
    assert_eq!(passes.moves[28].uhp, "pass");
    assert_eq!(
        (
            passes.moves[30].written.as_str(),
            passes.moves[30].uhp.as_str()
        ),
        ("PASS", "pass")
    );
    let hg_pass = &games("hivegame-status-word-pass.pgn")[0];
    assert_eq!(hg_pass.moves[28].written, "pass");
    // unknown tags kept, in file order, with empty values
    let mz = &games("mzinga-comments-unfinished.pgn")[0];
    assert_eq!(mz.tags[2], ("Event".to_string(), String::new()));
    assert_eq!(
        mz.tags.last(),
        Some(&(
            "SgfGameName".to_string(),
            "HV-carol-dave-2019-04-01-1200".to_string()
        ))
    );
    // CRLF: the same lines as LF
    let crlf = &games("crlf.pgn")[0];
    assert_eq!(crlf.moves[12].line, 19);
    assert!(crlf.moves.iter().all(|m| !m.written.contains('\r')));
    // a bare value and an empty bare value
    let bare = &games("old-converter-bare-result.pgn")[0];
    assert_eq!(bare.tags[1], ("Event".to_string(), String::new()));
    assert_eq!(bare.tags[6], ("Result".to_string(), "Draw".to_string()));
    // Latin-1 decoded, tag kept
    let latin = &games("latin1-names.pgn")[0];
    assert_eq!(
        latin.tags[4],
        ("Event".to_string(), "Torneo Año Nuevo".to_string())
    );
}

#[test]
fn tag_values_are_written_with_quotes_and_backslashes_escaped() {
    // §10.17: a strict PGN reader reads `\"` and `\\` inside a quoted
    // value; ours unescapes them, and any other backslash stands for itself.
    let tags = [
        ("White".to_string(), "Ann \"the Bee\" C:\\hive".to_string()),
        ("Event".to_string(), "a \\x sign".to_string()),
    ];
    let text = pgn::write_game(GameType::BASE, &["wS1".to_string()], &tags);
    assert!(
        text.contains("[White \"Ann \\\"the Bee\\\" C:\\\\hive\"]\n"),
        "{text}"
    );
    let game = one(&text);
    assert_eq!(game.white.as_deref(), Some("Ann \"the Bee\" C:\\hive"));
    // the tags as read: GameType (written first), White, Event
    assert_eq!(game.tags[2].1, "a \\x sign");
    let game = one("[White \"a\\b\"]\n\n1. wS1\n");
    assert_eq!(game.white.as_deref(), Some("a\\b"));
}

#[test]
fn several_plies_share_a_line_only_between_comments() {
    // §10.18: a comment may end a ply and another ply follow it on the same
    // line; two plies with nothing between them are refused.
    let game = one("[GameType \"Base\"]\n\n1. wS1 {opening} 2. bS1 wS1- {reply}\n3. wQ -wS1\n");
    assert_eq!(game.move_strings(), ["wS1", "bS1 wS1-", "wQ -wS1"]);
    assert!(pgn::read("t.pgn", "[GameType \"Base\"]\n\n1. wS1 2. bS1 wS1-\n").is_err());
}

/// Every readable test record prints (`write`) to a PGN that reads back to
/// the same game type, plies, result, players, date and opening; printing
/// again gives the same text.
#[test]
fn every_readable_test_record_round_trips_through_write() {
    let mut count = 0;
    let mut names: Vec<_> = std::fs::read_dir(DIR)
        .expect("test records")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let Ok(games) = read_file(&name) else {
            continue;
        };
        for record in games {
            let text = pgn::write(&record);
            let back = one(&text);
            same_game(&record, &back, &name);
            assert_eq!(pgn::write(&back), text, "{name}: write is stable");
            // only the opening is noted again: nothing else needs a leniency
            assert!(
                back.notes
                    .iter()
                    .all(|n| n.contains("a queen placed on ply")),
                "{name}: {:?}",
                back.notes
            );
            count += 1;
        }
    }
    assert_eq!(count, 20);
}

fn same_game(a: &Record, b: &Record, what: &str) {
    assert_eq!(a.game_type, b.game_type, "{what}");
    assert_eq!(a.move_strings(), b.move_strings(), "{what}");
    assert_eq!(a.result, b.result, "{what}");
    assert_eq!(a.white, b.white, "{what}");
    assert_eq!(a.black, b.black, "{what}");
    assert_eq!(a.date, b.date, "{what}");
    assert_eq!(a.standard_opening, b.standard_opening, "{what}");
}

// ---------------------------------------------------------------------------
// The writer
// ---------------------------------------------------------------------------

/// `write` prints Mzinga's layout: GameType first, Date, Event, Site, Round,
/// White, Black, Result, the other tags, a blank line, `N. move`, and the
/// result word after a blank line for a decided game (spec/sources/records-notes.md section 2.1, section 2.2,
/// section 2.4). The `Result` tag is written from the field (`1-0` → `WhiteWins`).
#[test]
fn write_prints_mzinga_style() {
    let record = one(
        "[Site \"boardspace.net\"]\n[Extra \"kept\"]\n[Result \"1-0\"]\n[White \"a\"]\n[Black \"b\"]\n[GameType \"Base+PLM\"]\n[Date \"2012.01.02\"]\n\n1. wS1\n2. bM1 -wS1\n",
    );
    assert_eq!(
        pgn::write(&record),
        "[GameType \"Base+MLP\"]\n[Date \"2012.01.02\"]\n[Site \"boardspace.net\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"WhiteWins\"]\n[Extra \"kept\"]\n\n1. wS1\n2. bM -wS1\n\nWhiteWins\n"
    );
    // unfinished: InProgress (NotStarted without a ply), no result line;
    // unknown: no Result tag at all
    let unfinished = one("[Result \"*\"]\n1. wS1\n");
    assert_eq!(
        pgn::write(&unfinished),
        "[GameType \"Base\"]\n[Result \"InProgress\"]\n\n1. wS1\n"
    );
    let not_started = one("[Result \"*\"]\n");
    assert_eq!(
        pgn::write(&not_started),
        "[GameType \"Base\"]\n[Result \"NotStarted\"]\n\n"
    );
    let unknown = one("[Result \"Adjudicated\"]\n[Round \"3\"]\n");
    assert_eq!(
        pgn::write(&unknown),
        "[GameType \"Base\"]\n[Round \"3\"]\n\n"
    );
}

/// `write_game` converts a UHP GameString (§9.31) to a PGN that reads back
/// to the same moves; tags are written in the given order, a decided
/// `Result` also as the result line, values are kept to one line, and a `"`
/// inside a value is written escaped (§10.17) and reads back.
#[test]
fn write_game_converts_a_game_string() {
    let gs = parse_game_string("Base+MLP;InProgress;White[3];wP;bL wP\\;wQ -wP;bA1 bL-")
        .expect("a GameString");
    let tags = [
        ("White".to_string(), "x \"the\" y".to_string()),
        ("Result".to_string(), "0-1".to_string()),
        ("GameType".to_string(), "ignored".to_string()),
        ("P0".to_string(), "line\nbreak".to_string()),
        ("bad key!".to_string(), "v".to_string()),
        ("9x".to_string(), "dropped".to_string()),
    ];
    let text = pgn::write_game(gs.game_type, &gs.moves, &tags);
    assert_eq!(
        text,
        "[GameType \"Base+MLP\"]\n[White \"x \\\"the\\\" y\"]\n[Result \"0-1\"]\n[P0 \"line break\"]\n[badkey \"v\"]\n\n1. wP\n2. bL wP\\\n3. wQ -wP\n4. bA1 bL-\n\nBlackWins\n"
    );
    let back = one(&text);
    assert_eq!(back.game_type, GameType::BASE_MLP);
    assert_eq!(back.move_strings(), gs.moves);
    assert_eq!(back.result, DeclaredResult::BlackWins);
    assert_eq!(back.white.as_deref(), Some("x \"the\" y"));
}

// ---------------------------------------------------------------------------
// The reader's rulings on small inputs
// ---------------------------------------------------------------------------

/// Ply numbers are not trusted (spec/sources/records-notes.md section 2.3): a wrong, repeated,
/// missing or huge number is noted (once: later plies are expected to follow it) and the plies
/// are read in file order;
/// `N.move` without a space is a ply too.
#[test]
fn ply_numbers_are_noted_not_trusted() {
    // §10.4
    let r = one("1. wS1\n1. bS1 wS1-\n7.wQ -wS1\n99999999999999999999999. bQ bS1-\n");
    assert_eq!(r.move_strings(), ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]);
    assert_eq!(
        r.notes,
        [
            "no GameType tag: read as Base",
            "line 2: ply numbered 1, expected 2: plies are read in file order",
            "line 3: ply numbered 7, expected 3: plies are read in file order",
            "line 4: ply numbered 99999999999999999999999, expected 4: plies are read in file order",
        ]
    );
    // §10.22: a number that follows the previous ply's is in sequence, so one
    // skipped number is one note, not one for each later ply (a real record
    // with one skipped number gave 41 notes when every ply was compared with
    // its place in the file); lenient-spellings.pgn pins the other case, one
    // wrong number (4 written 5) and the next ply in place (5).
    let r = one("1. wS1\n2. bS1 wS1-\n4. wQ -wS1\n5. bQ bS1-\n6. wA1 wQ-\n");
    assert_eq!(
        r.notes,
        [
            "no GameType tag: read as Base",
            "line 3: ply numbered 4, expected 3: plies are read in file order",
        ]
    );
    let (line, message) = refused("[GameType \"Base\"]\n1. wS1\n2.\n");
    assert_eq!(
        (line, message.as_str()),
        (3, "ply 2: the ply has no move after its number")
    );
    let (line, message) = refused("1. wS1 2. bS1 wS1-\n");
    assert_eq!(line, 1);
    assert!(
        message.starts_with("ply 1: invalid MoveString"),
        "{message}"
    );
}

/// The result line overrides the Result tag (spec/sources/records-notes.md section 2.4), noted when
/// they differ; `Unknown`/`Unkown` as a line says nothing and leaves the tag
/// standing (as Mzinga, whose parse of it fails); every spelling of section 2.4
/// reads, in any case; a Result tag that is no result reads as Unknown,
/// noted; no result at all is Unknown.
#[test]
fn results_from_tag_and_line() {
    // §10.5
    let r = one("[Result \"WhiteWins\"]\n1. wS1\n\nDraw\n");
    assert_eq!(r.result, DeclaredResult::Draw);
    assert_eq!(
        r.notes,
        [
            "no GameType tag: read as Base",
            "line 4: result line Draw overrides the Result tag \"WhiteWins\" (line 1)"
        ]
    );
    let r = one("[Result \"WhiteWins\"]\n1. wS1\nUnkown\n");
    assert_eq!(r.result, DeclaredResult::WhiteWins);
    assert_eq!(
        r.notes[1],
        "line 3: result line Unkown says nothing: the Result tag \"WhiteWins\" (line 1) stands"
    );
    for (word, result) in [
        ("WhiteWins", DeclaredResult::WhiteWins),
        ("whitewins", DeclaredResult::WhiteWins),
        ("1-0", DeclaredResult::WhiteWins),
        ("BlackWins", DeclaredResult::BlackWins),
        ("0-1", DeclaredResult::BlackWins),
        ("Draw", DeclaredResult::Draw),
        ("1/2-1/2", DeclaredResult::Draw),
        ("½-½", DeclaredResult::Draw),
        ("InProgress", DeclaredResult::Unfinished),
        ("NotStarted", DeclaredResult::Unfinished),
        ("*", DeclaredResult::Unfinished),
        ("Unknown", DeclaredResult::Unknown),
        ("Unkown", DeclaredResult::Unknown),
        ("Adjudicated", DeclaredResult::Unknown),
    ] {
        assert_eq!(
            one(&format!("1. wS1\n{word}\n")).result,
            result,
            "line {word}"
        );
        assert_eq!(
            one(&format!("[Result \"{word}\"]\n")).result,
            result,
            "tag {word}"
        );
        assert_eq!(
            one(&format!("[Result {word}]\n")).result,
            result,
            "bare tag {word}"
        );
    }
    let r = one("[Result \"error parsing result\"]\n1. wS1\n");
    assert_eq!(r.result, DeclaredResult::Unknown);
    assert_eq!(
        r.notes[1],
        "line 1: Result \"error parsing result\" is not a result: read as Unknown"
    );
    let r = one("[Result \"Adjudicated\"]\n");
    assert_eq!(
        r.notes[1],
        "line 1: Result Adjudicated names no winner: read as Unknown"
    );
    assert_eq!(
        one("[Result \"\"]\n1. wS1\n").result,
        DeclaredResult::Unknown
    );
    assert_eq!(one("1. wS1\n").result, DeclaredResult::Unknown);
}

/// After the result line only comments, blank lines and a new game's tags
/// may follow: a ply or a second result line is an error; a result with no
/// game before it is not a record.
#[test]
fn nothing_but_a_new_game_follows_the_result_line() {
    let (line, message) = refused("1. wS1\nWhiteWins\n2. bS1 wS1-\n");
    assert_eq!(line, 3);
    assert_eq!(
        message,
        "a ply after the result line \"WhiteWins\" (line 2): \"2. bS1 wS1-\""
    );
    let (line, message) = refused("1. wS1\nWhiteWins\nDraw\n");
    assert_eq!(line, 3);
    assert_eq!(
        message,
        "a second result line \"Draw\" (the game's result is on line 2)"
    );
    let (line, message) = refused("\nWhiteWins\n");
    assert_eq!(line, 2);
    assert_eq!(
        message,
        "a result with no tag or ply before it: \"WhiteWins\" is not a PGN record"
    );
    let r = one("1. wS1\nWhiteWins\n{post mortem}\n\n");
    assert_eq!(r.notes[1], "line 3: comment after ply 1: \"post mortem\"");
}

/// A tag line after movetext starts a new game (spec/sources/records-notes.md section 2.6); tags
/// before any ply belong to the same game in any order; each game counts
/// its plies from 1; comments before the first tag go to the first game.
#[test]
fn several_games_per_file() {
    // §10.5
    let text = "{header}\n[White \"a\"]\n1. wS1\n[White \"b\"]\n[GameType \"Base+M\"]\n\n1. wM\n2. bS1 wM-\n[Black \"c\"]\n";
    let games = pgn::read("t.pgn", text).expect("three games");
    assert_eq!(games.len(), 3);
    let summary: Vec<_> = games
        .iter()
        .map(|g| {
            (
                g.index,
                g.line,
                g.game_type.to_string(),
                g.moves.len(),
                g.white.clone(),
                g.black.clone(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (1, 2, "Base".to_string(), 1, Some("a".to_string()), None),
            (2, 4, "Base+M".to_string(), 2, Some("b".to_string()), None),
            (3, 9, "Base".to_string(), 0, None, Some("c".to_string())),
        ]
    );
    assert_eq!(
        games[0].notes,
        [
            "no GameType tag: read as Base",
            "line 1: comment before the first ply: \"header\""
        ]
    );
    assert!(games[1].notes.is_empty(), "{:?}", games[1].notes);
}

/// Comments (spec/sources/records-notes.md section 2.5): a line starting with `{`, over several lines
/// until the first `}`; after a ply or result on the same line (stripped and
/// noted); text after a closing `}` is read as a line of its own; long
/// comments are cut in the note; a comment never closed is an error at its
/// first line.
#[test]
fn comments_are_kept_out_of_the_moves() {
    // §10.4
    let r = one("{a}{b}\n1. wS1 {c\n\nd} 2. bS1 wS1-\n3. wQ -wS1 {e} {f}\n");
    assert_eq!(r.move_strings(), ["wS1", "bS1 wS1-", "wQ -wS1"]);
    assert_eq!(
        r.notes,
        [
            "no GameType tag: read as Base",
            "line 1: comment before the first ply: \"a\"",
            "line 1: comment before the first ply: \"b\"",
            "line 2: comment after ply 1: \"c d\"",
            "line 5: comment after ply 3: \"e\"",
            "line 5: comment after ply 3: \"f\"",
        ]
    );
    let long = "x".repeat(200);
    let r = one(&format!("1. wS1\n{{{long}}}\n"));
    assert_eq!(
        r.notes[1],
        format!("line 2: comment after ply 1: \"{}…\"", "x".repeat(60))
    );
    let (line, message) = refused("[GameType \"Base\"]\n1. wS1\n{never\nclosed\n");
    assert_eq!(line, 3);
    assert_eq!(
        message,
        "the comment \"{never\nclosed\" is never closed with \"}\" (is the file cut short?)"
            .replace('\n', "\\n")
    );
    // a `{` inside a tag value is text
    assert_eq!(one("[Event \"{x}\"]\n").tags[0].1, "{x}");
}

/// Tags (spec/sources/records-notes.md section 2.2, section 2.6): quoted or bare values, trimmed; names of
/// letters, digits and `_`; an empty value is no player; a repeated tag:
/// the last counts, noted; a malformed tag is an error.
#[test]
fn tags_quoted_bare_repeated_and_malformed() {
    // §10.3
    let r =
        one("[White   \"  ann  \"]\n[Black bob smith]\n[Date \"\"]\n[Event]\n[White \"amy\"]\n");
    assert_eq!(r.white.as_deref(), Some("amy"));
    assert_eq!(r.black.as_deref(), Some("bob smith"));
    assert_eq!(r.date, None);
    assert_eq!(r.tags[0], ("White".to_string(), "ann".to_string()));
    assert_eq!(r.tags[3], ("Event".to_string(), String::new()));
    assert_eq!(
        r.notes,
        [
            "no GameType tag: read as Base",
            "line 5: tag White given 2 times (lines 1, 5): the last counts"
        ]
    );
    for (text, message) in [
        (
            "[1, 2]\n",
            "expected a tag [Name \"value\"] whose name is letters, digits and _, found \"[1, 2]\"",
        ),
        (
            "[]\n",
            "expected a tag [Name \"value\"] whose name is letters, digits and _, found \"[]\"",
        ),
        (
            "[White \"ann]\n",
            "the value of tag White has no closing quote: \"[White \"ann]\"",
        ),
        (
            "[White \"ann\"\n",
            "a tag must end with \"]\", found \"[White \"ann\"\"",
        ),
    ] {
        assert_eq!(refused(text), (1, message.to_string()), "{text:?}");
    }
}

/// GameType (spec/sources/records-notes.md section 2.7, section 2.8): absent or empty → Base, noted, with a
/// warning when a ply names an expansion piece (the replay will refuse
/// it); letters in any order or case normalised and noted; an unknown or
/// repeated letter is an error at the tag's line.
#[test]
fn game_type_tag() {
    // §10.3
    let r = one("1. wS1\n2. bM -wS1\n");
    assert_eq!(r.game_type, GameType::BASE);
    assert_eq!(
        r.notes,
        ["no GameType tag: read as Base, although line 2 names an expansion piece (\"bM -wS1\"), which Base does not have"]
    );
    assert!(matches!(replay(&r), Replay::Refused(2, _)));
    let r = one("[GameType \"\"]\n1. wS1\n");
    assert_eq!(r.notes, ["line 1: empty GameType tag: read as Base"]);
    let r = one("[GameType \"Base+PLM\"]\n");
    assert_eq!(r.game_type, GameType::BASE_MLP);
    assert_eq!(r.notes, ["line 1: GameType \"Base+PLM\" read as Base+MLP"]);
    assert!(one("[GameType Base+MLP]\n").notes.is_empty());
    for bad in ["Base+MM", "Base+", "Chess", "Base+M L"] {
        let (line, message) = refused(&format!("[White \"x\"]\n[GameType \"{bad}\"]\n1. wS1\n"));
        assert_eq!(line, 2, "{bad}");
        assert!(
            message.starts_with("tag GameType: invalid GameTypeString"),
            "{message}"
        );
    }
}

/// Spellings normalised without an engine (spec/sources/records-notes.md section 2.7, spec §9.29):
/// numbered singletons in mover and reference with any glyph; `.` only as
/// the first ply's destination; letter case; blank space; a queen on ply 2
/// is the standard opening too.
#[test]
fn spellings_normalised_without_an_engine() {
    // §10.6
    let r = one("1. wS1\n2. bQ1 wS1/\n3. wP1\twS1\\\n4. bL1 \\bQ1\n5. WQ   -wS1\n6. pAsS\n");
    assert_eq!(
        r.move_strings(),
        ["wS1", "bQ wS1/", "wP wS1\\", "bL \\bQ", "wQ -wS1", "pass"]
    );
    assert!(r.standard_opening, "bQ on ply 2");
    assert_eq!(
        r.notes,
        [
            "no GameType tag: read as Base, although line 3 names an expansion piece (\"wP wS1\\\"), which Base does not have",
            "line 2: bQ1 read as bQ",
            "line 2: a queen placed on ply 2: the game was played without the tournament opening",
            "line 3: wP1 read as wP",
            // (a tab in a quote is escaped, like every control character)
            "line 3: \"wP1\\twS1\\\" read as \"wP wS1\\\" (blank space)",
            "line 4: bL1 read as bL",
            "line 4: bQ1 read as bQ",
            "line 5: \"WQ   -wS1\" read as \"wQ -wS1\" (letter case, blank space)",
            "line 6: \"pAsS\" read as \"pass\" (letter case)",
        ]
    );
    // numbered pieces keep their numbers; wS1 stays, wM2 is no piece
    let (line, message) = refused("1. wS1\n2. bM2 wS1-\n");
    assert_eq!(line, 2);
    assert!(message.contains("bM2"), "{message}");
    // `.` is a destination only on the first ply
    let (line, message) = refused("1. wS1\n2. bS1 .\n");
    assert_eq!(line, 2);
    assert!(
        message.starts_with("ply 2: invalid MoveString \"bS1 .\""),
        "{message}"
    );
    // a third token is not a MoveString
    assert_eq!(refused("1. wS1 wS2 wS3\n").0, 1);
}

/// Files that are no record: empty, blank, comments only, or a first line
/// that is none of tag, ply, result or comment; long lines are quoted short
/// with control characters escaped. A leftover BOM or `\r` (text not from
/// `decode`) is tolerated.
#[test]
fn non_records_are_refused_with_their_line() {
    // §10.2
    assert_eq!(
        refused(""),
        (0, "the file is empty: no tag, ply or result".to_string())
    );
    assert_eq!(
        refused("\n  \n\t\n"),
        (0, "the file is empty: no tag, ply or result".to_string())
    );
    assert_eq!(
        refused("\n{\"a\": 1}\n"),
        (
            2,
            "no tag, ply or result: not a PGN record; it starts with \"{\"a\": 1}\"".to_string()
        )
    );
    let long = format!("\u{1}{}", "y".repeat(500));
    let (line, message) = refused(&long);
    assert_eq!(line, 1);
    assert!(message.ends_with(&format!("found \"\\u{{1}}{}…\" (the file ends on this line without a line break: is it cut short?)", "y".repeat(59))), "{message}");
    let r = one("\u{feff}[GameType \"Base\"]\r\n\r\n1. wS1 \r\n");
    assert_eq!(
        (r.game_type, r.move_strings()),
        (GameType::BASE, vec!["wS1"])
    );
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// Lines a PGN reader meets, well-formed or not, to build random files from.
fn any_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("[GameType \"Base+MLP\"]".to_string()),
        Just("[GameType base+lm]".to_string()),
        Just("[GameType \"Base+X\"]".to_string()),
        Just("[White \"Zoë\"]".to_string()),
        Just("[Black bob]".to_string()),
        Just("[Result \"1-0\"]".to_string()),
        Just("[Result \"*\"]".to_string()),
        Just("[Date \"05-Mar-2024_18:02:11\"]".to_string()),
        Just("[White \"al".to_string()),
        Just("{comment".to_string()),
        Just("}".to_string()),
        Just("{a} {b}".to_string()),
        Just("WhiteWins".to_string()),
        Just("½-½".to_string()),
        Just("Unkown".to_string()),
        Just("garbage".to_string()),
        Just("\r".to_string()),
        (
            0u32..40,
            "(w|b)(Q|M1|L|P1|S[1-3]|B[12]|A[1-3]|G[1-3])( [-/\\\\]?(w|b)(Q|S1|M1|B2)[-/\\\\]?)?"
        )
            .prop_map(|(n, mv)| format!("{n}. {mv}")),
        (0u32..40).prop_map(|n| format!("{n}. pass ")),
        (0u32..40).prop_map(|n| format!("{n}. wL .")),
        "\\PC{0,12}",
    ]
}

// Caps that bound a reader's memory ------------------------------------------
//
// A 62 MiB flood of `{}` comments or misnumbered plies, a file of a million
// tiny games and a one-game record of millions of plies each held memory
// many times their size (every note, game and ply kept). The reader now
// keeps at most 100 notes a game and counts the rest, refuses a game whose
// GameString would pass the 1 MiB GameString limit, a file of more than
// 200,000 games and a game of more than 1,000 tags.

#[test]
fn a_flood_of_comments_and_misnumbered_plies_keeps_100_notes_and_counts_the_rest() {
    let mut text = "{before}\n".repeat(150);
    text.push_str("[GameType \"Base\"]\n\n1. wS1\n");
    text.push_str(&"{}".repeat(10_000));
    text.push_str("\n7. bS1 -wS1\n");
    let game = one(&text);
    assert_eq!(game.notes.len(), 101, "{:?}", &game.notes[..3]);
    // 150 comments before the game (100 kept, 50 counted), then 10,000 in
    // it and the misnumbered ply, all past the cap: 10,051 counted.
    let last = game.notes.last().map(String::as_str).unwrap_or_default();
    assert_eq!(
        last,
        "… and 10051 more notes, not listed (at most 100 are kept for a game)"
    );
}

#[test]
fn a_game_longer_than_the_game_string_limit_is_refused_as_it_is_read() {
    // Each ply "wQ wS1-" adds 8 bytes to the GameString: 131,072 plies make
    // exactly 1 MiB; ply 131,073, on line 131,075, passes it.
    let mut text = String::from("[GameType \"Base\"]\n\n");
    for ply in 1..=140_000 {
        text.push_str(&format!("{ply}. wQ wS1-\n"));
    }
    let (line, message) = refused(&text);
    assert_eq!(line, 131_075, "{message}");
    assert!(message.contains("the game is too large"), "{message}");
    assert!(message.contains("1048576 bytes (1 MiB"), "{message}");
}

#[test]
fn too_many_games_or_tags_are_refused() {
    // Proves docs/limits.md `record-games`.
    let games = "[Site \"x\"]\n1. wS1\n".repeat(200_001);
    let (line, message) = refused(&games);
    assert_eq!(line, 400_001, "{message}");
    assert!(message.contains("at most 200000"), "{message}");
    let tags = "[Site \"x\"]\n".repeat(1_001);
    let (line, message) = refused(&tags);
    assert_eq!(line, 1_001, "{message}");
    assert!(message.contains("at most 1000"), "{message}");
}

#[test]
fn games_are_given_one_at_a_time_and_a_bad_game_loses_no_other() {
    // `read_each` hands each game over as its last line is read (replay holds
    // one game at a time); `records::read_each` gives a game that does not
    // read as its error, with its number and line, after the games before
    // it (§10.16).
    let good = "[Site \"x\"]\n1. wS1\n".repeat(3);
    let mut seen = Vec::new();
    let count = pgn::read_each("t.pgn", &good, &mut |r| {
        seen.push(r.map(|r| (r.index, r.line)).map_err(|e| e.line))
    });
    assert_eq!(count, Ok(3));
    assert_eq!(seen, [Ok((1, 1)), Ok((2, 3)), Ok((3, 5))]);
    let bad = format!("{good}[Site \"y\"]\n1. nonsense\n");
    let mut given = Vec::new();
    let read = hive_oracle_rules::records::read_each("bad.pgn", &bad, &mut |game| {
        given.push(game.map(|r| r.index).map_err(|e| (e.game, e.line)))
    });
    // four games given, the fourth as its error (game 4, line 8); three read
    assert_eq!(read, Ok(3));
    assert_eq!(given, [Ok(1), Ok(2), Ok(3), Err((Some(4), 8))]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// No string makes the PGN reader panic (spec/game-records.md: a reader
    /// turns any input into records or an error).
    #[test]
    fn pgn_read_never_panics_on_strings(text in any::<String>()) {
        let _ = pgn::read("fuzz.pgn", &text);
    }

    /// No byte vector makes `records::read` panic, whichever reader the
    /// first byte selects; an error names the file.
    #[test]
    fn records_read_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        if let Err(e) = records::read("fuzz", &bytes) {
            prop_assert_eq!(e.file, "fuzz");
        }
    }

    /// Files built from PGN-like lines: the reader never panics; what it
    /// reads has at least one game, numbered from 1, each printed by
    /// `write` and read back to the same game.
    #[test]
    fn pgn_like_files_read_and_round_trip(lines in prop::collection::vec(any_line(), 0..30)) {
        let text = lines.join("\n");
        if let Ok(games) = pgn::read("fuzz.pgn", &text) {
            prop_assert!(!games.is_empty());
            for (i, record) in games.iter().enumerate() {
                prop_assert_eq!(record.index, i + 1);
                let back = pgn::read("back.pgn", &pgn::write(record));
                prop_assert!(back.is_ok(), "{:?}", back);
                let back = back.unwrap_or_default();
                prop_assert_eq!(back.len(), 1);
                same_game(record, &back[0], &text);
            }
        }
    }

    /// Any trimmed one-line names and date, quotes, brackets, braces and
    /// tabs included, print with `write_game` and read back unchanged, but
    /// for control characters other than tabs, which are written escaped
    /// (`\x0b`) so that no tag reaches a terminal raw.
    #[test]
    fn tag_values_round_trip(white in "\\PC{1,24}", black in "[^\n\r]{1,24}", date in "\\PC{1,24}") {
        let (white, black, date) = (white.trim(), black.trim(), date.trim());
        prop_assume!(!white.is_empty() && !black.is_empty() && !date.is_empty());
        let tags = [
            ("White".to_string(), white.to_string()),
            ("Black".to_string(), black.to_string()),
            ("Date".to_string(), date.to_string()),
        ];
        let text = pgn::write_game(GameType::BASE, &["wS1".to_string()], &tags);
        let games = pgn::read("names.pgn", &text);
        prop_assert!(games.is_ok(), "{:?}", games);
        let games = games.unwrap_or_default();
        prop_assert_eq!(games.len(), 1);
        prop_assert_eq!(games[0].white.as_deref(), Some(white));
        let black_written = pgn::tag_text(black);
        prop_assert_eq!(games[0].black.as_deref(), Some(black_written.as_str()));
        prop_assert_eq!(games[0].date.as_deref(), Some(date));
    }

    /// A random legal game converted with `write_game` reads back to the
    /// same type and moves, and replays legally (with the standard opening
    /// when it put a queen first).
    #[test]
    fn random_games_convert_and_replay(
        kind in 0..8usize,
        standard in any::<bool>(),
        choices in prop::collection::vec(any::<u16>(), 0..70),
    ) {
        let options = RulesOptions { tournament_opening: !standard, ..Default::default() };
        let g = game_from_choices(GameType::ALL[kind], options, &choices);
        let gs = parse_game_string(&g.game_string()).expect("a GameString");
        let text = pgn::write_game(gs.game_type, &gs.moves, &[]);
        let games = pgn::read("g.pgn", &text);
        prop_assert!(games.is_ok(), "{:?}", games);
        let games = games.unwrap_or_default();
        let record = &games[0];
        prop_assert_eq!(record.game_type, GameType::ALL[kind]);
        prop_assert_eq!(record.move_strings(), gs.moves.iter().map(String::as_str).collect::<Vec<_>>());
        prop_assert!(!matches!(replay(record), Replay::Refused(..)), "{}", text);
    }
}

/// §10.19: a game without a `GameType` tag (or with an empty one) is read as
/// Base with a note; when a ply names an expansion piece the note names its
/// line, and the replay refuses that ply. Made-up games in the shape of
/// no-gametype-tag.pgn, the second with a mosquito on ply 3.
#[test]
fn a_game_without_a_game_type_is_base_noted_and_an_expansion_piece_named() {
    let plain = one("[White \"fay\"]\n\n1. wS1\n2. bG1 wS1-\n");
    assert_eq!(plain.game_type, GameType::BASE);
    assert_eq!(plain.notes, ["no GameType tag: read as Base"]);
    let text = "[GameType \"\"]\n[White \"fay\"]\n\n1. wS1\n2. bG1 wS1-\n3. wM -wS1\n";
    let expansion = one(text);
    assert_eq!(expansion.game_type, GameType::BASE);
    assert_eq!(
        expansion.notes,
        ["line 1: empty GameType tag: read as Base, although line 6 names an expansion piece (\"wM -wS1\"), which Base does not have"]
    );
    let refused = hive_oracle_rules::records::replay_record::<ReferenceEngine>(&expansion, None)
        .expect_err("Base has no mosquito");
    assert!(
        matches!(
            refused,
            hive_oracle_rules::records::GameTextError::IllegalPly {
                ply: 3,
                line: 6,
                ..
            }
        ),
        "{refused}"
    );
}

#[test]
fn a_third_occurrence_is_noted_under_the_repetition_draw_and_no_ply_refused() {
    // §10.20: tests/records/replay/repetition-draw.pgn (made up) shuffles both
    // queens back and forth; after ply 12 the position stands for the third
    // time (§8.7.2). Without the option the game is legal to its end and
    // nothing is noted; with it the replay notes ply 12, where the record
    // ends, so its declared draw agrees on the board.
    use hive_oracle_rules::records::replay::{replay, NoteKind, Outcome, ReplayOptions};
    let record = games("../replay/repetition-draw.pgn").remove(0);
    let plain = replay::<ReferenceEngine>(&record, ReplayOptions::default());
    let watched = replay::<ReferenceEngine>(
        &record,
        ReplayOptions {
            repetition_draw: true,
        },
    );
    let third = |report: &records::replay::GameReport| match report.outcome {
        Outcome::Legal {
            third_occurrence, ..
        } => third_occurrence,
        Outcome::Illegal(_) => panic!("no ply of the record is refused"),
    };
    assert_eq!(third(&plain), None);
    assert!(plain.notes.iter().all(|n| n.kind != NoteKind::Repetition));
    assert_eq!(third(&watched), Some(12));
    let noted: Vec<_> = watched
        .notes
        .iter()
        .filter(|n| n.kind == NoteKind::Repetition)
        .collect();
    assert_eq!(noted.len(), 1, "{:?}", watched.notes);
    assert_eq!(noted[0].ply, Some(12));
    assert!(watched.is_clean(), "the declared draw agrees: {watched:?}");
}
