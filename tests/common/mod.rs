//! Helpers shared by the tests: load a position on the reference engine,
//! a repeatable generator for random games, the case counts of the property
//! tests. The move-set assertions, written once for any engine, are in
//! `tests/engines/mod.rs`.
#![allow(dead_code)]

use hive_oracle_rules::core::RulesOptions;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// Loads a GameString with the default rules options; the test fails with the
/// loader's message if the history is not legal.
pub fn game(game_string: &str) -> ReferenceEngine {
    game_with(game_string, RulesOptions::default())
}

/// Loads a GameString with the given rules options.
pub fn game_with(game_string: &str, options: RulesOptions) -> ReferenceEngine {
    match ReferenceEngine::load_with(game_string, options) {
        Ok(game) => game,
        Err(e) => panic!("test position does not load: {e}\n  {game_string}"),
    }
}

/// The verdict of the reference rules (what `explain` prints) on the
/// MoveString `mv` in the position of `game_string`; the test fails if
/// either does not read.
pub fn verdict_on(game_string: &str, mv: &str) -> hive_oracle_rules::explain::Verdict {
    let game = game(game_string);
    match game.parse_move(mv) {
        Ok(parsed) => hive_oracle_rules::explain::verdict(&game, parsed),
        Err(e) => panic!("test move does not read: {e}\n  {mv}"),
    }
}

/// A small deterministic generator for random legal games (a 64-bit LCG;
/// the games only need to be varied and repeatable).
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Random games of the main property at full size
/// (`differential::engines_agree_on_random_games_at_full_size`): the
/// reference of `HIVE_ORACLE_CASES`.
pub const DEFAULT_GAMES: u32 = 128;

/// The number of cases for a property whose default is `default`, scaled by
/// `HIVE_ORACLE_CASES` (the number of games of the main property).
pub fn cases(default: u32) -> u32 {
    match std::env::var("HIVE_ORACLE_CASES")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
    {
        Some(n) => {
            ((n * u64::from(default)) / u64::from(DEFAULT_GAMES)).clamp(1, u32::MAX as u64) as u32
        }
        None => default,
    }
}

/// A random legal game on the reference engine chosen by `choices`, each
/// picking among the legal moves of its position (`choice % count`): the
/// shape proptest shrinks well.
pub fn game_from_choices(
    game_type: hive_oracle_rules::core::GameType,
    options: RulesOptions,
    choices: &[u16],
) -> ReferenceEngine {
    let mut g = ReferenceEngine::new_game(game_type, options);
    for &choice in choices {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        g.play_unchecked(moves[choice as usize % moves.len()]);
    }
    g
}
