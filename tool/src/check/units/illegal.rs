//! The illegal moves a random game sends, a few plies apart: moves the
//! reference engine refuses, of four kinds in turn, each written the way
//! an engine is most likely to misread it.

use std::collections::BTreeSet;

use rand_chacha::ChaCha8Rng;

use crate::check::given::seed::pick;
use hive_oracle_rules::core::BoardView;
use hive_oracle_rules::core::{Hex, Move, Piece};
use hive_oracle_rules::reference::placement::next_pieces_in_reserve;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The kinds of illegal moves, in turn.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Illegal {
    /// A piece of the reserve placed, or a free piece of the side to move
    /// moved, onto a cell touching the hive.
    Plausible,
    /// A covered piece (own or the opponent's) named as the mover, which is
    /// that piece and cannot move (§9.25, §5.2).
    CoveredMover,
    /// A piece still in its reserve named as the reference (§9.23).
    ReserveReference,
    /// A climb onto an occupied cell written with a direction (§9.26) by a
    /// piece that may not climb there.
    DirectionClimb,
}

/// The kinds in the order a random game sends them.
pub(crate) const ILLEGAL_KINDS: [Illegal; 4] = [
    Illegal::Plausible,
    Illegal::CoveredMover,
    Illegal::ReserveReference,
    Illegal::DirectionClimb,
];

/// A move the reference refuses, of the kind `kind`, with the text sent
/// for it; `None` when the position has none.
pub(crate) fn illegal_candidate(
    game: &ReferenceEngine,
    legal: &BTreeSet<Move>,
    kind: Illegal,
    rng: &mut ChaCha8Rng,
) -> Option<(Move, String)> {
    let cells: Vec<Hex> = game
        .board()
        .empty_cells_touching_hive()
        .into_iter()
        .collect();
    if cells.is_empty() {
        return None;
    }
    let mut candidates = match kind {
        Illegal::Plausible => plausible(game, legal, &cells),
        Illegal::CoveredMover => covered_movers(game, &cells),
        Illegal::ReserveReference => reserve_references(game),
        Illegal::DirectionClimb => direction_climbs(game, legal),
    };
    for _ in 0..8 {
        if candidates.is_empty() {
            return None;
        }
        let (mv, text) = candidates.swap_remove(pick(rng, candidates.len()));
        let refused = match game.parse_move(&text) {
            Err(_) => true,
            Ok(parsed) => game.clone().play(parsed).is_err(),
        };
        if refused {
            return Some((mv, text));
        }
    }
    None
}

/// Every placement of a next piece of the reserve and every move of a free
/// piece of the side to move onto `cells`, that is not legal.
fn plausible(game: &ReferenceEngine, legal: &BTreeSet<Move>, cells: &[Hex]) -> Vec<(Move, String)> {
    let board = game.board();
    let color = game.side_to_move();
    let mut moves = Vec::new();
    for piece in next_pieces_in_reserve(board, game.game_type(), color) {
        for &to in cells {
            moves.push(Move::Place { piece, to });
        }
    }
    for (_, piece) in board.pieces() {
        if piece.color == color && board.is_on_top(piece) {
            for &to in cells {
                moves.push(Move::Move { piece, to });
            }
        }
    }
    moves
        .into_iter()
        .filter(|mv| !legal.contains(mv))
        .filter_map(|mv| named(game, mv))
        .collect()
}

/// `wQ \wS1` while a beetle sits on wQ: the name is the covered piece's,
/// never the top one's.
fn covered_movers(game: &ReferenceEngine, cells: &[Hex]) -> Vec<(Move, String)> {
    let board = game.board();
    let mut candidates = Vec::new();
    for (_, piece) in board.pieces() {
        if board.is_on_top(piece) {
            continue;
        }
        for &to in cells {
            candidates.extend(named(game, Move::Move { piece, to }));
        }
    }
    candidates
}

/// A target beside a piece that is not on the board; the resolved move is
/// meaningless: the text is refused (§9.23).
fn reserve_references(game: &ReferenceEngine) -> Vec<(Move, String)> {
    let board = game.board();
    let color = game.side_to_move();
    let in_reserve: Vec<Piece> = game
        .game_type()
        .all_pieces()
        .filter(|&p| board.location(p).is_none())
        .collect();
    let movers: Vec<Piece> = board
        .pieces()
        .map(|(_, p)| p)
        .filter(|&p| p.color == color && board.is_on_top(p))
        .collect();
    let mut candidates = Vec::new();
    for &mover in &movers {
        for &reference in &in_reserve {
            let text = format!("{mover} -{reference}");
            candidates.push((
                Move::Move {
                    piece: mover,
                    to: Hex::ORIGIN,
                },
                text,
            ));
        }
    }
    candidates.retain(|(_, text)| game.parse_move(text).is_err());
    candidates
}

/// `wQ -bS1` where the cell west of bS1 is occupied: a climb, by a piece
/// of the side to move that may not climb there.
fn direction_climbs(game: &ReferenceEngine, legal: &BTreeSet<Move>) -> Vec<(Move, String)> {
    let board = game.board();
    let color = game.side_to_move();
    let mut candidates = Vec::new();
    for (at, piece) in board.pieces() {
        if piece.color != color || !board.is_on_top(piece) {
            continue;
        }
        for (_, reference) in board.pieces() {
            let Some(ref_at) = board.location(reference) else {
                continue;
            };
            for direction in hive_oracle_rules::core::Direction::ALL {
                let to = ref_at.neighbour(direction);
                if to == at || !board.is_occupied(to) {
                    continue;
                }
                let mv = Move::Move { piece, to };
                if legal.contains(&mv) {
                    continue;
                }
                let text = format!(
                    "{piece} {}",
                    hive_oracle_rules::core::notation::target_text(reference, direction)
                );
                if game.parse_move(&text) == Ok(mv) {
                    candidates.push((mv, text));
                }
            }
        }
    }
    candidates
}

/// `mv` with the text the reference writes for it, when that text reads
/// back as `mv`.
fn named(game: &ReferenceEngine, mv: Move) -> Option<(Move, String)> {
    let text = game.move_string(mv);
    (game.parse_move(&text) == Ok(mv)).then_some((mv, text))
}
