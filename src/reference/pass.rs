//! Why a pass is the only move (§7.2), in facts: each empty cell next to
//! the player's stacks with the first rule that refuses a placement there
//! (chapter 3, §4.5), and each of the player's top pieces with the first
//! rule that refuses its movement (chapters 4 to 6). Nothing here decides
//! whether the pass is legal: `judge.rs` asks the legal moves, and these
//! facts, which `explain` adds to a legal pass, say only why each other
//! move is not among them, from the same
//! judgement ([`judge`]).

use std::collections::BTreeSet;

use super::facts::{describe, names, Fact};
use super::judge::{judge, Judgement};
use super::movement::one_hive_holds;
use super::{opening, placement, Position};
use crate::core::{Bug, Hex, Move, Piece};

/// The facts of a legal pass: why no placement and no movement is legal.
pub fn pass_facts(position: &Position) -> Vec<Fact> {
    let mut facts = placement_refusals(position);
    facts.extend(movement_refusals(position));
    facts
}

/// Why the side to move places nothing: an empty reserve (§3.1), or, for
/// each of their stacks, the rule that refuses every empty cell next to it
/// (§3.6 as a rule: a placement there would touch the opponent).
fn placement_refusals(position: &Position) -> Vec<Fact> {
    let board = position.board();
    let color = position.side_to_move();
    let reserve = placement::next_pieces_in_reserve(board, position.game_type, color);
    // §4.5 the queen due: she is the piece the cells are judged for
    let queen_due = opening::queen_is_due(board, color, position.plies);
    let sample = if queen_due {
        reserve.iter().copied().find(|p| p.bug == Bug::Queen)
    } else {
        reserve.first().copied()
    };
    let Some(sample) = sample else {
        // §3.1 nothing left to place
        return vec![Fact::new(
            &["§3.1"],
            format!("{color} has no piece left in the reserve to place"),
        )];
    };
    let mut facts = Vec::new();
    if queen_due && reserve.len() > 1 {
        facts.push(Fact::new(
            &["§4.5"],
            format!(
                "it is {color}'s turn {} and the queen is still in the reserve, so no other piece may be placed",
                opening::turn_number(position.plies)
            ),
        ));
    }
    let own: Vec<Hex> = board
        .occupied_cells()
        .filter(|&h| board.stack_color(h) == Some(color))
        .collect();
    if own.is_empty() {
        // §3.5 no stack of the player's colour, so no cell touches one
        facts.push(Fact::new(
            &["§3.5"],
            format!(
                "no stack has a {color} piece on top, so no empty cell touches a {color} stack"
            ),
        ));
    }
    for at in own {
        facts.push(cells_next_to(position, sample, at));
    }
    facts
}

/// The placement of `sample` on each empty cell next to the stack at `at`,
/// refused: one fact for the stack, naming the rule and what it saw.
fn cells_next_to(position: &Position, sample: Piece, at: Hex) -> Fact {
    let board = position.board();
    let color = position.side_to_move();
    let top = describe(board, at);
    let empty: Vec<Hex> = at
        .neighbours()
        .into_iter()
        .filter(|&n| !board.is_occupied(n))
        .collect();
    if empty.is_empty() {
        return Fact::new(&["§3.7"], format!("{top} has no empty cell next to it"))
            .with_cells([at]);
    }
    // the first rule refusing each cell, from the judgement of the placement
    let mut clauses: Vec<&'static str> = Vec::new();
    let mut other: Vec<String> = Vec::new();
    for &to in &empty {
        if let Judgement::Illegal(refusal) = judge(position, Move::Place { piece: sample, to }) {
            let first = refusal.facts.first().map(|f| f.clauses.clone());
            for clause in first.unwrap_or_default() {
                if !clauses.contains(&clause) {
                    clauses.push(clause);
                }
            }
            if !refusal.illegal.clauses.contains(&"§3.6") {
                other.push(format!("{to}: {}", refusal.illegal.reason));
            }
        }
    }
    if other.is_empty() {
        // §3.6: every one of them touches the opponent
        let enemies: BTreeSet<Piece> = empty
            .iter()
            .flat_map(|cell| cell.neighbours())
            .filter(|&n| board.stack_color(n) == Some(color.opponent()))
            .filter_map(|n| board.top(n))
            .collect();
        let enemies: Vec<Piece> = enemies.into_iter().collect();
        let cells: Vec<String> = empty.iter().map(Hex::to_string).collect();
        let which = match cells.len() {
            1 => format!(
                "the only empty cell next to {top} is {}, and it",
                cells.join("")
            ),
            _ => format!(
                "the empty cells next to {top} are {}, and each",
                cells.join(", ")
            ),
        };
        return Fact::new(
            &clauses,
            format!(
                "{which} touches a {} stack: {}",
                color.opponent(),
                names(&enemies)
            ),
        )
        .with_cells(empty);
    }
    Fact::new(
        &clauses,
        format!("the empty cells next to {top}: {}", other.join("; ")),
    )
    .with_cells(empty)
}

