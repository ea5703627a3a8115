//! The game of a UHP session, held by either engine. Every refusal is
//! explained by the reference engine, which names the clause (the fast
//! engine only says that a move is not legal).
//!
//! [`Game`] is an enum of the two engines rather than a trait object: the
//! engine trait ([`Rules`]) is generic (`Clone + Sized`), and each method
//! below is one `match` that calls the same method on whichever engine
//! holds the game, so a command costs what it costs on that engine.

use crate::core::notation::NotationError;
use crate::core::view::BoardView;
use crate::core::{GameState, GameType, Move, RulesOptions};
use crate::fast::FastEngine;
use crate::reference::ReferenceEngine;
use crate::rules::{LoadError, Rules};

/// Which engine holds the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// The fast engine (src/fast/).
    Fast,
    /// The reference engine (src/reference/).
    Reference,
}

impl EngineChoice {
    /// The value of the `Engine` option.
    pub fn name(self) -> &'static str {
        match self {
            EngineChoice::Fast => "Fast",
            EngineChoice::Reference => "Reference",
        }
    }
}

/// Why the game of a session refused a GameString or a move, or could not
/// be copied to the fast engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The GameString does not load: the reference engine's reason, which
    /// names the move and the clause (§9.31).
    #[error("{0}")]
    Load(LoadError),
    /// The fast engine refused a GameString that the reference engine
    /// loads: a bug, to be reported.
    #[error("{0} (the reference engine accepts this game: please report it)")]
    EnginesDisagree(LoadError),
    /// A move the rules refuse, as the reference engine explains it in the
    /// same position, with its clause.
    #[error("{0}")]
    Refused(String),
    /// The fast engine did not load a game that the reference engine holds
    /// (the search runs on the fast engine).
    #[error("the fast engine did not load the game")]
    NotOnFastEngine,
}

/// A game on one of the two engines.
#[derive(Clone)]
pub enum Game {
    /// Boxed: the fast engine's arrays make it 4.5 KB.
    Fast(Box<FastEngine>),
    /// The reference engine.
    Reference(ReferenceEngine),
}

impl Game {
    /// A new game with no move played.
    pub fn new(engine: EngineChoice, game_type: GameType, options: RulesOptions) -> Game {
        match engine {
            EngineChoice::Fast => Game::Fast(Box::new(FastEngine::new_game(game_type, options))),
            EngineChoice::Reference => {
                Game::Reference(ReferenceEngine::new_game(game_type, options))
            }
        }
    }

    /// Loads a GameString, replaying and checking every move (§9.31). A
    /// refusal is the reference engine's, which names the move and the clause.
    pub fn load(
        engine: EngineChoice,
        text: &str,
        options: RulesOptions,
    ) -> Result<Game, GameError> {
        match engine {
            EngineChoice::Fast => FastEngine::load_with(text, options)
                .map(|g| Game::Fast(Box::new(g)))
                .map_err(
                    |fast_error| match ReferenceEngine::load_with(text, options) {
                        Err(why) => GameError::Load(why),
                        Ok(_) => GameError::EnginesDisagree(fast_error),
                    },
                ),
            EngineChoice::Reference => ReferenceEngine::load_with(text, options)
                .map(Game::Reference)
                .map_err(GameError::Load),
        }
    }

    /// The same game on the other engine (or the same one), by reloading its
    /// GameString; `self` is untouched.
    pub(crate) fn switched(&self, engine: EngineChoice) -> Result<Game, GameError> {
        if engine == self.engine() {
            return Ok(self.clone());
        }
        Game::load(engine, &self.game_string(), self.options())
    }

    /// Which engine holds the game.
    pub fn engine(&self) -> EngineChoice {
        match self {
            Game::Fast(_) => EngineChoice::Fast,
            Game::Reference(_) => EngineChoice::Reference,
        }
    }

    /// The game type (§1.4).
    pub fn game_type(&self) -> GameType {
        match self {
            Game::Fast(g) => g.game_type(),
            Game::Reference(g) => g.game_type(),
        }
    }

    /// The rules options (§4.2, §8.7.2).
    pub fn options(&self) -> RulesOptions {
        match self {
            Game::Fast(g) => g.options(),
            Game::Reference(g) => g.options(),
        }
    }

    /// The state of the game (§8.8).
    pub fn state(&self) -> GameState {
        match self {
            Game::Fast(g) => g.state(),
            Game::Reference(g) => g.state(),
        }
    }

