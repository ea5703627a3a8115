//! The Queen Bee (§6.1): one ground step.

use std::collections::BTreeSet;

use crate::core::{Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{Fact, Refusal};
use crate::reference::movement::{ground_steps_from, judge_one_ground_step};

/// Queen Bee movement (§6.1): one ground step (§5.4, §5.5) to an adjacent empty cell.
pub(crate) fn queen_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    ground_steps_from(&lifted, from).into_iter().collect()
}

/// Whether the queen at `from` reaches `to` (§6.1): the step's facts, or the
/// first rule the step breaks.
pub(crate) fn judge_queen(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    judge_one_ground_step(board, piece, "§6.1", from, to)
}
