//! The Spider (§6.4.1–§6.4.3): exactly three ground steps.

use std::collections::BTreeSet;

use super::ant::{ant_walks, walk_to};
use crate::core::{Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{contact_fact, flanks, gate_fact, path_text, Fact, Refusal};
use crate::reference::movement::{
    ground_step_ignoring_gates, ground_step_possible, keeps_contact, step_to_an_empty_neighbour,
    StepRule,
};

/// A spider walk: its start and the three cells it steps to.
pub(crate) type SpiderWalk = [Hex; 4];

/// How many of the spider's walks a refusal lists; the rest are counted.
const WALKS_SHOWN: usize = 6;

/// Whether a walk may step onto a cell it has already visited: never for
/// the spider (§6.4.2); a refusal asks what a walk would reach if it could.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Revisits {
    Forbidden,
    Allowed,
}

/// Every walk of exactly three steps without revisits (§6.4.1, §6.4.2) from
/// `from` whose steps `step` allows, with the spider lifted, in neighbour
/// order. The spider's own rule is `ground_step_possible`; a refusal also
/// asks which walks exist if gates did not.
///
/// * CANDIDATES: §6.4.1 each step is a ground step (contact §5.4, gate §5.5);
/// * FILTERS: §6.4.2 no cell is visited twice, the start included;
/// * §6.4.3 the walk may switch sides of the hive.
///
/// There are at most 6 × 5 × 5 such walks, so the search is bounded by
/// construction.
pub(crate) fn spider_walks(board: &Board, from: Hex, step: &StepRule) -> Vec<SpiderWalk> {
    walks_of_three(board, from, step, Revisits::Forbidden)
}

/// The walks of three steps from `from` that `step` allows, revisiting
/// cells or not (at most 6 × 6 × 6 walks).
fn walks_of_three(
    board: &Board,
    from: Hex,
    step: &StepRule,
    revisits: Revisits,
) -> Vec<SpiderWalk> {
    let lifted = board.with_top_lifted(from);
    let mut walks = Vec::new();
    extend(&lifted, step, revisits, &mut vec![from], &mut walks);
    walks
}

/// Extends `path` by allowed steps until it holds three steps (four cells).
fn extend(
    lifted: &Board,
    step: &StepRule,
    revisits: Revisits,
    path: &mut Vec<Hex>,
    walks: &mut Vec<SpiderWalk>,
) {
    let Some(&here) = path.last() else {
        return;
    };
    if let [a, b, c, d] = path[..] {
        walks.push([a, b, c, d]);
        return;
    }
    for next in here.neighbours() {
        // §6.4.2 no backtracking, no revisiting
        let revisit = path.contains(&next);
        if (revisit && revisits == Revisits::Forbidden) || !step(lifted, here, next) {
            continue;
        }
        path.push(next);
        extend(lifted, step, revisits, path, walks);
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
/// that ends there, or, when none does, why: every walk there is gated
/// (§5.5), or revisits a cell (§6.4.2), or the cell is not three steps
/// away (§6.4.1); with the walks the spider has.
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
            )
            .with_path(walk.iter().copied()),
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
    let mut refusal = spider_refusal(board, piece, from, to);
    if refusal.illegal.clauses == ["§6.4.1"] {
        // §5.4, §5.5 the three steps there that a sliding rule stops
        refusal.facts.extend(near_miss_walk(board, from, to));
    }
    refusal.facts.extend(walks_that_exist(&walks));
    Err(refusal)
}

