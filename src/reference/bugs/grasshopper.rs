//! The Grasshopper (§6.3.1–§6.3.3): a straight jump over the hive.

use std::collections::BTreeSet;

use crate::core::{Direction, Hex};
use crate::reference::board::Board;

/// Grasshopper movement (§6.3.1): in each of the six directions, jump over one
/// or more consecutive occupied cells (of any height) to the first empty cell.
///
/// * §6.3.2 the first cell in the direction must be occupied: no jump over nothing;
/// * §6.3.3 no gate and no contact rule applies to the jump.
pub(crate) fn grasshopper_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let mut destinations = BTreeSet::new();
    for direction in Direction::ALL {
        // §6.3.2 at least one piece to jump over
        let mut cell = from.neighbour(direction);
        if !board.is_occupied(cell) {
            continue;
        }
        // §6.3.1 over every occupied cell in the line, to the first empty one
        while board.is_occupied(cell) {
            cell = cell.neighbour(direction);
        }
        destinations.insert(cell);
    }
    destinations
}
