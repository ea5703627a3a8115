//! The transposition table: a fixed-size array of entries indexed by the low
//! bits of the fast engine's incremental Zobrist hash ([`FastEngine::hash`]).
//!
//! Each entry keeps the full 64-bit key, so an index clash between two
//! positions is recognised; a clash of the full key (probability about 2⁻⁶⁴
//! per probe) could at worst give a wrong score, never an illegal move: the
//! stored move is only used to order moves that the engine generated itself.
//!
//! Entries carry the *generation* of the search that wrote them. Starting a
//! fresh search bumps the generation, which empties the table logically in
//! O(1): entries of older generations are never read. That is how a
//! depth-limited search is made independent of the table's previous contents
//! (see [`super::best_move`]).
//!
//! [`FastEngine::hash`]: crate::fast::FastEngine::hash

use crate::core::Move;

/// What the stored score says about the true value of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    /// The score is the value of the position (searched to `depth`).
    Exact,
    /// The value is at least the score (a beta cut-off).
    Lower,
    /// The value is at most the score (no move raised alpha).
    Upper,
}

/// One slot of the table.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub key: u64,
    pub generation: u32,
    /// The best (or refuting) move found; `Pass` when the pass was that move.
    pub mv: Move,
    /// Score from the side to move's point of view, mate scores stored
    /// relative to this node (see `super::tree::to_table`).
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
}

const EMPTY: Entry = Entry {
    key: 0,
    generation: 0,
    mv: Move::Pass,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
};

/// The fewest entries a table has, whatever size is asked for.
const MIN_ENTRIES: usize = 1 << 10;
/// The most memory a table takes, whatever size is asked for (1 GiB).
const MAX_MIB: usize = 1024;

/// A fixed-size transposition table keyed by [`FastEngine::hash`], to be
/// reused across calls of [`super::best_move`].
///
/// [`FastEngine::hash`]: crate::fast::FastEngine::hash
pub struct TranspositionTable {
    entries: Vec<Entry>,
    /// `entries.len() - 1`; the length is a power of two.
    mask: usize,
    /// The generation of the current search; 0 marks never-written slots.
    generation: u32,
    /// How many times the size asked for was halved for want of memory.
    halvings: u32,
}

impl TranspositionTable {
    /// A table of at most `size_mib` MiB: the largest power-of-two number of
    /// entries that fits, at least 1024 entries (so `0` is accepted) and at
    /// most 1 GiB. If the memory cannot be had, the size is halved until it
    /// can; this never panics or aborts on a large request.
    pub fn new(size_mib: usize) -> Self {
        let bytes = size_mib.min(MAX_MIB).saturating_mul(1 << 20);
        let fit = (bytes / std::mem::size_of::<Entry>()).max(MIN_ENTRIES);
        // largest power of two not above `fit`
        let mut len = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        let mut entries = Vec::new();
        let mut halvings = 0;
        while entries.try_reserve_exact(len).is_err() && len > MIN_ENTRIES {
            len /= 2;
            halvings += 1;
        }
        entries.resize(len, EMPTY);
        TranspositionTable {
            mask: len - 1,
            entries,
            generation: 1,
            halvings,
        }
    }

    /// The size in effect of a table asked for with `size_mib` MiB: halved
    /// as often as the table was for want of memory (at least 1).
    pub fn size_in_effect(&self, size_mib: u32) -> u32 {
        size_mib.checked_shr(self.halvings).unwrap_or(0).max(1)
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
        self.generation = 1;
    }

    /// Starts a new generation: every entry written so far is ignored from now on.
    pub(super) fn new_generation(&mut self) {
        if self.generation == u32::MAX {
            self.clear();
        } else {
            self.generation += 1;
        }
    }

    /// The number of slots (for tests and diagnostics).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entry of `key` written in the current generation, if any.
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[key as usize & self.mask];
        (entry.generation == self.generation && entry.key == key).then_some(entry)
    }

    /// Stores a result. A slot holding the same position from this generation
    /// searched deeper is kept; anything else is replaced.
    pub(super) fn store(&mut self, key: u64, mv: Move, score: i32, depth: u32, bound: Bound) {
        let generation = self.generation;
        let depth = depth.min(u8::MAX as u32) as u8;
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.generation == generation && slot.key == key && slot.depth > depth {
            return;
        }
        *slot = Entry {
            key,
            generation,
            mv,
            score,
            depth,
            bound,
        };
    }
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("entries", &self.entries.len())
            .field("generation", &self.generation)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_powers_of_two_within_bounds() {
        assert_eq!(TranspositionTable::new(0).len(), MIN_ENTRIES);
        let one = TranspositionTable::new(1).len();
        assert!(one.is_power_of_two());
        assert!(one * std::mem::size_of::<Entry>() <= 1 << 20);
        assert!(2 * one * std::mem::size_of::<Entry>() > 1 << 20);
    }

    #[test]
    fn a_new_generation_hides_old_entries() {
        let mut table = TranspositionTable::new(0);
        table.store(42, Move::Pass, 7, 3, Bound::Exact);
        assert_eq!(table.probe(42).map(|e| e.score), Some(7));
        assert!(table.probe(43).is_none());
        table.new_generation();
        assert!(table.probe(42).is_none());
        table.store(42, Move::Pass, 9, 1, Bound::Lower);
        assert_eq!(table.probe(42).map(|e| e.score), Some(9));
        table.clear();
        assert!(table.probe(42).is_none());
    }
}