    /// The number of plies played, passes included (§7.3).
    pub fn plies(&self) -> usize {
        match self {
            Game::Fast(g) => g.plies(),
            Game::Reference(g) => g.plies(),
        }
    }

    /// The canonical GameString (§9.31).
    pub fn game_string(&self) -> String {
        match self {
            Game::Fast(g) => g.game_string(),
            Game::Reference(g) => g.game_string(),
        }
    }

    /// Reads a MoveString in the current position (§9.21, §9.13).
    pub fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        match self {
            Game::Fast(g) => g.parse_move(text),
            Game::Reference(g) => g.parse_move(text),
        }
    }

    /// The canonical MoveString of a move in the current position (§9.30).
    pub fn move_string(&self, mv: Move) -> String {
        match self {
            Game::Fast(g) => g.move_string(mv),
            Game::Reference(g) => g.move_string(mv),
        }
    }

    /// The legal moves of the side to move (§7.1).
    pub fn legal_moves(&self) -> Vec<Move> {
        match self {
            Game::Fast(g) => g.legal_moves(),
            Game::Reference(g) => g.legal_moves(),
        }
    }

    /// The legal moves as sorted canonical MoveStrings (§9.30).
    pub fn valid_move_strings(&self) -> Vec<String> {
        match self {
            Game::Fast(g) => g.valid_move_strings(),
            Game::Reference(g) => g.valid_move_strings(),
        }
    }

    /// Plays a move; a refusal leaves the game as it was and is explained by
    /// the reference engine in the same position, with its clause.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        match self {
            Game::Reference(g) => g
                .play(mv)
                .map_err(|why| GameError::Refused(why.to_string())),
            Game::Fast(g) => crate::explain::play_explained(g.as_mut(), mv)
                .map_err(|why| GameError::Refused(why.to_string())),
        }
    }

    /// The most leaves one `perft` command may count over all its depths:
    /// about a minute of work on the fast engine (which counts some 180
    /// million leaves a second from the Base start, README "Perft") and
    /// half a minute on the reference engine (about 3.5 million a second).
    /// Base depth 8 from the start (about 2.9 billion leaves in all) fits
    /// the fast engine's budget, depth 9 (about 40 billion) does not.
    pub fn perft_leaf_budget(&self) -> u64 {
        match self {
            Game::Fast(_) => 10_000_000_000,
            Game::Reference(_) => 100_000_000,
        }
    }

    /// The perft count: the leaves of the game tree `depth` plies deep from
    /// the current position (bulk counting at the last ply; none once the
    /// game is over, §8.5).
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            Game::Fast(g) => g.as_ref().clone().count_leaves(depth),
            Game::Reference(g) => g.clone().count_leaves(depth),
        }
    }

    /// The perft count, or `None` when `stop` answers true before it ends
    /// ([`perft_until`](crate::rules::perft_until): asked between subtrees
    /// a few plies deep, so a count of minutes stops within milliseconds).
    pub fn perft_until(&self, depth: u32, stop: &mut dyn FnMut() -> bool) -> Option<u64> {
        match self {
            Game::Fast(g) => crate::rules::perft_until(&mut g.as_ref().clone(), depth, stop),
            Game::Reference(g) => crate::rules::perft_until(&mut g.clone(), depth, stop),
        }
    }

    /// The moves played so far, passes included.
    pub fn history(&self) -> &[Move] {
        match self {
            Game::Fast(g) => g.history(),
            Game::Reference(g) => g.history(),
        }
    }

    /// Applies a move without checking it, even one the rules refuse (the
    /// session itself never does; the fault decorator does).
    #[cfg(feature = "faults")]
    pub(crate) fn play_unchecked(&mut self, mv: Move) {
        match self {
            Game::Fast(g) => g.play_unchecked(mv),
            Game::Reference(g) => g.play_unchecked(mv),
        }
    }

    /// Takes back the last move, if there is one.
    pub fn undo(&mut self) -> Option<Move> {
        match self {
            Game::Fast(g) => g.undo(),
            Game::Reference(g) => g.undo(),
        }
    }

    /// The game on the fast engine, for the search.
    pub(crate) fn to_fast(&self) -> Result<FastEngine, GameError> {
        match self {
            Game::Fast(g) => Ok((**g).clone()),
            Game::Reference(_) => match self.switched(EngineChoice::Fast)? {
                Game::Fast(g) => Ok(*g),
                Game::Reference(_) => Err(GameError::NotOnFastEngine),
            },
        }
    }
}
