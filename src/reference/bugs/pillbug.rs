//! The Pillbug (§6.8.1–§6.8.8): one ground step, or its special ability.

use std::collections::BTreeSet;

use crate::core::{Hex, Piece};
use crate::reference::board::Board;
use crate::reference::movement::{ground_steps_from, height_gate_blocks, one_hive_holds};

/// Pillbug movement (§6.8.1): one ground step, like the queen.
pub(crate) fn pillbug_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    ground_steps_from(&lifted, from).into_iter().collect()
}

/// The special ability (§6.8.2) of a pillbug (or a mosquito copying one) at
/// `pillbug_at`: every (piece, destination) pair it may throw. The caller has
/// checked that the thrower itself may act (its queen placed §4.3, not
/// covered §5.2, not immune §5.8); the thrower may be pinned (§6.8.6).
///
/// * CANDIDATES: §6.8.2 each adjacent piece, of either colour, to each empty
///   cell adjacent to the pillbug;
/// * FILTERS: §6.8.3 the target is alone in its cell; §5.8 it is not the piece
///   moved last turn; §6.8.4 lifting it keeps one hive; §6.8.5 the climb onto
///   the pillbug and the drop pass no height gate; §6.8.8 it lands elsewhere.
pub(crate) fn pillbug_throws(
    board: &Board,
    pillbug_at: Hex,
    immune: Option<Piece>,
) -> BTreeSet<(Piece, Hex)> {
    let mut throws = BTreeSet::new();
    for source in pillbug_at.neighbours() {
        // §6.8.3 only an unstacked piece can be thrown
        if board.height(source) != 1 {
            continue;
        }
        let Some(target) = board.top(source) else {
            continue;
        };
        // §5.8 the piece moved last turn cannot be thrown
        if immune == Some(target) {
            continue;
        }
        // §6.8.4 lifting it must not split the hive
        if !one_hive_holds(board, source) {
            continue;
        }
        let lifted = board.with_top_lifted(source);
        // §6.8.5 the climb onto the pillbug passes no height gate
        if height_gate_blocks(&lifted, source, pillbug_at) {
            continue;
        }
        for destination in pillbug_at.neighbours() {
            // §6.8.8 an empty cell next to the pillbug, not where it came from
            if destination == source || lifted.is_occupied(destination) {
                continue;
            }
            // §6.8.5 the drop passes no height gate
            if height_gate_blocks(&lifted, pillbug_at, destination) {
                continue;
            }
            throws.insert((target, destination));
        }
    }
    throws
}
