//! boardspace SGF records (spec/game-records.md; `src/records/sgf/`): what
//! `hive_oracle_rules::records::read` returns for every file of
//! `tests/records/sgf/` (made up for these tests: each game was played on the
//! reference engine, then written in an era's dialect; the folder's README
//! lists what each file exercises), that every legal game replays on the
//! reference engine and the illegal one is refused at its ply, a few
//! actions written inline for the paths no file takes, and that no text
//! makes the reader panic.

use hive_oracle_rules::core::{Color, GameState, GameType, RulesOptions};
use hive_oracle_rules::records::{self, sgf, DeclaredResult, Ending, Format, Record, RecordError};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;
use proptest::prelude::*;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/records/sgf/");

/// Reads a file of the folder as `replay` does (bytes, decoded), naming it by
/// its file name so that messages and the date stamp do not depend on the
/// checkout's path.
fn read(name: &str) -> Result<Vec<Record>, RecordError> {
    let bytes = std::fs::read(format!("{DIR}{name}"))
        .unwrap_or_else(|e| panic!("cannot read tests/records/sgf/{name}: {e}"));
    records::read(name, &bytes)
}

/// The one game of a file that must read.
fn game(name: &str) -> Record {
    let mut games = read(name).unwrap_or_else(|e| panic!("{name} must read: {e}"));
    assert_eq!(games.len(), 1, "{name}: one game per SGF file");
    games.remove(0)
}

/// The error of a file that must not read.
fn error(name: &str) -> RecordError {
    match read(name) {
        Ok(games) => panic!("{name} must be refused, read {} game(s)", games.len()),
        Err(e) => e,
    }
}

/// Plays a record on the reference engine with the record's opening and no
/// repetition draw; the first refused ply (1-based) and why.
fn replay(record: &Record) -> Result<ReferenceEngine, (usize, String)> {
    let options = RulesOptions {
        tournament_opening: !record.standard_opening,
        repetition_draw: false,
    };
    let mut game = ReferenceEngine::new_game(record.game_type, options);
    for (i, m) in record.moves.iter().enumerate() {
        let mv = game
            .parse_move(&m.uhp)
            .map_err(|e| (i + 1, format!("{}: {e}", m.uhp)))?;
        game.play(mv)
            .map_err(|e| (i + 1, format!("{}: {e}", m.uhp)))?;
    }
    Ok(game)
}

fn final_state(record: &Record) -> GameState {
    match replay(record) {
        Ok(game) => game.state(),
        Err((ply, why)) => panic!("{}: ply {ply} refused: {why}", record.file),
    }
}

fn tag<'a>(record: &'a Record, id: &str) -> Option<&'a str> {
    record
        .tags
        .iter()
        .find(|(k, _)| k == id)
        .map(|(_, v)| v.as_str())
}

