//! Shared vocabulary of both engines: hex geometry, pieces, game types,
//! rules options, absolute moves, game states, and UHP notation; and the
//! escaping of outside text for a terminal.

pub mod escape;
pub mod game;
pub mod hex;
pub mod notation;
pub mod piece;
pub mod position_string;
pub mod splitmix;
pub mod view;

pub use escape::{escape_controls, escape_controls_in_lines};
pub use game::{GameState, GameType, Move, RulesOptions};
pub use hex::{Direction, Hex};
pub use notation::{GameRecord, MoveSpec, NotationError, Target, Turn};
pub use piece::{Bug, Color, Piece};
pub use position_string::{Setup, SetupStart};
pub use view::BoardView;
