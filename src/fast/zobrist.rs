//! Zobrist keys for the incremental hash, generated at compile time by
//! splitmix64 from a fixed seed, so every build hashes alike.

use super::grid::CELLS;
use super::pieces::PIECES;

pub use crate::core::splitmix::splitmix64 as splitmix;

const fn cell_keys() -> [[u64; CELLS]; PIECES] {
    let mut keys = [[0u64; CELLS]; PIECES];
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut p = 0;
    while p < PIECES {
        let mut c = 0;
        while c < CELLS {
            state = splitmix(state);
            keys[p][c] = state;
            c += 1;
        }
        p += 1;
    }
    keys
}

const fn level_keys() -> [[u64; 8]; PIECES] {
    let mut keys = [[0u64; 8]; PIECES];
    let mut state = 0x0fed_cba9_8765_4321u64;
    let mut p = 0;
    while p < PIECES {
        let mut l = 0;
        while l < 8 {
            state = splitmix(state);
            keys[p][l] = state;
            l += 1;
        }
        p += 1;
    }
    keys
}

const fn immune_keys() -> [u64; PIECES] {
    let mut keys = [0u64; PIECES];
    let mut state = 0x5555_aaaa_3333_ccccu64;
    let mut p = 0;
    while p < PIECES {
        state = splitmix(state);
        keys[p] = state;
        p += 1;
    }
    keys
}

/// The key of a piece standing on a cell.
pub static CELL: [[u64; CELLS]; PIECES] = cell_keys();
/// The key of a piece standing at a level of its stack (0 = on the ground).
pub static LEVEL: [[u64; 8]; PIECES] = level_keys();
/// The key of the piece that may not move this turn (§5.10).
pub static IMMUNE: [u64; PIECES] = immune_keys();
/// The key added when Black is to move.
pub const BLACK_TO_MOVE: u64 = 0x7a3c_91e5_d2b4_6f08;
