//! `-` for stdin wherever a command takes a game (a GameString, a game type
//! or a record file): the input is read like a record file, at most
//! `MAX_RECORD_FILE_BYTES` (64 MiB; one byte more is read to tell that it is
//! over), and named "stdin" in messages. A text that opens as a record
//! format does (the rules' table: `[`, PGN tags; `(`, an SGF tree) is a
//! record; any other is a GameString, or a GameTypeString without a `;`.

use std::io::Read;

use hive_oracle_rules::core::RulesOptions;
use hive_oracle_rules::records::{self, Format, GameText, NthRecord, RecordError, RecordPly};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

use super::error::InputError;
use super::files::each_record_in;
use super::limits::MAX_RECORD_FILE_BYTES;
use super::plain::{GameRead, RecordFileError};
use super::record::{nth_record_game, record_game, record_ply_in};

/// The argument that stands for stdin wherever a command takes a game or a
/// record file (`replay -`, `explain - 3`).
pub const DASH: &str = "-";
/// What stdin is called in messages and reports: the file of the games
/// read there.
pub const NAME: &str = "stdin";

/// What stdin held.
pub enum Given {
    /// A game record (PGN or SGF), as bytes.
    Record(Vec<u8>),
    /// A GameString or a GameTypeString, trimmed.
    Game(String),
}

/// Reads stdin whole, within the limit of a record file.
pub fn read() -> Result<Given, InputError> {
    let bytes = read_bytes()?;
    if Format::of_bytes(&bytes).is_some() {
        return Ok(Given::Record(bytes));
    }
    let blank = bytes.iter().all(u8::is_ascii_whitespace);
    let unreadable = |why: &str| InputError::CannotRead {
        path: NAME.to_string(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, why),
    };
    let text = String::from_utf8(bytes)
        .map_err(|_| unreadable("neither a game record nor a GameString (not UTF-8 text)"))?;
    if blank {
        return Err(unreadable(
            "it is empty: give a GameString, a game type or a game record",
        ));
    }
    Ok(Given::Game(text.trim().to_string()))
}

/// The bytes of stdin, at most `MAX_RECORD_FILE_BYTES`.
pub fn read_bytes() -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_RECORD_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| InputError::CannotRead {
            path: NAME.to_string(),
            source,
        })?;
    if bytes.len() as u64 > MAX_RECORD_FILE_BYTES {
        return Err(InputError::RecordFileTooLarge {
            path: NAME.to_string(),
            bytes: bytes.len() as u64,
        });
    }
    Ok(bytes)
}

/// `replay -`: every game of the records on stdin given to `sink`; stdin
/// unreadable, over the limit or not a record is one error about "stdin".
pub fn each_record(sink: &mut dyn FnMut(GameRead)) -> Result<usize, RecordFileError> {
    let bytes = read_bytes().map_err(|e| RecordError::new(NAME, 0, e.to_string()))?;
    each_record_in(NAME, bytes, sink)
}

impl Given {
    /// The game on the engine `R`: game `game` of a record (the first by
    /// default) under its own options, a GameString or a new game under
    /// `options` (a game number is refused for those: one game).
    pub fn load<R: Rules>(
        &self,
        game: Option<usize>,
        options: RulesOptions,
    ) -> Result<R, InputError> {
        match self {
            Given::Record(bytes) => {
                record_game(NAME, bytes, game.unwrap_or(1), None).map(|(_, game)| game)
            }
            Given::Game(text) => Ok(GameText::of_paste(text)?.load_numbered(game, options)?),
        }
    }

    /// Ply `number` of game `game` of a record; `None` for a GameString.
    pub fn record_ply(
        &self,
        game: Option<usize>,
        number: usize,
    ) -> Option<Result<RecordPly, InputError>> {
        match self {
            Given::Record(bytes) => Some(record_ply_in(NAME, bytes, game.unwrap_or(1), number)),
            Given::Game(_) => None,
        }
    }

    /// What `convert` prints from: game `game` of a record (the first by
    /// default), or a GameString as a record (it holds one game: a game
    /// number is refused).
    pub fn record(&self, game: Option<usize>) -> Result<(NthRecord, ReferenceEngine), InputError> {
        match self {
            Given::Record(bytes) => nth_record_game(NAME, bytes, game.unwrap_or(1)),
            Given::Game(text) => {
                let given = GameText::of_paste(text)?;
                match game {
                    Some(number) => Err(given.not_a_record(number).into()),
                    None => Ok(records::one_game(given)?),
                }
            }
        }
    }
}
