//! The Soldier Ant (§6.5): any number of ground steps.

use std::collections::{BTreeSet, VecDeque};

use crate::core::Hex;
use crate::reference::board::Board;
use crate::reference::movement::ground_steps_from;

/// Soldier Ant movement (§6.5): every empty cell reachable by one or more
/// ground steps with the ant lifted, except its start (§5.7).
pub fn ant_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    let mut reached = BTreeSet::from([from]);
    let mut queue = VecDeque::from([from]);
    while let Some(here) = queue.pop_front() {
        for next in ground_steps_from(&lifted, here) {
            if reached.insert(next) {
                queue.push_back(next);
            }
        }
    }
    // §5.7 a move ends somewhere else
    reached.remove(&from);
    reached
}
