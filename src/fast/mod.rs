//! The fast engine: an incremental Hive engine written for speed, checked
//! against the reference engine on every position by the differential tests.
//!
//! It implements the same rules as `src/reference/` (the clauses of `spec/`)
//! but never calls it. Design:
//!
//! * **Board** (`grid.rs`): a 32 × 32 wrapping grid of cell indices; the
//!   argument that no legal game overflows it is in `grid.rs`. Per cell, the
//!   height, the top piece and a mask of the neighbours by the colour of
//!   their top piece (`around`); per piece, its cell and the piece directly
//!   below it, so stacks live off the grid as linked lists through `below`.
//! * **Tables** (`grid.rs`) indexed by a cell's 6-bit mask of occupied
//!   neighbours: the ground steps from it (§5.4, §5.5), whether its
//!   neighbours form one run, what occupying it adds to `1 + E − V − T`.
//!   Slides, gates and the ant's and spider's walks are look-ups.
//! * **Make/unmake** without cloning: each ply pushes a small undo record.
//! * **Zobrist hash** (`zobrist.rs`) updated by the same code that moves
//!   pieces, so it cannot drift; `hash_slow` recomputes it from scratch.
//!   Perft's make and unmake leave it alone, as a pair.
//! * **Pinned pieces** (One Hive, §5.3, `pinned.rs`): from the ring of
//!   neighbours alone while the hive encloses no empty cell (kept as
//!   `1 + E − V − T` of the occupied cells, Euler's formula), by Tarjan's
//!   search otherwise.
//! * **Move generation** (`movegen.rs`, `bugs.rs`) into a caller's reused
//!   buffer, with fixed-size bitsets and arrays on the stack: no heap
//!   allocation.
//! * **Perft** (`perft.rs`) with bulk counting at the last ply, on the
//!   engine's own moves: destinations counted without being listed where
//!   they cannot repeat, and the placement cells of each position one ply
//!   above the leaves found from those of its parent.
//! * **Twins** (`twins.rs`): every incremental structure (heights, tops,
//!   stacks, neighbour masks, counts, hash, enclosure count, pinned set,
//!   state) has a from-scratch twin, and [`FastEngine::check_invariants`]
//!   compares them; the differential tests call it after every move and
//!   undo.
//!
//! Real axial coordinates are only needed at the trait's boundary (absolute
//! moves use `Hex`): each piece on the board keeps its `Hex`, and the `Hex`
//! of a destination is found from an occupied neighbour.
//!
//! # Where perft's time goes
//!
//! Counted with callgrind from the start of Base to depth 7 (7.5 G
//! instructions, 20.9 G before this design): a third movement (the ant's
//! flood a third of that), make and unmake a quarter or more, the placement
//! cells and the move lists of the upper plies most of the rest. Base+MLP to
//! depth 6 (2.5 G, 6.1 G before) is two fifths make and unmake: one ply
//! above its leaves the queens are mostly not yet down, so only placements
//! are counted there. The README's Perft section has the figures before and
//! after, and `scripts/perft-compare.sh` measures them.

mod bugs;
mod grid;
mod interface;
mod movegen;
mod perft;
mod pieces;
mod pinned;
mod twins;

pub use twins::BrokenInvariant;
mod zobrist;

use crate::core::{Bug, GameState, GameType, Hex, Move, Piece, RulesOptions, SetupStart};

use grid::{cell_of, neighbour, AXIAL, BACK, CELLS, ENCLOSES, NOWHERE};
use pieces::{bug_index, color_of, piece_of, AROUND_BIT, NO_PIECE, PIECES};

/// A move in the engine's own terms: a piece id and a destination cell, so
/// that two paths to one cell are one move (§5.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastMove {
    piece: u8,
    to: u16,
}

impl FastMove {
    const PASS: FastMove = FastMove {
        piece: NO_PIECE,
        to: NOWHERE,
    };

    fn is_pass(self) -> bool {
        self.piece == NO_PIECE
    }
}

/// What unmake needs to restore a ply.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: FastMove,
    /// The cell the piece came from, `NOWHERE` for a placement or a pass.
    from: u16,
    previous_hex: Hex,
    previous_immune: u8,
    previous_state: GameState,
    /// Whether the move went into the trait-level history.
    recorded: bool,
}

