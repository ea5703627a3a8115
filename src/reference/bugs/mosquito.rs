//! The Mosquito (§6.7.1–§6.7.5): moves as the bugs it touches.

use std::collections::BTreeSet;

use crate::core::{Bug, Hex};
use crate::reference::board::Board;

use super::{beetle::beetle_destinations, own_movement};

/// The bugs a mosquito at `from` copies (§6.7.1–§6.7.3): the bugs of the top
/// pieces of the adjacent stacks, except mosquitoes. Empty for a mosquito on
/// top of the hive, which moves only as a beetle (§6.7.4).
pub(crate) fn copied_bugs(board: &Board, from: Hex) -> BTreeSet<Bug> {
    if board.height(from) >= 2 {
        return BTreeSet::new();
    }
    from.neighbours()
        .into_iter()
        // §6.7.3 only the top piece of a stack is copied
        .filter_map(|n| board.top(n))
        .map(|piece| piece.bug)
        // §6.7.2 copying a mosquito gives nothing
        .filter(|&bug| bug != Bug::Mosquito)
        .collect()
}

/// Mosquito movement (§6.7.1): the union of the movements of the copied bugs;
/// on top of the hive, a beetle's movement only (§6.7.4). The pillbug's
/// ability (§6.7.5) is generated with the other throws, in `movement_moves`.
pub(crate) fn mosquito_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    // §6.7.4 on top of the hive it is a beetle until it comes down
    if board.height(from) >= 2 {
        return beetle_destinations(board, from);
    }
    // §6.7.1 the union of every copied movement
    copied_bugs(board, from)
        .into_iter()
        .flat_map(|bug| own_movement(bug, board, from))
        .collect()
}

/// Whether a mosquito at `from` has the pillbug's ability by copying (§6.7.5).
pub(crate) fn mosquito_copies_pillbug(board: &Board, from: Hex) -> bool {
    copied_bugs(board, from).contains(&Bug::Pillbug)
}
