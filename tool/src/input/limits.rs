//! The limits on the files a user may give: how large a record file may be.
//! It is checked before any work, so that no input holds more memory or
//! time than a real game needs. The GameString limit is the rules
//! library's ([`MAX_GAME_STRING_BYTES`](hive_oracle_rules::records::MAX_GAME_STRING_BYTES)).

use std::fmt;

/// The largest game record file the command line reads, in bytes (64 MiB:
/// thousands of games).
pub const MAX_RECORD_FILE_BYTES: u64 = 64 << 20;

/// The limit of a record file, as messages state it.
pub const RECORD_FILE_LIMIT: SizeLimit = SizeLimit {
    bytes: MAX_RECORD_FILE_BYTES,
    of: Some("a record file"),
};

/// The most bytes a kind of file may hold, as messages state it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeLimit {
    /// The bytes.
    pub bytes: u64,
    /// The kind of file, when the message names it (`a record file`): its
    /// limit is then also stated in MiB.
    pub of: Option<&'static str>,
}

impl SizeLimit {
    /// A limit stated without naming the kind of file.
    pub const fn bytes(bytes: u64) -> SizeLimit {
        SizeLimit { bytes, of: None }
    }
}

impl fmt::Display for SizeLimit {
    /// `the limit for a record file is 67108864 bytes (64 MiB)`, or
    /// `the limit is 4194304 bytes`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.of {
            Some(kind) => write!(
                f,
                "the limit for {kind} is {} bytes ({} MiB)",
                self.bytes,
                self.bytes >> 20
            ),
            None => write!(f, "the limit is {} bytes", self.bytes),
        }
    }
}
