//! The neighbourhood of the disputed move, which the rebuild search looks
//! for in shorter games (see the module documentation of [`super`]).

use hive_oracle_rules::core::{Bug, Color, Hex, Move, Piece};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::rules::Rules;

/// Which cells around the disputed move a pattern asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scope {
    /// The destination and the cells next to both ends of the move: the
    /// gate of a step (§5.5, §5.6), the pillbug of a throw (§6.8.3).
    Edge,
    /// Every cell next to either end of the move, and the destination.
    Neighbourhood,
}

/// What a cell near the disputed move holds, as the pattern sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Look {
    Empty,
    Stack {
        color: Color,
        bug: Bug,
        height: usize,
    },
}

pub(super) fn look(engine: &FastEngine, hex: Hex) -> Look {
    match engine.top_at(hex) {
        None => Look::Empty,
        Some((piece, height)) => Look::Stack {
            color: piece.color,
            bug: piece.bug,
            height,
        },
    }
}

/// The cell `offset` from `at` after turning the offset `turns` sixths of
/// a turn (cube rotation; adjacency is kept).
pub(super) fn turned(at: Hex, offset: Hex, turns: usize) -> Hex {
    let mut h = offset;
    for _ in 0..turns {
        h = Hex::new(-h.r, h.q + h.r);
    }
    Hex::new(at.q + h.q, at.r + h.r)
}

/// The neighbourhood of the disputed move in the finding's position: the
/// stacks around the cell the piece leaves and around the cell it reaches,
/// the side to move and where the piece moved last turn stands (§5.10).
/// The rebuild search looks for a short game whose position has the same
/// neighbourhood around a piece of the same colour and bug, in any of the
/// six orientations.
#[derive(Clone, Debug)]
pub(super) struct Pattern {
    pub(super) color: Color,
    pub(super) bug: Bug,
    pub(super) side_to_move: Color,
    pub(super) height: usize,
    /// Offsets from the piece's cell and what they hold.
    pub(super) cells: Vec<(Hex, Look)>,
    /// The offset of the piece moved last turn, when it is in the pattern.
    pub(super) last_moved: Option<Hex>,
    /// The offset of the destination.
    pub(super) to: Hex,
    /// The colours and bugs the pattern shows.
    pub(super) bugs: Vec<(Color, Bug)>,
}

impl Pattern {
    pub(super) fn of(engine: &FastEngine, disputed: Move, scope: Scope) -> Option<Pattern> {
        use hive_oracle_rules::core::BoardView;
        let Move::Move { piece, to } = disputed else {
            return None;
        };
        let from = engine.location(piece)?;
        let (top, height) = engine.top_at(from)?;
        if top != piece {
            return None;
        }
        let offset = |h: Hex| Hex::new(h.q - from.q, h.r - from.r);
        let mut hexes: Vec<Hex> = match scope {
            Scope::Edge => {
                let near_to = to.neighbours();
                let mut both: Vec<Hex> = from
                    .neighbours()
                    .into_iter()
                    .filter(|h| near_to.contains(h))
                    .collect();
                if both.is_empty() {
                    both.extend(near_to);
                }
                both
            }
            Scope::Neighbourhood => {
                let mut all = from.neighbours().to_vec();
                all.extend(to.neighbours());
                all
            }
        };
        hexes.push(to);
        hexes.sort();
        hexes.dedup();
        hexes.retain(|&h| h != from);
        let cells: Vec<(Hex, Look)> = hexes
            .iter()
            .map(|&h| (offset(h), look(engine, h)))
            .collect();
        let last_moved = engine
            .history()
            .last()
            .and_then(|m| m.piece())
            .and_then(|p| engine.location(p))
            .filter(|h| *h == from || hexes.contains(h))
            .map(offset);
        let mut bugs: Vec<(Color, Bug)> = vec![(piece.color, piece.bug)];
        for (_, l) in &cells {
            if let Look::Stack { color, bug, .. } = *l {
                bugs.push((color, bug));
            }
        }
        bugs.sort();
        bugs.dedup();
        Some(Pattern {
            color: piece.color,
            bug: piece.bug,
            side_to_move: engine.side_to_move(),
            height,
            cells,
            last_moved,
            to: offset(to),
            bugs,
        })
    }

    /// The score of a perfect match.
    pub(super) fn perfect(&self) -> u32 {
        self.bugs.len() as u32
            + 2
            + 3 * self.cells.len() as u32
            + if self.last_moved.is_some() { 3 } else { 0 }
    }

    /// How close `engine`'s position comes to the pattern: one point per
    /// colour and bug of the pattern on the board, then the best piece and
    /// orientation: 2 for the piece's height, 3 per cell that holds the
    /// same, 1 per cell that is at least as empty or occupied, 3 when the
    /// piece moved last turn stands where it should. With the piece and the
    /// orientation, to map the disputed move.
    pub(super) fn score(&self, engine: &FastEngine) -> (u32, Option<(Piece, Hex, usize)>) {
        use hive_oracle_rules::core::BoardView;
        let on_board = |color: Color, bug: Bug| {
            (1..=bug.count())
                .filter_map(|n| Piece::new(color, bug, n))
                .any(|p| engine.location(p).is_some())
        };
        let presence = self.bugs.iter().filter(|&&(c, b)| on_board(c, b)).count() as u32;
        let last = engine
            .history()
            .last()
            .and_then(|m| m.piece())
            .and_then(|p| engine.location(p));
        let mut best: (u32, Option<(Piece, Hex, usize)>) = (presence, None);
        for number in 1..=self.bug.count() {
            let Some(piece) = Piece::new(self.color, self.bug, number) else {
                continue;
            };
            let Some(at) = engine.location(piece) else {
                continue;
            };
            let Some((top, height)) = engine.top_at(at) else {
                continue;
            };
            if top != piece {
                continue;
            }
            for turns in 0..6 {
                let mut score = presence;
                if height == self.height {
                    score += 2;
                }
                for &(offset, want) in &self.cells {
                    let got = look(engine, turned(at, offset, turns));
                    if got == want {
                        score += 3;
                    } else if (got == Look::Empty) == (want == Look::Empty) {
                        score += 1;
                    }
                }
                if let Some(offset) = self.last_moved {
                    if last == Some(turned(at, offset, turns)) {
                        score += 3;
                    }
                }
                if score > best.0 || best.1.is_none() && score == best.0 {
                    best = (score, Some((piece, at, turns)));
                }
            }
        }
        best
    }
}
