//! The Mosquito (§6.7.1–§6.7.5): moves as the bugs it touches.

use std::collections::BTreeSet;

use crate::core::{Bug, Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{describe, names, Fact, Refusal};

use super::beetle;
use super::copied::copied_bugs;
use super::copyable::{copyable_destinations, judge_copyable};

/// Mosquito movement (§6.7.1): the union of the movements of the copied bugs;
/// on top of the hive, a beetle's movement only (§6.7.4). The pillbug's
/// ability (§6.7.5) is generated with the other throws, in `movement_moves`.
pub(crate) fn mosquito_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    // §6.7.4 on top of the hive it is a beetle until it comes down
    if board.height(from) >= 2 {
        return beetle::beetle_destinations(board, from);
    }
    // §6.7.1 the union of every copied movement
    copied_bugs(board, from)
        .into_iter()
        .flat_map(|bug| copyable_destinations(bug, board, from))
        .collect()
}

/// Whether the mosquito at `from` reaches `to`: on the hive, the beetle's
/// judgement (§6.7.4); on the ground, the first copied bug whose movement
/// reaches `to`, with the piece it copies, or why none does.
pub(crate) fn judge_mosquito(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    if board.height(from) >= 2 {
        let on_hive = format!(
            "{piece} is on top of the hive (height {}), where a mosquito moves only as a beetle",
            board.height(from)
        );
        return match beetle::judge_beetle(board, piece, from, to) {
            Ok(facts) => Ok([vec![Fact::new(&["§6.7.4"], on_hive)], facts].concat()),
            Err(refusal) => {
                Err(refusal.narrowed_by("§6.7.4", " (a mosquito on the hive moves as a beetle)"))
            }
        };
    }
    let copied = copied_bugs(board, from);
    for &bug in &copied {
        let Ok(facts) = judge_copyable(bug, board, piece, from, to) else {
            continue;
        };
        let Some(model) = model_of(board, from, bug) else {
            continue;
        };
        let name = bug.name();
        let mut copy = Fact::new(
            &["§6.7.1"],
            format!(
                "{piece} on the ground copies the {name} {} and moves as a {name}",
                describe(board, model)
            ),
        )
        .with_cells([model]);
        if bug == Bug::Pillbug {
            // §6.7.5 the copied pillbug's step (its ability is a throw)
            copy.clauses.push("§6.7.5");
        }
        return Ok([vec![copy], facts].concat());
    }
    Err(mosquito_refusal(board, piece, from, to, &copied))
}

/// The first neighbour of `from` whose top piece is a `bug`: the piece a
/// mosquito there copies to move as that bug (§6.7.1).
fn model_of(board: &Board, from: Hex, bug: Bug) -> Option<Hex> {
    from.neighbours()
        .into_iter()
        .find(|&n| board.top(n).is_some_and(|p| p.bug == bug))
}

/// Why the mosquito on the ground at `from` cannot reach `to`: it touches
/// only mosquitoes (§6.7.2), or no movement it copies gets there (§6.7.1),
/// each copied bug with its own reason; with the pieces it touches, and the
/// covered pieces it does not copy when a stack hides a bug (§6.7.3).
fn mosquito_refusal(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
    copied: &BTreeSet<Bug>,
) -> Refusal {
    let neighbours: Vec<Hex> = board.occupied_neighbours(from).collect();
    let touched: Vec<String> = neighbours.iter().map(|&n| describe(board, n)).collect();
    let hidden = hidden_bugs(board, from, copied);
    let mut clauses = vec![if copied.is_empty() {
        "§6.7.2"
    } else {
        "§6.7.1"
    }];
    if hidden.is_some() {
        // §6.7.3 only top pieces are copied
        clauses.push("§6.7.3");
    }
    let mut facts = Vec::new();
    let reason = if copied.is_empty() {
        // §6.7.2 nothing to copy: only mosquitoes around
        let reason = format!(
            "{piece} touches only {} (a mosquito), which gives no movement",
            touched.join(" and ")
        );
        facts.push(Fact::new(&["§6.7.2"], reason.clone()).with_cells(neighbours.iter().copied()));
        reason
    } else {
        // §6.7.1 no copied movement reaches the cell: each bug's reason
        for &bug in copied {
            let Some(model) = model_of(board, from, bug) else {
                continue;
            };
            if let Err(why) = judge_copyable(bug, board, piece, from, to) {
                facts.push(
                    Fact::new(
                        &why.illegal.clauses,
                        format!(
                            "as the {} {}: {}",
                            bug.name(),
                            describe(board, model),
                            why.illegal.reason
                        ),
                    )
                    .with_cells([model]),
                );
            }
        }
        let names: Vec<&str> = copied.iter().map(|b| b.name()).collect();
        facts.insert(
            0,
            Fact::new(
                &["§6.7.1"],
                format!(
                    "{piece} on the ground touches {} and moves as {}",
                    touched.join(", "),
                    names.join(", ")
                ),
            )
            .with_cells(neighbours.iter().copied()),
        );
        format!(
            "{piece} cannot reach {to} moving as any bug it touches ({})",
            names.join(", ")
        )
    };
    facts.extend(hidden);
    Refusal::with_facts(reason, &clauses, facts)
}

/// The covered pieces next to `from` whose bugs the mosquito there does not
/// copy, as a fact citing §6.7.3: the beetle under a mosquito, the
/// grasshopper under a beetle. `None` when no stack hides a bug.
fn hidden_bugs(board: &Board, from: Hex, copied: &BTreeSet<Bug>) -> Option<Fact> {
    let mut cells = Vec::new();
    let mut texts = Vec::new();
    for n in board.occupied_neighbours(from) {
        let stack = board.stack(n);
        let Some((top, below)) = stack.split_last() else {
            continue;
        };
        let hidden: Vec<Piece> = below
            .iter()
            .copied()
            .filter(|p| !copied.contains(&p.bug) && p.bug != Bug::Mosquito)
            .collect();
        if !hidden.is_empty() {
            cells.push(n);
            texts.push(format!("{} under {top} at {n}", names(&hidden)));
        }
    }
    if texts.is_empty() {
        return None;
    }
    Some(
        Fact::new(
            &["§6.7.3"],
            format!(
                "a mosquito copies only top pieces, not the {}",
                texts.join(", nor the ")
            ),
        )
        .with_cells(cells),
    )
}
