//! From-scratch twins of the fast engine's incremental structures, and the
//! check that compares them (spec/sources/style-notes.md habit 6).

use super::grid::{cell_of, neighbour, CellSet, CELLS, NOWHERE};
use super::pieces::{bug_index, bug_of, color_of, NO_PIECE, PIECES};
use super::{zobrist, FastEngine};

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

    /// Compares every incremental structure with its from-scratch twin.
    pub fn check_invariants(&self) -> Result<(), String> {
        // heights and tops from the pieces' cells and stack links
        let mut height = [0u8; CELLS];
        let mut covered = [false; PIECES];
        for p in 0..PIECES {
            if self.pos[p] != NOWHERE {
                height[self.pos[p] as usize] += 1;
                let b = self.below[p];
                if b != NO_PIECE {
                    if self.pos[b as usize] != self.pos[p] {
                        return Err(format!("piece {p} rests on {b}, which is on another cell"));
                    }
                    covered[b as usize] = true;
                }
            } else if self.below[p] != NO_PIECE {
                return Err(format!("piece {p} is in reserve but rests on a piece"));
            }
        }
        for (c, &count) in height.iter().enumerate() {
            if count != self.height[c] {
                return Err(format!(
                    "cell {c}: height {} but {count} pieces",
                    self.height[c]
                ));
            }
            let t = self.top[c];
            if count == 0 {
                if t != NO_PIECE {
                    return Err(format!("empty cell {c} has top piece {t}"));
                }
            } else if t == NO_PIECE || self.pos[t as usize] as usize != c || covered[t as usize] {
                return Err(format!(
                    "cell {c}: top piece {t} is not the uncovered piece there"
                ));
            }
        }
        for p in 0..PIECES {
            if self.pos[p] != NOWHERE {
                if cell_of(self.hex[p]) != self.pos[p] {
                    return Err(format!(
                        "piece {p}: hex {} is not cell {}",
                        self.hex[p], self.pos[p]
                    ));
                }
                if self.level_of(p as u8) >= 7 {
                    return Err(format!(
                        "piece {p} stands at level {} (§2.6)",
                        self.level_of(p as u8)
                    ));
                }
            }
        }
        // adjacent stack colours (§2.5, §3.5, §3.6)
        for (c, &count) in height.iter().enumerate() {
            let _ = count;
            let mut adjacent = [0u8; 2];
            for d in 0..6 {
                let t = self.top[neighbour(c as u16, d) as usize];
                if t != NO_PIECE {
                    adjacent[color_of(t)] += 1;
                }
            }
            if adjacent != [self.adjacent_color[0][c], self.adjacent_color[1][c]] {
                return Err(format!(
                    "cell {c}: adjacent colours {:?} but {adjacent:?} recounted",
                    [self.adjacent_color[0][c], self.adjacent_color[1][c]]
                ));
            }
        }
        // the sets of top pieces
        let mut top_pieces = [0u16; 2];
        for p in 0..PIECES as u8 {
            let c = self.pos[p as usize];
            if c != NOWHERE && self.top[c as usize] == p {
                top_pieces[color_of(p)] |= 1 << (p as usize % super::pieces::SLOTS);
            }
        }
        if top_pieces != self.top_pieces {
            return Err(format!(
                "top pieces {:?} but {top_pieces:?} recomputed",
                self.top_pieces
            ));
        }
        // counts
        let mut placed = [[0u8; 8]; 2];
        let mut on_board = [0u8; 2];
        for p in 0..PIECES as u8 {
            if self.pos[p as usize] != NOWHERE {
                placed[color_of(p)][bug_index(bug_of(p))] += 1;
                on_board[color_of(p)] += 1;
            }
        }
        if placed != self.placed || on_board != self.on_board {
            return Err("placed-piece counts differ from the board".to_string());
        }
        // hash, pinned set, state
        if self.hash != self.hash_slow() {
            return Err(format!(
                "hash {:x} but {:x} from scratch",
                self.hash,
                self.hash_slow()
            ));
        }
        if self.pinned_cells() != self.pinned_slow() {
            return Err("articulation points differ from brute force".to_string());
        }
        if self.state != self.compute_state() {
            return Err(format!(
                "state {} but {} recomputed",
                self.state,
                self.compute_state()
            ));
        }
        if self.history.len() != self.undo.len() || self.undo.iter().any(|u| !u.recorded) {
            return Err(format!(
                "{} moves in the history but {} undo records, not all recorded",
                self.history.len(),
                self.undo.len()
            ));
        }
        let immune = self.undo.last().map(|u| u.mv.piece).unwrap_or(NO_PIECE);
        if immune != self.immune {
            return Err(format!(
                "immune piece {} but the last move moved {immune}",
                self.immune
            ));
        }
        Ok(())
    }
}
