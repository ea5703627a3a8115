//! Perft on the fast engine's own moves, with bulk counting at the last ply:
//! the moves of a position one ply above the leaves are counted, not made.
//!
//! Two plies above the leaves, the cells where the player to move next may
//! place are found once ([`Placeable`]); in each position after a move, only
//! the cells around the two cells the move changed can have gained or lost
//! that status (a placement depends on a cell's emptiness and the colours
//! on top next to it, §3.5, §3.6, §3.7), so their number there is found by
//! recounting at most fourteen cells instead of walking around every stack
//! of the player.

use super::grid::{neighbour, CellSet, MASK, NOWHERE, TOWARD};
use super::pieces::MAX_FRONTIER;
use super::{FastEngine, FastMove};

/// The cells where `color` may place, in a position where the other player
/// is to move.
struct Placeable {
    color: usize,
    cells: CellSet,
    count: usize,
}

impl FastEngine {
    /// Perft with bulk counting, with one reused move buffer per ply.
    pub(super) fn perft_fast(&mut self, depth: u32, buffers: &mut [Vec<FastMove>]) -> u64 {
        let Some((buffer, deeper)) = buffers.split_first_mut() else {
            return 1;
        };
        if depth == 1 {
            return self.count_moves(buffer) as u64;
        }
        self.generate(buffer);
        if depth == 2 {
            if let Some(scratch) = deeper.first_mut() {
                return self.count_children(buffer, scratch);
            }
        }
        let mut nodes = 0;
        for &m in buffer.iter() {
            self.make_with::<false>(m);
            nodes += self.perft_fast(depth - 1, deeper);
            self.unmake_with::<false>();
        }
        nodes
    }

    /// Perft 2 over `moves`, the legal moves here: the legal moves after
    /// each of them, counted.
    fn count_children(&mut self, moves: &[FastMove], scratch: &mut Vec<FastMove>) -> u64 {
        // §3.3, §3.4 the first two placements of the game have rules of
        // their own: before the third, every count is made directly
        let before = (self.on_board[0] + self.on_board[1] >= 2).then(|| {
            let color = 1 - self.side();
            let mut list = [0u16; MAX_FRONTIER];
            let (count, cells) = self.placement_cells(color, &mut list);
            Placeable {
                color,
                cells,
                count,
            }
        });
        let mut nodes = 0;
        for &m in moves {
            let from = if m.is_pass() {
                NOWHERE
            } else {
                self.pos[m.piece as usize]
            };
            self.make_with::<false>(m);
            let count = match &before {
                Some(before) => self.count_moves_with(scratch, |engine| {
                    engine.placement_cells_after(before, from, m.to)
                }),
                None => self.count_moves(scratch),
            };
            nodes += count as u64;
            self.unmake_with::<false>();
        }
        nodes
    }

    /// The number of cells where `before.color` may place now, after the
    /// other player's move from `from` to `to` (`from` is `NOWHERE` for a
    /// placement, both for a pass): `before`'s count, with the cells the move
    /// may have changed recounted.
    fn placement_cells_after(&self, before: &Placeable, from: u16, to: u16) -> usize {
        if to == NOWHERE {
            return before.count;
        }
        if from == NOWHERE {
            // the other player's placement touches none of the player's
            // stacks (§3.6), so `to` was none of the cells; it only takes
            // away those next to it, which now touch the other colour
            let lost = (0..6)
                .filter(|&d| before.cells.contains(neighbour(to, d)))
                .count();
            return before.count - lost;
        }
        let mut count = before.count as isize;
        let mut recount = |cell: u16| {
            count += self.placeable_for(before.color, cell) as isize;
            count -= before.cells.contains(cell) as isize;
        };
        // a cell's status depends on its own stack and those next to it:
        // only the two cells of the move and their neighbours can change
        let near_to =
            |cell: u16| cell == to || TOWARD[(to.wrapping_sub(cell) & MASK as u16) as usize] != 0;
        recount(to);
        for d in 0..6 {
            recount(neighbour(to, d));
        }
        // each cell once: those next to `to` are recounted already
        for cell in std::iter::once(from).chain((0..6).map(|d| neighbour(from, d))) {
            if !near_to(cell) {
                recount(cell);
            }
        }
        count as usize
    }
}
