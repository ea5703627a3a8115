//! What game a user gave on the command line, and the files and folders
//! the tool reads: a game as text (a GameTypeString or a GameString, told
//! apart by the rules library's [`GameText`](hive_oracle_rules::records::GameText)),
//! a game record file and which game of it, to its end or to a ply
//! (spec/game-records.md), the files and folders given to `replay` and
//! `check --records`, zip archives read as folders, standard input (`-`),
//! corpus folders, and the limits on them, checked before any work.
//!
//! * `game.rs`: [`GameInput`], telling a text from a file's path and
//!   loading the game on any engine;
//! * `record.rs`: a game of a record file, replayed to its end or to a ply;
//! * `files.rs`: record files read within their limit, and the files and
//!   folders given to `replay`;
//! * `formats.rs`: which files and archive entries are read as records,
//!   from the rules' table of formats;
//! * `archive.rs`: zip archives of records, read as folders;
//! * `plain.rs`: the games of one record file's bytes, within the memory;
//! * `stdin.rs`: `-`, a game or records on standard input, read within the
//!   limit of a record file;
//! * `regular_file.rs`: the one reader of a file the tool is given (record
//!   files, corpus files, baselines): regular files only, within a limit;
//! * `corpus_files.rs`: corpus folders (`check --corpus DIR`);
//! * `memory.rs`: memory asked for so that a refusal is an error;
//! * `error.rs`: [`InputError`], why an input gives no game;
//! * `limits.rs`: the limits.
//!
//! ```
//! use hive_oracle::input::{load_game, GameInput};
//! use hive_oracle_rules::core::RulesOptions;
//! use hive_oracle_rules::records::GameText;
//! use hive_oracle_rules::reference::ReferenceEngine;
//! use hive_oracle_rules::rules::Rules;
//!
//! assert!(matches!(GameInput::of_argument("Base+M"), Ok(GameInput::Text(GameText::NewGame(_)))));
//! let game: ReferenceEngine =
//!     load_game("Base;InProgress;White[2];wS1;bS1 wS1-", RulesOptions::default()).unwrap();
//! assert_eq!(game.plies(), 2);
//! let refused = load_game::<ReferenceEngine>("Base;InProgress;White[2];wS1;bQ wS1-", RulesOptions::default());
//! assert!(refused.unwrap_err().to_string().contains("§4.2"));
//! ```

mod archive;
mod corpus_files;
mod error;
mod files;
mod formats;
mod game;
mod limits;
mod memory;
mod plain;
mod record;
mod regular_file;
pub mod stdin;

#[cfg(feature = "faults")]
pub use archive::ARCHIVE_LIMITS_VARIABLE;
pub use archive::{
    bytes_once_read, is_zip, MAX_ARCHIVE_BYTES, MAX_ENTRY_RATIO, MAX_RUN_ARCHIVE_BYTES,
    MAX_ZIP_ENTRIES, RATIO_FREE_BYTES,
};
pub use corpus_files::{
    load_corpus, read_corpus_files, CorpusError, FolderError, MAX_CORPUS_FILE_BYTES,
};
pub use error::InputError;
pub use files::{
    each_record, each_record_in, read_record_file, read_records, record_files, RecordFiles, Skipped,
};
pub use game::GameInput;
pub use limits::{SizeLimit, MAX_RECORD_FILE_BYTES, RECORD_FILE_LIMIT};
#[cfg(feature = "faults")]
pub use memory::ALLOCATION_LIMIT_VARIABLE;
pub use memory::{try_reserve, OutOfMemory, TooLargeForMemory};
pub use plain::{GameRead, RecordFileError};
pub use record::{load_record, nth_record_game, record_game, record_ply, record_ply_in};
pub use regular_file::{
    read_regular_bytes, read_regular_file, FileKind, NotARegularFile, ReadError, Unreadable,
};

use hive_oracle_rules::core::RulesOptions;
use hive_oracle_rules::records::{one_game, NthRecord};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The game a command line's argument names ([`GameInput::of_argument`]),
/// on the engine `R`: what `perft`, `validmoves`, `play`, `render` and
/// `explain` load.
pub fn load_game<R: Rules>(text: &str, options: RulesOptions) -> Result<R, InputError> {
    GameInput::of_argument(text)?.load(options)
}

/// [`load_game`] of game `game` (1 = the first) of a record file
/// ([`GameInput::load_numbered`]): `--game N` of the command line.
pub fn load_numbered_game<R: Rules>(
    text: &str,
    game: Option<usize>,
    options: RulesOptions,
) -> Result<R, InputError> {
    GameInput::of_argument(text)?.load_numbered(game, options)
}

/// A record file's game `game` (the first by default), or a GameString (or
/// GameTypeString) read as a game with the default options
/// (`Record::of_game`), as a record and its game replayed on the reference
/// engine: what `convert` prints from. A GameString holds one game: a game
/// number is refused before the text is read.
pub fn record_or_game(
    text: &str,
    game: Option<usize>,
) -> Result<(NthRecord, ReferenceEngine), InputError> {
    match GameInput::of_argument(text)? {
        GameInput::RecordFile(path) => {
            nth_record_game(path, &read_record_file(path)?, game.unwrap_or(1))
        }
        input if game.is_some() => Err(input.not_a_record(game.unwrap_or(1))),
        GameInput::Text(text) => Ok(one_game(text)?),
    }
}
