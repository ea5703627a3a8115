//! Movement in general (spec chapter 5): One Hive, constant contact, freedom
//! to move on the ground and at height, and the immunity of the piece last moved.
//!
//! Written for the reader. Every function here answers one question about one
//! step or one piece by looking at the board; the bugs (in `bugs/`) combine them.

use super::board::Board;
use super::facts::{contact_fact, describe_short, flanks, gate_fact, step_fact, Fact, Refusal};
use crate::core::{Bug, Hex, Piece};

/// A rule for one step of a walk, on the board with the mover lifted: the
/// walking bugs take their step rule as a parameter so that `explain` can
/// ask what a walk would reach under a relaxed rule (gates ignored).
pub(crate) type StepRule = dyn Fn(&Board, Hex, Hex) -> bool;

/// One Hive (§5.3): whether lifting the top piece at `from` leaves the rest
/// of the hive connected. A piece on top of a stack never splits the hive,
/// because the cell stays occupied.
pub(crate) fn one_hive_holds(board: &Board, from: Hex) -> bool {
    // §5.3 a piece on a stack leaves its cell occupied
    if board.height(from) >= 2 {
        return true;
    }
    // §5.3, §2.7 otherwise the remaining cells must still form one group
    board.with_top_lifted(from).is_connected()
}

/// The heights of the two common neighbours of an edge (§2.9), on the board
/// with the mover lifted. `None` when the cells are not adjacent.
fn flank_heights(lifted: &Board, from: Hex, to: Hex) -> Option<(usize, usize)> {
    let [left, right] = from.common_neighbours(to)?;
    Some((lifted.height(left), lifted.height(right)))
}

/// Constant contact (§5.4): a ground step keeps touching the hive when at
/// least one of the two common neighbours is occupied (mover lifted).
pub(crate) fn keeps_contact(lifted: &Board, from: Hex, to: Hex) -> bool {
    flank_heights(lifted, from, to).is_some_and(|(left, right)| left > 0 || right > 0)
}

/// Freedom to move on the ground (§5.5): a ground step is blocked by a gate
/// when both common neighbours are occupied.
pub(crate) fn ground_gate_blocks(lifted: &Board, from: Hex, to: Hex) -> bool {
    flank_heights(lifted, from, to).is_some_and(|(left, right)| left > 0 && right > 0)
}

/// Freedom to move at height (§5.6): a step from `from` to `to` is blocked iff
/// min(L, R) > max(h(from), h(to)), with the heights taken on the board with
/// the mover lifted. The ground gate (§5.5) is the case h(from) = h(to) = 0.
pub(crate) fn height_gate_blocks(lifted: &Board, from: Hex, to: Hex) -> bool {
    let Some((left, right)) = flank_heights(lifted, from, to) else {
        return true;
    };
    let mover_level = lifted.height(from).max(lifted.height(to));
    left.min(right) > mover_level
}

/// A ground step (§5.4, §5.5): from a cell on the ground to an adjacent empty
/// cell, keeping contact and not through a gate. This is the step of the
/// queen, spider, ant and pillbug.
pub(crate) fn ground_step_possible(lifted: &Board, from: Hex, to: Hex) -> bool {
    from.is_adjacent(to)
        && !lifted.is_occupied(to)
        && keeps_contact(lifted, from, to)
        && !ground_gate_blocks(lifted, from, to)
}

/// A ground step with the gate rules ignored: adjacent, empty, keeping
/// contact (§5.4). Only the refusals use it, to tell "blocked by a gate" (§5.5)
/// from "not reachable at all".
pub(crate) fn ground_step_ignoring_gates(lifted: &Board, from: Hex, to: Hex) -> bool {
    from.is_adjacent(to) && !lifted.is_occupied(to) && keeps_contact(lifted, from, to)
}

/// A step to an adjacent empty cell with both sliding rules ignored, the
/// contact (§5.4) and the gate (§5.5): the steps of a walk that another
/// engine may wrongly allow. Only the refusals use it, to show such a walk
/// and the step that breaks a rule.
pub(crate) fn step_to_an_empty_neighbour(lifted: &Board, from: Hex, to: Hex) -> bool {
    from.is_adjacent(to) && !lifted.is_occupied(to)
}

