//! The bugs (spec chapter 6), one file per bug. Each answers: from this cell,
//! where can this bug go by its own movement? The general preconditions
//! (chapter 5) are checked by the caller.

pub mod ant;
pub mod beetle;
pub mod grasshopper;
pub mod ladybug;
pub mod mosquito;
pub mod pillbug;
pub mod queen;
pub mod spider;

use std::collections::BTreeSet;

use crate::core::{Bug, Hex};
use crate::reference::board::Board;

/// The destinations of the top piece at `from` moving as `bug` (chapter 6).
/// The pillbug's ability is not a movement of its own and lives in
/// [`pillbug::pillbug_throws`].
pub(crate) fn own_movement(bug: Bug, board: &Board, from: Hex) -> BTreeSet<Hex> {
    match bug {
        Bug::Queen => queen::queen_destinations(board, from),
        Bug::Beetle => beetle::beetle_destinations(board, from),
        Bug::Grasshopper => grasshopper::grasshopper_destinations(board, from),
        Bug::Spider => spider::spider_destinations(board, from),
        Bug::Ant => ant::ant_destinations(board, from),
        Bug::Ladybug => ladybug::ladybug_destinations(board, from),
        Bug::Mosquito => mosquito::mosquito_destinations(board, from),
        Bug::Pillbug => pillbug::pillbug_destinations(board, from),
    }
}