/// A game played by the fast engine.
#[derive(Clone)]
pub struct FastEngine {
    game_type: GameType,
    options: RulesOptions,
    /// Pieces per cell (§2.4).
    height: [u8; CELLS],
    /// The top piece per cell, `NO_PIECE` when empty.
    top: [u8; CELLS],
    /// The cell of each piece, `NOWHERE` while in the reserve.
    pos: [u16; PIECES],
    /// The piece directly below each piece, `NO_PIECE` on the ground.
    below: [u8; PIECES],
    /// The axial coordinates of each piece on the board.
    hex: [Hex; PIECES],
    /// Pieces placed per colour and bug (the next number to place is this + 1).
    placed: [[u8; 8]; 2],
    /// `1 + E − V − T` of the occupied cells (`grid::ENCLOSES`): for a
    /// connected hive (§2.7), 0 exactly when it encloses no empty cell, and
    /// then the pinned pieces are found without a search (`pinned.rs`).
    encloses: i16,
    /// Per colour, the bugs of the game type with a piece still in the
    /// reserve, bit `b` for `Bug::ALL[b]` (§1.3, §3.1).
    in_reserve: [u8; 2],
    /// Pieces on the board per colour.
    on_board: [u8; 2],
    /// Per colour, the slots of its pieces that are on top of their stacks.
    top_pieces: [u16; 2],
    /// The bugs of the game type, as indices into `Bug::ALL`.
    bug_indices: [u8; 8],
    bug_count: u8,
    /// Per cell, its neighbours by the colour of their top piece (§2.5): bit
    /// `d` for a white top in direction `d`, bit `8 + d` for a black one.
    /// Placement asks for the colours (§3.5, §3.6), movement for the
    /// occupied neighbours of either colour (§5.4, §5.5, §8.1).
    around: [u16; CELLS],
    /// The piece moved or placed last turn (§5.10), `NO_PIECE` if none (at the
    /// start and after a pass, §7.3); after a throw, the thrown piece (§6.8.7).
    immune: u8,
    state: GameState,
    hash: u64,
    history: Vec<Move>,
    undo: Vec<Undo>,
    /// Translation-invariant position keys after each ply, for §8.7.2;
    /// `repetition_keys[0]` is the start.
    repetition_keys: Vec<u64>,
    /// For a game set up from a position string (§9.36), the plies before
    /// it and the piece moved last then; `None` from the empty board.
    start: Option<SetupStart>,
    /// The plies before the first ply of `undo`: those of `start`, or 0.
    start_plies: usize,
}

impl FastEngine {
    /// The incremental Zobrist hash of the position (pieces with their cells
    /// and levels, the side to move, the immune piece).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The top piece of the stack on `hex` and the stack's height; `None`
    /// for an empty cell.
    pub fn top_at(&self, hex: Hex) -> Option<(Piece, usize)> {
        let cell = cell_of(hex) as usize;
        if self.height[cell] == 0 || self.hex[self.top[cell] as usize] != hex {
            return None;
        }
        Some((piece_of(self.top[cell]), self.height[cell] as usize))
    }

    /// The side to move: §7.1 the players alternate, White first (§1.6).
    fn side(&self) -> usize {
        self.plies_played() & 1
    }

    /// The plies played, those before a set-up position included (§4.4).
    #[inline(always)]
    fn plies_played(&self) -> usize {
        self.start_plies + self.undo.len()
    }

    /// Whether the queen of `color` is on the board, as §4.3 asks.
    fn queen_placed(&self, color: usize) -> bool {
        self.pos[color * pieces::SLOTS] != NOWHERE
    }

    /// The level of a piece in its stack, 0 on the ground.
    fn level_of(&self, p: u8) -> usize {
        let mut level = 0;
        let mut below = self.below[p as usize];
        while below != NO_PIECE {
            level += 1;
            below = self.below[below as usize];
        }
        level
    }

    /// The axial coordinates of a cell, found from the cell's own stack or an
    /// occupied neighbour; `None` for a cell away from the hive.
    fn hex_of_cell(&self, cell: u16) -> Option<Hex> {
        if self.height[cell as usize] > 0 {
            return Some(self.hex[self.top[cell as usize] as usize]);
        }
        for (d, &(dq, dr)) in AXIAL.iter().enumerate() {
            let n = neighbour(cell, d);
            if self.height[n as usize] > 0 {
                let h = self.hex[self.top[n as usize] as usize];
                return Some(Hex::new(h.q - dq, h.r - dr));
            }
        }
        None
    }

    /// The absolute move of an internal move in the current position.
    fn to_move(&self, m: FastMove) -> Move {
        if m.is_pass() {
            return Move::Pass;
        }
        let piece = piece_of(m.piece);
        // §3.3 the first piece of the game goes to the origin
        let to = if self.on_board[0] + self.on_board[1] == 0 {
            Hex::ORIGIN
        } else {
            self.hex_of_cell(m.to).unwrap_or(Hex::ORIGIN)
        };
        if self.pos[m.piece as usize] == NOWHERE {
            Move::Place { piece, to }
        } else {
            Move::Move { piece, to }
        }
    }

