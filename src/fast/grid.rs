//! The wrapping grid of the fast engine.
//!
//! Cells are indices into a 32 × 32 array: the cell of axial (q, r) is
//! `(32 r + q) mod 1024`, so a step in a direction is a fixed index offset
//! (E +1, W −1, SE +32, NW −32, NE −31, SW +31) taken modulo 1024. This is a
//! skewed torus: two cells share an index only when they differ by a sum of
//! the vectors (32, −1) and (0, 32), and every such vector has hex distance at
//! least 32.
//!
//! Why no legal game can overflow it: a player has at most 14 pieces (§1.2,
//! §1.3), so the hive holds at most 28 pieces in at most 28 cells; being
//! connected (§2.7), any two of them are at hex distance at most 27, and
//! every cell the move generator looks at (an occupied cell, or an empty cell
//! next to one, or the landing cell of a grasshopper, which is next to the
//! last piece it jumps) is within distance 1 of the hive: at most 29 apart.
//! As 29 < 32, no two cells the engine ever compares share an index.

use crate::core::Hex;

pub const CELLS: usize = 1024;
pub const MASK: i32 = 1023;
/// No cell: the position of a piece in its reserve.
pub const NOWHERE: u16 = u16::MAX;

/// Index offsets of the six directions (§2.2), in the order of
/// [`crate::core::Direction::ALL`]: NW, NE, E, SE, SW, W (clockwise).
pub const DELTA: [i32; 6] = [-32, -31, 1, 32, 31, -1];
/// Axial deltas in the same order.
pub const AXIAL: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

/// The neighbour of `cell` in direction `d` (0..6).
#[inline(always)]
pub fn neighbour(cell: u16, d: usize) -> u16 {
    ((cell as i32 + DELTA[d]) & MASK) as u16
}

/// The direction clockwise of `d`: with [`counterclockwise`], it gives the
/// two common neighbours that flank the edge in direction `d` (§2.9).
#[inline(always)]
pub fn clockwise(d: usize) -> usize {
    if d == 5 {
        0
    } else {
        d + 1
    }
}

/// The direction counter-clockwise of `d`.
#[inline(always)]
pub fn counterclockwise(d: usize) -> usize {
    if d == 0 {
        5
    } else {
        d - 1
    }
}

/// Per direction `d`, the opposite direction, the way back from
/// `neighbour(cell, d)`: the bit of `cell` in the masks of that neighbour.
pub const BACK: [u8; 6] = [3, 4, 5, 0, 1, 2];

/// Per direction `d`, the directions before `BACK[d]`, as a mask.
pub const BEFORE_BACK: [u8; 6] = [0b111, 0b1111, 0b11111, 0, 0b1, 0b11];

/// The bits of a 6-bit direction mask, lowest direction first.
#[inline(always)]
pub fn directions(mut mask: u8) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let d = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(d)
    })
}

/// Ground steps by the shape of a neighbourhood. For a 6-bit mask of the
/// occupied neighbours of an empty cell (bit `d` for direction `d`), the mask
/// of the directions of a ground step from it: §5.4 to an empty cell, keeping
/// contact (a flank of the edge occupied), and §5.5 through no gate (not both
/// flanks occupied), so exactly one flank occupied. The flanks of direction
/// `d` are `d − 1` and `d + 1` (§2.9).
pub static SLIDES: [u8; 64] = slide_table();

const fn slide_table() -> [u8; 64] {
    let mut table = [0u8; 64];
    let mut mask = 0;
    while mask < 64 {
        let mut d = 0;
        while d < 6 {
            let to = (mask >> d) & 1;
            let left = (mask >> ((d + 5) % 6)) & 1;
            let right = (mask >> ((d + 1) % 6)) & 1;
            if to == 0 && left != right {
                table[mask] |= 1 << d;
            }
            d += 1;
        }
        mask += 1;
    }
    table
}

