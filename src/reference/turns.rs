//! Turns and passing (spec chapter 7).

use std::collections::BTreeSet;

use crate::core::Move;

/// Passing (§7.2): a pass is legal only when no placement or movement is, and
/// then it is the only legal move. A pass is a turn (§7.3): it is recorded in
/// the history like any move, counts for turn numbers (§4.4), and leaves no
/// piece immune (§5.11), because it moves no piece.
pub(crate) fn pass_if_stuck(moves: BTreeSet<Move>) -> BTreeSet<Move> {
    if moves.is_empty() {
        BTreeSet::from([Move::Pass])
    } else {
        moves
    }
}
