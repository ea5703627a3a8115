//! The Soldier Ant (§6.5): any number of ground steps.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::core::{Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{flanks, gate_fact, path_text, Fact, Refusal};
use crate::reference::movement::{ground_step_ignoring_gates, ground_step_possible, StepRule};

/// Every cell reachable from `from` by steps that `step` allows, with the
/// ant lifted, mapped to the cell it is first reached from (a breadth-first
/// search in neighbour order, so following the map back gives a shortest
/// walk). The start is not in the map. The ant's own rule is
/// `ground_step_possible`; a refusal also asks what a walk would reach if
/// gates did not exist.
pub(crate) fn ant_walks(board: &Board, from: Hex, step: &StepRule) -> BTreeMap<Hex, Hex> {
    let lifted = board.with_top_lifted(from);
    let mut reached_from = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(here) = queue.pop_front() {
        for next in here.neighbours() {
            // §5.7 the start is never a destination
            if next != from && !reached_from.contains_key(&next) && step(&lifted, here, next) {
                reached_from.insert(next, here);
                queue.push_back(next);
            }
        }
    }
    reached_from
}

/// Soldier Ant movement (§6.5): every empty cell reachable by one or more
/// ground steps with the ant lifted, except its start (§5.7).
pub(crate) fn ant_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    ant_walks(board, from, &ground_step_possible)
        .into_keys()
        .collect()
}

/// The walk from the start to `to` in a map of [`ant_walks`].
pub(crate) fn walk_to(reached_from: &BTreeMap<Hex, Hex>, to: Hex) -> Vec<Hex> {
    let mut path = vec![to];
    let mut at = to;
    while let Some(&previous) = reached_from.get(&at) {
        path.push(previous);
        at = previous;
    }
    path.reverse();
    path
}

/// Whether the ant at `from` reaches `to`: the facts of a shortest walk
/// there, or, when there is none, whether gates are what stops it.
pub(crate) fn judge_ant(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    let walks = ant_walks(board, from, &ground_step_possible);
    if walks.contains_key(&to) {
        let path = walk_to(&walks, to);
        return Ok(vec![
            Fact::new(
                &["§6.5"],
                format!(
                    "a soldier ant moves any number of ground steps; the shortest way takes {}: {}",
                    path.len() - 1,
                    path_text(&path)
                ),
            )
            .with_path(path),
            Fact::new(
                &["§5.4", "§5.5"],
                "each step keeps touching the hive and passes no gate",
            ),
        ]);
    }
    if !ant_walks(board, from, &ground_step_ignoring_gates).contains_key(&to) {
        // §6.5 not even a gated walk gets there
        return Err(Refusal::plain(
            format!("{piece} cannot reach {to} by sliding around the hive"),
            &["§6.5"],
        ));
    }
    // §5.5 every walk there passes a gate: show the one with fewest gates
    let lifted = board.with_top_lifted(from);
    let clauses = ["§6.5", "§5.5"];
    let shown = least_gated_walk(&lifted, from, to).map(|(path, refused)| {
        let gates: Vec<String> = refused
            .iter()
            .map(|&(a, b)| gate_fact(&lifted, a, b))
            .collect();
        let text = format!(
            "the nearest way, {}, is gated: {}",
            path_text(&path),
            gates.join("; ")
        );
        Fact::new(&clauses, text)
            .with_cells(refused.iter().flat_map(|&(a, b)| flanks(a, b)))
            .with_path(path)
    });
    Err(Refusal::with_facts(
        format!("{piece} cannot reach {to}: every way there passes through a gate"),
        &clauses,
        shown.into_iter().collect(),
    ))
}

/// A walk and the steps on it that a gate refuses.
type GatedWalk = (Vec<Hex>, Vec<(Hex, Hex)>);

/// A walk from `from` to `to` by ground steps with gates ignored that passes
/// the fewest gates (a 0-1 breadth-first search), with its gated steps.
fn least_gated_walk(lifted: &Board, from: Hex, to: Hex) -> Option<GatedWalk> {
    let mut cost: BTreeMap<Hex, usize> = BTreeMap::from([(from, 0)]);
    let mut parent: BTreeMap<Hex, Hex> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(here) = queue.pop_front() {
        let c = cost[&here];
        for next in here.neighbours() {
            if !ground_step_ignoring_gates(lifted, here, next) {
                continue;
            }
            let gated = usize::from(!ground_step_possible(lifted, here, next));
            let nc = c + gated;
            if cost.get(&next).is_none_or(|&old| nc < old) {
                cost.insert(next, nc);
                parent.insert(next, here);
                if gated == 0 {
                    queue.push_front(next);
                } else {
                    queue.push_back(next);
                }
            }
        }
    }
    cost.get(&to)?;
    let mut path = vec![to];
    let mut at = to;
    while let Some(&p) = parent.get(&at) {
        path.push(p);
        at = p;
        if path.len() > cost.len() + 1 {
            return None;
        }
    }
    path.reverse();
    let refused = path
        .windows(2)
        .filter(|w| !ground_step_possible(lifted, w[0], w[1]))
        .map(|w| (w[0], w[1]))
        .collect();
    Some((path, refused))
}
