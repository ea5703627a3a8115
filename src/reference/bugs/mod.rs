//! The bugs (spec chapter 6), one file per bug. Each file holds the bug's
//! rule, the walks (or jumps, or steps) it produces from a cell, and its
//! judgement of one destination: the facts of a produced walk that ends
//! there, or, when none does, the first rule that stops it. A destination is
//! legal exactly when a walk produced it, so the grant and the refusal read
//! the same walks as move generation. The general preconditions (chapter 5)
//! are checked by the caller (`judge.rs`, `Position::movement_moves`).
//! Two files serve the mosquito: `copied.rs` (which bugs it copies, and so
//! whether it has the pillbug's ability) and `copyable.rs` (the movement of
//! any bug it can copy), so that the mosquito and the pillbug, which ask
//! each other, read in one order. Two serve the pillbug's ability, which a
//! mosquito may copy: `throw.rs` decides every throw (who may throw, the
//! thrown piece, the landing) and `throw_judge.rs` puts one in words.

pub mod ant;
pub mod beetle;
mod copied;
mod copyable;
pub mod grasshopper;
pub mod ladybug;
pub mod mosquito;
pub mod pillbug;
pub mod queen;
pub mod spider;
pub(crate) mod throw;
pub(crate) mod throw_judge;

use std::collections::BTreeSet;

use crate::core::{Bug, Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{Fact, Refusal};

/// The destinations of the top piece at `from` moving as `bug` (chapter 6).
/// The pillbug's ability is not a movement of its own and lives in
/// `throw.rs`.
pub(crate) fn own_movement(bug: Bug, board: &Board, from: Hex) -> BTreeSet<Hex> {
    match bug {
        Bug::Mosquito => mosquito::mosquito_destinations(board, from),
        other => copyable::copyable_destinations(other, board, from),
    }
}

/// Whether `piece`, the top piece at `from`, moving as `bug`, reaches `to`
/// by its own movement (chapter 6): the facts of the walk that gets there,
/// or why none does. Agrees with [`own_movement`] by construction: each
/// bug judges from the same walks it generates.
pub(crate) fn judge_own_movement(
    bug: Bug,
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    match bug {
        Bug::Mosquito => mosquito::judge_mosquito(board, piece, from, to),
        other => copyable::judge_copyable(other, board, piece, from, to),
    }
}
