//! The limits on the files a user may give: how large a record file may be.
//! It is checked before any work, so that no input holds more memory or
//! time than a real game needs. The GameString limit is the rules
//! library's ([`MAX_GAME_STRING_BYTES`](hive_oracle_rules::records::MAX_GAME_STRING_BYTES)).

/// The largest game record file the command line reads, in bytes (64 MiB:
/// thousands of games).
pub const MAX_RECORD_FILE_BYTES: u64 = 64 << 20;
