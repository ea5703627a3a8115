//! Shared vocabulary of both engines: hex geometry, pieces, game types,
//! rules options, absolute moves, game states, and UHP notation.

pub mod game;
pub mod hex;
pub mod notation;
pub mod piece;
pub mod splitmix;
pub mod view;

pub use game::{GameState, GameType, Move, RulesOptions};
pub use hex::{Direction, Hex};
pub use notation::{GameRecord, MoveSpec, NotationError, Target, Turn};
pub use piece::{Bug, Color, Piece};
pub use view::BoardView;
