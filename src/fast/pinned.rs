//! Pinned pieces (§5.3 One Hive): the pieces alone on a cell whose lifting
//! would split the hive (§2.7), that is the articulation points of the graph
//! of occupied cells.
//!
//! Mostly without a search: when a piece's occupied neighbours form one
//! unbroken run around it ([`ONE_RUN`]), each of them touches the next, so
//! the hive stays connected without it. When they form two runs or more and
//! the hive encloses no empty cell (kept incrementally, see
//! `grid::ENCLOSES`), it is pinned. Only in a hive that encloses an empty
//! cell, when a piece that could move has two runs or more, is the hive
//! searched, once for all pieces, by Tarjan's depth-first search in time
//! linear in the number of occupied cells. Pinned pieces are a mask of piece ids (the top
//! piece of each cell), bit `p` for piece `p`.

use super::grid::{directions, neighbour, CellSet, NOWHERE, ONE_RUN};
use super::pieces::PIECES;
use super::FastEngine;

/// The state of Tarjan's search, indexed by the top piece of a cell.
struct Tarjan {
    discovered: [u8; PIECES],
    low: [u8; PIECES],
    timer: u8,
    pinned: u32,
}

impl FastEngine {
    /// Which of `candidates` (a mask of top pieces) are pinned (§5.3), as a
    /// mask of top pieces; it may hold pinned pieces outside `candidates`.
    pub(super) fn pinned_among(&self, candidates: u32) -> u32 {
        if self.encloses == 0 {
            return self.pinned_without_enclosure(candidates);
        }
        let mut bits = candidates;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if !ONE_RUN[self.occupied_around(self.pos[p]) as usize] {
                return self.articulation_pieces();
            }
        }
        0
    }

    /// Which of `candidates` are pinned when the hive encloses no empty
    /// cell: those whose occupied neighbours form two runs or more. Two runs
    /// joined by a path around the piece would make, with the piece, a
    /// loop of occupied cells with an empty neighbour of the piece inside
    /// it: an enclosed empty cell.
    fn pinned_without_enclosure(&self, candidates: u32) -> u32 {
        let mut pinned = 0;
        let mut bits = candidates;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if !ONE_RUN[self.occupied_around(self.pos[p]) as usize] {
                pinned |= 1 << p;
            }
        }
        pinned
    }

    /// The cells of the pinned pieces among all top pieces: what the twin
    /// `pinned_slow` recomputes by brute force (it checks the run shortcut
    /// and the search alike).
    pub(crate) fn pinned_cells(&self) -> CellSet {
        let tops = self.top_pieces[0] as u32 | (self.top_pieces[1] as u32) << super::pieces::SLOTS;
        let mut cells = CellSet::EMPTY;
        let mut bits = self.pinned_among(tops);
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            cells.insert(self.pos[p]);
        }
        cells
    }

    /// The top pieces of the articulation points of the hive, by Tarjan's
    /// depth-first search from any occupied cell.
    fn articulation_pieces(&self) -> u32 {
        let Some(start) = self.pos.iter().copied().find(|&c| c != NOWHERE) else {
            return 0;
        };
        let mut search = Tarjan {
            discovered: [0; PIECES],
            low: [0; PIECES],
            timer: 0,
            pinned: 0,
        };
        self.articulation(start, NOWHERE, &mut search);
        search.pinned
    }

    fn articulation(&self, v: u16, parent: u16, search: &mut Tarjan) {
        let vi = self.top[v as usize] as usize;
        search.timer += 1;
        search.discovered[vi] = search.timer;
        search.low[vi] = search.timer;
        let mut children = 0;
        for d in directions(self.occupied_around(v)) {
            let w = neighbour(v, d);
            let wi = self.top[w as usize] as usize;
            if search.discovered[wi] == 0 {
                children += 1;
                self.articulation(w, v, search);
                search.low[vi] = search.low[vi].min(search.low[wi]);
                if parent != NOWHERE && search.low[wi] >= search.discovered[vi] {
                    search.pinned |= 1 << vi;
                }
            } else if w != parent {
                search.low[vi] = search.low[vi].min(search.discovered[wi]);
            }
        }
        if parent == NOWHERE && children > 1 {
            search.pinned |= 1 << vi;
        }
    }
}
