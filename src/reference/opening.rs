//! The Queen Bee and the opening (spec chapter 4).

use super::board::Board;
use crate::core::{Bug, Color, Piece, RulesOptions};

/// The turn number of the side to move: its n-th ply, passes included (§4.4).
pub fn turn_number(plies: usize) -> usize {
    1 + plies / 2
}

/// Whether `color` has its queen on the board.
pub(crate) fn queen_placed(board: &Board, color: Color) -> bool {
    board.location(Piece::first(color, Bug::Queen)).is_some()
}

/// Whether the player may move pieces and use abilities at all (§4.3):
/// only once their queen is on the board.
pub(crate) fn may_move_pieces(board: &Board, color: Color) -> bool {
    queen_placed(board, color)
}

/// Whether the queen must be placed now (§4.5): it is the player's fourth
/// turn or later and their queen is still in the reserve.
pub(crate) fn queen_is_due(board: &Board, color: Color, plies: usize) -> bool {
    turn_number(plies) >= 4 && !queen_placed(board, color)
}

/// Whether the tournament opening forbids the queen now (§4.2): the option is
/// on and the player has not placed any piece yet.
pub(crate) fn queen_is_forbidden(board: &Board, color: Color, options: RulesOptions) -> bool {
    options.tournament_opening && !board.pieces().any(|(_, piece)| piece.color == color)
}

/// Whether the queen rules of chapter 4 allow placing `piece` now (§4.5, §4.2).
pub(crate) fn queen_rules_allow(
    board: &Board,
    piece: Piece,
    plies: usize,
    options: RulesOptions,
) -> bool {
    let is_queen = piece.bug == Bug::Queen;
    if queen_is_due(board, piece.color, plies) && !is_queen {
        return false; // §4.5
    }
    if queen_is_forbidden(board, piece.color, options) && is_queen {
        return false; // §4.2
    }
    true
}
