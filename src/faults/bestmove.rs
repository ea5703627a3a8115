//! The `bestmove` faults (spec/sources/uhp-notes.md section 5.6): an
//! answer that the rules refuse (bestmove-illegal), and a legal answer given
//! after its time budget (bestmove-slow).

use std::time::{Duration, Instant};

use super::rules::reference_of;
use crate::core::view::BoardView;
use crate::core::{Bug, Color, Hex, Move, Piece};
use crate::rules::Rules;
use crate::search::SearchLimits;
use crate::uhp::Game;

/// The answer of `bestmove` under bestmove-illegal: a MoveString that reads
/// in the position but names a move the rules refuse (spec/sources/uhp-notes.md section 5.6
/// broken). `None` in the unlikely position where none of the candidates is
/// illegal.
pub(super) fn illegal_best_move(game: &Game) -> Option<String> {
    let reference = reference_of(game);
    let board = reference.board();
    let game_type = reference.game_type();
    let mover = reference.side_to_move();
    let in_reserve = |color: Color| -> Vec<Piece> {
        // the lowest-numbered piece of each bug still in the reserve (§3.2),
        // the queen last so that only one rule is broken where possible
        let mut pieces: Vec<Piece> = Vec::new();
        for piece in game_type.pieces_of(color) {
            let first_of_bug = !pieces.iter().any(|p| p.bug == piece.bug);
            if board.location(piece).is_none() && first_of_bug {
                pieces.push(piece);
            }
        }
        pieces.sort_by_key(|p| p.bug == Bug::Queen);
        pieces
    };
    let occupied: Vec<Hex> = board.occupied_cells().collect();
    let empty_cell = if board.is_empty() {
        Some(Hex::ORIGIN)
    } else {
        board.empty_cells_touching_hive().into_iter().next()
    };
    let mut candidates: Vec<Move> = Vec::new();
    // §3.1 broken: a placement of a piece of the side not to move
    if let Some(to) = empty_cell {
        for piece in in_reserve(mover.opponent()) {
            candidates.push(Move::Place { piece, to });
        }
    }
    // §3.7 broken: a placement onto an occupied cell
    let own_reserve = in_reserve(mover);
    for &to in &occupied {
        for &piece in &own_reserve {
            candidates.push(Move::Place { piece, to });
        }
    }
    // §6.1 broken: the queen, which never climbs, moved onto another stack
    let queen = Piece::first(mover, Bug::Queen);
    if let Some(from) = board.location(queen) {
        for &to in occupied.iter().filter(|&&to| to != from) {
            candidates.push(Move::Move { piece: queen, to });
        }
    }
    let legal = reference.legal_move_set();
    candidates
        .into_iter()
        .find(|mv| !legal.contains(mv))
        .map(|mv| game.move_string(mv))
}

/// Under bestmove-slow, waits until twice the time budget plus 2 s have
/// passed since `started` (spec/sources/uhp-notes.md section 5.6 broken); returns at once for a
/// depth search.
pub(super) fn delay_best_move(limits: &SearchLimits, started: Instant) {
    let Some(budget) = limits.time else {
        return;
    };
    let total = budget
        .saturating_mul(2)
        .saturating_add(Duration::from_secs(2));
    std::thread::sleep(total.saturating_sub(started.elapsed()));
}
