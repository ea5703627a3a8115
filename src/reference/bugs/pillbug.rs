//! The Pillbug (§6.8.1–§6.8.8): one ground step, or its special ability.
//! The step is here; the ability, which a mosquito can copy too (§6.7.5),
//! is in `throw.rs` (who may throw, and every throw judged) and
//! `throw_judge.rs` (one throw in words).

use std::collections::BTreeSet;

use crate::core::{Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{Fact, Refusal};
use crate::reference::movement::{ground_steps_from, judge_one_ground_step};

/// The throws of one pillbug, for the deliberate faults (`faults/rules.rs`).
#[cfg(feature = "faults")]
pub(crate) use super::throw::pillbug_throws;

/// Pillbug movement (§6.8.1): one ground step, like the queen.
pub(crate) fn pillbug_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    ground_steps_from(&lifted, from).into_iter().collect()
}

/// Whether the pillbug at `from` reaches `to` by its own step (§6.8.1): the
/// step's facts, or the first rule the step breaks.
pub(crate) fn judge_pillbug(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    judge_one_ground_step(board, piece, "§6.8.1", from, to)
}