/// Why none of the side to move's pieces moves: the queen still in the
/// reserve (§4.3), or for each of their pieces the first rule that stops
/// it, covered (§5.2), moved last turn (§5.10), pinned (§5.3), or its bug's
/// movement reaching no cell (chapter 6).
fn movement_refusals(position: &Position) -> Vec<Fact> {
    let board = position.board();
    let color = position.side_to_move();
    if !opening::may_move_pieces(board, color) {
        return vec![Fact::new(
            &["§4.3"],
            format!("{color}'s queen is still in the reserve, so no piece of {color}'s moves"),
        )];
    }
    let mut facts = Vec::new();
    for at in board.occupied_cells() {
        let stack = board.stack(at);
        for (level, &piece) in stack.iter().enumerate() {
            if piece.color != color {
                continue;
            }
            if level + 1 < stack.len() {
                // §5.2 a covered piece does not move
                facts.push(
                    Fact::new(
                        &["§5.2"],
                        format!(
                            "{piece} is covered: {}",
                            super::facts::stack_fact(board, at)
                        ),
                    )
                    .with_cells([at]),
                );
            } else {
                facts.push(top_piece_refusal(position, piece, at));
            }
        }
    }
    facts
}

/// The first rule that stops the top piece `piece` at `at` moving
/// anywhere: a refusal that does not depend on the destination (§5.10,
/// §5.3, §6.7.2), or the refusal of its bug's movement to the first cell
/// next to it.
fn top_piece_refusal(position: &Position, piece: Piece, at: Hex) -> Fact {
    let board = position.board();
    let to = at
        .neighbours()
        .into_iter()
        .find(|&n| !board.is_occupied(n))
        .unwrap_or_else(|| at.neighbours()[0]);
    let refusal = match judge(position, Move::Move { piece, to }) {
        Judgement::Illegal(refusal) => refusal,
        // a legal move here would not leave the pass: nothing to say
        Judgement::Legal { .. } => {
            return Fact::new(&[], format!("{piece} at {at} could move to {to}"));
        }
    };
    let anywhere = position.immune_piece() == Some(piece)
        || (board.height(at) == 1 && !one_hive_holds(board, at))
        || refusal.illegal.clauses.contains(&"§6.7.2");
    let first = refusal.facts.first();
    let clauses = first.map_or_else(|| refusal.illegal.clauses.clone(), |f| f.clauses.clone());
    let cells = first.map(|f| f.cells.clone()).unwrap_or_default();
    let text = if anywhere {
        format!("{piece} at {at}: {}", refusal.illegal.reason)
    } else {
        format!(
            "{piece} at {at} has no move of its own; to {to}, next to it: {}",
            refusal.illegal.reason
        )
    };
    Fact::new(&clauses, text).with_cells(cells.into_iter().chain([at]))
}
