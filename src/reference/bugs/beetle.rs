//! The Beetle (§6.2.1–§6.2.3): one step in any direction, up, across or down.

use std::collections::BTreeSet;

use crate::core::{Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{contact_fact, height_fact, step_fact, top_name, Fact, Refusal};
use crate::reference::movement::{height_gate_blocks, step_possible};

/// Beetle movement (§6.2.1): one step to any adjacent cell, empty or occupied.
///
/// * §6.2.1 a step between two ground cells is a ground step (contact, gate);
/// * §6.2.2 every step obeys the height gate rule (§5.6), no exemption;
/// * §6.2.3 there is no limit on the height of the stack climbed.
pub(crate) fn beetle_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    from.neighbours()
        .into_iter()
        .filter(|&to| step_possible(&lifted, from, to))
        .collect()
}

/// Whether the beetle at `from` steps to `to` (`step_possible`): the facts
/// of the step, or the first rule it breaks.
pub(crate) fn judge_beetle(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    let lifted = board.with_top_lifted(from);
    if step_possible(&lifted, from, to) {
        return Ok(beetle_step_facts(&lifted, from, to));
    }
    Err(if !from.is_adjacent(to) {
        // §6.2.1 one cell
        Refusal::plain(
            format!("{piece} cannot reach {to}: a beetle moves one cell"),
            &["§6.2.1"],
        )
    } else if height_gate_blocks(&lifted, from, to) {
        // §6.2.2 the height gate rule, the ground gate included
        let on_ground = lifted.height(from) == 0 && lifted.height(to) == 0;
        let what = if on_ground {
            "slide between two occupied cells (a gate)"
        } else {
            "pass between two higher stacks (a gate)"
        };
        let clauses = ["§6.2.2", "§5.6"];
        Refusal::with_facts(
            format!("{piece} cannot {what} to {to}"),
            &clauses,
            vec![step_fact(
                &clauses,
                height_fact(&lifted, from, to),
                from,
                to,
            )],
        )
    } else {
        // §5.4 a ground step that leaves the hive
        Refusal::with_facts(
            format!("{piece} would lose contact with the hive moving to {to}"),
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

/// The facts of a beetle step that `step_possible` allows.
fn beetle_step_facts(lifted: &Board, from: Hex, to: Hex) -> Vec<Fact> {
    let (ha, hb) = (lifted.height(from), lifted.height(to));
    let what = match (ha, hb) {
        (0, 0) => format!("a ground step {from} → {to}"),
        (0, h) => format!(
            "a climb from {from} onto the stack of {} at {to} (height {h} → {})",
            top_name(lifted, to),
            h + 1
        ),
        (h, 0) => format!(
            "a step down from the top of the stack at {from} (height {}) to the empty cell {to}",
            h + 1
        ),
        (_, h) => format!(
            "a step across the top of the hive from {from} onto {} at {to} (height {h} → {})",
            top_name(lifted, to),
            h + 1
        ),
    };
    let mut facts = vec![Fact::new(
        &["§6.2.1"],
        format!("a beetle moves one step in any direction: {what}"),
    )
    .with_path([from, to])];
    if ha == 0 && hb == 0 {
        facts.push(step_fact(
            &["§5.4"],
            contact_fact(lifted, from, to),
            from,
            to,
        ));
    }
    facts.push(step_fact(
        &["§6.2.2", "§5.6"],
        height_fact(lifted, from, to),
        from,
        to,
    ));
    if hb >= 2 && hb > ha + 1 {
        // §6.2.3 the exception to the reading that a beetle climbs no stack
        // higher than itself (rulings.md#climbing-taller-stacks)
        facts.push(Fact::exception(
            &["§6.2.3"],
            format!(
                "the stack at {to} (height {hb}) is higher than the beetle itself (at height {}), and a beetle may climb a stack of any height",
                ha + 1
            ),
        ));
    } else if hb >= 2 {
        facts.push(Fact::new(
            &["§6.2.3"],
            format!("the beetle may climb a stack of any height, here {hb}"),
        ));
    }
    facts
}
