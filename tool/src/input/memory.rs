//! Memory whose size comes from the input, asked for so that a refusal is
//! an error instead of an abort: the allocator's "no" becomes
//! [`OutOfMemory`], which the command line reports as "too large to replay
//! in memory" with exit status 2. The caps on files, games and plies keep
//! a normal run far from such a refusal; this is what remains when the
//! machine (or `ulimit -v`) has less memory than the caps allow.

use std::fmt;

/// The allocator refused memory for an input: how many bytes were asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{bytes} bytes could not be allocated")]
pub struct OutOfMemory {
    /// The bytes asked for.
    pub bytes: usize,
}

/// Room for `additional` more elements in `vec`, or [`OutOfMemory`].
pub fn try_reserve<T>(vec: &mut Vec<T>, additional: usize) -> Result<(), OutOfMemory> {
    let bytes = additional.saturating_mul(std::mem::size_of::<T>());
    if over_test_limit(bytes) {
        return Err(OutOfMemory { bytes });
    }
    vec.try_reserve(additional)
        .map_err(|_| OutOfMemory { bytes })
}

/// Whether `bytes` bytes, still free, can be allocated at once: asked for
/// and given back untouched (the memory a step will need before it takes
/// it piece by piece, such as the decoded text of a file).
pub fn check_room(bytes: usize) -> Result<(), OutOfMemory> {
    try_reserve(&mut Vec::<u8>::new(), bytes)
}

/// The test hook of the `faults` feature: with
/// `HIVE_ORACLE_FAULT_ALLOCATION_LIMIT=N` in the environment, every request
/// of more than N bytes made here is refused, as an allocator out of memory
/// would refuse it, so that the tests reach the refusal without exhausting
/// the machine's memory. Without the feature there is no hook.
fn over_test_limit(bytes: usize) -> bool {
    #[cfg(feature = "faults")]
    {
        std::env::var(ALLOCATION_LIMIT_VARIABLE)
            .ok()
            .and_then(|limit| limit.parse::<usize>().ok())
            .is_some_and(|limit| bytes > limit)
    }
    #[cfg(not(feature = "faults"))]
    {
        let _ = bytes;
        false
    }
}

/// The environment variable of the test hook ([`over_test_limit`]).
#[cfg(feature = "faults")]
pub const ALLOCATION_LIMIT_VARIABLE: &str = "HIVE_ORACLE_FAULT_ALLOCATION_LIMIT";

/// A file too large for the memory at hand: refused with exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLargeForMemory {
    /// The file as the user named it (or `stdin`).
    pub file: String,
    /// The refusal.
    pub refused: OutOfMemory,
}

impl fmt::Display for TooLargeForMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "too large to replay in memory: {} ({})",
            self.file, self.refused
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request no allocator can meet (over `isize::MAX` bytes) is an
    /// error, not an abort.
    #[test]
    fn an_impossible_request_is_an_error() {
        let mut vec: Vec<u64> = Vec::new();
        assert!(try_reserve(&mut vec, usize::MAX / 4).is_err());
        assert!(check_room(usize::MAX).is_err());
        assert!(check_room(1024).is_ok());
    }
}
