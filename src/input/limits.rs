//! The limits on what a user may give as a game: how long a GameString and
//! how large a record file may be. Both are checked before any work, so that
//! no input holds more memory or time than a real game needs.

/// The longest GameString the command line and the web page read, in bytes
/// (1 MiB, the longest line of the UHP server, `uhp::MAX_LINE_BYTES`):
/// about 100,000 plies, hundreds of times the longest game played, and
/// loaded in about a second on the reference engine (0.1 s on the fast one).
pub const MAX_GAME_STRING_BYTES: usize = 1 << 20;

/// The largest game record file the command line reads, in bytes (64 MiB:
/// thousands of games).
pub const MAX_RECORD_FILE_BYTES: u64 = 64 << 20;

#[cfg(test)]
mod tests {
    /// The PGN reader applies the GameString limit as it reads a game.
    #[test]
    fn the_record_game_limit_is_the_game_string_limit() {
        assert_eq!(
            crate::records::pgn::MAX_RECORD_GAME_BYTES,
            super::MAX_GAME_STRING_BYTES
        );
    }
}