/// Why no walk of the spider ends at `to`, most specific rule first: the
/// walks there that only a gate stops (§5.5), or that only a revisit makes
/// (§6.4.2); else the length of the shortest walk there (§6.4.1).
fn spider_refusal(board: &Board, piece: Piece, from: Hex, to: Hex) -> Refusal {
    let lifted = board.with_top_lifted(from);
    // §5.5 the walks there if gates did not exist, the least gated first
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
    if let Some((walk, refused)) = gated {
        let clauses = ["§6.4.1", "§5.5"];
        let gates: Vec<String> = refused
            .iter()
            .map(|&(a, b)| gate_fact(&lifted, a, b))
            .collect();
        let shown = Fact::new(
            &clauses,
            format!(
                "the nearest way, {}, is gated: {}",
                path_text(&walk),
                gates.join("; ")
            ),
        )
        .with_cells(refused.iter().flat_map(|&(a, b)| flanks(a, b)))
        .with_path(walk);
        return Refusal::with_facts(
            format!("{piece} cannot reach {to}: every three-step walk there slides through a gate"),
            &clauses,
            vec![shown],
        );
    }
    // §6.4.2 the walks there that step back onto a cell already visited
    let revisiting = walks_of_three(board, from, &ground_step_possible, Revisits::Allowed)
        .into_iter()
        .find(|walk| walk[3] == to);
    if let Some(walk) = revisiting {
        let again = walk
            .iter()
            .enumerate()
            .find(|&(i, cell)| walk[..i].contains(cell))
            .map_or(to, |(_, &cell)| cell);
        let shown = Fact::new(
            &["§6.4.2"],
            format!(
                "three ground steps reach {to} only by stepping back: {} visits {again} twice",
                path_text(&walk)
            ),
        )
        .with_cells([again])
        .with_path(walk);
        return Refusal::with_facts(
            format!("{piece} cannot reach {to}: every three-step walk there visits a cell twice"),
            &["§6.4.2"],
            vec![shown],
        );
    }
    // §6.4.1 the cell is nearer or farther than three steps, or out of reach
    let reached_from = ant_walks(board, from, &ground_step_possible);
    if !reached_from.contains_key(&to) {
        return Refusal::plain(
            format!("{piece} cannot reach {to}: no walk of ground steps gets there"),
            &["§6.4.1"],
        );
    }
    let shortest = walk_to(&reached_from, to);
    let steps = shortest.len() - 1;
    let shown = Fact::new(
        &["§6.4.1"],
        format!(
            "the shortest walk there takes {steps} ground step{}: {}",
            if steps == 1 { "" } else { "s" },
            path_text(&shortest)
        ),
    )
    .with_path(shortest);
    Refusal::with_facts(
        format!("{piece} cannot reach {to}: it is {steps} ground step{} away, and a spider moves exactly three", if steps == 1 { "" } else { "s" }),
        &["§6.4.1"],
        vec![shown],
    )
}

/// For a cell the spider cannot reach in three ground steps: a walk of
/// three steps to it, visiting no cell twice (§6.4.2), that only the
/// sliding rules stop, a step losing contact with the hive (§5.4) or
/// passing a gate (§5.5); the walk with the fewest such steps, and each of
/// them with what the rule saw. It is the walk an engine that checks only
/// where the spider ends would allow. `None` when no such walk exists.
fn near_miss_walk(board: &Board, from: Hex, to: Hex) -> Option<Fact> {
    let lifted = board.with_top_lifted(from);
    let broken_steps = |walk: &SpiderWalk| -> Vec<(Hex, Hex)> {
        walk.windows(2)
            .filter(|w| !ground_step_possible(&lifted, w[0], w[1]))
            .map(|w| (w[0], w[1]))
            .collect()
    };
    let (walk, broken) = spider_walks(board, from, &step_to_an_empty_neighbour)
        .into_iter()
        .filter(|walk| walk[3] == to)
        .map(|walk| {
            let broken = broken_steps(&walk);
            (walk, broken)
        })
        .min_by_key(|(_, broken)| broken.len())?;
    let mut clauses: Vec<&'static str> = vec!["§6.4.1"];
    let mut why = Vec::new();
    for &(a, b) in &broken {
        let (clause, fact) = if keeps_contact(&lifted, a, b) {
            ("§5.5", gate_fact(&lifted, a, b))
        } else {
            ("§5.4", contact_fact(&lifted, a, b))
        };
        if !clauses.contains(&clause) {
            clauses.push(clause);
        }
        why.push(fact);
    }
    Some(
        Fact::new(
            &clauses,
            format!(
                "the three steps {} reach {to} only by breaking the sliding rules: {}",
                path_text(&walk),
                why.join("; ")
            ),
        )
        .with_cells(broken.iter().flat_map(|&(a, b)| flanks(a, b)))
        .with_path(walk),
    )
}

/// The spider's walks, at most [`WALKS_SHOWN`] of them, as facts with their
/// paths, and how many more there are.
fn walks_that_exist(walks: &[SpiderWalk]) -> Vec<Fact> {
    if walks.is_empty() {
        return vec![Fact::new(
            &["§6.4.1"],
            "the spider has no walk of three ground steps at all",
        )];
    }
    let mut facts: Vec<Fact> = walks
        .iter()
        .take(WALKS_SHOWN)
        .map(|walk| {
            Fact::new(
                &["§6.4.1"],
                format!("a walk the spider has: {}", path_text(walk)),
            )
            .with_path(walk.iter().copied())
        })
        .collect();
    if walks.len() > WALKS_SHOWN {
        facts.push(Fact::new(
            &[],
            format!("and {} more walks", walks.len() - WALKS_SHOWN),
        ));
    }
    facts
}
