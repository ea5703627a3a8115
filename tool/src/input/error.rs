//! Why what a user gave is not a game: each message names the input (the
//! file, the game of it, the ply and its line) and what is wrong there.

use hive_oracle_rules::core::notation::NotationError;
use hive_oracle_rules::records::{GameTextError, RecordError};

use super::formats::walked_names;
use super::limits::RECORD_FILE_LIMIT;
use super::regular_file::NotARegularFile;

/// Why a GameString, a game type or a record file gives no game. `Display`
/// gives the message the command line shows.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The game as text gives no game: too long, not a game type, refused
    /// by the rules, a record that does not read, a game or ply not in it.
    #[error(transparent)]
    Text(#[from] GameTextError),
    /// A command line's game argument without a `;` that is neither a
    /// GameTypeString (§9.15) nor the path of a file: a mistyped path
    /// (`gmae.pgn`) or game type (`Bsae`).
    #[error("{text} is neither a file nor a game type: there is no such file, and {why}")]
    NeitherFileNorGameType {
        /// The argument as the user gave it.
        text: String,
        /// Why it is not a GameTypeString.
        why: NotationError,
    },
    /// A file or folder that cannot be read.
    #[error("cannot read {path}: {source}")]
    CannotRead {
        /// The path as the user gave it.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A path given as a record file that names something else: a folder,
    /// a FIFO, a device or a socket (read, it would block or never end).
    #[error("{path} is {why}: a record must be a file")]
    NotARegularFile {
        /// The path as the user gave it.
        path: String,
        /// What it is instead (a FIFO, a character device…).
        why: NotARegularFile,
    },
    /// A record file over
    /// [`MAX_RECORD_FILE_BYTES`](super::MAX_RECORD_FILE_BYTES), refused
    /// unread.
    #[error("{path} is {bytes} bytes long; {RECORD_FILE_LIMIT}")]
    RecordFileTooLarge {
        /// The path as the user gave it.
        path: String,
        /// Its size.
        bytes: u64,
    },
    /// The allocator refused the memory to hold a record file.
    #[error("{0}")]
    TooLargeForMemory(super::memory::TooLargeForMemory),
    /// A zip archive given where one record file is read (§10.21): only
    /// `replay` reads the records in an archive, as a folder.
    #[error("{file} is a zip archive, not a record file: `replay` reads the records in it (§10.21); extract the record to name one of its games")]
    ZipArchive {
        /// The archive as the user named it.
        file: String,
    },
    /// A folder given to `replay` that holds no record file.
    #[error("{path} holds no record file ({})", walked_names())]
    NoRecordFile {
        /// The folder.
        path: String,
    },
    /// The records given to one check hold more games, or more bytes once
    /// read, than a check may hold: found while reading `at`.
    #[error("the records given hold more than {games} games or {} MiB of games once read, the limit of one check (reached in {at}): give fewer files, or check them in several runs", bytes >> 20)]
    TooManyRecords {
        /// The most games.
        games: usize,
        /// The most bytes.
        bytes: usize,
        /// The file being read when the limit was reached.
        at: String,
    },
    /// A path that names neither a file nor a folder.
    #[error("{path}: no such file or folder")]
    NoSuchPath {
        /// The path.
        path: String,
    },
}

impl From<NotationError> for InputError {
    fn from(error: NotationError) -> InputError {
        InputError::Text(error.into())
    }
}

impl From<RecordError> for InputError {
    fn from(error: RecordError) -> InputError {
        InputError::Text(error.into())
    }
}
