//! The game of a UHP session, held by either engine. Every refusal is
//! explained by the reference engine, which names the clause (the fast
//! engine only says that a move is not legal).

use super::EngineChoice;
use crate::core::notation::NotationError;
use crate::core::view::BoardView;
use crate::core::{GameState, GameType, Move, RulesOptions};
use crate::fast::FastEngine;
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// A game on one of the two engines.
#[derive(Clone)]
pub enum Game {
    /// Boxed: the fast engine's arrays make it 4.5 KB.
    Fast(Box<FastEngine>),
    /// The reference engine.
    Reference(ReferenceEngine),
}

/// Runs the same code on whichever engine holds the game.
macro_rules! on_engine {
    ($game:expr, $engine:ident => $body:expr) => {
        match $game {
            Game::Fast($engine) => $body,
            Game::Reference($engine) => $body,
        }
    };
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
    pub fn load(engine: EngineChoice, text: &str, options: RulesOptions) -> Result<Game, String> {
        let explained = |fast_error: String| match ReferenceEngine::load_with(text, options) {
            Err(why) => why.to_string(),
            Ok(_) => {
                format!("{fast_error} (the reference engine accepts this game: please report it)")
            }
        };
        match engine {
            EngineChoice::Fast => FastEngine::load_with(text, options)
                .map(|g| Game::Fast(Box::new(g)))
                .map_err(|e| explained(e.to_string())),
            EngineChoice::Reference => ReferenceEngine::load_with(text, options)
                .map(Game::Reference)
                .map_err(|e| e.to_string()),
        }
    }

    /// The same game on the other engine (or the same one), by reloading its
    /// GameString; `self` is untouched.
    pub(crate) fn switched(&self, engine: EngineChoice) -> Result<Game, String> {
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
        on_engine!(self, g => g.game_type())
    }

    /// The rules options (§4.2, §8.7.2).
    pub fn options(&self) -> RulesOptions {
        on_engine!(self, g => g.options())
    }

    /// The state of the game (§8.8).
    pub fn state(&self) -> GameState {
        on_engine!(self, g => g.state())
    }

    /// The number of plies played, passes included (§7.3).
    pub fn plies(&self) -> usize {
        on_engine!(self, g => g.plies())
    }

    /// The canonical GameString (§9.31).
    pub fn game_string(&self) -> String {
        on_engine!(self, g => g.game_string())
    }

    /// Reads a MoveString in the current position (§9.21, §9.13).
    pub fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        on_engine!(self, g => g.parse_move(text))
    }

    /// The canonical MoveString of a move in the current position (§9.30).
    pub fn move_string(&self, mv: Move) -> String {
        on_engine!(self, g => g.move_string(mv))
    }

    /// The legal moves of the side to move (§7.1).
    pub fn legal_moves(&self) -> Vec<Move> {
        on_engine!(self, g => g.legal_moves())
    }

    /// The legal moves as sorted canonical MoveStrings (§9.30).
    pub fn valid_move_strings(&self) -> Vec<String> {
        on_engine!(self, g => g.valid_move_strings())
    }

    /// Plays a move; a refusal leaves the game as it was and is explained by
    /// the reference engine in the same position, with its clause.
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        match self {
            Game::Reference(g) => g.play(mv).map_err(|why| why.to_string()),
            Game::Fast(g) => {
                crate::explain::play_explained(g.as_mut(), mv).map_err(|e| e.to_string())
            }
        }
    }

    /// The moves played so far, passes included.
    pub fn history(&self) -> &[Move] {
        on_engine!(self, g => g.history())
    }

    /// Applies a move without checking it, even one the rules refuse (the
    /// session itself never does; the fault decorator does).
    #[cfg(feature = "faults")]
    pub(crate) fn play_unchecked(&mut self, mv: Move) {
        on_engine!(self, g => g.play_unchecked(mv))
    }

    /// Takes back the last move, if there is one.
    pub fn undo(&mut self) -> Option<Move> {
        on_engine!(self, g => g.undo())
    }

    /// The game on the fast engine, for the search.
    pub(crate) fn to_fast(&self) -> Result<FastEngine, String> {
        match self {
            Game::Fast(g) => Ok((**g).clone()),
            Game::Reference(_) => match self.switched(EngineChoice::Fast)? {
                Game::Fast(g) => Ok(*g),
                Game::Reference(_) => Err("the fast engine did not load the game".to_string()),
            },
        }
    }
}
