//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", 2014): the crate's one small, well-mixed, fixed sequence, for
//! what must come out the same on every build and every platform and needs
//! no generator crate: the fast engine's Zobrist keys (computed at compile
//! time), the shrinker's tie-breaking, `selfcheck`'s per-game seeds and the
//! examples. Seeded random games use the `rand` crates instead.

/// The increment of the state: 2^64 divided by the golden ratio, odd.
pub const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The output function: a bijection of `u64` that spreads every input bit
/// over the whole word, so that neighbouring inputs give unrelated outputs.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The output after the state `state` (advanced by [`GOLDEN_GAMMA`], then
/// mixed); a `const fn`, for tables built at compile time.
pub const fn splitmix64(state: u64) -> u64 {
    mix(state.wrapping_add(GOLDEN_GAMMA))
}

/// A SplitMix64 generator.
///
/// ```
/// use hive_oracle_rules::core::splitmix::SplitMix64;
///
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64()); // the same seed, the same sequence
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose sequence is fixed by `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next number of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix(self.state)
    }

    /// A number in `0..n` (0 when `n` is 0), by multiplying rather than by a
    /// remainder, so that small `n` carry no bias from the low bits.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequence is SplitMix64's own: the published first outputs from
    /// seed 0 (the reference implementation of Steele, Lea and Flood, as in
    /// Vigna's `splitmix64.c`), so that it is the same on every build.
    #[test]
    fn the_sequence_is_splitmix64() {
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(rng.next_u64(), 0x06c4_5d18_8009_454f);
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
    }

    /// `below(n)` draws from the whole of `0..n`, each value about as often
    /// (a shuffle built on it reaches every order), and 0 for an empty range.
    #[test]
    fn below_covers_its_range_evenly() {
        let mut rng = SplitMix64::new(7);
        let mut counts = [0usize; 6];
        for _ in 0..6000 {
            counts[rng.below(6)] += 1;
        }
        for (value, &count) in counts.iter().enumerate() {
            assert!(
                (800..=1200).contains(&count),
                "{value} drawn {count} times of 6000: {counts:?}"
            );
        }
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.below(1), 0);
    }
}
