//! The pillbug's ability (§6.8.2–§6.8.8), used by a pillbug or by a
//! mosquito copying one (§6.7.5): who may throw, and every throw judged in
//! one place, [`throw_attempts`].
//!
//! An attempt is one thrower lifting one piece and setting it down on one
//! cell; it succeeds or breaks the first condition it fails, checked in
//! three labelled phases: the thrower (who may throw), the thrown piece,
//! the landing. The legal throws ([`legal_throws`]), the facts that grant a
//! throw and the refusal of one (`throw_judge.rs`) all
//! read these attempts, so that they cannot disagree.

use std::collections::BTreeSet;

use crate::core::{Bug, Color, Hex, Move, Piece};
use crate::reference::board::Board;
use crate::reference::movement::{height_gate_blocks, one_hive_holds};

use super::copied::mosquito_copies_pillbug;

/// A piece of the player's that throws, or would throw if it could, from
/// its cell next to the piece to be thrown: a pillbug of theirs anywhere in
/// a stack, on top or covered, or a mosquito of theirs on top of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Thrower {
    /// The pillbug or mosquito.
    pub(crate) piece: Piece,
    /// Its cell.
    pub(crate) at: Hex,
}

/// The first condition a throw breaks. The variants are in the order the
/// conditions are checked: the thrower, then the thrown piece, then the
/// landing; so of two attempts, the one that got further compares greater.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ThrowBreak {
    /// §6.8.3, §5.2: the pillbug is covered, and a covered pillbug does not throw.
    ThrowerCovered,
    /// §5.10: the thrower moved last turn.
    ThrowerImmune,
    /// §6.7.4: the mosquito is on top of the hive, where it copies nothing.
    MosquitoOnHive,
    /// §6.7.3, §6.7.5: the only pillbugs the mosquito touches are covered,
    /// and it copies top pieces only.
    MosquitoTouchesCoveredPillbug,
    /// §6.7.5: the mosquito touches no pillbug.
    MosquitoTouchesNoPillbug,
    /// §6.8.3: the piece is on a stack, not alone in its cell.
    PieceStacked,
    /// §5.10: the piece moved last turn.
    PieceImmune,
    /// §6.8.4: lifting the piece splits the hive.
    SplitsHive,
    /// §6.8.8: the landing cell is not next to the thrower.
    NotNextToThrower,
    /// §6.8.8: the landing cell is occupied.
    Occupied,
    /// §6.8.8: the landing cell is where the piece came from.
    WhereItCameFrom,
    /// §6.8.5: a height gate blocks the climb onto the thrower.
    ClimbGated,
    /// §6.8.5: a height gate blocks the drop from the thrower.
    DropGated,
}

/// One throw tried: `thrower` sets the top piece of `from` down on `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ThrowAttempt {
    /// Who throws.
    pub(crate) thrower: Thrower,
    /// Where the piece lands.
    pub(crate) to: Hex,
    /// A legal throw, or the first condition it breaks.
    pub(crate) outcome: Result<(), ThrowBreak>,
}

/// The landing cells an attempt is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Landings {
    /// Every cell next to each thrower: move generation.
    NextToThrower,
    /// One cell, for each thrower: the judgement of one move.
    Only(Hex),
}

/// The player's throwers next to `from` (§6.8.2, §6.7.5), in neighbour
/// order: the one place that says who could throw a piece; whether each
/// may is [`thrower_may_throw`].
pub(crate) fn throwers_next_to(board: &Board, color: Color, from: Hex) -> Vec<Thrower> {
    let mut throwers = Vec::new();
    for at in from.neighbours() {
        let stack = board.stack(at);
        for (level, &piece) in stack.iter().enumerate() {
            let on_top = level + 1 == stack.len();
            let throws = match piece.bug {
                Bug::Pillbug => true,
                Bug::Mosquito => on_top,
                _ => false,
            };
            if piece.color == color && throws {
                throwers.push(Thrower { piece, at });
            }
        }
    }
    throwers
}

/// Whether a thrower may use the ability this turn: a pillbug on top of
/// its stack (§6.8.3, §5.2), not moved last turn (§5.10); a mosquito
/// besides on the ground (§6.7.4) next to a pillbug on top of its stack
/// (§6.7.5, §6.7.3), that pillbug immune or not. The player's queen being
/// placed (§4.3) is the caller's.
pub(crate) fn thrower_may_throw(
    board: &Board,
    immune: Option<Piece>,
    thrower: Thrower,
) -> Result<(), ThrowBreak> {
    let Thrower { piece, at } = thrower;
    if board.top(at) != Some(piece) {
        return Err(ThrowBreak::ThrowerCovered);
    }
    if immune == Some(piece) {
        return Err(ThrowBreak::ThrowerImmune);
    }
    // Only pillbugs and mosquitoes are throwers: anything else is a pillbug.
    if piece.bug != Bug::Mosquito {
        return Ok(());
    }
    if board.height(at) >= 2 {
        return Err(ThrowBreak::MosquitoOnHive);
    }
    if mosquito_copies_pillbug(board, at) {
        return Ok(());
    }
    let covered_pillbug = board
        .occupied_neighbours(at)
        .any(|n| board.stack(n).iter().any(|p| p.bug == Bug::Pillbug));
    Err(if covered_pillbug {
        ThrowBreak::MosquitoTouchesCoveredPillbug
    } else {
        ThrowBreak::MosquitoTouchesNoPillbug
    })
}

