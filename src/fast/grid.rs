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
    pub fn contains(&self, cell: u16) -> bool {
        self.0[(cell >> 6) as usize] & (1 << (cell & 63)) != 0
    }

    /// The number of cells in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
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
