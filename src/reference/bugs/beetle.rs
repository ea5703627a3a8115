//! The Beetle (§6.2.1–§6.2.3): one step in any direction, up, across or down.

use std::collections::BTreeSet;

use crate::core::Hex;
use crate::reference::board::Board;
use crate::reference::movement::step_possible;

/// Beetle movement (§6.2.1): one step to any adjacent cell, empty or occupied.
///
/// * §6.2.1 a step between two ground cells is a ground step (contact, gate);
/// * §6.2.2 every step obeys the height gate rule (§5.6), no exemption;
/// * §6.2.3 there is no limit on the height of the stack climbed.
pub(crate) fn beetle_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    from.neighbours()
        .into_iter()
        .filter(|&to| step_possible(&lifted, from, to))
        .collect()
}
