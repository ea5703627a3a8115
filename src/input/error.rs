//! Why what a user gave is not a game: each message names the input (the
//! file, the game of it, the ply and its line) and what is wrong there.

use super::limits::{MAX_GAME_STRING_BYTES, MAX_RECORD_FILE_BYTES};
use crate::core::notation::NotationError;
use crate::explain::PlayRefused;
use crate::records::RecordError;
use crate::rules::LoadError;

/// Why a GameString, a game type, a record file or a pasted record gives no
/// game. `Display` gives the message the command line and the web page show.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A GameString (or anything given as one) over
    /// [`MAX_GAME_STRING_BYTES`], refused unread.
    #[error(
        "the GameString is {bytes} bytes long; the limit is {MAX_GAME_STRING_BYTES} bytes (1 MiB)"
    )]
    GameStringTooLong {
        /// Its length.
        bytes: usize,
    },
    /// The web page's text box is empty.
    #[error("nothing to load: paste a GameString, a game type or a game record")]
    NothingPasted,
    /// Not a GameTypeString (§9.15), or a move that does not read (§9.21).
    #[error(transparent)]
    Notation(#[from] NotationError),
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
    /// The reference engine refuses the GameString (§9.31, §9.34): the move
    /// and the clause.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The engine refuses a GameString that the reference engine loads: a
    /// bug of the engine, with its own refusal.
    #[error("{0} (the reference engine accepts this game: please report it)")]
    ReferenceAcceptsGame(LoadError),
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
    #[error("{path} is {kind}, not a regular file: a record must be a file")]
    NotARegularFile {
        /// The path as the user gave it.
        path: String,
        /// What it is ("a FIFO (named pipe)", "a character device"…).
        kind: &'static str,
    },
    /// A record file over [`MAX_RECORD_FILE_BYTES`], refused unread.
    #[error("{path} is {bytes} bytes long; the limit for a record file is {MAX_RECORD_FILE_BYTES} bytes (64 MiB)")]
    RecordFileTooLarge {
        /// The path as the user gave it.
        path: String,
        /// Its size.
        bytes: u64,
    },
    /// The allocator refused the memory to hold a record file.
    #[error("{0}")]
    TooLargeForMemory(super::memory::TooLargeForMemory),
    /// Not a record, or a record its reader cannot follow.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A game number beyond the games of the record.
    #[error("{file} holds {games} game(s), not a game {game}")]
    NoSuchGame {
        /// The record file (or the name of a pasted record).
        file: String,
        /// The games it holds.
        games: usize,
        /// The game asked for, from 1.
        game: usize,
    },
    /// A ply of a record that does not read or that the rules refuse.
    #[error("{file} game {game}: ply {ply} ({uhp}, line {line}) is illegal: {why}")]
    IllegalPly {
        /// The record file (or the name of a pasted record).
        file: String,
        /// The game's number in the file.
        game: usize,
        /// The ply, from 1.
        ply: usize,
        /// The ply as a MoveString.
        uhp: String,
        /// The record's line.
        line: usize,
        /// Why it is not played.
        why: Box<PlyProblem>,
    },
    /// A zip archive given where one record file is read (§10.21): only
    /// `replay` reads the records in an archive, as a folder.
    #[error("{file} is a zip archive, not a record file: `replay` reads the records in it (§10.21); extract the record to name one of its games")]
    ZipArchive {
        /// The archive as the user named it.
        file: String,
    },
    /// A game number asked of an input that is one game: a game type or a
    /// GameString.
    #[error("{text} is {what}, not a record file: a game number (game {game}) picks a game of a record file")]
    NotARecord {
        /// The input as the user gave it.
        text: String,
        /// What it is ("a game type", "a GameString").
        what: &'static str,
        /// The game asked for.
        game: usize,
    },
    /// A second game asked of a GameString.
    #[error("a GameString holds one game, not a game {game}")]
    OneGame {
        /// The game asked for.
        game: usize,
    },
    /// Ply 0 of a record asked for.
    #[error("plies are numbered from 1")]
    PlyZero,
    /// A ply beyond the end of a record.
    #[error("{file} has {plies} plies, not a ply {ply}")]
    NoSuchPly {
        /// The record file.
        file: String,
        /// The plies it holds.
        plies: usize,
        /// The ply asked for.
        ply: usize,
    },
    /// A ply of a record that does not read in the position before it.
    #[error("ply {ply} ({uhp}, line {line}) does not read here: {error}")]
    PlyDoesNotRead {
        /// The ply, from 1.
        ply: usize,
        /// The ply as a MoveString.
        uhp: String,
        /// The record's line.
        line: usize,
        /// Why it does not read.
        error: NotationError,
    },
    /// A folder given to `replay` that holds no record file.
    #[error("{path} holds no record file (.pgn, .sgf or .zip)")]
    NoRecordFile {
        /// The folder.
        path: String,
    },
    /// A path that names neither a file nor a folder.
    #[error("{path}: no such file or folder")]
    NoSuchPath {
        /// The path.
        path: String,
    },
}

/// Why a ply of a record is not played: its MoveString does not read in
/// the position, or the rules refuse the move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlyProblem {
    /// The MoveString names no move here (§9.21, §9.23).
    #[error(transparent)]
    Unreadable(#[from] NotationError),
    /// The rules refuse the move, with the clause.
    #[error(transparent)]
    Refused(#[from] PlayRefused),
}