/// A one-cell step with the height gate rule ignored: any adjacent cell,
/// keeping contact on the ground (§5.4). Only the refusals use it, to tell
/// "blocked by a height gate" (§5.6) from "not reachable at all".
pub(crate) fn step_ignoring_height_gates(lifted: &Board, from: Hex, to: Hex) -> bool {
    let on_ground = lifted.height(from) == 0 && lifted.height(to) == 0;
    from.is_adjacent(to) && (!on_ground || keeps_contact(lifted, from, to))
}

/// Any one-cell step, on the ground or at height (§5.4–§5.6): the step of the
/// beetle and of each ladybug step. A step that starts and ends on the ground
/// must keep contact (§5.4); every step obeys the height gate rule (§5.6).
pub(crate) fn step_possible(lifted: &Board, from: Hex, to: Hex) -> bool {
    if !from.is_adjacent(to) {
        return false;
    }
    let on_ground = lifted.height(from) == 0 && lifted.height(to) == 0;
    if on_ground && !keeps_contact(lifted, from, to) {
        return false;
    }
    !height_gate_blocks(lifted, from, to)
}

/// The empty cells one ground step away (§5.4, §5.5).
pub(crate) fn ground_steps_from(lifted: &Board, from: Hex) -> Vec<Hex> {
    from.neighbours()
        .into_iter()
        .filter(|&to| ground_step_possible(lifted, from, to))
        .collect()
}

/// Judges the one ground step of a queen (§6.1) or a pillbug (§6.8.1) from
/// `from` to `to`, `clause` being the bug's own: the facts of the step when
/// it is one (`ground_step_possible`), else the first rule it breaks.
pub(crate) fn judge_one_ground_step(
    board: &Board,
    piece: Piece,
    clause: &'static str,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    let lifted = board.with_top_lifted(from);
    let name = piece.bug.name();
    if ground_step_possible(&lifted, from, to) {
        return Ok(ground_step_facts(&lifted, clause, piece.bug, from, to));
    }
    Err(if !from.is_adjacent(to) {
        Refusal::plain(
            format!("{piece} cannot reach {to}: a {name} moves one cell"),
            &[clause],
        )
    } else if lifted.is_occupied(to) {
        Refusal::plain(
            format!("{piece} cannot climb: a {name} moves on the ground"),
            &[clause],
        )
    } else if ground_gate_blocks(&lifted, from, to) {
        // §5.5 both flanks occupied
        Refusal::with_facts(
            format!("{piece} cannot slide through the gap to {to}: it is a gate"),
            &["§5.5"],
            vec![step_fact(&["§5.5"], gate_fact(&lifted, from, to), from, to)],
        )
    } else {
        // §5.4 both flanks empty
        Refusal::with_facts(
            format!("{piece} would lose contact with the hive sliding to {to}"),
            &["§5.4"],
            vec![step_fact(
                &["§5.4"],
                contact_fact(&lifted, from, to),
                from,
                to,
            )],
        )
    })
}

/// The facts granting one ground step (§5.4, §5.5) by a queen or pillbug,
/// `clause` being the bug's own.
fn ground_step_facts(lifted: &Board, clause: &'static str, bug: Bug, a: Hex, b: Hex) -> Vec<Fact> {
    let mut facts = vec![Fact::new(
        &[clause],
        format!(
            "a {} moves one ground step: {a} → {b}, an empty cell",
            bug.name()
        ),
    )
    .with_path([a, b])];
    facts.push(step_fact(&["§5.4"], contact_fact(lifted, a, b), a, b));
    if let Some([l, r]) = a.common_neighbours(b) {
        facts.push(
            Fact::new(
                &["§5.5"],
                format!(
                    "no gate: of the flanking cells {} and {}, at most one is occupied",
                    describe_short(lifted, l),
                    describe_short(lifted, r)
                ),
            )
            .with_cells(flanks(a, b)),
        );
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::ReferenceEngine;
    use crate::rules::Rules;

    #[test]
    fn keeps_contact_matches_the_contact_fact() {
        // §5.4: the fact says "leave the hive" exactly when contact is lost.
        let game = ReferenceEngine::load("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
            .expect("loads");
        let from = Hex::new(-1, 0);
        let lifted = game.board().with_top_lifted(from);
        for to in from.neighbours() {
            let text = contact_fact(&lifted, from, to);
            assert_eq!(
                text.contains("leave the hive"),
                !keeps_contact(&lifted, from, to),
                "{text}"
            );
        }
    }
}
