//! Move generation of the fast engine (spec chapters 3–7), allocation-free:
//! moves go into the caller's buffer, scratch space is fixed-size on the stack.

use super::grid::{
    clockwise, counterclockwise, directions, neighbour, CellSet, BEFORE_BACK, NOWHERE,
};
use super::pieces::{bug_index, bug_of, FIRST_SLOT, MAX_FRONTIER, NO_PIECE, SLOTS, THROWER_SLOTS};
use super::pinned::Pins;
use super::{FastEngine, FastMove};
use crate::core::Bug;

impl FastEngine {
    /// All legal moves of the side to move (chapters 3 to 8): its placements,
    /// movements and throws, or else a pass (§7.1).
    pub(super) fn generate(&self, out: &mut Vec<FastMove>) {
        out.clear();
        // §8.5 nothing after the end
        if self.state.is_over() {
            return;
        }
        let color = self.side();
        self.placements(color, out);
        // §4.3 nothing moves and no ability is used before the queen is down
        // (so §4.5 leaves only queen placements on a turn the queen is due)
        if self.queen_placed(color) {
            self.movements(color, out, true);
        }
        // §7.2 a pass is legal only when stuck, and then it is the only move
        if out.is_empty() {
            out.push(FastMove::PASS);
        }
    }

    /// The number of legal moves, the same as `generate` would list, with
    /// placements counted rather than listed; `scratch` holds the throws.
    pub(super) fn count_moves(&self, scratch: &mut Vec<FastMove>) -> usize {
        self.count_moves_with(scratch, |engine| engine.placement_cell_count(engine.side()))
    }

    /// [`Self::count_moves`], with the number of cells where the side to
    /// move may place given by `cells` (asked only when it has a piece to
    /// place): [`Self::placement_cell_count`] or the same number found
    /// another way.
    pub(super) fn count_moves_with(
        &self,
        scratch: &mut Vec<FastMove>,
        cells: impl FnOnce(&Self) -> usize,
    ) -> usize {
        scratch.clear();
        // §8.5 nothing after the end
        if self.state.is_over() {
            return 0;
        }
        let color = self.side();
        let kinds = self.placeable_kinds(color);
        // each placeable bug on each cell (§3.1, §3.2)
        let placements = if kinds == 0 {
            0
        } else {
            kinds.count_ones() as usize * cells(self)
        };
        // §4.3 nothing moves before the queen is down
        let movements = if self.queen_placed(color) {
            self.movements(color, scratch, false)
        } else {
            0
        };
        // §7.2 a pass when nothing else is legal
        (placements + movements).max(1)
    }

    /// Placements (§3.1, §3.2, §3.3, §3.4, §3.5, §3.6, §3.7, §3.8, §4.5,
    /// §4.2), pushed to `out`.
    fn placements(&self, color: usize, out: &mut Vec<FastMove>) {
        let kinds = self.placeable_kinds(color);
        if kinds == 0 {
            return;
        }
        let mut cells = [0u16; MAX_FRONTIER];
        let (n, _) = self.placement_cells(color, &mut cells);
        // §1.3 only the bugs of the game type, in their order
        for &b in &self.bug_indices[..self.bug_count as usize] {
            if kinds & (1 << b) == 0 {
                continue;
            }
            // §3.2 the lowest-numbered piece of the bug still in the reserve
            let piece =
                (color * SLOTS) as u8 + FIRST_SLOT[b as usize] + self.placed[color][b as usize];
            out.extend(cells[..n].iter().map(|&to| FastMove { piece, to }));
        }
    }

    /// The bugs `color` may place this turn, as a mask of indices into
    /// `Bug::ALL` (§1.3, §3.1, §4.2, §4.5).
    #[inline(always)]
    fn placeable_kinds(&self, color: usize) -> u8 {
        const QUEEN: u8 = 1 << bug_index(Bug::Queen);
        // §1.3 the bugs of the game type; §3.1 with a piece left in the reserve
        let mut kinds = self.in_reserve[color];
        // §4.4 the player's n-th turn is its n-th ply, passes included
        let turn = 1 + self.plies_played() / 2;
        // §4.5 on the fourth turn, or later with the queen still in reserve,
        // only the queen
        if turn >= 4 && !self.queen_placed(color) {
            kinds &= QUEEN;
        }
        // §4.2 the tournament opening: not the queen as the first placement
        if self.options.tournament_opening && self.on_board[color] == 0 {
            kinds &= !QUEEN;
        }
        kinds
    }

