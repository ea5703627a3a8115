//! The Queen Bee (§6.1): one ground step.

use std::collections::BTreeSet;

use crate::core::Hex;
use crate::reference::board::Board;
use crate::reference::movement::ground_steps_from;

/// Queen Bee movement (§6.1): one ground step (§5.4, §5.5) to an adjacent empty cell.
pub(crate) fn queen_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    ground_steps_from(&lifted, from).into_iter().collect()
}
