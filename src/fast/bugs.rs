//! Where each bug goes (spec chapter 6), on the fast engine's board.
//!
//! Ground steps (§5.4, §5.5) are read from the masks of occupied neighbours
//! that the board keeps per cell (`FastEngine::occupied_around`) and the
//! table [`SLIDES`]: the steps from a cell are one table look-up, with the
//! moving piece lifted by clearing the bit that points at its cell
//! ([`TOWARD`]). Steps that may climb (§5.6) compare heights.
//!
//! Each bug has a function that lists its destinations into a [`CellSet`]
//! (for move lists, in cell order) and, for the bulk counting of perft's
//! last ply, [`FastEngine::destination_count`], which counts them without
//! listing where the bug's destinations are distinct by construction.

use super::grid::{
    clockwise, counterclockwise, directions, neighbour, CellSet, MASK, SLIDES, TOWARD,
};
use super::pieces::{bug_index, bug_of, MAX_FRONTIER, NO_PIECE};
use super::FastEngine;
use crate::core::Bug;

impl FastEngine {
    /// Height of `cell` with the piece at `lifted` taken off: the moving piece
    /// is lifted from its starting cell for the whole move (§5.4, §5.6), the
    /// thrown piece from its cell for both halves of a throw (§6.8.5).
    #[inline(always)]
    pub(super) fn h(&self, cell: u16, lifted: u16) -> u8 {
        self.height[cell as usize] - (cell == lifted) as u8
    }

    /// One step from `from` in direction `d`, on the ground or at height, with
    /// the mover lifted from `lifted` (§5.4, §5.5, §5.6). The two flanks are
    /// the common neighbours of the edge (§2.9).
    #[inline(always)]
    fn step_ok(&self, from: u16, d: usize, lifted: u16) -> bool {
        let to = neighbour(from, d);
        let hf = self.h(from, lifted);
        let ht = self.h(to, lifted);
        let l = self.h(neighbour(from, counterclockwise(d)), lifted);
        let r = self.h(neighbour(from, clockwise(d)), lifted);
        if hf == 0 && ht == 0 {
            // §5.4 a ground step keeps contact (a flank occupied) and §5.5 it
            // passes no gate (not both): exactly one flank occupied
            (l > 0) != (r > 0)
        } else {
            // §5.6 the height gate: blocked iff min(L, R) > max(h(a), h(b));
            // a step that starts or ends on a stack touches the hive (§5.4)
            l.min(r) <= hf.max(ht)
        }
    }

    /// The directions of the ground steps (§5.4, §5.5) from the empty cell
    /// `x`, with the piece on `lifted` lifted; that piece stands alone on
    /// its cell (only a beetle or a mosquito climbs, and they step by
    /// [`Self::step_ok`]), so its cell is empty once lifted.
    #[inline(always)]
    fn slides_from(&self, x: u16, lifted: u16) -> u8 {
        let toward_lifted = TOWARD[(lifted.wrapping_sub(x) & MASK as u16) as usize];
        SLIDES[(self.occupied_around(x) & !toward_lifted) as usize]
    }

    /// The destinations of the top piece at `c` moving as `bug` (chapter 6).
    pub(super) fn destinations(&self, bug: Bug, c: u16, dests: &mut CellSet) {
        match bug {
            Bug::Queen | Bug::Pillbug => self.step_destinations(c, dests),
            Bug::Beetle => self.beetle_destinations(c, dests),
            Bug::Grasshopper => self.grasshopper_destinations(c, dests),
            Bug::Spider => self.spider_destinations(c, dests),
            Bug::Ant => {
                let (reached, _) = self.ant_flood(c);
                dests.union_with(&reached);
            }
            Bug::Ladybug => self.ladybug_destinations(c, dests),
            Bug::Mosquito => self.mosquito_destinations(c, dests),
        }
    }

    /// How many destinations the top piece at `c` has moving as `bug`: the
    /// size of [`Self::destinations`], counted without listing them where
    /// different ways cannot reach one cell (one step or one jump per
    /// direction; each cell of the ant's flood once).
    pub(super) fn destination_count(&self, bug: Bug, c: u16) -> usize {
        match bug {
            // §6.1, §6.8.1 one ground step per direction
            Bug::Queen | Bug::Pillbug => self.slides_from(c, c).count_ones() as usize,
            // §6.2.1 one step per direction
            Bug::Beetle => self.beetle_steps(c).count_ones() as usize,
            // §6.3.1 one jump over each occupied neighbour, each to its own cell
            Bug::Grasshopper => self.occupied_around(c).count_ones() as usize,
            Bug::Ant => self.ant_flood(c).1,
            Bug::Spider | Bug::Ladybug | Bug::Mosquito => {
                let mut dests = CellSet::EMPTY;
                self.destinations(bug, c, &mut dests);
                dests.len()
            }
        }
    }

    /// Queen Bee (§6.1) and Pillbug (§6.8.1) movement: one ground step.
    fn step_destinations(&self, c: u16, dests: &mut CellSet) {
        // §6.1, §6.8.1 one ground step to an adjacent empty cell (§5.4, §5.5)
        for d in directions(self.slides_from(c, c)) {
            dests.insert(neighbour(c, d));
        }
    }

    /// The directions of the beetle's steps from `c` (§6.2.1): to any
    /// adjacent cell, empty or occupied, by the height gate rule (§6.2.2),
    /// onto a stack of any height (§6.2.3).
    fn beetle_steps(&self, c: u16) -> u8 {
        let mut steps = 0;
        for d in 0..6 {
            // §6.2.1 a step between ground cells is a ground step (§5.4,
            // §5.5); §6.2.2 every step obeys §5.6; §6.2.3 no limit on the
            // height of the stack climbed
            if self.step_ok(c, d, c) {
                steps |= 1 << d;
            }
        }
        steps
    }

