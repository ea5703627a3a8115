//! What the case runner needs of an engine ([`CaseEngine`]), and that
//! interface for every [`Rules`] engine ([`RulesEngine`]).

use thiserror::Error;

use crate::core::{GameState, RulesOptions};
use crate::rules::Rules;

/// The engine's own words for refusing a position or a move, or for not
/// counting perft: an answer of the engine, not a failure to talk to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

/// What a case runner needs of an engine: load a position, list its legal
/// moves as it writes them, play a move as written (and take it back), tell
/// the state, and count perft leaves. Implemented for every [`Rules`] engine
/// ([`RulesEngine`]) and, in `check`, for any UHP engine.
/// [`run_case`](super::run_case) is the only interpreter of the case
/// vocabulary (spec/cases.md).
pub trait CaseEngine {
    /// Why talking to the engine failed (not a refusal): the case stops.
    type Error;
    /// Loads `game` (a GameString) under `options`; `Ok(Err(reason))` when
    /// the engine refuses it.
    fn load(
        &mut self,
        game: &str,
        options: RulesOptions,
    ) -> Result<Result<(), Refused>, Self::Error>;
    /// The legal moves, as the engine writes them.
    fn valid_moves(&mut self) -> Result<Vec<String>, Self::Error>;
    /// Plays a move written `text`; `Ok(Err(reason))` when the engine refuses it.
    fn play(&mut self, text: &str) -> Result<Result<(), Refused>, Self::Error>;
    /// Takes back the move just played.
    fn undo(&mut self) -> Result<(), Self::Error>;
    /// The state of the game.
    fn state(&mut self) -> Result<GameState, Self::Error>;
    /// The perft leaf count at `depth`; `Ok(Err(reason))` when the engine
    /// cannot count (the assertion is skipped, with the reason).
    fn perft(&mut self, depth: u32) -> Result<Result<u64, Refused>, Self::Error>;
    /// Whether a refusal cites the clause that forbids the move (the
    /// reference engine explains; the fast engine and most UHP engines do
    /// not), so that `illegal` can check the clause too.
    fn cites_clauses(&self) -> bool;
}

/// Why a [`RulesEngine`] could not do what the runner asked: the runner
/// asked in the wrong order.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RulesEngineError {
    /// A question before a position was loaded.
    #[error("no game loaded")]
    NoGame,
    /// `undo` with nothing played.
    #[error("nothing to undo")]
    NothingToUndo,
}

/// A [`Rules`] engine as a [`CaseEngine`].
#[derive(Clone, Debug)]
pub struct RulesEngine<R> {
    game: Option<R>,
    cites_clauses: bool,
}

impl<R: Rules> RulesEngine<R> {
    /// An engine whose refusals cite their clauses (the reference engine).
    pub fn explaining() -> RulesEngine<R> {
        RulesEngine {
            game: None,
            cites_clauses: true,
        }
    }

    /// An engine whose refusals are only checked to be refusals (the fast
    /// engine leaves explanations to the reference).
    pub fn refusing_only() -> RulesEngine<R> {
        RulesEngine {
            game: None,
            cites_clauses: false,
        }
    }

    fn game(&mut self) -> Result<&mut R, RulesEngineError> {
        self.game.as_mut().ok_or(RulesEngineError::NoGame)
    }
}

impl<R: Rules> CaseEngine for RulesEngine<R> {
    type Error = RulesEngineError;

    fn load(
        &mut self,
        game: &str,
        options: RulesOptions,
    ) -> Result<Result<(), Refused>, RulesEngineError> {
        Ok(match R::load_with(game, options) {
            Ok(loaded) => {
                self.game = Some(loaded);
                Ok(())
            }
            Err(e) => Err(Refused(e.to_string())),
        })
    }

    fn valid_moves(&mut self) -> Result<Vec<String>, RulesEngineError> {
        let game = self.game()?;
        Ok(game
            .legal_moves()
            .into_iter()
            .map(|mv| game.move_string(mv))
            .collect())
    }

    fn play(&mut self, text: &str) -> Result<Result<(), Refused>, RulesEngineError> {
        let game = self.game()?;
        Ok(match game.parse_move(text) {
            Err(e) => Err(Refused(e.to_string())),
            Ok(mv) => game.play(mv).map_err(|e| Refused(e.to_string())),
        })
    }

    fn undo(&mut self) -> Result<(), RulesEngineError> {
        self.game()?
            .undo()
            .map(|_| ())
            .ok_or(RulesEngineError::NothingToUndo)
    }

    fn state(&mut self) -> Result<GameState, RulesEngineError> {
        Ok(self.game()?.state())
    }

    fn perft(&mut self, depth: u32) -> Result<Result<u64, Refused>, RulesEngineError> {
        Ok(Ok(self.game()?.count_leaves(depth)))
    }

    fn cites_clauses(&self) -> bool {
        self.cites_clauses
    }
}
