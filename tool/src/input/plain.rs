//! The games of one record file's bytes, not an archive: below both the
//! file reader (`files.rs`) and the archive reader (`archive.rs`), which
//! give it a file's or an entry's bytes.

use super::memory::{check_room, TooLargeForMemory};
use hive_oracle_rules::records::{self, Record, RecordError};

/// A game of a record file: read, or why it does not read (§10.16).
pub type GameRead = Result<Record, RecordError>;

/// Why a record file gives no game: it is not a record (or cannot be read),
/// which a report lists with the file's line, or it is too large for the
/// memory at hand, which stops a command with exit status 2.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordFileError {
    /// Unreadable, over the size limit, not a regular file or not a record.
    #[error(transparent)]
    NotARecord(#[from] RecordError),
    /// The allocator refused the memory to read or decode it.
    #[error("{0}")]
    TooLarge(TooLargeForMemory),
}

/// Every game of the record file `name` whose bytes are `bytes`, given to
/// `sink` one at a time, a game that does not read as its error (§10.16).
/// The text is read twice: first with the games dropped, to check that the
/// file is a record (a file that is not is one [`RecordError`] and gives no
/// game), then for the games. Returns the number of games given, read or
/// not.
pub fn each_record_of_file(
    name: &str,
    bytes: Vec<u8>,
    sink: &mut dyn FnMut(GameRead),
) -> Result<usize, RecordFileError> {
    // The decoded text takes about the bytes' size, twice while its line
    // ends are rewritten: asked for first, so that a refusal is an error.
    check_room(bytes.len().saturating_mul(2)).map_err(|refused| {
        RecordFileError::TooLarge(TooLargeForMemory {
            file: name.to_string(),
            refused,
        })
    })?;
    let text = records::decode(&bytes);
    drop(bytes);
    records::read_each(name, &text, &mut drop)?;
    let mut given = 0;
    records::read_each(name, &text, &mut |game| {
        given += 1;
        sink(game);
    })?;
    Ok(given)
}
