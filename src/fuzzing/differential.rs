//! The `differential` target: a game chosen byte by byte, played on both engines.

use std::fmt;

use arbitrary::Arbitrary;

use super::{sorted_legal_moves, GameSetup, Verbatim};
use crate::agreement::{LockStep, LockStepError};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// Plies beyond this are not played: a `differential` input plays at most
/// this many moves (each ply asks the reference engine for its legal moves).
pub const MAX_DIFFERENTIAL_PLIES: usize = 80;

/// The input of the `differential` target: the game ([`GameSetup`], three
/// bytes), then one byte per ply choosing the move `byte % legal.len()`
/// among the legal moves in sorted order. The game ends at the end of the
/// bytes, at the end of the game (§8.5) or after
/// [`MAX_DIFFERENTIAL_PLIES`] plies. [`GameSetup::encode_game`] writes the
/// bytes of a given game.
#[derive(Arbitrary)]
pub struct DifferentialInput<'a> {
    /// The game type and rules options, from the first three bytes.
    pub setup: GameSetup,
    /// One byte per ply, choosing among the legal moves in sorted order.
    pub choices: &'a [u8],
}

impl fmt::Debug for DifferentialInput<'_> {
    /// The setup and the GameString of the game the choices play (on the
    /// reference engine, the model).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut model = ReferenceEngine::new_game(self.setup.game_type, self.setup.options);
        for &choice in self.choices.iter().take(MAX_DIFFERENTIAL_PLIES) {
            let legal = sorted_legal_moves(&model);
            if legal.is_empty() {
                break;
            }
            model.play_unchecked(legal[usize::from(choice) % legal.len()]);
        }
        f.debug_struct("DifferentialInput")
            .field("setup", &self.setup)
            .field("game", &Verbatim(&model.game_string()))
            .finish()
    }
}

/// The property of the `differential` target: the chosen game is played
/// on the fast engine and the reference engine (the model) in lock step
/// ([`LockStep`]): at every ply they agree on the legal moves as absolute
/// moves, each listed once (§5.9), the state (§8.8), the turn (§9.18), the
/// history and the GameString (§9.31), as [`compare_engines`] checks them;
/// each engine accepts the chosen move; and the fast engine's incremental
/// structures equal their from-scratch twins. Panics with the GameString
/// where they first part.
///
/// [`compare_engines`]: crate::agreement::compare_engines
pub fn check_differential(input: DifferentialInput<'_>) {
    let setup = input.setup;
    let part = |game_string: String, why: LockStepError| -> ! {
        panic!("the engines disagree ({setup}) in\n  {game_string}\n{why}")
    };
    let mut game = match LockStep::new(setup.game_type, setup.options) {
        Ok(game) => game,
        Err(why) => part(
            ReferenceEngine::new_game(setup.game_type, setup.options).game_string(),
            why,
        ),
    };
    for &choice in input.choices.iter().take(MAX_DIFFERENTIAL_PLIES) {
        let legal = game.legal();
        if legal.is_empty() {
            return;
        }
        let mv = legal[usize::from(choice) % legal.len()];
        if let Err(why) = game.play(mv, true) {
            part(game.game_string(), why);
        }
    }
}
