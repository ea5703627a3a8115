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
