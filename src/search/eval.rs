//! The static evaluation and the one-move win check at the leaves.
//!
//! Everything is read through the public views of the engine (the
//! [`BoardView`] and [`Rules`] traits): where the two queens stand and which
//! of their neighbours are occupied, and the legal moves of the side to move.

use crate::core::BoardView;
use crate::core::{Bug, Color, Hex, Move, Piece};
use crate::fast::FastEngine;
use crate::rules::Rules;

/// Axial offsets of the six neighbours (any fixed order will do here).
const AROUND: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

/// Score of a queen with `n` occupied neighbours, for its opponent (§8.1:
/// six lose the game, which is scored as a mate, never through this table).
const PRESSURE: [i32; 7] = [0, 6, 15, 30, 55, 90, 90];
/// Per piece of the side to move that has at least one legal movement.
const MOVABLE_PIECE: i32 = 6;
/// Per legal move of the side to move, up to `MOBILITY_CAP` moves.
const PER_MOVE: i32 = 1;
const MOBILITY_CAP: usize = 50;

/// The largest absolute value [`evaluate`] can return (well below mate scores).
pub(super) const EVAL_BOUND: i32 = PRESSURE[6] + MOVABLE_PIECE * 28 + PER_MOVE * 50;

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The queen of `color`.
pub(super) fn queen(color: Color) -> Piece {
    Piece::first(color, Bug::Queen)
}

/// The direction index from `from` to an adjacent `to`, if adjacent.
fn direction(from: Hex, to: Hex) -> Option<usize> {
    let delta = (to.q - from.q, to.r - from.r);
    AROUND.iter().position(|&d| d == delta)
}

/// The two queens and their occupied neighbours, read once per node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Queens {
    /// Where each queen stands (White, Black), `None` in the reserve.
    pub at: [Option<Hex>; 2],
    /// Per queen, one bit per occupied neighbour (directions of `AROUND`).
    pub around: [u8; 2],
}

impl Queens {
    pub fn read(game: &FastEngine) -> Queens {
        let at = [
            game.location(queen(Color::White)),
            game.location(queen(Color::Black)),
        ];
        let mut around = [0u8; 2];
        for piece in game.game_type().all_pieces() {
            let Some(h) = game.location(piece) else {
                continue;
            };
            for c in 0..2 {
                if let Some(d) = at[c].and_then(|q| direction(q, h)) {
                    around[c] |= 1 << d;
                }
            }
        }
        Queens { at, around }
    }

    pub fn of(&self, color: Color) -> Option<Hex> {
        self.at[index(color)]
    }

    /// How many neighbours of `color`'s queen are occupied (0 while in the reserve).
    pub fn occupied(&self, color: Color) -> u32 {
        self.around[index(color)].count_ones()
    }

    /// The empty neighbour of `color`'s queen when it is the only one.
    pub fn last_gap(&self, color: Color) -> Option<Hex> {
        let q = self.of(color)?;
        let free = !self.around[index(color)] & 0x3f;
        (free.count_ones() == 1).then(|| {
            let (dq, dr) = AROUND[free.trailing_zeros() as usize];
            Hex::new(q.q + dq, q.r + dr)
        })
    }

    /// Whether `hex` is a neighbour of `color`'s queen.
    pub fn touches(&self, color: Color, hex: Hex) -> bool {
        self.of(color).is_some_and(|q| direction(q, hex).is_some())
    }
}

/// Whether the side to move, whose legal moves are `moves`, can surround the
/// opponent's queen right now without surrounding its own (§8.2, §8.3).
///
/// Only moves that can possibly do it are tried (each is played and undone,
/// and the engine's `state()` decides): a move that is not a move of the
/// opponent's queen changes the occupancy of the queen's neighbours only at
/// its destination (filled) and its origin (maybe emptied), so it can
/// complete a surround only by filling the single empty neighbour; a move of
/// the opponent's queen itself (a pillbug or mosquito throw, §6.8.2) can land
/// it anywhere, so those are always tried.
pub(super) fn wins_now(game: &mut FastEngine, queens: &Queens, moves: &[Move]) -> bool {
    let me = game.side_to_move();
    let them = me.opponent();
    if queens.of(them).is_none() {
        return false;
    }
    let gap = queens.last_gap(them);
    let their_queen = queen(them);
    let win = match me {
        Color::White => crate::core::GameState::WhiteWins,
        Color::Black => crate::core::GameState::BlackWins,
    };
    for &mv in moves {
        let candidate =
            mv.piece() == Some(their_queen) || (gap.is_some() && mv.destination() == gap);
        if !candidate {
            continue;
        }
        game.play_unchecked(mv);
        let won = game.state() == win;
        game.undo();
        if won {
            return true;
        }
    }
    false
}

