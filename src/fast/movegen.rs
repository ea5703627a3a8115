//! Move generation of the fast engine (spec chapters 3–7), allocation-free:
//! moves go into the caller's buffer, scratch space is fixed-size on the stack.

use super::grid::{clockwise, counterclockwise, neighbour, CellSet, NOWHERE};
use super::pieces::{bug_index, bug_of, FIRST_SLOT, NO_PIECE, PIECES, SLOTS};
use super::{FastEngine, FastMove};
use crate::core::Bug;

/// The state of Tarjan's search, indexed by the top piece of a cell.
struct Tarjan {
    discovered: [u8; PIECES],
    low: [u8; PIECES],
    timer: u8,
}

/// Most empty cells that can touch a hive of 28 pieces (6 per piece).
const MAX_FRONTIER: usize = 6 * PIECES;

impl FastEngine {
    /// Height of `cell` with the piece at `lifted` taken off: the moving piece
    /// is lifted from its starting cell for the whole move (§5.4, §5.6), the
    /// thrown piece from its cell for both halves of a throw (§6.8.5).
    #[inline(always)]
    fn h(&self, cell: u16, lifted: u16) -> u8 {
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

    /// A ground step (§5.4, §5.5) from `from` in direction `d` to an empty cell.
    #[inline(always)]
    fn slide_ok(&self, from: u16, d: usize, lifted: u16) -> bool {
        let to = neighbour(from, d);
        // §5.4 a ground step goes from an empty cell to an empty cell
        if self.h(to, lifted) != 0 {
            return false;
        }
        let l = self.h(neighbour(from, counterclockwise(d)), lifted) > 0;
        let r = self.h(neighbour(from, clockwise(d)), lifted) > 0;
        // §5.4 contact (a flank occupied) and §5.5 no gate (not both)
        l != r
    }

    /// All legal moves of the side to move (chapters 3 to 8): its placements,
    /// movements and throws, or else a pass (§7.1).
    pub(super) fn generate(&self, out: &mut Vec<FastMove>) {
        out.clear();
        // §8.5 nothing after the end
        if self.state.is_over() {
            return;
        }
        let color = self.side();
        self.placements(color, Some(out));
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
    /// placements counted rather than listed; `scratch` holds the movements.
    pub(super) fn count_moves(&self, scratch: &mut Vec<FastMove>) -> usize {
        scratch.clear();
        // §8.5 nothing after the end
        if self.state.is_over() {
            return 0;
        }
        let color = self.side();
        let placements = self.placements(color, None);
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
    /// §4.2): pushed to `out`, or, with `None`, only counted (bulk counting at
    /// the last ply of perft). Returns how many there are.
    fn placements(&self, color: usize, mut out: Option<&mut Vec<FastMove>>) -> usize {
        let plies = self.undo.len();
        // §4.4 the player's n-th turn is its n-th ply, passes included
        let turn = 1 + plies / 2;
        let queen_placed = self.queen_placed(color);
        // §4.5 on the fourth turn, or later with the queen still in reserve
        let queen_due = turn >= 4 && !queen_placed;
        // §4.2 the tournament opening: not the queen as the first placement
        let queen_forbidden = self.options.tournament_opening && self.on_board[color] == 0;
        let mut cells = [0u16; MAX_FRONTIER];
        let mut n = 0;
        let total = self.on_board[0] + self.on_board[1];
        if total == 0 {
            // §3.3 the first piece of the game goes to the origin
            cells[0] = 0;
            n = 1;
        } else if total == 1 {
            // §3.4 the second piece touches the first, whatever its colour
            let first = self
                .pos
                .iter()
                .copied()
                .find(|&c| c != NOWHERE)
                .unwrap_or(0);
            for d in 0..6 {
                cells[n] = neighbour(first, d);
                n += 1;
            }
        } else {
            // Every later placement: §3.8 no contact or gate test (a hole is
            // a legal cell), only the colour rules and an empty cell.
            let enemy = 1 - color;
            if out.is_none() {
                // Counting only: a cell touching k own stacks is met k times,
                // so each meeting weighs 60 / k (60 is divisible by 1..=6).
                let mut weight = 0usize;
                // §3.5 next to a stack of the player's colour (its top, §2.5)
                for p in self.tops_of(color) {
                    let c = self.pos[p as usize];
                    for d in 0..6 {
                        let x = neighbour(c, d) as usize;
                        // §3.7 an empty cell; §3.6 next to no enemy stack
                        if self.height[x] == 0 && self.adjacent_color[enemy][x] == 0 {
                            weight += 60 / self.adjacent_color[color][x] as usize;
                        }
                    }
                }
                n = weight / 60;
            } else {
                let mut seen = CellSet::EMPTY;
                // §3.5 next to a stack of the player's colour (its top, §2.5)
                for p in self.tops_of(color) {
                    let c = self.pos[p as usize];
                    for d in 0..6 {
                        let x = neighbour(c, d);
                        // §3.7 an empty cell; §3.6 next to no enemy stack
                        if self.height[x as usize] == 0
                            && self.adjacent_color[enemy][x as usize] == 0
                            && !seen.contains(x)
                        {
                            seen.insert(x);
                            cells[n] = x;
                            n += 1;
                        }
                    }
                }
            }
        }
        let mut count = 0;
        // §1.3 only the bugs of the game type
        for &b in &self.bug_indices[..self.bug_count as usize] {
            let b = b as usize;
            let bug = Bug::ALL[b];
            // §3.1 a piece of the player's reserve: none left of this bug
            if self.placed[color][b] >= bug.count() {
                continue;
            }
            let is_queen = bug == Bug::Queen;
            // §4.5 only the queen when it is due; §4.2 not the queen first
            if (queen_due && !is_queen) || (queen_forbidden && is_queen) {
                continue;
            }
            // §3.2 the lowest-numbered piece of the bug still in the reserve
            let piece = (color * SLOTS) as u8 + FIRST_SLOT[b] + self.placed[color][b];
            count += n;
            if let Some(out) = out.as_deref_mut() {
                out.extend(cells[..n].iter().map(|&to| FastMove { piece, to }));
            }
        }
        count
    }

    /// Articulation points of the hive: the cells whose removal disconnects
    /// it (§5.3, §2.7), by Tarjan's depth-first search. The search state is
    /// indexed by the top piece of each cell (at most 28), not by cell.
    pub(super) fn pinned_cells(&self) -> CellSet {
        let mut pinned = CellSet::EMPTY;
        let Some(start) = self.pos.iter().copied().find(|&c| c != NOWHERE) else {
            return pinned;
        };
        let mut search = Tarjan {
            discovered: [0; PIECES],
            low: [0; PIECES],
            timer: 0,
        };
        self.articulation(start, NOWHERE, &mut search, &mut pinned);
        pinned
    }

    fn articulation(&self, v: u16, parent: u16, search: &mut Tarjan, pinned: &mut CellSet) {
        let vi = self.top[v as usize] as usize;
        search.timer += 1;
        search.discovered[vi] = search.timer;
        search.low[vi] = search.timer;
        let mut children = 0;
        for d in 0..6 {
            let w = neighbour(v, d);
            let wi = self.top[w as usize];
            if wi == NO_PIECE {
                continue;
            }
            let wi = wi as usize;
            if search.discovered[wi] == 0 {
                children += 1;
                self.articulation(w, v, search, pinned);
                search.low[vi] = search.low[vi].min(search.low[wi]);
                if parent != NOWHERE && search.low[wi] >= search.discovered[vi] {
                    pinned.insert(v);
                }
            } else if w != parent {
                search.low[vi] = search.low[vi].min(search.discovered[wi]);
            }
        }
        if parent == NOWHERE && children > 1 {
            pinned.insert(v);
        }
    }

    /// Movements (§5.1) and throws (§6.8.2).
    ///
    /// With `list` false, the throws are still pushed to `out` (they are few,
    /// and needed to find duplicates) but the pieces' own moves are only
    /// counted. Returns the number of moves.
    fn movements(&self, color: usize, out: &mut Vec<FastMove>, list: bool) -> usize {
        let pinned = self.pinned_cells();
        // Throws first (§6.8.2), deduplicated among throwers (§5.9).
        let throws_start = out.len();
        let mut thrown_mask: u32 = 0;
        // §6.8.3 a covered pillbug does not throw: the player's top pieces only
        for p in self.tops_of(color) {
            let c = self.pos[p as usize];
            // §5.10 the piece moved last turn uses no ability; a mosquito's own
            // immunity decides, not its pillbug's (§6.7.5)
            if p == self.immune {
                continue;
            }
            let can_throw = match bug_of(p) {
                // §6.8.2 the player's own pillbug
                Bug::Pillbug => true,
                // §6.7.5 a mosquito on the ground next to a pillbug (a top
                // piece, §6.7.3); on a stack it is only a beetle (§6.7.4)
                Bug::Mosquito => self.height[c as usize] == 1 && self.touches_bug(c, Bug::Pillbug),
                _ => false,
            };
            // §6.8.6 no One Hive or gate test of the thrower: a pinned or
            // gated pillbug throws
            if can_throw {
                self.throws(c, &pinned, throws_start, &mut thrown_mask, out);
            }
        }
        let throws_end = out.len();
        let mut count = throws_end - throws_start;
        // §5.1 the player's own pieces; §5.2 top pieces only
        for p in self.tops_of(color) {
            let c = self.pos[p as usize];
            // §5.10 the piece moved last turn does not move
            if p == self.immune {
                continue;
            }
            // §5.3 One Hive: a lone piece on an articulation point is pinned;
            // a piece on a stack leaves its cell occupied and never is
            if self.height[c as usize] == 1 && pinned.contains(c) {
                continue;
            }
            let mut dests = CellSet::EMPTY;
            self.destinations(bug_of(p), c, &mut dests);
            let thrown = thrown_mask & (1 << p) != 0;
            if !list && !thrown {
                count += dests.len();
                continue;
            }
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
        pinned: &CellSet,
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
            if target == self.immune || pinned.contains(t) {
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

    /// The destinations of the top piece at `c` moving as `bug` (chapter 6).
    fn destinations(&self, bug: Bug, c: u16, dests: &mut CellSet) {
        match bug {
            Bug::Queen | Bug::Pillbug => self.step_destinations(c, dests),
            Bug::Beetle => self.beetle_destinations(c, dests),
            Bug::Grasshopper => self.grasshopper_destinations(c, dests),
            Bug::Spider => self.spider_destinations(c, dests),
            Bug::Ant => self.ant_destinations(c, dests),
            Bug::Ladybug => self.ladybug_destinations(c, dests),
            Bug::Mosquito => {
                // §6.7.4 on top of the hive: only a beetle
                if self.height[c as usize] > 1 {
                    return self.beetle_destinations(c, dests);
                }
                let mut copied = 0u8;
                for d in 0..6 {
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
    }

    /// Queen Bee (§6.1) and Pillbug (§6.8.1) movement: one ground step.
    fn step_destinations(&self, c: u16, dests: &mut CellSet) {
        for d in 0..6 {
            // §6.1, §6.8.1 one ground step to an adjacent empty cell (§5.4, §5.5)
            if self.slide_ok(c, d, c) {
                dests.insert(neighbour(c, d));
            }
        }
    }

    /// Beetle movement (§6.2.1): one step to any adjacent cell, empty or
    /// occupied, by the height gate rule (§6.2.2), onto a stack of any
    /// height (§6.2.3).
    fn beetle_destinations(&self, c: u16, dests: &mut CellSet) {
        for d in 0..6 {
            // §6.2.1 a step between ground cells is a ground step (§5.4,
            // §5.5); §6.2.2 every step obeys §5.6; §6.2.3 no limit on the
            // height of the stack climbed
            if self.step_ok(c, d, c) {
                dests.insert(neighbour(c, d));
            }
        }
    }

    /// Grasshopper movement (§6.3.1): a straight jump over at least one piece
    /// (§6.3.2), tested against no contact or gate rule (§6.3.3).
    fn grasshopper_destinations(&self, c: u16, dests: &mut CellSet) {
        for d in 0..6 {
            let mut cell = neighbour(c, d);
            // §6.3.2 no jump over nothing
            if self.height[cell as usize] == 0 {
                continue;
            }
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
        for d1 in 0..6 {
            // §6.4.1 the first ground step; §6.4.3 judged by §5.4, §5.5 alone
            if !self.slide_ok(c, d1, c) {
                continue;
            }
            let a = neighbour(c, d1);
            for d2 in 0..6 {
                // §6.4.1 the second ground step
                if !self.slide_ok(a, d2, c) {
                    continue;
                }
                let b = neighbour(a, d2);
                // §6.4.2 the spider never revisits a cell: not back to its start
                if b == c {
                    continue;
                }
                for d3 in 0..6 {
                    // §6.4.1 the third ground step
                    if !self.slide_ok(b, d3, c) {
                        continue;
                    }
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
    /// ground steps with the ant lifted.
    fn ant_destinations(&self, c: u16, dests: &mut CellSet) {
        let mut queue = [0u16; MAX_FRONTIER + 1];
        let mut seen = CellSet::EMPTY;
        // §6.5 any cell so reachable other than its start (§5.7)
        seen.insert(c);
        queue[0] = c;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let x = queue[head];
            head += 1;
            for d in 0..6 {
                // §6.5 each step a ground step (§5.4, §5.5)
                if !self.slide_ok(x, d, c) {
                    continue;
                }
                let y = neighbour(x, d);
                if !seen.contains(y) && tail < queue.len() {
                    seen.insert(y);
                    dests.insert(y);
                    queue[tail] = y;
                    tail += 1;
                }
            }
        }
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
}
