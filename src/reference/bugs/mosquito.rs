//! The Mosquito (§6.7.1–§6.7.5): moves as the bugs it touches.

use std::collections::BTreeSet;

use crate::core::{Bug, Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{describe, Fact, Refusal};

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
        let Some(model) = from
            .neighbours()
            .into_iter()
            .find(|&n| board.top(n).is_some_and(|p| p.bug == bug))
        else {
            continue;
        };
        let name = bug.name();
        let mut copy = Fact::new(
            &["§6.7.1"],
            format!(
                "{piece} on the ground copies the {name} {} and moves as a {name}",
                describe(board, model)
            ),
        );
        if bug == Bug::Pillbug {
            // §6.7.5 the copied pillbug's step (its ability is a throw)
            copy.clauses.push("§6.7.5");
        }
        return Ok([vec![copy], facts].concat());
    }
    Err(if copied.is_empty() {
        // §6.7.2 nothing to copy (only mosquitoes around)
        Refusal::plain(format!("{piece} touches no bug it can copy"), &["§6.7.2"])
    } else {
        // §6.7.1 no copied movement reaches the cell
        let names: Vec<&str> = copied.iter().map(|b| b.name()).collect();
        Refusal::plain(
            format!(
                "{piece} cannot reach {to} moving as any bug it touches ({})",
                names.join(", ")
            ),
            &["§6.7.1"],
        )
    })
}
