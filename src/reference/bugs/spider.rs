//! The Spider (§6.4.1–§6.4.3): exactly three ground steps.

use std::collections::BTreeSet;

use crate::core::Hex;
use crate::reference::board::Board;
use crate::reference::movement::{ground_step_possible, StepRule};

/// Spider movement (§6.4.1): every cell that ends a walk of exactly three
/// ground steps with the spider lifted.
///
/// * CANDIDATES: §6.4.1 each step is a ground step (contact §5.4, gate §5.5);
/// * FILTERS: §6.4.2 no cell is visited twice, the start included;
/// * §6.4.3 the walk may switch sides of the hive; different walks to one cell
///   are one move (§5.9), which the set makes so.
pub(crate) fn spider_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    spider_walk_ends(board, from, &ground_step_possible)
}

/// The ends of every three-step walk without revisits (§6.4.1, §6.4.2) whose
/// steps `step` allows. The spider's own rule is `ground_step_possible`;
/// `explain` also asks what a walk would reach if gates did not exist.
pub(crate) fn spider_walk_ends(board: &Board, from: Hex, step: &StepRule) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    let mut destinations = BTreeSet::new();
    let mut path = vec![from];
    walk(&lifted, step, &mut path, &mut destinations);
    destinations
}

/// Extends `path` by allowed steps until it holds three steps (four cells).
fn walk(lifted: &Board, step: &StepRule, path: &mut Vec<Hex>, destinations: &mut BTreeSet<Hex>) {
    let Some(&here) = path.last() else {
        return;
    };
    if path.len() == 4 {
        destinations.insert(here);
        return;
    }
    for next in here.neighbours() {
        // §6.4.2 no backtracking, no revisiting
        if path.contains(&next) || !step(lifted, here, next) {
            continue;
        }
        path.push(next);
        walk(lifted, step, path, destinations);
        path.pop();
    }
}
