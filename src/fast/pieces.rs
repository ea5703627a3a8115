//! Piece numbering of the fast engine: 14 slots per colour, the eleven base
//! pieces (§1.2) and the three expansion pieces (§1.3).
//!
//! Slots: 0 queen, 1–2 spiders, 3–4 beetles, 5–7 grasshoppers, 8–10 ants,
//! 11 mosquito, 12 ladybug, 13 pillbug; black pieces are 14 + slot.

use crate::core::{Bug, Color, Piece};

pub const PIECES: usize = 28;
pub const SLOTS: usize = 14;
/// No piece.
pub const NO_PIECE: u8 = u8::MAX;
/// Most empty cells that can touch a hive of 28 pieces (6 per piece).
pub const MAX_FRONTIER: usize = 6 * PIECES;

/// The bug of each slot.
pub const BUG_OF_SLOT: [Bug; SLOTS] = [
    Bug::Queen,
    Bug::Spider,
    Bug::Spider,
    Bug::Beetle,
    Bug::Beetle,
    Bug::Grasshopper,
    Bug::Grasshopper,
    Bug::Grasshopper,
    Bug::Ant,
    Bug::Ant,
    Bug::Ant,
    Bug::Mosquito,
    Bug::Ladybug,
    Bug::Pillbug,
];

/// The slots of the bugs that may throw (§6.8.2, §6.7.5): the pillbug and
/// the mosquito, as a mask of slots.
pub const THROWER_SLOTS: u16 = 1 << 11 | 1 << 13;

/// The first slot of each bug, in the order of [`Bug::ALL`].
pub const FIRST_SLOT: [u8; 8] = [0, 1, 3, 5, 8, 11, 12, 13];

/// The index of a bug in [`Bug::ALL`].
#[inline(always)]
pub const fn bug_index(bug: Bug) -> usize {
    match bug {
        Bug::Queen => 0,
        Bug::Spider => 1,
        Bug::Beetle => 2,
        Bug::Grasshopper => 3,
        Bug::Ant => 4,
        Bug::Mosquito => 5,
        Bug::Ladybug => 6,
        Bug::Pillbug => 7,
    }
}

/// Per piece id, the bit that stands for its colour in a mask of adjacent
/// colours (`FastEngine::around`): 1 for white, 1 << 8 for black, and 0 for
/// `NO_PIECE` (or any other non-piece), so that the bits a change of top
/// piece toggles are `AROUND_BIT[old] ^ AROUND_BIT[new]`.
pub static AROUND_BIT: [u16; 256] = around_bits();

const fn around_bits() -> [u16; 256] {
    let mut bits = [0u16; 256];
    let mut p = 0;
    while p < PIECES {
        bits[p] = if p < SLOTS { 1 } else { 1 << 8 };
        p += 1;
    }
    bits
}

#[inline(always)]
pub fn color_of(p: u8) -> usize {
    (p as usize) / SLOTS
}

#[inline(always)]
pub fn bug_of(p: u8) -> Bug {
    BUG_OF_SLOT[(p as usize) % SLOTS]
}

/// The id of a piece.
pub fn id_of(piece: Piece) -> u8 {
    let color = match piece.color {
        Color::White => 0,
        Color::Black => 1,
    };
    (color * SLOTS + FIRST_SLOT[bug_index(piece.bug)] as usize + piece.number as usize - 1) as u8
}

/// The piece of an id.
pub fn piece_of(p: u8) -> Piece {
    let color = if color_of(p) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let slot = (p as usize) % SLOTS;
    let bug = BUG_OF_SLOT[slot];
    let number = (slot - FIRST_SLOT[bug_index(bug)] as usize + 1) as u8;
    Piece { color, bug, number }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::GameType;

    #[test]
    fn ids_round_trip() {
        for piece in GameType::BASE_MLP.all_pieces() {
            assert_eq!(piece_of(id_of(piece)), piece);
        }
    }
}
