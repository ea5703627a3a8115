//! The Ladybug (§6.6.1, §6.6.2, §6.6.4–§6.6.6): two steps over the top of the hive and one down.

use std::collections::BTreeSet;

use crate::core::{Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{describe, flanks, height_fact, path_text, Fact, Refusal};
use crate::reference::movement::{step_ignoring_height_gates, step_possible, StepRule};

/// A ladybug walk: its start, the two cells on the hive and where it lands.
pub(crate) type LadybugWalk = [Hex; 4];

/// Every up-across-down walk (§6.6.1, §6.6.5, §6.6.6) from `from` whose steps `step`
/// allows, with the ladybug lifted, in neighbour order: up onto an occupied
/// cell, across onto an occupied cell, down onto an empty cell.
///
/// * §6.6.2 each of the three steps obeys the height gate rule (§5.6), with
///   heights taken on the board with the ladybug lifted (`step_possible`,
///   its own rule; a refusal also asks what exists without height gates);
/// * §6.6.4 it may end in an enclosed hole; §6.6.5 never on top of the
///   hive; §6.6.6 never where it started.
pub(crate) fn ladybug_walks(board: &Board, from: Hex, step: &StepRule) -> Vec<LadybugWalk> {
    let lifted = board.with_top_lifted(from);
    let mut walks = Vec::new();
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
                // §6.6.5 step three: down to an empty cell; §6.6.6 not the start
                if lifted.is_occupied(third) || third == from {
                    continue;
                }
                if step(&lifted, second, third) {
                    walks.push([from, first, second, third]);
                }
            }
        }
    }
    walks
}

/// Ladybug movement (§6.6.1): where its walks land.
pub(crate) fn ladybug_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    ladybug_walks(board, from, &step_possible)
        .into_iter()
        .map(|walk| walk[3])
        .collect()
}

/// Whether the ladybug at `from` reaches `to`: the facts of the first walk
/// that lands there, or why none does.
pub(crate) fn judge_ladybug(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    let lifted = board.with_top_lifted(from);
    let walks = ladybug_walks(board, from, &step_possible);
    if let Some(&[start, up, across, down]) = walks.iter().find(|walk| walk[3] == to) {
        return Ok(vec![
            Fact::new(
                &["§6.6.1"],
                format!(
                    "a ladybug moves up, across and down: {start} → onto {} → onto {} → down to {down}",
                    describe(&lifted, up),
                    describe(&lifted, across)
                ),
            )
            .with_path([start, up, across, down]),
            Fact::new(&["§6.6.2", "§5.6"], "no step of the walk passes a height gate"),
            Fact::new(&["§6.6.5"], format!("it ends on the ground, at {down}")),
        ]);
    }
    if lifted.is_occupied(to) {
        // §6.6.5 never on top of the hive
        return Err(Refusal::plain(
            format!("{piece} cannot end on top of the hive at {to}"),
            &["§6.6.5"],
        ));
    }
    let gated: Vec<LadybugWalk> = ladybug_walks(board, from, &step_ignoring_height_gates)
        .into_iter()
        .filter(|walk| walk[3] == to)
        .collect();
    if gated.is_empty() {
        // §6.6.1 no walk of the right shape lands there
        return Err(Refusal::plain(
            format!(
                "{piece} cannot reach {to}: a ladybug goes two steps over the hive and one down"
            ),
            &["§6.6.1"],
        ));
    }
    // §6.6.2 each walk there meets a height gate: show the first one
    let blocked = gated.iter().find_map(|walk| {
        walk.windows(2)
            .find(|s| !step_possible(&lifted, s[0], s[1]))
            .map(|s| {
                let text = format!(
                    "for example the walk {} is blocked at {}",
                    path_text(walk),
                    height_fact(&lifted, s[0], s[1])
                );
                Fact::new(&["§6.6.2"], text)
                    .with_cells(flanks(s[0], s[1]))
                    .with_path(walk.iter().copied())
            })
    });
    Err(Refusal::with_facts(
        format!("{piece} cannot reach {to}: a height gate blocks each way there"),
        &["§6.6.2"],
        blocked.into_iter().collect(),
    ))
}
