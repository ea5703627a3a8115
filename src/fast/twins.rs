//! From-scratch twins of the fast engine's incremental structures, and the
//! check that compares them (spec/sources/style-notes.md habit 6).

use super::grid::{cell_of, neighbour, CellSet, CELLS, NOWHERE};
use super::pieces::{bug_index, bug_of, color_of, NO_PIECE, PIECES};
use super::{zobrist, FastEngine};
use crate::core::{GameState, Hex};

impl FastEngine {
    /// The hash recomputed from scratch: every piece with its cell and level,
    /// the side to move, the immune piece.
    pub fn hash_slow(&self) -> u64 {
        let mut hash = 0;
        for p in 0..PIECES as u8 {
            let c = self.pos[p as usize];
            if c != NOWHERE {
                hash ^= zobrist::CELL[p as usize][c as usize]
                    ^ zobrist::LEVEL[p as usize][self.level_of(p)];
            }
        }
        if self.side() == 1 {
            hash ^= zobrist::BLACK_TO_MOVE;
        }
        if self.immune != NO_PIECE {
            hash ^= zobrist::IMMUNE[self.immune as usize];
        }
        hash
    }

    /// The pinned cells by brute force: lift each single piece and test
    /// whether the rest of the hive stays connected (§5.3).
    pub(crate) fn pinned_slow(&self) -> CellSet {
        let mut pinned = CellSet::EMPTY;
        let occupied: Vec<u16> = (0..CELLS as u16)
            .filter(|&c| self.height[c as usize] > 0)
            .collect();
        for &lifted in &occupied {
            let rest: Vec<u16> = occupied.iter().copied().filter(|&c| c != lifted).collect();
            let Some(&start) = rest.first() else {
                continue;
            };
            let mut seen = vec![start];
            let mut i = 0;
            while i < seen.len() {
                let x = seen[i];
                i += 1;
                for d in 0..6 {
                    let y = neighbour(x, d);
                    if y != lifted && self.height[y as usize] > 0 && !seen.contains(&y) {
                        seen.push(y);
                    }
                }
            }
            if seen.len() != rest.len() {
                pinned.insert(lifted);
            }
        }
        pinned
    }

    /// `1 + E − V − T` of the occupied cells counted from scratch: cells,
    /// pairs of adjacent cells, triples of mutually adjacent cells.
    pub(crate) fn encloses_slow(&self) -> i16 {
        let (mut cells, mut edges, mut triangles) = (0i16, 0i16, 0i16);
        for c in 0..CELLS as u16 {
            if self.height[c as usize] == 0 {
                continue;
            }
            cells += 1;
            for d in 0..6 {
                let a = neighbour(c, d);
                let b = neighbour(c, (d + 1) % 6);
                if self.height[a as usize] > 0 {
                    edges += 1;
                    if self.height[b as usize] > 0 {
                        triangles += 1;
                    }
                }
            }
        }
        // each edge was met from both ends, each triangle from its three corners
        1 + edges / 2 - cells - triangles / 3
    }

    /// Compares every incremental structure with its from-scratch twin:
    /// stacks, adjacent colours, the sets of top pieces, the counts, then
    /// the hash, the enclosure count, the pinned set, the state and the
    /// undo records.
    pub fn check_invariants(&self) -> Result<(), BrokenInvariant> {
        self.stacks_agree()?;
        self.adjacent_colours_agree()?;
        self.top_pieces_agree()?;
        self.counts_agree()?;
        self.derived_state_agrees()
    }

