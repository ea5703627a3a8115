//! Placement (spec chapter 3): which pieces may enter the hive, and where.

use std::collections::BTreeSet;

use super::board::Board;
use crate::core::{Color, GameType, Hex, Piece};

/// The pieces of `color` still in the reserve that may be placed now by piece
/// order (§3.2): for each bug, the lowest-numbered piece not on the board.
/// The queen rules of chapter 4 filter this further.
pub fn next_pieces_in_reserve(board: &Board, game_type: GameType, color: Color) -> Vec<Piece> {
    game_type
        .bugs()
        .filter_map(|bug| {
            game_type
                .pieces_of(color)
                .filter(|piece| piece.bug == bug)
                .find(|&piece| board.location(piece).is_none())
        })
        .collect()
}

/// Whether `piece` is in its owner's reserve (§3.1).
pub(crate) fn is_in_reserve(board: &Board, piece: Piece) -> bool {
    board.location(piece).is_none()
}

/// The cells where the side to move may place a piece (§3.3–§3.8).
pub(crate) fn placement_cells(board: &Board, color: Color) -> BTreeSet<Hex> {
    let pieces_on_board = board.pieces().count();
    match pieces_on_board {
        // §3.3 the first piece of the game goes to the origin
        0 => BTreeSet::from([Hex::ORIGIN]),
        // §3.4 the second piece touches the first, whatever its colour
        1 => board.empty_cells_touching_hive(),
        // §3.5, §3.6, §3.7, §3.8 every later placement
        _ => board
            .empty_cells_touching_hive()
            .into_iter()
            .filter(|&cell| touches_own_colour(board, cell, color))
            .filter(|&cell| !touches_enemy_colour(board, cell, color))
            .collect(),
    }
}

/// §3.5: the cell touches at least one stack whose top piece has the player's colour.
pub(crate) fn touches_own_colour(board: &Board, cell: Hex, color: Color) -> bool {
    cell.neighbours()
        .into_iter()
        .any(|n| board.stack_color(n) == Some(color))
}

/// §3.6: the cell touches a stack whose top piece has the opponent's colour.
pub(crate) fn touches_enemy_colour(board: &Board, cell: Hex, color: Color) -> bool {
    cell.neighbours()
        .into_iter()
        .any(|n| board.stack_color(n) == Some(color.opponent()))
}
