//! The Ladybug (§6.6.1–§6.6.3): two steps over the top of the hive and one down.

use std::collections::BTreeSet;

use crate::core::Hex;
use crate::reference::board::Board;
use crate::reference::movement::{step_possible, StepRule};

/// Ladybug movement (§6.6.1): up onto an occupied cell, across onto an
/// occupied cell, down onto an empty cell.
///
/// * §6.6.2 each of the three steps obeys the height gate rule (§5.6), with
///   heights taken on the board with the ladybug lifted;
/// * §6.6.3 it may end in an enclosed hole, never on top of the hive, and
///   never where it started.
pub(crate) fn ladybug_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    ladybug_walk_ends(board, from, &step_possible)
}

/// The ends of every up-across-down walk (§6.6.1, §6.6.3) whose steps `step`
/// allows. The ladybug's own rule is `step_possible` (§6.6.2); `explain`
/// also asks what a walk would reach if height gates did not exist.
pub(crate) fn ladybug_walk_ends(board: &Board, from: Hex, step: &StepRule) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    let mut destinations = BTreeSet::new();
    for first in from.neighbours() {
        // §6.6.1 step one: up onto the hive; §6.6.2 through no gate
        if !lifted.is_occupied(first) || !step(&lifted, from, first) {
            continue;
        }
        for second in first.neighbours() {
            // §6.6.1 step two: across the top of the hive
            if !lifted.is_occupied(second) || !step(&lifted, first, second) {
                continue;
            }
            for third in second.neighbours() {
                // §6.6.1 step three: down to an empty cell; §6.6.3 not the start
                if lifted.is_occupied(third) || third == from {
                    continue;
                }
                if step(&lifted, second, third) {
                    destinations.insert(third);
                }
            }
        }
    }
    destinations
}