    /// Heights and tops from the pieces' cells and stack links; each piece's
    /// `Hex` against its cell, and its level (§2.6).
    fn stacks_agree(&self) -> Result<(), BrokenInvariant> {
        let mut height = [0u8; CELLS];
        let mut covered = [false; PIECES];
        for p in 0..PIECES {
            if self.pos[p] != NOWHERE {
                height[self.pos[p] as usize] += 1;
                let b = self.below[p];
                if b != NO_PIECE {
                    if self.pos[b as usize] != self.pos[p] {
                        return Err(BrokenInvariant::RestsAcrossCells { piece: p, below: b });
                    }
                    covered[b as usize] = true;
                }
            } else if self.below[p] != NO_PIECE {
                return Err(BrokenInvariant::ReserveRestsOnAPiece { piece: p });
            }
        }
        for (c, &count) in height.iter().enumerate() {
            if count != self.height[c] {
                return Err(BrokenInvariant::Height {
                    cell: c,
                    kept: self.height[c],
                    counted: count,
                });
            }
            let t = self.top[c];
            if count == 0 {
                if t != NO_PIECE {
                    return Err(BrokenInvariant::TopOnEmptyCell { cell: c, top: t });
                }
            } else if t == NO_PIECE || self.pos[t as usize] as usize != c || covered[t as usize] {
                return Err(BrokenInvariant::TopNotUncovered { cell: c, top: t });
            }
        }
        for p in 0..PIECES {
            if self.pos[p] == NOWHERE {
                continue;
            }
            if cell_of(self.hex[p]) != self.pos[p] {
                return Err(BrokenInvariant::HexNotCell {
                    piece: p,
                    hex: self.hex[p],
                    cell: self.pos[p],
                });
            }
            if self.level_of(p as u8) >= 7 {
                return Err(BrokenInvariant::TooHigh {
                    piece: p,
                    level: self.level_of(p as u8),
                });
            }
        }
        Ok(())
    }

    /// The colours of the stacks next to each cell, direction by direction
    /// (§2.5, §3.5, §3.6).
    fn adjacent_colours_agree(&self) -> Result<(), BrokenInvariant> {
        for c in 0..CELLS {
            let mut adjacent = [0u8; 2];
            for d in 0..6 {
                let t = self.top[neighbour(c as u16, d) as usize];
                if t != NO_PIECE {
                    adjacent[color_of(t)] |= 1 << d;
                }
            }
            // the whole halves, so that a stray bit shows too
            let kept = [self.around[c] as u8, (self.around[c] >> 8) as u8];
            if adjacent != kept {
                return Err(BrokenInvariant::AdjacentColours {
                    cell: c,
                    kept,
                    counted: adjacent,
                });
            }
        }
        Ok(())
    }

    /// The sets of top pieces of each colour.
    fn top_pieces_agree(&self) -> Result<(), BrokenInvariant> {
        let mut top_pieces = [0u16; 2];
        for p in 0..PIECES as u8 {
            let c = self.pos[p as usize];
            if c != NOWHERE && self.top[c as usize] == p {
                top_pieces[color_of(p)] |= 1 << (p as usize % super::pieces::SLOTS);
            }
        }
        if top_pieces != self.top_pieces {
            return Err(BrokenInvariant::TopPieces {
                kept: self.top_pieces,
                recomputed: top_pieces,
            });
        }
        Ok(())
    }

    /// The placed-piece counts per colour and bug, and the bugs left in the
    /// reserve.
    fn counts_agree(&self) -> Result<(), BrokenInvariant> {
        let mut placed = [[0u8; 8]; 2];
        let mut on_board = [0u8; 2];
        for p in 0..PIECES as u8 {
            if self.pos[p as usize] != NOWHERE {
                placed[color_of(p)][bug_index(bug_of(p))] += 1;
                on_board[color_of(p)] += 1;
            }
        }
        // §3.1 the bugs with a piece left in the reserve
        let mut in_reserve = [0u8; 2];
        for (color, kinds) in in_reserve.iter_mut().enumerate() {
            for &b in &self.bug_indices[..self.bug_count as usize] {
                if placed[color][b as usize] < crate::core::Bug::ALL[b as usize].count() {
                    *kinds |= 1 << b;
                }
            }
        }
        if placed != self.placed || on_board != self.on_board || in_reserve != self.in_reserve {
            return Err(BrokenInvariant::Counts);
        }
        Ok(())
    }

