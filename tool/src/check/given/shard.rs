//! The slices of a sharded check (`check --shard I/N`): which units a
//! shard runs. Merging the shards' reports is
//! [`crate::reports::check::merge`](fn@crate::reports::check::merge).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One slice of a check: the `index`-th (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// The slice, from 1.
    pub index: usize,
    /// The number of slices.
    pub count: usize,
}

impl Shard {
    /// The `index`-th of `count` slices, when `1 <= index <= count <=`
    /// [`MAX_SHARDS`]: the one range `--shard` and `check-merge` accept.
    pub(crate) fn new(index: usize, count: usize) -> Option<Shard> {
        (index >= 1 && index <= count && count <= MAX_SHARDS).then_some(Shard { index, count })
    }

    /// Whether the unit at position `k` of the check's units (0: the
    /// protocol unit) belongs to this slice: `k mod count = index - 1`.
    pub(crate) fn holds(self, k: usize) -> bool {
        k % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The largest shard count `--shard` takes.
pub const MAX_SHARDS: usize = 10_000;

/// Why `--shard` does not read.
#[derive(Debug, Error)]
#[error(
    "--shard {0}: expected I/N with 1 <= I <= N <= 10000 (e.g. 2/3: the second of three slices)"
)]
pub struct ShardSyntax(pub String);

impl FromStr for Shard {
    type Err = ShardSyntax;

    fn from_str(text: &str) -> Result<Shard, ShardSyntax> {
        let bad = || ShardSyntax(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).ok_or_else(bad)
    }
}
