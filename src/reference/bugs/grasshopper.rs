//! The Grasshopper (§6.3.1–§6.3.3): a straight jump over the hive.

use std::collections::BTreeSet;

use crate::core::{Direction, Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{describe, direction_name, names, Fact, Refusal};

/// One jump: its direction, the pieces jumped over (the top of each cell)
/// and the cell it lands on.
pub(crate) struct Jump {
    direction: Direction,
    over: Vec<Piece>,
    landing: Hex,
}

/// Every jump of a grasshopper at `from` (§6.3.1): in each of the six
/// directions, over one or more consecutive occupied cells (of any height)
/// to the first empty cell.
///
/// * §6.3.2 the first cell in the direction must be occupied: no jump over nothing;
/// * §6.3.3 no gate and no contact rule applies to the jump.
pub(crate) fn grasshopper_jumps(board: &Board, from: Hex) -> Vec<Jump> {
    let mut jumps = Vec::new();
    for direction in Direction::ALL {
        // §6.3.2 at least one piece to jump over
        let mut cell = from.neighbour(direction);
        if !board.is_occupied(cell) {
            continue;
        }
        // §6.3.1 over every occupied cell in the line, to the first empty one
        let mut over = Vec::new();
        while board.is_occupied(cell) {
            over.extend(board.top(cell));
            cell = cell.neighbour(direction);
        }
        jumps.push(Jump {
            direction,
            over,
            landing: cell,
        });
    }
    jumps
}

/// Grasshopper movement (§6.3.1): where its jumps land.
pub(crate) fn grasshopper_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    grasshopper_jumps(board, from)
        .into_iter()
        .map(|jump| jump.landing)
        .collect()
}

/// Whether the grasshopper at `from` jumps to `to`: the facts of the jump
/// that lands there, or why no jump does.
pub(crate) fn judge_grasshopper(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    if let Some(jump) = grasshopper_jumps(board, from)
        .into_iter()
        .find(|jump| jump.landing == to)
    {
        let count = jump.over.len();
        return Ok(vec![
            Fact::new(
                &["§6.3.1"],
                format!(
                    "a grasshopper jumps in a straight line ({}) over {count} cell{} ({}) to the first empty cell, {to}",
                    direction_name(jump.direction),
                    if count == 1 { "" } else { "s" },
                    names(&jump.over)
                ),
            )
            .with_path(line_cells(from, jump.direction, count + 1)),
            Fact::new(
                &["§6.3.2"],
                format!(
                    "the first cell of the line, {}, is occupied",
                    describe(board, from.neighbour(jump.direction))
                ),
            ),
            Fact::new(&["§6.3.3"], "no gate and no contact rule applies to a jump"),
        ]);
    }
    let line = Direction::ALL.into_iter().find(|&d| in_line(from, to, d));
    Err(match line {
        // §6.3.1 a straight line only
        None => Refusal::plain(
            format!("{piece} can only jump in a straight line"),
            &["§6.3.1"],
        ),
        // §6.3.2 over at least one piece
        Some(d) if !board.is_occupied(from.neighbour(d)) => Refusal::plain(
            format!("{piece} must jump over at least one piece"),
            &["§6.3.2"],
        ),
        // §6.3.1 to the first empty cell of the line
        Some(_) => Refusal::plain(
            format!("{piece} must land on the first empty cell of its line, not {to}"),
            &["§6.3.1"],
        ),
    })
}

/// The cells of a straight line from `from` in direction `d`, `from`
/// first, `steps` cells beyond it.
fn line_cells(from: Hex, d: Direction, steps: usize) -> Vec<Hex> {
    std::iter::successors(Some(from), |cell| Some(cell.neighbour(d)))
        .take(steps + 1)
        .collect()
}

/// Whether `to` lies on the straight line from `from` in direction `d` (§2.2).
fn in_line(from: Hex, to: Hex, d: Direction) -> bool {
    let (dq, dr) = d.delta();
    let (q, r) = (to.q - from.q, to.r - from.r);
    let steps = if dq != 0 { q / dq } else { r / dr };
    steps >= 1 && (dq * steps, dr * steps) == (q, r)
}