    /// Puts piece `p` on top of `cell`, updating the hash if `HASHED`.
    #[inline(always)]
    fn push<const HASHED: bool>(&mut self, p: u8, cell: u16, hex: Hex) {
        let level = self.height[cell as usize] as usize;
        if level == 0 {
            self.encloses += ENCLOSES[self.occupied_around(cell) as usize] as i16;
        }
        let below = self.top[cell as usize];
        self.recolor(cell, below, p);
        self.retop(below, p);
        self.below[p as usize] = below;
        self.top[cell as usize] = p;
        self.height[cell as usize] += 1;
        self.pos[p as usize] = cell;
        self.hex[p as usize] = hex;
        if HASHED {
            self.hash ^=
                zobrist::CELL[p as usize][cell as usize] ^ zobrist::LEVEL[p as usize][level];
        }
    }

    /// Lifts the top piece `p` off `cell`, updating the hash if `HASHED`.
    #[inline(always)]
    fn pop<const HASHED: bool>(&mut self, p: u8, cell: u16) {
        self.height[cell as usize] -= 1;
        let level = self.height[cell as usize] as usize;
        if level == 0 {
            self.encloses -= ENCLOSES[self.occupied_around(cell) as usize] as i16;
        }
        let below = self.below[p as usize];
        self.recolor(cell, p, below);
        self.retop(p, below);
        self.top[cell as usize] = below;
        self.below[p as usize] = NO_PIECE;
        self.pos[p as usize] = NOWHERE;
        if HASHED {
            self.hash ^=
                zobrist::CELL[p as usize][cell as usize] ^ zobrist::LEVEL[p as usize][level];
        }
    }

    /// The top of `cell` changes from `old` to `new` (either may be
    /// `NO_PIECE`): update the neighbours' masks of adjacent stack colours.
    #[inline(always)]
    fn recolor(&mut self, cell: u16, old: u8, new: u8) {
        // per neighbour, the bit of the direction back to `cell` is cleared
        // in the old colour's half and set in the new colour's half (with
        // both colours alike, nothing changes)
        let toggle = AROUND_BIT[old as usize] ^ AROUND_BIT[new as usize];
        if toggle == 0 {
            return;
        }
        for (d, &back) in BACK.iter().enumerate() {
            let n = neighbour(cell, d) as usize;
            self.around[n] ^= toggle << back;
        }
    }

    /// The directions of the occupied neighbours of `cell`, whatever the
    /// colour on top (bit `d` for direction `d`).
    #[inline(always)]
    fn occupied_around(&self, cell: u16) -> u8 {
        let a = self.around[cell as usize];
        ((a | a >> 8) & 0x3f) as u8
    }

    /// The directions of the neighbours of `cell` with `color` on top (§2.5).
    #[inline(always)]
    fn color_around(&self, color: usize, cell: u16) -> u8 {
        ((self.around[cell as usize] >> (8 * color)) & 0x3f) as u8
    }

    /// The top of a cell changes from `old` to `new`: update the sets of top pieces.
    fn retop(&mut self, old: u8, new: u8) {
        if old != NO_PIECE {
            self.top_pieces[color_of(old)] &= !(1 << (old as usize % pieces::SLOTS));
        }
        if new != NO_PIECE {
            self.top_pieces[color_of(new)] |= 1 << (new as usize % pieces::SLOTS);
        }
    }