/// Every file of the folder, and whether it reads (and then replays legally
/// to the end) or is refused. A file added to the folder must be added here
/// and to its README.
const FILES: [(&str, Expect); 28] = [
    ("HV-gina-Dumbot-2006-06-04-2010.sgf", Expect::Legal),
    ("HV-hugo-Dumbot-2013-06-15-1412.sgf", Expect::Legal),
    ("2017-full-names.sgf", Expect::Legal),
    ("2023-forced-pass.sgf", Expect::Legal),
    ("2024-missing-pass.sgf", Expect::Legal),
    ("variant-hive-pl.sgf", Expect::Legal),
    ("variant-hive-ultimate.sgf", Expect::Refused),
    ("variant-unknown.sgf", Expect::Refused),
    ("undo-bursts.sgf", Expect::Legal),
    ("draw-talk.sgf", Expect::Legal),
    ("resign-debris.sgf", Expect::Legal),
    ("agreed-draw.sgf", Expect::Legal),
    ("localized-re.sgf", Expect::Legal),
    ("loose-re-names.sgf", Expect::Legal),
    ("two-trees.sgf", Expect::Legal),
    ("torus-wrap.sgf", Expect::Legal),
    ("overflow-column.sgf", Expect::Legal),
    ("first-not-n13.sgf", Expect::Legal),
    ("illegal-move.sgf", Expect::Illegal),
    ("wrong-re.sgf", Expect::Legal),
    ("truncated.sgf", Expect::Refused),
    ("not-sgf-lisp.sgf", Expect::Refused),
    ("not-hive-gm.sgf", Expect::Refused),
    ("crlf-header.sgf", Expect::Legal),
    ("names-latin1.sgf", Expect::Legal),
    ("names-utf8.sgf", Expect::Legal),
    ("suffix-mismatch.sgf", Expect::Refused),
    ("swapped-colours.sgf", Expect::Legal),
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Expect {
    /// Reads, and every ply is legal on the reference engine.
    Legal,
    /// Reads, and the reference engine refuses a ply.
    Illegal,
    /// The reader refuses the file.
    Refused,
}

#[test]
fn every_file_of_the_folder_is_listed_here_and_in_its_readme() {
    let mut on_disk: Vec<String> = std::fs::read_dir(DIR)
        .expect("tests/records/sgf/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".sgf"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FILES.iter().map(|(name, _)| name.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed);
    let readme = std::fs::read_to_string(format!("{DIR}README.md")).expect("README.md");
    for (name, _) in FILES {
        assert!(
            readme.contains(&format!("`{name}`")),
            "README.md does not describe {name}"
        );
    }
}

#[test]
fn every_legal_game_replays_on_the_reference_engine_and_the_illegal_one_is_refused() {
    // §10.14
    // spec/sources/records-notes.md section 1: a ply the engine refuses is never skipped.
    for (name, expect) in FILES {
        match expect {
            Expect::Refused => {
                error(name);
            }
            Expect::Legal => {
                let record = game(name);
                assert!(!record.moves.is_empty(), "{name}");
                if let Err((ply, why)) = replay(&record) {
                    panic!("{name}: ply {ply} refused: {why}");
                }
            }
            Expect::Illegal => {
                let record = game(name);
                assert!(replay(&record).is_err(), "{name} must hold an illegal ply");
            }
        }
    }
}

#[test]
fn every_record_names_its_file_format_and_first_line() {
    for (name, expect) in FILES {
        if expect == Expect::Refused {
            continue;
        }
        let record = game(name);
        assert_eq!(
            (
                record.format,
                record.file.as_str(),
                record.index,
                record.line
            ),
            (Format::Sgf, name, 1, 1),
            "{name}"
        );
        assert_eq!(
            tag(&record, "GM"),
            Some("27"),
            "{name}: the root properties are the tags"
        );
        for m in &record.moves {
            assert!(m.line > 0, "{name}: {m:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// The eras (records-notes.md section 5)
// ---------------------------------------------------------------------------

#[test]
fn era_2006_colourless_names_a_bot_move_a_bare_name_climb_and_the_queen_first() {
    // §10.11, §10.12
    // HV-gina-Dumbot-2006-06-04-2010.sgf, made up in the 2006 dialect (section 3.6, section 3.7, section 5).
    let record = game("HV-gina-Dumbot-2006-06-04-2010.sgf");
    assert_eq!(record.game_type, GameType::BASE);
    assert!(record.standard_opening, "the queen is placed on ply 1");
    assert_eq!(
        record.move_strings(),
        [
            "wQ",
            "bQ wQ-",
            "wA1 -wQ",
            "bA1 bQ-",
            "wS1 \\wQ",
            "bA2 \\bA1",
            "wG1 wA1\\",
            "bA1 wQ\\",
            "wB1 -wA1",
            "bG1 bA2\\",
            "wB1 wA1",
            "bA2 \\bQ",
        ]
    );
    // colourless `b1` is beetle 1 of the actor; the bare name `wA1` is a climb
    assert_eq!(
        record.moves[10].written,
        "pickb L 13 b1 ; dropb b1 M 13 wA1 ; done"
    );
    assert_eq!(record.moves[1].written, "move B Q O 13 wQ- ; done");
    assert_eq!(
        (record.white.as_deref(), record.black.as_deref()),
        (Some("gina"), Some("Dumbot"))
    );
    // no GN: the date stamp of the file name
    assert_eq!(record.date.as_deref(), Some("2006.06.04"));
    assert_eq!(
        (record.result, record.ending),
        (DeclaredResult::Unknown, Ending::Unstated)
    );
    assert_eq!(
        record.notes,
        [
            "line 10: piece names without a colour (\"Q\", the old dialect) take the colour of the player, the rack or the W/B token",
            "line 12: wQ is placed on ply 1: the game uses the standard opening, without the tournament rule",
            "lines 40–41: 2 actions after the end of the game (a queen surrounded on the board after ply 12) ignored",
        ]
    );
    assert_eq!(final_state(&record), GameState::BlackWins);
}

#[test]
fn era_2013_a_pdropb_throw_pmove_with_the_pieces_colour_and_movedone() {
    // HV-hugo-Dumbot-2013-06-15-1412.sgf, made up in the 2013 dialect (section 3.5, section 3.6).
    let record = game("HV-hugo-Dumbot-2013-06-15-1412.sgf");
    assert_eq!(record.game_type.to_string(), "Base+P");
    assert!(!record.standard_opening);
    assert_eq!(
        record.move_strings(),
        [
            "wP", "bP wP-", "wQ -wP", "bQ bP\\", "wQ \\bP", "wP bP/", "wS1 wP-", "wQ wP\\",
            "bP \\wP"
        ]
    );
    // Black's bot moves the white pillbug and queen with its pillbug: W is the piece's colour
    assert_eq!(record.moves[5].written, "pmove W P P 14 bP/ ; done");
    assert_eq!(record.moves[3].written, "movedone B Q O 12 bP\\");
    // White throws the black pillbug, named with its colour
    assert_eq!(
        record.moves[8].written,
        "pickb O 13 bp ; pdropb bp P 15 \\wP ; done"
    );
    assert_eq!(record.moves[8].line, 31);
    // GN is empty: the date stamp of the file name; P-1 and time nodes leave no trace
    assert_eq!(tag(&record, "GN"), Some(""));
    assert_eq!(record.date.as_deref(), Some("2013.06.15"));
    assert_eq!(record.notes.len(), 1, "{:?}", record.notes);
    assert_eq!(final_state(&record), GameState::InProgress);
}

#[test]
fn era_2017_full_names_with_1_and_dot_climbs() {
    // 2017-full-names.sgf, made up in the 2016–2018 dialect (section 3.6, section 3.7).
    let record = game("2017-full-names.sgf");
    assert_eq!(record.game_type, GameType::BASE_MLP);
    assert_eq!(
        record.move_strings(),
        [
            "wS1", "bM wS1-", "wL -wS1", "bB1 bM-", "wQ \\wS1", "bQ bM\\", "wB1 wL\\", "bB1 bM",
            "wM /wL", "bA1 bQ-", "wL bB1/", "bB1 wS1",
        ]
    );
    assert_eq!(
        record.moves[7].written,
        "pickb P 13 bB1 ; dropb bB1 O 13 . ; done"
    );
    assert_eq!(
        record.notes,
        ["line 13: unique pieces written with 1 (\"bM1\") read without it"]
    );
    assert_eq!(record.date.as_deref(), Some("2017.03.09"));
    assert_eq!(
        (record.result, record.ending),
        (DeclaredResult::BlackWins, Ending::Unstated)
    );
    assert_eq!(final_state(&record), GameState::InProgress);
}

#[test]
fn era_2023_bare_done_and_pass_done_are_forced_passes() {
    // §10.9
    // 2023-forced-pass.sgf, made up in the 2023 dialect (section 3.8 step 5).
    let record = game("2023-forced-pass.sgf");
    assert_eq!(record.game_type, GameType::BASE_MLP, "SU[Hive-PLM]");
    let plies = record.move_strings();
    assert_eq!(plies.len(), 15);
    assert_eq!(
        &plies[9..],
        ["bA1 -wQ", "pass", "bB1 \\bA2", "pass", "bB1 bA2", "pass"]
    );
    assert_eq!(
        [
            &record.moves[10].written,
            &record.moves[12].written,
            &record.moves[14].written
        ],
        ["Done", "Pass ; Done", "Done"]
    );
    assert_eq!(record.moves[13].written, "Move B bB1 O 14 . ; Done");
    assert_eq!(
        record.notes,
        [
            "line 37: a bare Done of White, who is to move, read as a forced pass",
            "line 44: a bare Done of White, who is to move, read as a forced pass",
        ]
    );
    assert_eq!(tag(&record, "CM"), Some("0,1"));
    assert_eq!(tag(&record, "TC"), Some("Differential 0 900000"));
    // Dutch: "De partij is gewonnen door omar"
    assert_eq!(
        (record.result, record.ending),
        (DeclaredResult::BlackWins, Ending::Unstated)
    );
    // each pass is the only legal move (§7.2): the engine accepts it
    assert_eq!(final_state(&record), GameState::InProgress);
}

#[test]
fn era_2024_missing_passes_are_inserted_and_x_dot_climbs() {
    // §10.9, §10.11
    // 2024-missing-pass.sgf: 2023-forced-pass.sgf without its passes, in the 2024 dialect.
    let record = game("2024-missing-pass.sgf");
    assert_eq!(record.game_type, GameType::BASE_MLP, "SU[hive-plm 2 0 101]");
    let with_passes = game("2023-forced-pass.sgf");
    assert_eq!(record.move_strings(), with_passes.move_strings()[..14]);
    // the inserted pass is written nowhere; it takes the line of the move that reveals it
    assert_eq!(
        (record.moves[10].written.as_str(), record.moves[10].line),
        ("", 37)
    );
    assert_eq!(record.moves[13].written, "Move B bB1 O 14 bA2. ; Done");
    assert_eq!(
        record.notes,
        [
            "line 37: Black moves while White is to move: the forced pass the record leaves out is inserted",
            "line 39: Black moves while White is to move: the forced pass the record leaves out is inserted",
        ]
    );
    assert_eq!(
        (record.result, record.date.as_deref()),
        (DeclaredResult::Unknown, Some("2024.10.02"))
    );
    assert_eq!(final_state(&record), GameState::InProgress);
}

// ---------------------------------------------------------------------------
// Variants (section 3.4)
// ---------------------------------------------------------------------------

#[test]
fn variants_hive_pl_reads_as_base_lp_ultimate_and_unknown_are_refused() {
    // §10.7
    // variant-*.sgf, made up.
    let record = game("variant-hive-pl.sgf");
    assert_eq!(record.game_type.to_string(), "Base+LP");
    assert_eq!(record.moves[6].uhp, "wL \\bP");
    let e = error("variant-hive-ultimate.sgf");
    assert_eq!((e.file.as_str(), e.line), ("variant-hive-ultimate.sgf", 3));
    assert!(
        e.message.contains("hive-ultimate") && e.message.contains("not a UHP game"),
        "{e}"
    );
    // §10.21: Ultimate Hive is marked as another game, so that a replay
    // skips and counts it instead of calling the file unreadable; an
    // unknown variant is not
    assert!(e.not_a_uhp_game, "{e:?}");
    let e = error("variant-unknown.sgf");
    assert!(!e.not_a_uhp_game, "{e:?}");
    assert_eq!(e.line, 3);
    assert!(
        e.message.contains("\"hive-pmx\" is not a UHP game type"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------
// Turns (section 3.8) and endings (section 3.9)
// ---------------------------------------------------------------------------

#[test]
fn undo_bursts_collapse_to_the_last_drop_before_done() {
    // §10.8
    // undo-bursts.sgf, made up (section 3.8 steps 1 to 3).
    let record = game("undo-bursts.sgf");
    assert_eq!(
        record.move_strings(),
        ["wM", "bP -wM", "wQ wM/", "bQ /bP", "wQ \\wM", "wM -bP"]
    );
    assert_eq!(
        record.moves[0].written,
        "Pick W 4 wS1 ; Drop W 4 wS1 ; Pick W 5 wM1 ; Dropb wM1 N 13 . ; Done"
    );
    assert_eq!(
        record.moves[1].written,
        "Pick B 8 bP1 ; Dropb bP1 O 13 wM- ; Pickb O 13 bP1 ; Dropb bP1 M 13 -wM ; Done"
    );
    assert_eq!(record.moves[5].written, "PMove W wM1 L 13 -bP ; Done");
    assert_eq!(
        record.notes,
        [
            "line 13: unique pieces written with 1 (\"wM1\") read without it",
            "line 35: the last turn is never confirmed by Done: ignored",
        ]
    );
}

#[test]
fn draw_talk_makes_no_ply() {
    // §10.8
    // draw-talk.sgf, made up (section 3.5, section 3.8 step 4).
    let record = game("draw-talk.sgf");
    assert_eq!(
        record.move_strings(),
        ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bA1 bQ-"]
    );
    assert_eq!(record.moves[4].line, 27);
    assert_eq!(
        record.moves[4].written,
        "pick W 1 wA1 ; dropb wA1 L 13 -wQ ; done"
    );
    assert!(record.notes.is_empty(), "{:?}", record.notes);
    assert_eq!(
        (record.result, record.ending),
        (DeclaredResult::Unknown, Ending::Unstated)
    );
}

#[test]
fn a_resignation_ends_the_game_and_what_follows_is_debris() {
    // resign-debris.sgf, made up (section 3.8 step 6, section 3.9).
    let record = game("resign-debris.sgf");
    assert_eq!(record.moves.len(), 5);
    assert_eq!(
        (record.result, record.ending),
        (DeclaredResult::WhiteWins, Ending::Resignation(Color::Black))
    );
    assert_eq!(
        record.notes,
        ["lines 27–30: 4 actions after the end of the game (a resignation at line 25) ignored"]
    );
    assert_eq!(final_state(&record), GameState::InProgress);
}

#[test]
fn an_accepted_draw_ends_the_game() {
    // agreed-draw.sgf, made up; RE in French.
    let record = game("agreed-draw.sgf");
    assert_eq!(record.moves.len(), 4);
    assert_eq!(
        (record.result, record.ending),
        (DeclaredResult::Draw, Ending::AgreedDraw)
    );
    assert!(record.notes.is_empty(), "{:?}", record.notes);
}

#[test]
fn an_re_naming_a_player_loosely_is_read_with_a_note() {
    // §10.15, loose-re-names.sgf (made up, as in boardspace's 2020 archive):
    // RE names "Dumbot" for the id "Dumbot0": White wins, noted.
    let record = game("loose-re-names.sgf");
    assert_eq!(record.white.as_deref(), Some("Dumbot0"));
    assert_eq!(
        (record.result, record.ending),
        (DeclaredResult::WhiteWins, Ending::Unstated)
    );
    assert!(
        record.notes.iter().any(|n| n.starts_with(
            "line 6: RE[Partida ganada por Dumbot] names White (id \"Dumbot0\") only loosely"
        )),
        "{:?}",
        record.notes
    );
}

#[test]
fn a_localized_re_names_the_winner() {
    // localized-re.sgf, made up: "Partida ganada por pablo" (section 3.9).
    let record = game("localized-re.sgf");
    assert_eq!(
        (record.result, record.ending),
        (DeclaredResult::WhiteWins, Ending::Unstated)
    );
    assert_eq!(record.black.as_deref(), Some("guest1462"));
    assert_eq!(
        final_state(&record),
        GameState::InProgress,
        "an unfinished board may stand"
    );
}

#[test]
fn a_wrong_re_is_read_as_written_and_the_replay_disagrees() {
    // §10.13
    // wrong-re.sgf, made up: Black surrounds the white queen, RE names White.
    let record = game("wrong-re.sgf");
    assert_eq!(
        (record.result, record.ending),
        (DeclaredResult::WhiteWins, Ending::Unstated)
    );
    assert_eq!(record.moves.len(), 13);
    assert_eq!(final_state(&record), GameState::BlackWins);
}

#[test]
fn the_illegal_move_is_read_and_the_engine_refuses_it_at_ply_5() {
    // illegal-move.sgf, made up: wA1 placed touching bS1, refused by §3.6.
    let record = game("illegal-move.sgf");
    assert_eq!(record.moves.len(), 6);
    assert_eq!(record.moves[4].uhp, "wA1 \\bS1");
    let Err((ply, why)) = replay(&record) else {
        panic!("illegal-move.sgf must be refused");
    };
    assert_eq!(ply, 5, "{why}");
    assert!(why.contains("§3.6"), "{why}");
}

// ---------------------------------------------------------------------------
// Container and coordinates (section 3.2, section 4)
// ---------------------------------------------------------------------------

#[test]
fn only_the_first_game_tree_is_read() {
    // §10.7
    // two-trees.sgf, made up: the game, then the same game with undo debris.
    let record = game("two-trees.sgf");
    assert_eq!(
        record.move_strings(),
        ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]
    );
    assert_eq!(
        record.notes,
        ["line 21: a further game tree ignored (only the first is read)"]
    );
}

#[test]
fn the_board_wraps_across_both_edges() {
    // §10.10
    // torus-wrap.sgf, made up: the first piece at Z 26 (section 4.2).
    let record = game("torus-wrap.sgf");
    assert_eq!(
        record.move_strings(),
        ["wS1", "bS1 wS1/", "wQ -wS1", "bQ bS1-", "wA1 wQ\\", "bA1 bQ/"]
    );
    assert_eq!(
        record.moves[1].written,
        "pick B 4 bS1 ; dropb bS1 A 1 wS1/ ; done"
    );
}

#[test]
fn overflow_columns_are_not_wrapped() {
    // §10.10
    // overflow-column.sgf, made up: 1Z and 2Z east of Z (section 4.2).
    let record = game("overflow-column.sgf");
    assert_eq!(
        record.move_strings(),
        [
            "wS1",
            "bS1 wS1-",
            "wQ -wS1",
            "bQ bS1-",
            "wA1 -wQ",
            "bA1 bQ-",
            "wA1 \\bA1"
        ]
    );
    assert_eq!(
        record.moves[6].written,
        "pickb W 13 wA1 ; dropb wA1 2Z 14 \\bA1 ; done"
    );
}

#[test]
fn the_first_piece_may_stand_anywhere_and_dt_is_the_last_resort_date() {
    // first-not-n13.sgf, made up in the 2008 dialect: the first piece at J 20.
    let record = game("first-not-n13.sgf");
    assert_eq!(
        record.move_strings(),
        ["wG1", "bS1 wG1-", "wA1 -wG1", "bQ bS1/", "wQ /wA1", "bA1 \\bQ", "wQ wA1\\"]
    );
    assert_eq!(record.date.as_deref(), Some("Sat Mar 08 10:00:00 GMT 2008"));
    assert_eq!(record.black.as_deref(), Some("WeakBot"));
}

#[test]
fn a_suffix_that_contradicts_the_cell_is_an_error_naming_its_line() {
    // §10.11
    // suffix-mismatch.sgf, made up: "dropb wQ M 13 wS1/" (section 4.3).
    let e = error("suffix-mismatch.sgf");
    assert_eq!(e.line, 15);
    assert_eq!(
        e.message,
        "\"dropb wQ M 13 wS1/\": the written reference \"wS1/\" disagrees with the coordinates (it says the cell O 14 beside wS1, not M 13): a decoding bug or a damaged file"
    );
}

#[test]
fn the_first_player_playing_black_is_read_with_colours_swapped() {
    // swapped-colours.sgf, made up (records-notes.md section 7, a defensive rule).
    let record = game("swapped-colours.sgf");
    assert_eq!(
        record.move_strings(),
        ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]
    );
    assert_eq!(record.white.as_deref(), Some("rita"));
    assert_eq!(
        record.notes,
        ["line 9: the first player plays the black pieces: colours swapped so that White moves first"]
    );
}

// ---------------------------------------------------------------------------
// Bad files and encodings
// ---------------------------------------------------------------------------

#[test]
fn bad_files_are_errors_with_their_line() {
    // §10.2
    // truncated.sgf (2017-full-names.sgf cut), not-sgf-lisp.sgf, not-hive-gm.sgf: made up.
    let e = error("truncated.sgf");
    assert_eq!(
        (e.line, e.message.as_str()),
        (
            19,
            "the file ends inside the value of \"P1\" opened at line 19: truncated"
        )
    );
    let e = error("not-sgf-lisp.sgf");
    assert_eq!(
        e.to_string(),
        "not-sgf-lisp.sgf:1: not an SGF game tree: expected \";\" (a node) after the \"(\" of line 1, found \"d\""
    );
    let e = error("not-hive-gm.sgf");
    assert_eq!(
        e.to_string(),
        "not-hive-gm.sgf:1: not a boardspace Hive record: GM[1] is another game (Hive is GM[27])"
    );
}

#[test]
fn crlf_header_lines_and_lf_move_lines_count_as_lines() {
    // §10.1
    // crlf-header.sgf, made up: lines 1–7 end in CRLF, the rest in LF.
    let bytes = std::fs::read(format!("{DIR}crlf-header.sgf")).expect("file");
    assert!(
        bytes.windows(2).any(|w| w == b"\r\n"),
        "the file keeps its CRLF lines"
    );
    let record = game("crlf-header.sgf");
    assert_eq!(
        record.move_strings(),
        ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]
    );
    assert_eq!(record.moves[0].line, 11);
    assert_eq!(record.date.as_deref(), Some("2019.09.14"));
}

#[test]
fn latin1_and_utf8_names_are_decoded() {
    // §10.1
    // names-latin1.sgf (Latin-1 bytes), names-utf8.sgf (UTF-8 with a BOM): made up.
    let bytes = std::fs::read(format!("{DIR}names-latin1.sgf")).expect("file");
    assert!(std::str::from_utf8(&bytes).is_err(), "the file is Latin-1");
    let record = game("names-latin1.sgf");
    assert_eq!(
        (record.white.as_deref(), record.black.as_deref()),
        (Some("José"), Some("Gaëlle"))
    );
    assert_eq!(
        record.result,
        DeclaredResult::BlackWins,
        "Partie gagnée par Gaëlle"
    );
    let record = game("names-utf8.sgf");
    assert_eq!(record.white.as_deref(), Some("Алексей"));
    assert_eq!(
        record.result,
        DeclaredResult::WhiteWins,
        "Игру выиграл(а) Алексей."
    );
    assert_eq!(record.moves.len(), 4);
}

// ---------------------------------------------------------------------------
// Inline records: the paths no file takes
// ---------------------------------------------------------------------------

const HEADER: &str = "(;GM[27]SU[hive]P0[id \"ann\"]P1[id \"bob\"]\n";

/// Reads `HEADER`, the actions (one node each, P0 then P1 as given), `)`.
fn inline(actions: &[(usize, &str)]) -> Result<Record, RecordError> {
    let mut text = HEADER.to_string();
    for (i, (player, action)) in actions.iter().enumerate() {
        text.push_str(&format!("; P{player}[{i} {action}]\n"));
    }
    text.push(')');
    sgf::read("inline.sgf", &text).map(|mut games| games.remove(0))
}

#[test]
fn the_worked_example_of_records_md() {
    // records-notes.md section 4.4 (made up there), completed into a legal Base+L game:
    // a re-lifted drop, a `.` climb, and a `.` step down next to nothing but
    // the old cell, whose reference is the piece left behind.
    let text = "(;GM[27]SU[hive-l]P0[id \"ann\"]P1[id \"bob\"]
; P0[1 Pick W 6 wL1]; P0[2 Dropb wL1 N 13 .]; P0[3 Done]
; P1[4 Pick B 2 bG1]; P1[5 Dropb bG1 M 12 /wL]; P1[6 Done]
; P0[7 Pick W 0 wQ]; P0[8 Dropb wQ O 14 wL/]; P0[9 Pickb O 14 wQ]; P0[10 Dropb wQ N 14 \\\\wL]; P0[11 Done]
; P1[12 Pick B 0 bQ]; P1[13 Dropb bQ L 11 /bG1]; P1[14 Done]
; P0[15 Pick W 3 wB1]; P0[16 Dropb wB1 O 13 wL-]; P0[17 Done]
; P1[18 Pick B 1 bA1]; P1[19 Dropb bA1 K 10 /bQ]; P1[20 Done]
; P0[21 Pickb O 13 wB1]; P0[22 Dropb wB1 N 13 .]; P0[23 Done]
; P1[24 Pickb K 10 bA1]; P1[25 Dropb bA1 K 11 -bQ]; P1[26 Done]
; P0[27 Pickb N 13 wB1]; P0[28 Dropb wB1 O 13 .]; P0[29 Done])";
    let record = sgf::read("example.sgf", text).expect("reads").remove(0);
    assert_eq!(
        record.move_strings(),
        [
            "wL", "bG1 /wL", "wQ \\wL", "bQ /bG1", "wB1 wL-", "bA1 /bQ", "wB1 wL", "bA1 -bQ",
            "wB1 wL-",
        ]
    );
    assert_eq!(
        record.moves[2].written,
        "Pick W 0 wQ ; Dropb wQ O 14 wL/ ; Pickb O 14 wQ ; Dropb wQ N 14 \\wL ; Done"
    );
    assert_eq!(record.moves[2].line, 4);
    assert!(replay(&record).is_ok());
}

#[test]
fn inline_passdone_gameoverontime_reset_and_playwhite() {
    // made up: verbs of section 3.5 that no sample shows.
    let record = inline(&[
        (0, "Pick W 4 wS1"),
        (0, "Dropb wS1 N 13 ."),
        (0, "Done"),
        (1, "Pick B 4 bS1"),
        (1, "Dropb bS1 O 13 wS1-"),
        (1, "Reset"),
        (1, "Pick B 2 bG1"),
        (1, "Dropb bG1 O 13 wS1-"),
        (1, "Done"),
        (0, "PlayWhite"),
        (0, "PassDone"),
        (1, "GameOverOnTime"),
        (0, "Done"),
    ])
    .expect("reads");
    assert_eq!(record.move_strings(), ["wS1", "bG1 wS1-", "pass"]);
    assert_eq!(
        record.moves[1].written,
        "Pick B 2 bG1 ; Dropb bG1 O 13 wS1- ; Done"
    );
    assert_eq!(record.ending, Ending::Unstated);
    assert_eq!(
        record.notes,
        [
            "line 7: Reset: the actions of the turn so far are undone",
            "line 11: \"PlayWhite\" ignored",
            "line 13: the game ends on time",
            "line 14: 1 action after the end of the game (a loss on time at line 13) ignored",
        ]
    );
}

#[test]
fn inline_errors_name_the_line_and_the_action() {
    // made up: damaged or foreign action sequences.
    type Actions = &'static [(usize, &'static str)];
    let cases: [(Actions, usize, &str); 8] = [
        (&[(0, "Dropb wS1 N 13 .")], 2, "no piece is lifted"),
        (&[(0, "Pickb N 13 wS1")], 2, "the cell N 13 is empty"),
        (
            &[(0, "Pick W 5 wM1")],
            2,
            "the mosquito is not in the game type Base",
        ),
        (&[(0, "Pick W 4 wS3")], 2, "a player has 2 spiders"),
        (
            &[(0, "Pick W 4 wS1"), (0, "Dropb wS2 N 13 .")],
            3,
            "the piece lifted is wS1",
        ),
        (&[(0, "Jump wS1")], 2, "unknown action \"jump\""),
        (&[(0, "Edit")], 2, "edited"),
        (
            &[(0, "Pick W 4 wS1"), (0, "Dropb wS1 N")],
            3,
            "expected a row",
        ),
    ];
    for (actions, line, says) in cases {
        let e = inline(actions)
            .err()
            .unwrap_or_else(|| panic!("{actions:?} must be refused"));
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(says), "{e}");
    }
    // written references that do not fit the coordinates (section 4.3): unreadable,
    // a "." beside another piece, a bare-name climb onto an empty cell
    for (suffix, says) in [
        ("?wS1?", "\"?wS1?\" is not a piece"),
        (".", "\".\" says the first piece, a climb or no neighbour but the mover's own cell, and O 13 is empty beside N 13"),
        ("wS1", "it says a climb onto wS1 at N 13, not O 13"),
    ] {
        let drop = format!("Dropb bS1 O 13 {suffix}");
        let e = inline(&[
            (0, "Pick W 4 wS1"),
            (0, "Dropb wS1 N 13 ."),
            (0, "Done"),
            (1, "Pick B 4 bS1"),
            (1, drop.as_str()),
            (1, "Done"),
        ])
        .expect_err("refused");
        assert_eq!(e.line, 6, "{e}");
        assert!(e.message.contains(says), "{e}");
    }
    // a piece placed twice from the rack
    let e = inline(&[
        (0, "Pick W 4 wS1"),
        (0, "Dropb wS1 N 13 ."),
        (0, "Done"),
        (1, "Pick B 4 bS1"),
        (1, "Dropb bS1 O 13 wS1-"),
        (1, "Done"),
        (0, "Pick W 4 wS1"),
        (0, "Dropb wS1 M 13 -wS1"),
        (0, "Done"),
    ])
    .expect_err("refused");
    assert!(e.message.contains("already on the board"), "{e}");
    // GM missing
    let e = sgf::read("x.sgf", "(;SU[hive];P0[0 Start P0])").expect_err("refused");
    assert_eq!(
        e.to_string(),
        "x.sgf:1: not a boardspace Hive record: the root node has no GM[27]"
    );
}

#[test]
fn inline_variations_and_re_against_the_body() {
    // made up: a variation is skipped; RE that contradicts a resignation is noted.
    let text = "(;GM[27]SU[hive]RE[Game won by bob]P0[id \"ann\"]P1[id \"bob\"]\n\
                ;P0[1 Pick W 4 wS1]\n;P0[2 Dropb wS1 N 13 .]\n;P0[3 Done]\n\
                (;P1[4 Pick B 4 bS1]\n;P1[5 Dropb bS1 O 13 wS1-]\n;P1[6 Done]\n;P0[7 Resign])\n\
                (;P1[4 Resign]))";
    let record = sgf::read("v.sgf", text).expect("reads").remove(0);
    assert_eq!(record.move_strings(), ["wS1", "bS1 wS1-"]);
    assert_eq!(
        (record.result, record.ending),
        (DeclaredResult::BlackWins, Ending::Resignation(Color::White))
    );
    assert_eq!(
        record.notes,
        ["line 9: a variation of the game tree ignored (only the main line is read)"]
    );
    let text = text.replace("Game won by bob", "Game won by ann");
    let record = sgf::read("v.sgf", &text).expect("reads").remove(0);
    assert_eq!(record.result, DeclaredResult::BlackWins, "the body decides");
    assert!(
        record.notes.iter().any(|n| n
            == "RE says WhiteWins, the body ends the game with a resignation: the body decides"),
        "{:?}",
        record.notes
    );
}

// ---------------------------------------------------------------------------
// No panic
// ---------------------------------------------------------------------------

/// Pieces of boardspace actions, to reach the turn logic with random input.
fn action() -> impl Strategy<Value = String> {
    let verb = prop::sample::select(vec![
        "Pick",
        "Pickb",
        "Drop",
        "Dropb",
        "Pdropb",
        "Move",
        "PMove",
        "MoveDone",
        "Done",
        "Pass",
        "OfferDraw",
        "AcceptDraw",
        "Resign",
        "Reset",
        "Start",
        "pick",
        "dropb",
        "done",
    ]);
    let word = prop::sample::select(vec![
        "W", "B", "4", "wS1", "bS1", "wQ", "bQ", "b1", "q", "wL1", "N", "O", "M", "Z", "A", "1Z",
        "2A", "13", "14", "12", "26", "1", ".", "wS1-", "-wS1", "\\\\wQ", "bQ.", "wS1/", "x",
    ]);
    (0..2usize, verb, prop::collection::vec(word, 0..5))
        .prop_map(|(player, verb, words)| format!("; P{player}[7 {verb} {}]", words.join(" ")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any text starting with "(" is read or refused, never a panic.
    #[test]
    fn arbitrary_text_starting_with_a_parenthesis_never_panics(text in "\\(\\PC{0,200}") {
        let _ = sgf::read("p.sgf", &text);
    }

    /// Random SGF-looking text (brackets, escapes, semicolons) never panics.
    #[test]
    fn sgf_like_text_never_panics(text in "\\((;|[A-Z0-9-]{1,3}\\[[^\\]]{0,12}\\]|\\(|\\)|\\\\|\\s){0,40}") {
        let _ = sgf::read("p.sgf", &text);
    }

    /// The test files with lines deleted, repeated or swapped (real
    /// structure, damaged) never panic.
    #[test]
    fn damaged_test_files_never_panic(
        file in 0..FILES.len(),
        edits in prop::collection::vec((0..3u8, 0..64usize, 0..64usize), 1..6),
    ) {
        let bytes = std::fs::read(format!("{DIR}{}", FILES[file].0)).expect("file");
        let text = records::decode(&bytes);
        let mut lines: Vec<&str> = text.lines().collect();
        for (op, a, b) in edits {
            let n = lines.len();
            if n == 0 {
                break;
            }
            let (a, b) = (a % n, b % n);
            match op {
                0 => {
                    lines.remove(a);
                }
                1 => lines.insert(b, lines[a]),
                _ => lines.swap(a, b),
            }
        }
        let _ = sgf::read("damaged.sgf", &lines.join("\n"));
    }

    /// Random actions after a valid root never panic, and whatever reads
    /// gives well-formed plies.
    #[test]
    fn random_actions_never_panic(actions in prop::collection::vec(action(), 0..40)) {
        let text = format!("(;GM[27]SU[hive-plm]\n{}\n)", actions.join("\n"));
        if let Ok(games) = sgf::read("p.sgf", &text) {
            for m in &games[0].moves {
                prop_assert!(!m.uhp.is_empty());
            }
        }
    }
}

#[test]
fn too_many_nodes_or_values_are_refused() {
    // The SGF reader's limit (§10.7 lexes the container): a file of more
    // than 1,000,000 nodes or property values is
    // refused at the first one over, with its line, before it is held: a
    // value read takes about 90 bytes and a node 24 whatever their text, so
    // 64 MiB of `[]` or `;` took gigabytes (docs/limits.md `sgf-items`).
    let values = format!("(;GM[27]SU[hive]C{}\n)", "[]".repeat(sgf::MAX_SGF_ITEMS));
    let refused = sgf::read("values.sgf", &values).expect_err("refused");
    assert!(
        refused
            .message
            .contains("too many property values: an SGF record may hold at most 1000000"),
        "{refused}"
    );
    assert_eq!(refused.line, 1, "{refused}");
    let nodes = format!("(;GM[27]SU[hive]\n{})", ";".repeat(sgf::MAX_SGF_ITEMS));
    let refused = sgf::read("nodes.sgf", &nodes).expect_err("refused");
    assert!(
        refused
            .message
            .contains("too many nodes: an SGF record may hold at most 1000000"),
        "{refused}"
    );
    assert_eq!(refused.line, 2, "{refused}");
    // one under the limit reads as far as the game's content goes: the
    // limit is of the container, not of the game
    let under = format!(
        "(;GM[27]SU[hive]C{}\n)",
        "[]".repeat(sgf::MAX_SGF_ITEMS - 3)
    );
    let read = sgf::read("under.sgf", &under);
    assert!(
        read.as_ref()
            .map_or_else(|e| !e.message.contains("too many"), |_| true),
        "{read:?}"
    );
}