    /// The hash, the pinned set and the state against their from-scratch
    /// twins; one recorded undo record per move; the immune piece (§5.10).
    fn derived_state_agrees(&self) -> Result<(), BrokenInvariant> {
        if self.hash != self.hash_slow() {
            return Err(BrokenInvariant::Hash {
                kept: self.hash,
                recomputed: self.hash_slow(),
            });
        }
        if self.encloses != self.encloses_slow() {
            return Err(BrokenInvariant::Encloses {
                kept: self.encloses,
                recomputed: self.encloses_slow(),
            });
        }
        if self.pinned_cells() != self.pinned_slow() {
            return Err(BrokenInvariant::Pinned);
        }
        if self.state != self.compute_state() {
            return Err(BrokenInvariant::State {
                kept: self.state,
                recomputed: self.compute_state(),
            });
        }
        if self.history.len() != self.undo.len() || self.undo.iter().any(|u| !u.recorded) {
            return Err(BrokenInvariant::UndoRecords {
                moves: self.history.len(),
                records: self.undo.len(),
            });
        }
        let at_start = self
            .start
            .and_then(|start| start.last_moved)
            .map_or(NO_PIECE, super::pieces::id_of);
        let immune = self.undo.last().map(|u| u.mv.piece).unwrap_or(at_start);
        if immune != self.immune {
            return Err(BrokenInvariant::Immune {
                kept: self.immune,
                last_moved: immune,
            });
        }
        Ok(())
    }
}

/// An incremental structure of the fast engine that differs from its
/// from-scratch twin: a bug of the fast engine, never of the input. Pieces
/// and cells are the engine's own indices.
// Each variant's message says what its fields are.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BrokenInvariant {
    /// A piece's link points at a piece on another cell.
    #[error("piece {piece} rests on {below}, which is on another cell")]
    RestsAcrossCells { piece: usize, below: u8 },
    /// A piece in the reserve has a stack link.
    #[error("piece {piece} is in reserve but rests on a piece")]
    ReserveRestsOnAPiece { piece: usize },
    /// A cell's kept height is not its number of pieces.
    #[error("cell {cell}: height {kept} but {counted} pieces")]
    Height { cell: usize, kept: u8, counted: u8 },
    /// An empty cell has a top piece.
    #[error("empty cell {cell} has top piece {top}")]
    TopOnEmptyCell { cell: usize, top: u8 },
    /// A cell's top piece is not the uncovered piece on it.
    #[error("cell {cell}: top piece {top} is not the uncovered piece there")]
    TopNotUncovered { cell: usize, top: u8 },
    /// A piece's `Hex` is not its cell.
    #[error("piece {piece}: hex {hex} is not cell {cell}")]
    HexNotCell { piece: usize, hex: Hex, cell: u16 },
    /// A piece stands above the highest level (§2.6).
    #[error("piece {piece} stands at level {level} (§2.6)")]
    TooHigh { piece: usize, level: usize },
    /// The kept masks of adjacent colours of a cell (white, black; bit `d`
    /// for direction `d`) are not the recomputed ones.
    #[error("cell {cell}: adjacent colours {kept:?} but {counted:?} recounted")]
    AdjacentColours {
        cell: usize,
        kept: [u8; 2],
        counted: [u8; 2],
    },
    /// The sets of top pieces differ.
    #[error("top pieces {kept:?} but {recomputed:?} recomputed")]
    TopPieces {
        kept: [u16; 2],
        recomputed: [u16; 2],
    },
    /// The placed-piece counts differ.
    #[error("placed-piece counts differ from the board")]
    Counts,
    /// The incremental hash differs.
    #[error("hash {kept:x} but {recomputed:x} from scratch")]
    Hash { kept: u64, recomputed: u64 },
    /// The kept `1 + E − V − T` of the occupied cells differs.
    #[error("1 + E - V - T is {kept} but {recomputed} from scratch")]
    Encloses { kept: i16, recomputed: i16 },
    /// The pinned set differs from brute force.
    #[error("articulation points differ from brute force")]
    Pinned,
    /// The kept state differs.
    #[error("state {kept} but {recomputed} recomputed")]
    State {
        kept: GameState,
        recomputed: GameState,
    },
    /// The undo records do not match the history.
    #[error("{moves} moves in the history but {records} undo records, not all recorded")]
    UndoRecords { moves: usize, records: usize },
    /// The immune piece is not the one moved last.
    #[error("immune piece {kept} but the last move moved {last_moved}")]
    Immune { kept: u8, last_moved: u8 },
}
