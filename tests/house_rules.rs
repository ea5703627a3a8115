//! The house repetition rules (`hive_oracle_rules::house_rules`,
//! spec/rulings.md#house-repetition-rules): the draws that real engines
//! play instead of §8.7.2, pinned on the two constructed records of
//! `tests/records/house-rules/` (see its README for how they were built).
//! Each test states where each rule ends the game and why.

use std::path::Path;

use hive_oracle_rules::core::{GameState, Move, RulesOptions};
use hive_oracle_rules::house_rules::HouseRepetition;
use hive_oracle_rules::records::{self, replay::record_options};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The game of tests/cases/end.toml::surrounded-by-any-colour-and-height:
/// White's queen shuffles between two cells for twelve plies, then Black
/// surrounds it.
const SURROUNDED_AFTER_SHUFFLES: &str = r"Base;BlackWins;White[17];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wQ wS1/;bB1 \bS1;wQ wS1-;bA1 -bQ;wQ wS1/;bA2 bA1\;wQ wS1-;bA3 -bB1;wQ wS1/;bA1 wS1\;wQ bA1/;bA2 wQ\;wQ bA2/;bB1 \wS1;wQ \bA2;bB1 wS1;wQ bA2/;bB2 \bS1;wQ \bA2;bB2 \bB1;wQ bA2/;bB2 bB1/;wQ bB2\;bA3 wQ/;pass;bG1 bB2/;pass;bG1 bA2/";

/// The moves of a record of `tests/records/house-rules/`, read by the
/// record reader and played on the reference.
fn record_moves(name: &str) -> (ReferenceEngine, Vec<Move>) {
    let path = Path::new("tests/records/house-rules").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut games = records::read(name, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(games.len(), 1, "{name}");
    let record = games.remove(0);
    let mut game = ReferenceEngine::new_game(record.game_type, record_options(&record));
    let mut moves = Vec::new();
    for ply in &record.moves {
        let mv = game
            .parse_move(&ply.uhp)
            .unwrap_or_else(|e| panic!("{name} ply {}: {e}", ply.line));
        game.play(mv)
            .unwrap_or_else(|e| panic!("{name} line {}: {e}", ply.line));
        moves.push(mv);
    }
    (game, moves)
}

/// The first ply after which `house` (or the spec's §8.7.2, for `None`)
/// ends the game of `moves`.
fn first_draw(
    start: &ReferenceEngine,
    moves: &[Move],
    house: Option<HouseRepetition>,
) -> Option<usize> {
    let on = RulesOptions {
        repetition_draw: true,
        ..start.options()
    };
    let options = house.map_or(on, |h| h.reference_options(on));
    let mut game = ReferenceEngine::new_game(
        hive_oracle_rules::core::BoardView::game_type(start),
        options,
    );
    for (ply, &mv) in moves.iter().enumerate() {
        game.play(mv).expect("a legal record");
        let state = house.map_or_else(|| game.state(), |h| h.state(&game));
        if state == GameState::Draw {
            return Some(ply + 1);
        }
    }
    None
}

/// Where the spec's rule and each preset first draw, in that order.
fn draws(name: &str) -> Vec<Option<usize>> {
    let (game, moves) = record_moves(name);
    let mut all = vec![first_draw(&game, &moves, None)];
    for house in HouseRepetition::PRESETS {
        all.push(first_draw(&game, &moves, Some(house)));
    }
    all
}

#[test]
fn a_repetition_forty_plies_apart_draws_only_over_the_whole_game() {
    // §8.7.2 counts the last 32 plies; hivegame.com the whole game
    // (rulings.md#house-repetition-rules). The position after ply 6 stands
    // again after plies 26 and 46: 40 plies from the first to the third, so
    // only a whole-game count draws at 46. Folding rotations and mirror
    // images finds a third image of one position after ply 28 already
    // (within 32 plies: the folding rule of the spec's window draws there
    // too), nokamute's rule never draws.
    let [spec, whole_game, folds, hivegame, nokamute] =
        draws("house-repetition-twenty-ply-cycle.pgn")[..]
    else {
        panic!("one spec rule and four presets");
    };
    assert_eq!(spec, None);
    assert_eq!(whole_game, Some(46));
    assert_eq!(folds, Some(28));
    assert_eq!(hivegame, Some(28));
    assert_eq!(nokamute, None);
}

#[test]
fn nokamute_counts_only_positions_four_eight_and_more_plies_back() {
    // spec/sources/uhp-notes.md section 3.2: nokamute draws when the
    // position occurs twice among those 4, 8, …, 32 plies back. A 6-ply
    // cycle repeats the position after ply 6 after plies 12, 18, 24 and 30:
    // §8.7.2 draws at the third occurrence (ply 18), and so does every rule
    // that holds the spec's window; nokamute sees the 12 and 24 plies back
    // only at ply 30 (18 is 12 and 6 back, 24 is 12 and 18 back, only 12 a
    // multiple of 4).
    let [spec, whole_game, folds, hivegame, nokamute] =
        draws("house-repetition-six-ply-cycle.pgn")[..]
    else {
        panic!("one spec rule and four presets");
    };
    assert_eq!(spec, Some(18));
    assert_eq!(
        (whole_game, folds, hivegame),
        (Some(18), Some(18), Some(18))
    );
    assert_eq!(nokamute, Some(30));
}

#[test]
fn a_house_rule_never_overrides_a_surround_and_leaves_a_game_in_progress_alone() {
    // §8.7.3: a surround decides first; a game without a repetition keeps
    // the reference's state under every house rule. The first 12 plies of
    // the six-ply record repeat nothing three times.
    let (game, moves) = record_moves("house-repetition-six-ply-cycle.pgn");
    let mut early = ReferenceEngine::new_game(
        hive_oracle_rules::core::BoardView::game_type(&game),
        RulesOptions::default(),
    );
    for &mv in &moves[..12] {
        early.play(mv).expect("legal");
    }
    for house in HouseRepetition::PRESETS {
        let mut under = ReferenceEngine::new_game(
            hive_oracle_rules::core::BoardView::game_type(&game),
            house.reference_options(RulesOptions::default()),
        );
        for &mv in &moves[..12] {
            under.play(mv).expect("legal");
        }
        assert_eq!(
            house.state(&under),
            GameState::InProgress,
            "{}",
            house.name()
        );
    }
    // a won game stays won, though the queen's shuffles before it repeat
    // positions: tests/cases/end.toml::surrounded-by-any-colour-and-height
    let won = ReferenceEngine::load(SURROUNDED_AFTER_SHUFFLES).expect("the case's game loads");
    assert_eq!(won.state(), GameState::BlackWins);
    for house in HouseRepetition::PRESETS {
        assert_eq!(house.state(&won), GameState::BlackWins, "{}", house.name());
    }
}

#[test]
fn each_preset_has_its_own_name_and_the_spec_rule_none() {
    let names: Vec<String> = HouseRepetition::PRESETS.iter().map(|h| h.name()).collect();
    assert_eq!(
        names,
        [
            "repetition-whole-game",
            "repetition-folds-symmetry",
            "repetition-hivegame",
            "repetition-nokamute"
        ]
    );
    let both = HouseRepetition {
        window: hive_oracle_rules::house_rules::Window::WholeGame,
        ..HouseRepetition::FOLDS_SYMMETRY
    };
    assert_eq!(
        both.name(),
        "repetition-whole-game,repetition-folds-symmetry"
    );
    assert!(HouseRepetition::PRESETS
        .iter()
        .all(HouseRepetition::is_consistent));
}