/// Whether the occupied neighbours in a 6-bit mask form at most one unbroken
/// run around the cell. Each of them then touches the next around the ring,
/// so lifting the cell's piece leaves them connected and cannot split the
/// hive (§5.3): only a piece with two runs or more can be pinned.
pub static ONE_RUN: [bool; 64] = one_run_table();

const fn one_run_table() -> [bool; 64] {
    let mut table = [false; 64];
    let mut mask = 0;
    while mask < 64 {
        let mut runs = 0;
        let mut d = 0;
        while d < 6 {
            // a run starts at an occupied neighbour after an empty one
            if (mask >> d) & 1 == 1 && (mask >> ((d + 5) % 6)) & 1 == 0 {
                runs += 1;
            }
            d += 1;
        }
        table[mask] = runs <= 1;
        mask += 1;
    }
    table
}

/// What occupying an empty cell adds to `1 + E − V − T` of the hive (V
/// occupied cells, E pairs of adjacent ones, T triples of mutually adjacent
/// ones), by the 6-bit mask of its occupied neighbours: one edge per
/// neighbour, one vertex, one triangle per two neighbours next to each other
/// around the ring. Emptying the cell takes the same back.
///
/// By Euler's formula, for a connected hive `1 + E − V − T` is the number of
/// faces of the graph of cell centres that are not triangles of the hex
/// lattice, and such a face exists exactly when the hive encloses an empty
/// cell. (A face without a lattice point inside is one lattice triangle:
/// the edges of the triangles inside it would split it.)
pub static ENCLOSES: [i8; 64] = encloses_table();

const fn encloses_table() -> [i8; 64] {
    let mut table = [0i8; 64];
    let mut mask = 0;
    while mask < 64 {
        let rotated = ((mask << 1) | (mask >> 5)) & 0x3f;
        let edges = (mask as u8).count_ones() as i8;
        let triangles = ((mask & rotated) as u8).count_ones() as i8;
        table[mask] = edges - 1 - triangles;
        mask += 1;
    }
    table
}

/// The bit of the direction from a cell `x` to an adjacent cell `c`, indexed
/// by `(c − x) mod 1024`, and 0 when the two are not adjacent: what a mask of
/// `x`'s neighbours loses when the piece on `c` is lifted.
pub static TOWARD: [u8; CELLS] = toward_table();

const fn toward_table() -> [u8; CELLS] {
    let mut table = [0u8; CELLS];
    let mut d = 0;
    while d < 6 {
        table[(DELTA[d] & MASK) as usize] = 1 << d;
        d += 1;
    }
    table
}

/// The cell index of an axial coordinate (wrapping arithmetic: any `Hex` maps).
pub fn cell_of(hex: Hex) -> u16 {
    (hex.r.wrapping_mul(32).wrapping_add(hex.q) & MASK) as u16
}

/// A set of cells as 1024 bits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct CellSet(pub [u64; 16]);

impl CellSet {
    pub const EMPTY: CellSet = CellSet([0; 16]);

    #[inline(always)]
    pub fn insert(&mut self, cell: u16) {
        self.0[(cell >> 6) as usize] |= 1 << (cell & 63);
    }

    #[inline(always)]
    pub fn remove(&mut self, cell: u16) {
        self.0[(cell >> 6) as usize] &= !(1 << (cell & 63));
    }

    #[inline(always)]
    pub fn contains(&self, cell: u16) -> bool {
        self.0[(cell >> 6) as usize] & (1 << (cell & 63)) != 0
    }

    /// The number of cells in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Adds every cell of `other`.
    #[inline]
    pub fn union_with(&mut self, other: &CellSet) {
        for (word, &more) in self.0.iter_mut().zip(other.0.iter()) {
            *word |= more;
        }
    }

    /// Calls `f` with every cell in the set, in index order.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(u16)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = bits.trailing_zeros() as u16;
                f((w as u16) << 6 | b);
                bits &= bits - 1;
            }
        }
    }
}
