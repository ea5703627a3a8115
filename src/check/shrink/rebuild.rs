//! The rebuild search of the shrinker: a beam search for a short legal game
//! that rebuilds the neighbourhood of the disputed move (see the module
//! documentation of [`super`]).

use super::*;

/// A game this short is not searched for a shorter rebuild.
pub(super) const BEAM_FROM_PLIES: usize = 8;

/// Positions kept at each ply of the rebuild search.
const BEAM_WIDTH: usize = 96;

/// Positions shown to the predicate at each ply of the rebuild search.
const BEAM_QUERIES_PER_PLY: usize = 3;

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
enum Look {
    Empty,
    Stack {
        color: Color,
        bug: Bug,
        height: usize,
    },
}

fn look(engine: &FastEngine, hex: Hex) -> Look {
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
fn turned(at: Hex, offset: Hex, turns: usize) -> Hex {
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
pub(crate) struct Pattern {
    color: Color,
    bug: Bug,
    side_to_move: Color,
    height: usize,
    /// Offsets from the piece's cell and what they hold.
    cells: Vec<(Hex, Look)>,
    /// The offset of the piece moved last turn, when it is in the pattern.
    last_moved: Option<Hex>,
    /// The offset of the destination.
    to: Hex,
    /// The colours and bugs the pattern shows.
    bugs: Vec<(Color, Bug)>,
}

impl Pattern {
    pub(super) fn of(engine: &FastEngine, disputed: Move, scope: Scope) -> Option<Pattern> {
        use crate::core::BoardView;
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
    fn perfect(&self) -> u32 {
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
    fn score(&self, engine: &FastEngine) -> (u32, Option<(Piece, Hex, usize)>) {
        use crate::core::BoardView;
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

/// A position of the rebuild search.
struct Node {
    moves: Vec<Move>,
    score: u32,
    anchor: Option<(Piece, Hex, usize)>,
    hash: u64,
    tie: u64,
}

impl<F: FnMut(&ReferenceEngine, Option<Move>) -> Shows> Search<'_, F> {
    /// Removal phases in rounds until a round removes nothing.
    pub(super) fn remove_turns(&mut self) {
        loop {
            let before = self.best.len();
            self.prefixes();
            self.pieces_removed();
            self.turn_pairs();
            if self.best.len() == before || self.out_of_budget() {
                break;
            }
        }
    }

    /// Looks for a game shorter than the best one whose position rebuilds
    /// `pattern`: a beam search over both players' moves (they cooperate),
    /// keeping at each ply the positions closest to the pattern, and
    /// showing the closest ones (with the side to move of the finding) to
    /// the predicate. Deterministic: ties are broken by a fixed sequence.
    pub(super) fn rebuild(&mut self, pattern: &Pattern) -> bool {
        let max_plies = self.best_moves.len().saturating_sub(1);
        let perfect = pattern.perfect();
        let mut seen: std::collections::HashSet<u64> = std::collections::HashSet::new();
        let mut queried: std::collections::HashSet<u64> = std::collections::HashSet::new();
        let mut beam: Vec<Vec<Move>> = vec![Vec::new()];
        let mut tie_state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next_tie = move || {
            // splitmix64: a fixed, well-mixed tie-breaking sequence
            tie_state = tie_state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = tie_state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut legal = Vec::new();
        for ply in 1..=max_plies {
            if self.out_of_budget() {
                return false;
            }
            let mut children: Vec<Node> = Vec::new();
            for parent in &beam {
                let mut engine = FastEngine::new_game(self.game_type, self.options);
                for &mv in parent {
                    engine.play_unchecked(mv);
                }
                if engine.state().is_over() {
                    continue;
                }
                legal.clear();
                engine.generate_moves(&mut legal);
                for &mv in &legal {
                    engine.play_unchecked(mv);
                    if seen.insert(engine.hash()) {
                        let (score, anchor) = pattern.score(&engine);
                        let mut moves = parent.clone();
                        moves.push(mv);
                        children.push(Node {
                            moves,
                            score,
                            anchor,
                            hash: engine.hash(),
                            tie: next_tie(),
                        });
                    }
                    engine.undo();
                }
            }
            self.positions += children.len();
            if self.positions >= self.budget.positions {
                return false;
            }
            children.sort_by(|a, b| b.score.cmp(&a.score).then(a.tie.cmp(&b.tie)));
            children.truncate(BEAM_WIDTH);
            let to_move = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            if to_move == pattern.side_to_move {
                let mut asked = 0;
                for node in &children {
                    if asked >= BEAM_QUERIES_PER_PLY || self.out_of_budget() {
                        break;
                    }
                    let Some((piece, at, turns)) = node.anchor else {
                        continue;
                    };
                    if node.score * 4 < perfect * 3 || !queried.insert(node.hash) {
                        continue;
                    }
                    asked += 1;
                    let focus = self.focus.map(|_| Move::Move {
                        piece,
                        to: turned(at, pattern.to, turns),
                    });
                    if self.found(&node.moves, focus) {
                        return true;
                    }
                }
            }
            beam = children.into_iter().map(|n| n.moves).collect();
        }
        false
    }

    /// Shows a legal game (and focus) to the predicate; keeps it as the new
    /// best game, in its own names, when it shows the finding.
    fn found(&mut self, moves: &[Move], focus: Option<Move>) -> bool {
        if !self.shows_finding(moves, focus) {
            return false;
        }
        self.best = Split::of(moves);
        self.best_moves = moves.to_vec();
        self.focus = focus;
        self.best_focus = focus;
        true
    }
}
