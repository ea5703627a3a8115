//! The fast engine's algebraic identities (one property-testing framework
//! per concern: quickcheck here). quickcheck draws one random
//! position of any game type and options and checks an identity there:
//!
//! * §9.31: a game loaded from its own GameString has the hash of the game
//!   that was played to reach it, and prints the same string;
//! * §5.9: every legal move played and undone leaves the position, the hash,
//!   the legal moves and the incremental structures as they were.
//!
//! Random games compared move by move with the reference engine, whose
//! failures must shrink to the shortest game, are proptest's concern
//! (`tests/differential.rs`); so are the notation round trips
//! (`tests/notation.rs`) and the refusals (`tests/refusals.rs`).
//! `HIVE_ORACLE_CASES=N` scales the case counts as in `tests/differential.rs`.

use crate::common;

use common::cases;
use hive_oracle_rules::core::{GameType, RulesOptions};
use hive_oracle_rules::fast::FastEngine as Fast;
use hive_oracle_rules::rules::Rules;
use quickcheck::{QuickCheck, TestResult};

/// A random game on the fast engine alone: the game type and options from
/// the first three arguments, the moves from `choices` (sorted legal moves).
fn fast_game(game_type: u8, standard: bool, repetition: bool, choices: &[u16]) -> Fast {
    let options = RulesOptions {
        tournament_opening: !standard,
        repetition_draw: repetition,
    };
    let mut game = Fast::new_game(GameType::ALL[game_type as usize % 8], options);
    for &choice in choices {
        let mut legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        legal.sort();
        game.play_unchecked(legal[choice as usize % legal.len()]);
    }
    game
}

/// §9.31: the hash of a position loaded from its own GameString equals the
/// hash of the position reached by play (the hash depends on the position,
/// not on how it was reached), and the loaded game prints the same string.
fn loaded_hash_equals_played_hash(
    game_type: u8,
    standard: bool,
    repetition: bool,
    choices: Vec<u16>,
) -> TestResult {
    let played = fast_game(game_type, standard, repetition, &choices);
    let text = played.game_string();
    let loaded = match Fast::load_with(&text, played.options()) {
        Ok(game) => game,
        Err(e) => return TestResult::error(format!("{text} does not load: {e}")),
    };
    if let Err(e) = loaded.check_invariants() {
        return TestResult::error(format!("{text}: after loading: {e}"));
    }
    if loaded.game_string() != text {
        return TestResult::error(format!("{text} loads as {}", loaded.game_string()));
    }
    if loaded.hash() != played.hash() {
        return TestResult::error(format!(
            "{text}: hash {:#018x} when played, {:#018x} when loaded",
            played.hash(),
            loaded.hash()
        ));
    }
    TestResult::passed()
}

/// §5.9: from a random position, every legal move played and then undone
/// leaves the GameString, the hash and the legal moves as they were, the
/// incremental structures equal to their twins, and undo returns that move.
fn play_then_undo_is_identity(
    game_type: u8,
    standard: bool,
    repetition: bool,
    choices: Vec<u16>,
) -> TestResult {
    let mut game = fast_game(game_type, standard, repetition, &choices);
    let text = game.game_string();
    let hash = game.hash();
    let mut legal = game.legal_moves();
    legal.sort();
    for &mv in &legal {
        let name = game.move_string(mv);
        game.play_unchecked(mv);
        if let Err(e) = game.check_invariants() {
            return TestResult::error(format!("{text}: after {name}: {e}"));
        }
        let undone = game.undo();
        if undone != Some(mv) {
            return TestResult::error(format!("{text}: undo of {name} returned {undone:?}"));
        }
        if let Err(e) = game.check_invariants() {
            return TestResult::error(format!("{text}: after {name} and undo: {e}"));
        }
        if game.game_string() != text || game.hash() != hash {
            return TestResult::error(format!(
                "{text}: {name} and undo changed the position to {} (hash {:#018x}, was {hash:#018x})",
                game.game_string(),
                game.hash()
            ));
        }
    }
    let mut after = game.legal_moves();
    after.sort();
    if after != legal {
        return TestResult::error(format!("{text}: play and undo changed the legal moves"));
    }
    TestResult::passed()
}

#[test]
fn a_loaded_game_has_the_hash_of_the_played_game() {
    // §9.31: see loaded_hash_equals_played_hash
    QuickCheck::new()
        .tests(cases(300) as u64)
        .quickcheck(loaded_hash_equals_played_hash as fn(u8, bool, bool, Vec<u16>) -> TestResult);
}

#[test]
fn play_followed_by_undo_is_the_identity() {
    // §5.9: see play_then_undo_is_identity
    QuickCheck::new()
        .tests(cases(200) as u64)
        .quickcheck(play_then_undo_is_identity as fn(u8, bool, bool, Vec<u16>) -> TestResult);
}