    /// Beetle movement (§6.2.1): one step in each direction of
    /// [`Self::beetle_steps`].
    fn beetle_destinations(&self, c: u16, dests: &mut CellSet) {
        for d in directions(self.beetle_steps(c)) {
            dests.insert(neighbour(c, d));
        }
    }

    /// Grasshopper movement (§6.3.1): a straight jump over at least one piece
    /// (§6.3.2), tested against no contact or gate rule (§6.3.3).
    fn grasshopper_destinations(&self, c: u16, dests: &mut CellSet) {
        // §6.3.2 no jump over nothing: only towards an occupied neighbour
        for d in directions(self.occupied_around(c)) {
            let mut cell = neighbour(c, d);
            // §6.3.1 over consecutive occupied cells of any height
            while self.height[cell as usize] > 0 {
                cell = neighbour(cell, d);
            }
            // §6.3.1 to the first empty cell; §6.3.3 no §5.4, §5.5 or §5.6 test
            dests.insert(cell);
        }
    }

    /// Spider movement (§6.4.1): exactly three ground steps with the spider
    /// lifted, no cell twice (§6.4.2), each judged only by §5.4 and §5.5, so
    /// the spider may switch sides of the hive (§6.4.3).
    fn spider_destinations(&self, c: u16, dests: &mut CellSet) {
        // §6.4.1 the first ground step; §6.4.3 judged by §5.4, §5.5 alone
        for d1 in directions(self.slides_from(c, c)) {
            let a = neighbour(c, d1);
            // §6.4.1 the second ground step
            for d2 in directions(self.slides_from(a, c)) {
                let b = neighbour(a, d2);
                // §6.4.2 the spider never revisits a cell: not back to its start
                if b == c {
                    continue;
                }
                // §6.4.1 the third ground step
                for d3 in directions(self.slides_from(b, c)) {
                    let e = neighbour(b, d3);
                    // §6.4.2 the spider never revisits a cell: not back to its
                    // first cell, nor to its start (§5.7)
                    if e != a && e != c {
                        dests.insert(e);
                    }
                }
            }
        }
    }

    /// Soldier Ant movement (§6.5): every cell reachable by one or more
    /// ground steps with the ant lifted, and how many there are.
    fn ant_flood(&self, c: u16) -> (CellSet, usize) {
        let mut queue = [0u16; MAX_FRONTIER + 1];
        let mut seen = CellSet::EMPTY;
        seen.insert(c);
        queue[0] = c;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let x = queue[head];
            head += 1;
            // §6.5 each step a ground step (§5.4, §5.5)
            for d in directions(self.slides_from(x, c)) {
                let y = neighbour(x, d);
                if !seen.contains(y) && tail < queue.len() {
                    seen.insert(y);
                    queue[tail] = y;
                    tail += 1;
                }
            }
        }
        // §6.5 any cell so reachable other than its start (§5.7)
        seen.remove(c);
        (seen, tail - 1)
    }

    /// Ladybug movement (§6.6.1): up, across, down, each step by the height
    /// gate rule with the ladybug lifted (§6.6.2), down into any empty cell
    /// but its start (§6.6.6).
    fn ladybug_destinations(&self, c: u16, dests: &mut CellSet) {
        for d1 in 0..6 {
            let a = neighbour(c, d1);
            // §6.6.1 the first step goes up onto an occupied cell; §6.6.2 by §5.6
            if self.h(a, c) == 0 || !self.step_ok(c, d1, c) {
                continue;
            }
            for d2 in 0..6 {
                let b = neighbour(a, d2);
                // §6.6.1 the second goes across onto an occupied cell; §6.6.2 by §5.6
                if self.h(b, c) == 0 || !self.step_ok(a, d2, c) {
                    continue;
                }
                for d3 in 0..6 {
                    let e = neighbour(b, d3);
                    // §6.6.6 not back to its start (§5.7), and §6.6.5 not on top of
                    // the hive: the third step goes down to an empty cell
                    if e == c || self.h(e, c) != 0 {
                        continue;
                    }
                    // §6.6.2 the drop by §5.6 alone, so §6.6.4 a hole is allowed
                    if self.step_ok(b, d3, c) {
                        dests.insert(e);
                    }
                }
            }
        }
    }

    /// Mosquito movement (§6.7.1): as every bug it touches.
    fn mosquito_destinations(&self, c: u16, dests: &mut CellSet) {
        // §6.7.4 on top of the hive: only a beetle
        if self.height[c as usize] > 1 {
            return self.beetle_destinations(c, dests);
        }
        let mut copied = 0u8;
        for d in directions(self.occupied_around(c)) {
            // §6.7.3 only the top piece of an adjacent stack is copied
            let t = self.top[neighbour(c, d) as usize];
            if t != NO_PIECE {
                copied |= 1 << bug_index(bug_of(t));
            }
        }
        // §6.7.2 copying a mosquito gives no movement
        copied &= !(1 << bug_index(Bug::Mosquito));
        // §6.7.1 the union of the copied bugs' destinations (a copied
        // pillbug gives its step here, its throws in `movements`, §6.7.5)
        for bug in Bug::ALL {
            if copied & (1 << bug_index(bug)) != 0 {
                self.destinations(bug, c, dests);
            }
        }
    }
}
