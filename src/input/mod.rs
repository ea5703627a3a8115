//! What game a user gave, one place for every command and the web page: a
//! GameTypeString (a new game, §9.15), a GameString (§9.31), a game record
//! file and which game of it, to its end or to a ply (spec/game-records.md),
//! or the text of a record pasted on the web page; and the limits on them
//! ([`MAX_GAME_STRING_BYTES`], [`MAX_RECORD_FILE_BYTES`]), checked before
//! any work.
//!
//! * `game.rs`: [`GameInput`], telling the inputs apart and loading the
//!   game on any engine;
//! * `record.rs`: a game of a record file, replayed to its end or to a ply;
//! * `files.rs`: record files read within their limit, and the files and
//!   folders given to `replay`;
//! * `archive.rs`: zip archives of records, read as folders;
//! * `plain.rs`: the games of one record file's bytes;
//! * `error.rs`: [`InputError`], why an input gives no game;
//! * `limits.rs`: the limits.
//!
//! Standard input is not read yet: [`GameInput::of_argument`] is where `-`
//! would be told apart from the other inputs.
//!
//! ```
//! use hive_oracle::core::RulesOptions;
//! use hive_oracle::input::{load_game, GameInput};
//! use hive_oracle::reference::ReferenceEngine;
//! use hive_oracle::rules::Rules;
//!
//! assert!(matches!(GameInput::of_argument("Base+M"), Ok(GameInput::NewGame(_))));
//! let game: ReferenceEngine =
//!     load_game("Base;InProgress;White[2];wS1;bS1 wS1-", RulesOptions::default()).unwrap();
//! assert_eq!(game.plies(), 2);
//! let refused = load_game::<ReferenceEngine>("Base;InProgress;White[2];wS1;bQ wS1-", RulesOptions::default());
//! assert!(refused.unwrap_err().to_string().contains("§4.2"));
//! ```

mod archive;
mod error;
mod files;
mod game;
mod limits;
mod memory;
mod plain;
mod record;

pub use archive::{is_zip, MAX_ZIP_ENTRIES};
pub use error::{InputError, PlyProblem};
pub use files::{
    each_record, each_record_in, read_record_file, read_records, record_files, RecordFiles, Skipped,
};
pub use game::{check_game_string_length, GameInput, PASTED_RECORD};
pub use limits::{MAX_GAME_STRING_BYTES, MAX_RECORD_FILE_BYTES};
#[cfg(feature = "faults")]
pub use memory::ALLOCATION_LIMIT_VARIABLE;
pub use memory::{try_reserve, OutOfMemory, TooLargeForMemory};
pub use plain::{GameRead, RecordFileError};
pub use record::{
    load_record, nth_record, nth_record_game, record_game, record_ply, record_ply_in,
    replay_record, NthRecord, RecordPly,
};

use crate::core::RulesOptions;
use crate::records::Record;
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// The game a command line's argument names ([`GameInput::of_argument`]),
/// on the engine `R`: what `perft`, `validmoves`, `play`, `render` and
/// `explain` load.
pub fn load_game<R: Rules>(text: &str, options: RulesOptions) -> Result<R, InputError> {
    GameInput::of_argument(text)?.load(options)
}

/// The game of the web page's text box ([`GameInput::of_paste`]), on the
/// reference engine.
pub fn load_pasted(text: &str, options: RulesOptions) -> Result<ReferenceEngine, InputError> {
    GameInput::of_paste(text)?.load(options)
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
/// ([`Record::of_game`]), as a record and its game replayed on the
/// reference engine: what `convert` prints from. A GameString holds one
/// game: a game number is refused before the text is read.
pub fn record_or_game(
    text: &str,
    game: Option<usize>,
) -> Result<(NthRecord, ReferenceEngine), InputError> {
    match GameInput::of_argument(text) {
        Ok(GameInput::RecordFile(path)) => {
            nth_record_game(path, &read_record_file(path)?, game.unwrap_or(1))
        }
        Ok(input) if game.is_some() => Err(input.not_a_record(game.unwrap_or(1))),
        input => one_game(input?),
    }
}

/// A new game or a GameString as a record of one game.
pub fn one_game(input: GameInput<'_>) -> Result<(NthRecord, ReferenceEngine), InputError> {
    let loaded: ReferenceEngine = input.load(RulesOptions::default())?;
    let nth = NthRecord {
        record: Record::of_game(&loaded),
        games: 1,
        complete: true,
    };
    Ok((nth, loaded))
}