    /// The cells where `color` may place a piece, each once, into `cells`,
    /// in the order met; returns how many, and, from the third placement of
    /// the game on, the set of them (empty before).
    pub(super) fn placement_cells(
        &self,
        color: usize,
        cells: &mut [u16; MAX_FRONTIER],
    ) -> (usize, CellSet) {
        let total = self.on_board[0] + self.on_board[1];
        if total == 0 {
            // §3.3 the first piece of the game goes to the origin
            cells[0] = 0;
            return (1, CellSet::EMPTY);
        }
        if total == 1 {
            // §3.4 the second piece touches the first, whatever its colour
            let first = self
                .pos
                .iter()
                .copied()
                .find(|&c| c != NOWHERE)
                .unwrap_or(0);
            for (d, cell) in cells.iter_mut().take(6).enumerate() {
                *cell = neighbour(first, d);
            }
            return (6, CellSet::EMPTY);
        }
        // Every later placement: §3.8 no contact or gate test (a hole is a
        // legal cell), only the colour rules and an empty cell.
        let enemy = 1 - color;
        let mut seen = CellSet::EMPTY;
        let mut n = 0;
        // §3.5 next to a stack of the player's colour (its top, §2.5)
        for p in self.tops_of(color) {
            let c = self.pos[p as usize];
            // §3.7 an empty cell
            for d in directions(!self.occupied_around(c) & 0x3f) {
                let x = neighbour(c, d);
                // §3.6 next to no enemy stack
                if self.color_around(enemy, x) == 0 && !seen.contains(x) && n < cells.len() {
                    seen.insert(x);
                    cells[n] = x;
                    n += 1;
                }
            }
        }
        (n, seen)
    }

    /// Whether `color` may place on `cell`, from the third placement of the
    /// game on: §3.7 an empty cell, §3.5 next to a stack of the player's
    /// colour, §3.6 and next to none of the opponent's.
    #[inline(always)]
    pub(super) fn placeable_for(&self, color: usize, cell: u16) -> bool {
        self.height[cell as usize] == 0
            && self.color_around(color, cell) != 0
            && self.color_around(1 - color, cell) == 0
    }

    /// How many cells [`Self::placement_cells`] finds, counted without
    /// listing them.
    fn placement_cell_count(&self, color: usize) -> usize {
        let total = self.on_board[0] + self.on_board[1];
        if total <= 1 {
            // §3.3 the origin first; §3.4 then any neighbour of the first piece
            return if total == 0 { 1 } else { 6 };
        }
        let enemy = 1 - color;
        let mut n = 0;
        // §3.5 next to a stack of the player's colour (its top, §2.5)
        for p in self.tops_of(color) {
            let c = self.pos[p as usize];
            // §3.7 an empty cell
            for d in directions(!self.occupied_around(c) & 0x3f) {
                let x = neighbour(c, d);
                // §3.6 next to no enemy stack; a cell next to several of the
                // player's stacks counts once, from the first of them in
                // direction order around the cell
                let earlier = BEFORE_BACK[d];
                if self.color_around(enemy, x) == 0 && self.color_around(color, x) & earlier == 0 {
                    n += 1;
                }
            }
        }
        n
    }