/// The static value of a position in progress for the side to move, whose
/// legal moves are `moves`: pressure on the opponent's queen minus pressure
/// on its own (occupied neighbours), plus its mobility (pieces that can move
/// and, capped, legal moves). Bounded by [`EVAL_BOUND`].
///
/// Mobility is the side to move's only: the trait gives the legal moves of
/// the side to move and no others (a "null move" would be a pass that is not
/// legal, which `play_unchecked` does not promise to accept).
pub(super) fn evaluate(game: &FastEngine, queens: &Queens, moves: &[Move]) -> i32 {
    let me = game.side_to_move();
    let them = me.opponent();
    let pressure =
        PRESSURE[queens.occupied(them) as usize] - PRESSURE[queens.occupied(me) as usize];
    let mut movable: u32 = 0;
    // one slot per piece: colour (a pillbug may throw an enemy piece, §6.8.2), bug, number
    let mut seen = [false; 48];
    for mv in moves {
        if let Move::Move { piece, .. } = mv {
            let slot =
                index(piece.color) * 24 + (piece.bug as usize) * 3 + piece.number as usize - 1;
            if !seen[slot] {
                seen[slot] = true;
                movable += 1;
            }
        }
    }
    let mobility = MOVABLE_PIECE * movable as i32 + PER_MOVE * moves.len().min(MOBILITY_CAP) as i32;
    pressure + mobility
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{GameState, GameType, RulesOptions};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Plays every legal move and asks the engine.
    fn brute_force_wins_now(game: &FastEngine) -> bool {
        let win = match game.side_to_move() {
            Color::White => GameState::WhiteWins,
            Color::Black => GameState::BlackWins,
        };
        game.legal_moves().into_iter().any(|mv| {
            let mut g = game.clone();
            g.play_unchecked(mv);
            g.state() == win
        })
    }

    /// `wins_now` (which plays only the candidate moves) agrees with trying
    /// every move, on random games of all eight game types biased towards
    /// crowding the queens, so that many positions have a win on the move.
    #[test]
    fn wins_now_agrees_with_trying_every_move() {
        let mut rng = StdRng::seed_from_u64(4);
        let mut wins = 0;
        let mut positions = 0;
        for game_index in 0..400 {
            let game_type = GameType::ALL[game_index % 8];
            let mut game = FastEngine::new_game(game_type, RulesOptions::default());
            while !game.state().is_over() && game.plies() < 120 {
                let moves = game.legal_moves();
                let queens = Queens::read(&game);
                let expected = brute_force_wins_now(&game);
                assert_eq!(
                    wins_now(&mut game, &queens, &moves),
                    expected,
                    "{}",
                    game.game_string()
                );
                positions += 1;
                wins += expected as u32;
                // prefer moves next to a queen
                let crowding: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|mv| {
                        mv.destination().is_some_and(|to| {
                            queens.touches(Color::White, to) || queens.touches(Color::Black, to)
                        })
                    })
                    .collect();
                let pool = if !crowding.is_empty() && rng.random_range(0..4) != 0 {
                    &crowding
                } else {
                    &moves
                };
                let mv = pool[rng.random_range(0..pool.len())];
                game.play_unchecked(mv);
            }
        }
        assert!(positions > 8_000, "{positions} positions");
        assert!(wins > 300, "only {wins} positions with a win on the move");
    }

    #[test]
    fn queens_read_occupied_neighbours() {
        let game = FastEngine::load(
            "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wQ wS1/;bG1 bQ-;wG1 -wS1;\
             bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 /wS1;bA1 bS1\\",
        )
        .unwrap();
        let queens = Queens::read(&game);
        assert_eq!(queens.occupied(Color::Black), 5);
        assert!(queens.last_gap(Color::Black).is_some());
        assert!(queens.occupied(Color::White) < 5);
    }
}
