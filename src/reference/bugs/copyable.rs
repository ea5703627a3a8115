//! The movements a mosquito can copy (§6.7.1): every bug's but the
//! mosquito's own, since copying a mosquito gives nothing (§6.7.2). The
//! mosquito's file uses these, and the dispatch over every bug (`mod.rs`)
//! adds the mosquito to them.

use std::collections::BTreeSet;

use super::{ant, beetle, grasshopper, ladybug, pillbug, queen, spider};
use crate::core::{Bug, Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{Fact, Refusal};

/// The destinations of the top piece at `from` moving as `bug`, a bug other
/// than the mosquito; none for the mosquito (§6.7.2).
pub(crate) fn copyable_destinations(bug: Bug, board: &Board, from: Hex) -> BTreeSet<Hex> {
    match bug {
        Bug::Queen => queen::queen_destinations(board, from),
        Bug::Beetle => beetle::beetle_destinations(board, from),
        Bug::Grasshopper => grasshopper::grasshopper_destinations(board, from),
        Bug::Spider => spider::spider_destinations(board, from),
        Bug::Ant => ant::ant_destinations(board, from),
        Bug::Ladybug => ladybug::ladybug_destinations(board, from),
        Bug::Pillbug => pillbug::pillbug_destinations(board, from),
        // §6.7.2 copying a mosquito gives no movement
        Bug::Mosquito => BTreeSet::new(),
    }
}

/// Whether `piece` at `from`, moving as `bug` (a bug other than the
/// mosquito), reaches `to`: the facts of the walk, or why none does.
pub(crate) fn judge_copyable(
    bug: Bug,
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    match bug {
        Bug::Queen => queen::judge_queen(board, piece, from, to),
        Bug::Beetle => beetle::judge_beetle(board, piece, from, to),
        Bug::Grasshopper => grasshopper::judge_grasshopper(board, piece, from, to),
        Bug::Spider => spider::judge_spider(board, piece, from, to),
        Bug::Ant => ant::judge_ant(board, piece, from, to),
        Bug::Ladybug => ladybug::judge_ladybug(board, piece, from, to),
        Bug::Pillbug => pillbug::judge_pillbug(board, piece, from, to),
        // §6.7.2 copying a mosquito gives no movement
        Bug::Mosquito => Err(Refusal::plain(
            format!("{piece} would copy a mosquito, which gives no movement"),
            &["§6.7.2"],
        )),
    }
}