    /// The pieces of `color` on top of their stacks, as piece ids.
    #[inline]
    fn tops_of(&self, color: usize) -> impl Iterator<Item = u8> {
        let mut bits = self.top_pieces[color];
        let base = (color * pieces::SLOTS) as u8;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let slot = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(base + slot)
        })
    }

    #[inline(always)]
    fn set_immune<const HASHED: bool>(&mut self, p: u8) {
        if HASHED && self.immune != NO_PIECE {
            self.hash ^= zobrist::IMMUNE[self.immune as usize];
        }
        self.immune = p;
        if HASHED && p != NO_PIECE {
            self.hash ^= zobrist::IMMUNE[p as usize];
        }
    }

    /// Plays an internal move known to be legal, recording it in the history.
    fn make(&mut self, m: FastMove) {
        self.make_with::<true>(m);
    }

    /// Plays an internal move known to be legal. Perft passes `RECORD =
    /// false`: the move then stays out of the trait-level history, the hash
    /// is left alone (perft never reads it, and its unmake leaves it alone
    /// too, so it is right again when perft returns), and the pieces' `Hex`
    /// coordinates, only needed at the trait's boundary and by the
    /// repetition rule, are not updated unless that rule is on.
    #[inline(always)]
    fn make_with<const RECORD: bool>(&mut self, m: FastMove) {
        let previous_immune = self.immune;
        let previous_state = self.state;
        let needs_hex = RECORD || self.options.repetition_draw;
        let mv = if needs_hex {
            self.to_move(m)
        } else {
            Move::Pass
        };
        let mut from = NOWHERE;
        let mut previous_hex = Hex::ORIGIN;
        if !m.is_pass() {
            let p = m.piece;
            previous_hex = self.hex[p as usize];
            let to_hex = match mv.destination() {
                Some(hex) if needs_hex => hex,
                _ => previous_hex,
            };
            from = self.pos[p as usize];
            // §3.1 a placement takes the piece from the reserve for good
            if from == NOWHERE {
                self.take_from_reserve(p);
            } else {
                self.pop::<RECORD>(p, from);
            }
            self.push::<RECORD>(p, m.to, to_hex);
        }
        // §5.10 the piece just moved (or placed) is immune next turn; §6.8.7
        // after a throw that is the thrown piece, not the pillbug; §5.11
        // nothing after a pass
        self.set_immune::<RECORD>(if m.is_pass() { NO_PIECE } else { m.piece });
        if RECORD {
            self.hash ^= zobrist::BLACK_TO_MOVE;
            self.history.push(mv);
        }
        // §7.3 every ply, a pass included, is a turn: it counts for §4.4
        self.undo.push(Undo {
            mv: m,
            from,
            previous_hex,
            previous_immune,
            previous_state,
            recorded: RECORD,
        });
        if self.options.repetition_draw {
            let immunity_counts = self.immunity_removes_a_move();
            let key = self.repetition_key(immunity_counts);
            self.repetition_keys.push(key);
        }
        // §8.8 the state is recomputed after every ply
        self.state = self.compute_state();
    }

    /// Takes back the last ply.
    fn unmake(&mut self) -> Option<Move> {
        match self.undo.last() {
            Some(undo) if undo.recorded => self.unmake_with::<true>(),
            _ => self.unmake_with::<false>(),
        }
    }

    /// Takes back the last ply, made by `make_with::<RECORD>`.
    #[inline(always)]
    fn unmake_with<const RECORD: bool>(&mut self) -> Option<Move> {
        let undo = self.undo.pop()?;
        let mv = if RECORD { self.history.pop() } else { None };
        if self.options.repetition_draw {
            self.repetition_keys.pop();
        }
        let m = undo.mv;
        if !m.is_pass() {
            let p = m.piece;
            self.pop::<RECORD>(p, m.to);
            if undo.from == NOWHERE {
                self.return_to_reserve(p);
            } else {
                self.push::<RECORD>(p, undo.from, undo.previous_hex);
            }
        }
        self.set_immune::<RECORD>(undo.previous_immune);
        if RECORD {
            self.hash ^= zobrist::BLACK_TO_MOVE;
        }
        self.state = undo.previous_state;
        mv
    }

    /// §3.1 piece `p` leaves the reserve: the counts of placed pieces.
    #[inline(always)]
    fn take_from_reserve(&mut self, p: u8) {
        let color = color_of(p);
        let b = bug_index(pieces::bug_of(p));
        self.placed[color][b] += 1;
        self.on_board[color] += 1;
        if self.placed[color][b] == pieces::bug_of(p).count() {
            self.in_reserve[color] &= !(1 << b);
        }
    }

    /// Undoes [`Self::take_from_reserve`].
    #[inline(always)]
    fn return_to_reserve(&mut self, p: u8) {
        let color = color_of(p);
        let b = bug_index(pieces::bug_of(p));
        self.placed[color][b] -= 1;
        self.on_board[color] -= 1;
        self.in_reserve[color] |= 1 << b;
        self.hex[p as usize] = Hex::ORIGIN;
    }

    /// Whether the queen of `color` is surrounded (§8.1).
    fn surrounded(&self, color: usize) -> bool {
        let q = self.pos[color * pieces::SLOTS];
        // §8.1 all six neighbours occupied, by any colour at any height; a
        // covered queen keeps its cell and is tested alike
        q != NOWHERE && self.occupied_around(q) == 0x3f
    }

    /// The state after the last ply (§8.2, §8.3, §8.4, §8.7.2, §8.7.3,
    /// §8.8).
    fn compute_state(&self) -> GameState {
        // §8.7.3 a surround is decided first and takes precedence
        match (self.surrounded(0), self.surrounded(1)) {
            // §8.3 both queens surrounded: a draw, whoever moved
            (true, true) => return GameState::Draw,
            // §8.2 the surrounded queen's owner loses; §8.4 even by their own move
            (true, false) => return GameState::BlackWins,
            (false, true) => return GameState::WhiteWins,
            (false, false) => {}
        }
        // §8.7.2 the repetition draw, only with the option on
        if self.options.repetition_draw {
            if let Some((current, earlier)) = self.repetition_keys.split_last() {
                // §8.7.2 the positions after plies max(0, n − 32) to n
                let start = earlier.len().saturating_sub(32);
                let count = earlier[start..].iter().filter(|&&k| k == *current).count();
                // §8.7.2 at least three occurrences, after a ply
                if count + 1 >= 3 && !self.undo.is_empty() {
                    return GameState::Draw;
                }
            }
        }
        // §8.8 no ply yet: NotStarted; otherwise InProgress
        if self.plies_played() == 0 {
            GameState::NotStarted
        } else {
            GameState::InProgress
        }
    }

    /// Whether the immunity of the piece just moved (§5.10) removes a move
    /// from the legal moves (§8.7.6): the moves generated with it differ from
    /// those generated without it. Without the pillbug in the game no
    /// ability moves the opponent's pieces, and the piece moved last turn is
    /// always the opponent's, so immunity removes nothing. Only used with
    /// the repetition option on.
    fn immunity_removes_a_move(&mut self) -> bool {
        if self.immune == NO_PIECE || !self.game_type.has_bug(Bug::Pillbug) {
            return false;
        }
        let mut with = Vec::new();
        self.generate(&mut with);
        // the field alone, not the hash: generation does not read the hash
        let immune = std::mem::replace(&mut self.immune, NO_PIECE);
        let mut without = Vec::new();
        self.generate(&mut without);
        self.immune = immune;
        with.len() != without.len() || with.iter().any(|m| !without.contains(m))
    }

    /// The position identity of the repetition rule (§8.7.4, §8.7.5, §8.7.6,
    /// §8.7.7, §8.7.8) as a 64-bit key: stacks of (colour, bug) up to
    /// translation, the side to move and, when `immunity_counts`, the cell of
    /// the immune piece.
    /// Computed from scratch; only used with the repetition option on.
    fn repetition_key(&self, immunity_counts: bool) -> u64 {
        // §8.7.4 equal after a translation: cells relative to the least cell;
        // §8.7.7 no rotation or reflection is identified
        let mut anchor: Option<Hex> = None;
        for p in 0..PIECES {
            if self.pos[p] != NOWHERE {
                let h = self.hex[p];
                anchor = Some(match anchor {
                    Some(a) if (a.q, a.r) <= (h.q, h.r) => a,
                    _ => h,
                });
            }
        }
        let anchor = anchor.unwrap_or(Hex::ORIGIN);
        let relative = |h: Hex| -> u64 {
            let q = (h.q - anchor.q) as i64 as u64;
            let r = (h.r - anchor.r) as i64 as u64;
            zobrist::splitmix(q.wrapping_mul(0x1_0000_0001) ^ r.rotate_left(32))
        };
        let mut key = 0u64;
        for p in 0..PIECES as u8 {
            let cell = self.pos[p as usize];
            if cell == NOWHERE || self.top[cell as usize] != p {
                continue;
            }
            // §8.7.4 one term per stack: its cell and its (colour, bug) from
            // bottom to top, piece numbers ignored
            let mut stack = [0u8; 8];
            let mut n = 0;
            let mut q = p;
            while q != NO_PIECE {
                stack[n] = (color_of(q) * 8 + bug_index(pieces::bug_of(q))) as u8 + 1;
                n += 1;
                q = self.below[q as usize];
            }
            let mut term = relative(self.hex[p as usize]);
            for &kind in stack[..n].iter().rev() {
                term = zobrist::splitmix(term ^ kind as u64);
            }
            key = key.wrapping_add(term);
        }
        // §8.7.5 the same side to move
        key ^= if self.side() == 1 {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        // §8.7.6 the same cell for the immune piece (§5.10) when its immunity
        // removes a move, or none in both; §8.7.8 nothing else of the history
        if immunity_counts {
            key ^= zobrist::splitmix(relative(self.hex[self.immune as usize]) ^ 0xabcd);
        }
        key
    }

    /// The legal moves in the engine's own terms.
    pub fn fast_moves(&self, out: &mut Vec<FastMove>) {
        self.generate(out);
    }
}

#[cfg(test)]
mod tests;
