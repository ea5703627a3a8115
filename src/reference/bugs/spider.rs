//! The Spider (§6.4.1–§6.4.3): exactly three ground steps.

use std::collections::BTreeSet;

use crate::core::{Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{gate_fact, path_text, Fact, Refusal};
use crate::reference::movement::{ground_step_ignoring_gates, ground_step_possible, StepRule};

/// A spider walk: its start and the three cells it steps to.
pub(crate) type SpiderWalk = [Hex; 4];

/// Every walk of exactly three steps without revisits (§6.4.1, §6.4.2) from
/// `from` whose steps `step` allows, with the spider lifted, in neighbour
/// order. The spider's own rule is `ground_step_possible`; a refusal also
/// asks which walks exist if gates did not.
///
/// * CANDIDATES: §6.4.1 each step is a ground step (contact §5.4, gate §5.5);
/// * FILTERS: §6.4.2 no cell is visited twice, the start included;
/// * §6.4.3 the walk may switch sides of the hive.
pub(crate) fn spider_walks(board: &Board, from: Hex, step: &StepRule) -> Vec<SpiderWalk> {
    let lifted = board.with_top_lifted(from);
    let mut walks = Vec::new();
    extend(&lifted, step, &mut vec![from], &mut walks);
    walks
}

/// Extends `path` by allowed steps until it holds three steps (four cells).
fn extend(lifted: &Board, step: &StepRule, path: &mut Vec<Hex>, walks: &mut Vec<SpiderWalk>) {
    let Some(&here) = path.last() else {
        return;
    };
    if let [a, b, c, d] = path[..] {
        walks.push([a, b, c, d]);
        return;
    }
    for next in here.neighbours() {
        // §6.4.2 no backtracking, no revisiting
        if path.contains(&next) || !step(lifted, here, next) {
            continue;
        }
        path.push(next);
        extend(lifted, step, path, walks);
        path.pop();
    }
}

/// Spider movement (§6.4.1): every cell that ends a walk; different walks to
/// one cell are one move (§5.9), which the set makes so.
pub(crate) fn spider_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    spider_walks(board, from, &ground_step_possible)
        .into_iter()
        .map(|walk| walk[3])
        .collect()
}

/// Whether the spider at `from` reaches `to`: the facts of the first walk
/// that ends there, or, when none does, whether gates are what stops it.
pub(crate) fn judge_spider(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    let walks = spider_walks(board, from, &ground_step_possible);
    if let Some(walk) = walks.iter().find(|walk| walk[3] == to) {
        return Ok(vec![
            Fact::new(
                &["§6.4.1"],
                format!(
                    "a spider moves exactly three ground steps: {}",
                    path_text(walk)
                ),
            ),
            Fact::new(
                &["§6.4.2"],
                "the walk visits three distinct cells, none of them its start",
            ),
            Fact::new(
                &["§5.4", "§5.5"],
                "each step keeps touching the hive and passes no gate",
            ),
        ]);
    }
    // The walks there if gates did not exist, the least gated first.
    let lifted = board.with_top_lifted(from);
    let gated = spider_walks(board, from, &ground_step_ignoring_gates)
        .into_iter()
        .filter(|walk| walk[3] == to)
        .map(|walk| {
            let refused: Vec<(Hex, Hex)> = walk
                .windows(2)
                .filter(|w| !ground_step_possible(&lifted, w[0], w[1]))
                .map(|w| (w[0], w[1]))
                .collect();
            (walk, refused)
        })
        .min_by_key(|(_, refused)| refused.len());
    Err(match gated {
        // §5.5 every walk there passes a gate
        Some((walk, refused)) => {
            let gates: Vec<String> = refused
                .iter()
                .map(|&(a, b)| gate_fact(&lifted, a, b))
                .collect();
            Refusal::shown(
                format!("{piece} cannot reach {to}: every three-step walk there slides through a gate"),
                &["§6.4.1", "§5.5"],
                format!(
                    "the nearest way, {}, is gated: {}",
                    path_text(&walk),
                    gates.join("; ")
                ),
            )
        }
        // §6.4.1, §6.4.2 no walk of the right length ends there
        None => Refusal::plain(
            format!("{piece} cannot reach {to}: no walk of exactly three ground steps, without revisiting a cell, ends there"),
            &["§6.4.1", "§6.4.2"],
        ),
    })
}
