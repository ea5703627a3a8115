//! A position as notation sees it (§9.23 to §9.30): the [`BoardView`] both
//! engines provide (where pieces are, which stacks exist), resolving a parsed
//! MoveString against it into an absolute move, and printing an absolute
//! move back as a canonical MoveString. The strings themselves are read in
//! [`notation`](super::notation).

use super::game::{GameType, Move};
use super::hex::{Direction, Hex};
use super::notation::{parse_move, target_text, MoveSpec, NotationError, Target};
use super::piece::Piece;

/// What notation needs to know about a position: where pieces are and which
/// stacks exist. Both engines provide it.
pub trait BoardView {
    /// The game type, to decide which pieces exist (§1.3).
    fn game_type(&self) -> GameType;
    /// The cell of a piece on the board, or `None` while it is in the reserve.
    fn location(&self, piece: Piece) -> Option<Hex>;
    /// The stack on a cell, bottom to top; empty for an empty cell (§2.4).
    fn stack(&self, hex: Hex) -> Vec<Piece>;
    /// Whether no piece has been placed yet.
    fn board_is_empty(&self) -> bool;
}

/// Resolves a parsed MoveString against a position into an absolute move
/// (§9.23, §9.24, §9.25, §9.26, §9.27, §9.10, §9.13). Legality is not checked here: `wA2` before `wA1`
/// resolves to a placement that the engine then refuses (§3.2).
pub(crate) fn resolve_move(
    view: &impl BoardView,
    spec: MoveSpec,
    text: &str,
) -> Result<Move, NotationError> {
    let what = "MoveString";
    let MoveSpec::Piece { piece, target } = spec else {
        return Ok(Move::Pass);
    };
    let exists = |p: Piece| view.game_type().has_bug(p.bug);
    if !exists(piece) {
        return Err(NotationError::new(
            what,
            text,
            format!("{piece} does not exist in {} (§1.3)", view.game_type()),
        ));
    }
    let to = match target {
        Target::Origin => {
            // §9.10: a bare name is only the first move of the game.
            if !view.board_is_empty() {
                return Err(NotationError::new(what, text, "a bare piece name is only the first move of the game; name a reference piece (§9.10)"));
            }
            Hex::ORIGIN
        }
        Target::OnTop(reference) | Target::Beside { reference, .. } => {
            if !exists(reference) {
                return Err(NotationError::new(
                    what,
                    text,
                    format!("{reference} does not exist in {} (§1.3)", view.game_type()),
                ));
            }
            // §9.23: the reference must be on the board, covered or not; it may
            // be the mover itself (§9.24), and a stack target may leniently
            // name a covered piece (§9.27).
            let Some(at) = view.location(reference) else {
                return Err(NotationError::new(
                    what,
                    text,
                    format!("the reference piece {reference} is not on the board (§9.23)"),
                ));
            };
            match target {
                Target::Beside { direction, .. } => at.neighbour(direction), // §9.26: occupied cells allowed
                _ => at,
            }
        }
    };
    // §9.25: the piece named is the piece that moves, covered or not; a
    // covered one is never read as the top of its stack, and its move is
    // then refused by the rules (§5.2).
    // §9.13: a piece in its reserve is placed, one on the board is moved.
    Ok(match view.location(piece) {
        Some(_) => Move::Move { piece, to },
        None => Move::Place { piece, to },
    })
}

/// Parses and resolves a MoveString in one step.
pub(crate) fn parse_and_resolve(view: &impl BoardView, text: &str) -> Result<Move, NotationError> {
    resolve_move(view, parse_move(text)?, text.trim())
}

/// Prints an absolute move as a canonical MoveString in the position before
/// the move (§9.30), a standard spelling (§9.29): the first move bare; a climb names the top piece at the
/// destination; otherwise the first occupied neighbour of the destination,
/// scanning NW, NE, E, SE, SW, W, names its top piece, never the moving piece.
pub fn move_string(view: &impl BoardView, mv: Move) -> String {
    let (piece, to) = match mv {
        Move::Pass => return "pass".to_string(),
        Move::Place { piece, to } | Move::Move { piece, to } => (piece, to),
    };
    if view.board_is_empty() {
        return piece.to_string();
    }
    // The position with the mover lifted: its own cell shows what is under it.
    let top_without_mover =
        |hex: Hex| -> Option<Piece> { view.stack(hex).into_iter().rfind(|&p| p != piece) };
    if let Some(top) = top_without_mover(to) {
        return format!("{piece} {top}");
    }
    for dir in Direction::ALL {
        let neighbour = to.neighbour(dir);
        if let Some(reference) = top_without_mover(neighbour) {
            // The destination lies in direction `dir.opposite()` of the reference.
            return format!("{piece} {}", target_text(reference, dir.opposite()));
        }
    }
    // Only reachable for a move that touches nothing but the mover itself,
    // which no legal move does; fall back to a self-reference (§9.24).
    match view.location(piece).and_then(|from| from.direction_to(to)) {
        Some(dir) => format!("{piece} {}", target_text(piece, dir)),
        None => format!("{piece} {piece}"),
    }
}