    /// Movements (§5.1) and throws (§6.8.2).
    ///
    /// With `list` false, the throws are still pushed to `out` (they are few,
    /// and needed to find duplicates) but the pieces' own moves are only
    /// counted. Returns the number of moves.
    fn movements(&self, color: usize, out: &mut Vec<FastMove>, list: bool) -> usize {
        let mut pins = Pins::default();
        // Throws first (§6.8.2), deduplicated among throwers (§5.9).
        let throws_start = out.len();
        let mut thrown_mask: u32 = 0;
        // §6.8.3 a covered pillbug does not throw: the player's top pieces
        // only; without a pillbug or a mosquito among them, none throws
        if self.top_pieces[color] & THROWER_SLOTS != 0 {
            for p in self.tops_of(color) {
                if self.can_throw(p) {
                    let c = self.pos[p as usize];
                    self.throws(c, &mut pins, throws_start, &mut thrown_mask, out);
                }
            }
        }
        let throws_end = out.len();
        let mut count = throws_end - throws_start;
        // §5.1 the player's own pieces; §5.2 top pieces only
        for p in self.tops_of(color) {
            // §5.10 the piece moved last turn does not move; §5.3 One Hive:
            // a pinned piece does not move
            if p == self.immune || pins.is_pinned(self, p) {
                continue;
            }
            let c = self.pos[p as usize];
            let thrown = thrown_mask & (1 << p) != 0;
            if !list && !thrown {
                count += self.destination_count(bug_of(p), c);
                continue;
            }
            let mut dests = CellSet::EMPTY;
            self.destinations(bug_of(p), c, &mut dests);
            dests.for_each(|to| {
                // §5.9 a throw and a move to the same cell are one move
                if thrown && out[throws_start..throws_end].contains(&FastMove { piece: p, to }) {
                    return;
                }
                count += 1;
                if list {
                    out.push(FastMove { piece: p, to });
                }
            });
        }
        count
    }

    /// Whether the player's top piece `p` may throw this turn (§6.8.2).
    fn can_throw(&self, p: u8) -> bool {
        // §5.10 the piece moved last turn uses no ability; a mosquito's own
        // immunity decides, not its pillbug's (§6.7.5)
        if p == self.immune {
            return false;
        }
        // §6.8.6 no One Hive or gate test of the thrower: a pinned or gated
        // pillbug throws
        match bug_of(p) {
            // §6.8.2 the player's own pillbug
            Bug::Pillbug => true,
            // §6.7.5 a mosquito on the ground next to a pillbug (a top
            // piece, §6.7.3); on a stack it is only a beetle (§6.7.4)
            Bug::Mosquito => {
                let c = self.pos[p as usize];
                self.height[c as usize] == 1 && self.touches_bug(c, Bug::Pillbug)
            }
            _ => false,
        }
    }

    /// Whether a top piece of bug `bug` is next to `cell`.
    fn touches_bug(&self, cell: u16, bug: Bug) -> bool {
        (0..6).any(|d| {
            let t = self.top[neighbour(cell, d) as usize];
            t != NO_PIECE && bug_of(t) == bug
        })
    }

    /// The throws of a pillbug (or mosquito) at `p` (§6.8.2): of a piece of
    /// either colour, the queen included (§1.9), subject to §5.10, §6.8.3,
    /// §6.8.4, §6.8.5 and §6.8.8. The pillbug stands on the ground, so
    /// `h(p) = 1` in both halves of the throw.
    fn throws(
        &self,
        p: u16,
        pins: &mut Pins,
        start: usize,
        thrown_mask: &mut u32,
        out: &mut Vec<FastMove>,
    ) {
        for d1 in 0..6 {
            let t = neighbour(p, d1);
            // §6.8.3 the thrown piece is alone in its cell (an empty cell
            // holds no piece to throw)
            if self.height[t as usize] != 1 {
                continue;
            }
            let target = self.top[t as usize];
            // §5.10 the piece moved last turn is not thrown; §6.8.4 lifting
            // it keeps one hive
            if target == self.immune || pins.is_pinned(self, target) {
                continue;
            }
            // §6.8.5 the climb onto the pillbug obeys §5.6: flanks of the
            // edge t–p, with h(t) = 0 once lifted and h(p) = 1
            let l = self.h(neighbour(p, counterclockwise(d1)), t);
            let r = self.h(neighbour(p, clockwise(d1)), t);
            if l.min(r) > 1 {
                continue;
            }
            for d2 in 0..6 {
                let to = neighbour(p, d2);
                // §6.8.8 an empty cell next to the pillbug, not where it came from
                if to == t || self.height[to as usize] != 0 {
                    continue;
                }
                // §6.8.5 the drop obeys §5.6, with the target lifted:
                // h(p) = 1, h(d) = 0
                let l = self.h(neighbour(p, counterclockwise(d2)), t);
                let r = self.h(neighbour(p, clockwise(d2)), t);
                if l.min(r) > 1 {
                    continue;
                }
                let m = FastMove { piece: target, to };
                // §5.9 two pillbugs throwing one piece to one cell: one move
                if !out[start..].contains(&m) {
                    *thrown_mask |= 1 << target;
                    out.push(m);
                }
            }
        }
    }
}