/// Whether the top piece at `from` may be lifted by a throw: alone in its
/// cell (§6.8.3), not moved last turn (§5.10), its lift keeping one hive
/// (§6.8.4).
fn piece_may_be_lifted(board: &Board, immune: Option<Piece>, from: Hex) -> Result<(), ThrowBreak> {
    if board.height(from) != 1 {
        return Err(ThrowBreak::PieceStacked);
    }
    if immune.is_some() && board.top(from) == immune {
        return Err(ThrowBreak::PieceImmune);
    }
    if !one_hive_holds(board, from) {
        return Err(ThrowBreak::SplitsHive);
    }
    Ok(())
}

/// Whether a piece lifted from `from` (the `lifted` board) may be set down
/// on `to` by the thrower at `at`: next to the thrower, empty, not where it
/// came from (§6.8.8), the climb onto the thrower and the drop passing no
/// height gate (§6.8.5, §5.6).
fn landing_allowed(lifted: &Board, at: Hex, from: Hex, to: Hex) -> Result<(), ThrowBreak> {
    if !at.is_adjacent(to) {
        return Err(ThrowBreak::NotNextToThrower);
    }
    if lifted.is_occupied(to) {
        return Err(ThrowBreak::Occupied);
    }
    if to == from {
        return Err(ThrowBreak::WhereItCameFrom);
    }
    if height_gate_blocks(lifted, from, at) {
        return Err(ThrowBreak::ClimbGated);
    }
    if height_gate_blocks(lifted, at, to) {
        return Err(ThrowBreak::DropGated);
    }
    Ok(())
}

/// Every throw of the top piece at `from` that the throwers of `color`
/// next to it could make, to the cells of `landings`: one attempt per
/// thrower and landing cell, each legal or with the first condition it
/// breaks. `immune` is the piece moved last turn (§5.10). Empty when no
/// thrower of the player touches the piece.
///
/// * THE THROWER: §6.8.3 uncovered, §5.10 not immune, §6.7.4 and §6.7.5 a
///   mosquito on the ground next to a pillbug (`thrower_may_throw`);
/// * THE THROWN PIECE: §6.8.3 alone, §5.10 not immune, §6.8.4 One Hive;
/// * THE LANDING: §6.8.8 next to the thrower, empty, elsewhere; §6.8.5 the
///   climb and the drop pass no height gate.
///
/// A pinned thrower may throw (§6.8.6): nothing here asks whether it could
/// move itself.
pub(crate) fn throw_attempts(
    board: &Board,
    color: Color,
    immune: Option<Piece>,
    from: Hex,
    landings: Landings,
) -> Vec<ThrowAttempt> {
    let throwers = throwers_next_to(board, color, from);
    if throwers.is_empty() || board.top(from).is_none() {
        return Vec::new();
    }
    // THE THROWN PIECE: the same for every thrower
    let piece = piece_may_be_lifted(board, immune, from);
    let lifted = board.with_top_lifted(from);
    let mut attempts = Vec::new();
    for thrower in throwers {
        // THE THROWER
        let ready = thrower_may_throw(board, immune, thrower).and(piece);
        let cells: Vec<Hex> = match landings {
            Landings::NextToThrower => thrower.at.neighbours().to_vec(),
            Landings::Only(to) => vec![to],
        };
        for to in cells {
            // THE LANDING
            let outcome = ready.and_then(|()| landing_allowed(&lifted, thrower.at, from, to));
            attempts.push(ThrowAttempt {
                thrower,
                to,
                outcome,
            });
        }
    }
    attempts
}

/// Every throw the player `color` may make (§6.8.2–§6.8.8): the legal
/// attempts of [`throw_attempts`] for every piece on the board. The
/// caller has checked that the player may move at all (§4.3).
pub(crate) fn legal_throws(board: &Board, color: Color, immune: Option<Piece>) -> BTreeSet<Move> {
    let mut throws = BTreeSet::new();
    for from in board.occupied_cells() {
        let Some(piece) = board.top(from) else {
            continue;
        };
        for attempt in throw_attempts(board, color, immune, from, Landings::NextToThrower) {
            if attempt.outcome.is_ok() {
                throws.insert(Move::Move {
                    piece,
                    to: attempt.to,
                }); // §5.9 one move, whichever thrower
            }
        }
    }
    throws
}

/// Every (piece, destination) pair that the pillbug, or mosquito, on top
/// at `thrower_at` may throw, read from [`throw_attempts`]; `immune` is
/// the piece moved last turn (§5.10), `None` to ignore immunity. The
/// deliberate faults ask for one thrower's throws, and `explain` for the
/// throws of a pillbug that has no move of its own.
pub(crate) fn pillbug_throws(
    board: &Board,
    thrower_at: Hex,
    immune: Option<Piece>,
) -> BTreeSet<(Piece, Hex)> {
    let Some(thrower) = board.top(thrower_at) else {
        return BTreeSet::new();
    };
    let mut throws = BTreeSet::new();
    for from in thrower_at.neighbours() {
        let Some(piece) = board.top(from) else {
            continue;
        };
        for attempt in throw_attempts(board, thrower.color, immune, from, Landings::NextToThrower) {
            if attempt.thrower.at == thrower_at && attempt.outcome.is_ok() {
                throws.insert((piece, attempt.to));
            }
        }
    }
    throws
}
