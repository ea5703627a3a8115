//! The Soldier Ant (§6.5): any number of ground steps.

use std::collections::{BTreeSet, VecDeque};

use crate::core::Hex;
use crate::reference::board::Board;
use crate::reference::movement::{ground_step_possible, StepRule};

/// Soldier Ant movement (§6.5): every empty cell reachable by one or more
/// ground steps with the ant lifted, except its start (§5.7).
pub(crate) fn ant_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    ant_walk_ends(board, from, &ground_step_possible)
}

/// Every cell other than the start reachable by steps that `step` allows.
/// The ant's own rule is `ground_step_possible`; `explain` also asks what
/// a walk would reach if gates did not exist.
pub(crate) fn ant_walk_ends(board: &Board, from: Hex, step: &StepRule) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    let mut reached = BTreeSet::from([from]);
    let mut queue = VecDeque::from([from]);
    while let Some(here) = queue.pop_front() {
        for next in here.neighbours() {
            if step(&lifted, here, next) && reached.insert(next) {
                queue.push_back(next);
            }
        }
    }
    // §5.7 a move ends somewhere else
    reached.remove(&from);
    reached
}
