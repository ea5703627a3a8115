//! What a user gave as the game, told apart before anything is loaded: a
//! GameTypeString (a new game), a GameString, a record file or a pasted
//! record; and the game loaded from it on any engine.

use std::path::Path;

use super::error::InputError;
use super::files::non_regular_path;
use super::limits::MAX_GAME_STRING_BYTES;
use super::record::{load_record, record_game};
use crate::core::notation::parse_game_type;
use crate::core::{GameType, RulesOptions};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// The name a pasted record goes by in messages.
pub const PASTED_RECORD: &str = "the pasted record";

/// Refuses a GameString longer than [`MAX_GAME_STRING_BYTES`] before any work.
pub fn check_game_string_length(text: &str) -> Result<(), InputError> {
    if text.len() > MAX_GAME_STRING_BYTES {
        return Err(InputError::GameStringTooLong { bytes: text.len() });
    }
    Ok(())
}

/// What a user gave as the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameInput<'a> {
    /// A GameTypeString (§9.15): a new game of that type.
    NewGame(GameType),
    /// A GameString (§9.31), loaded move by move.
    GameString(&'a str),
    /// A game record file (spec/game-records.md), by its path.
    RecordFile(&'a str),
    /// A game record pasted as text (the web page).
    PastedRecord(&'a str),
}

impl<'a> GameInput<'a> {
    /// A command line's game argument: a text with a `;` is a GameString;
    /// without one it is a GameTypeString, else the path of a record file.
    /// A text over [`MAX_GAME_STRING_BYTES`] is refused unread; a path that
    /// names a folder, a FIFO or a device is refused as not a regular file;
    /// anything else is refused as neither a file nor a game type.
    pub fn of_argument(text: &'a str) -> Result<GameInput<'a>, InputError> {
        check_game_string_length(text)?;
        if text.contains(';') {
            return Ok(GameInput::GameString(text));
        }
        match parse_game_type(text) {
            Ok(game_type) => Ok(GameInput::NewGame(game_type)),
            Err(_) if Path::new(text).is_file() => Ok(GameInput::RecordFile(text)),
            Err(e) => match non_regular_path(text) {
                Some(kind) => Err(InputError::NotARegularFile {
                    path: text.to_string(),
                    kind,
                }),
                None => Err(InputError::NeitherFileNorGameType {
                    text: text.to_string(),
                    why: e,
                }),
            },
        }
    }

    /// The text of the web page's box, trimmed: a text starting with `[`
    /// (PGN tags) or `(` (an SGF tree) is a record; else a text with a `;`
    /// is a GameString and one without a GameTypeString. The page reads no
    /// files. Refused when empty or over [`MAX_GAME_STRING_BYTES`] (a
    /// mistaken paste of a whole web page is refused at once).
    pub fn of_paste(text: &'a str) -> Result<GameInput<'a>, InputError> {
        check_game_string_length(text)?;
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(InputError::NothingPasted);
        }
        if trimmed.starts_with('[') || trimmed.starts_with('(') {
            return Ok(GameInput::PastedRecord(trimmed));
        }
        if !trimmed.contains(';') {
            return Ok(GameInput::NewGame(parse_game_type(trimmed)?));
        }
        Ok(GameInput::GameString(trimmed))
    }

    /// The game on the engine `R`. A new game and a GameString are played
    /// under `options`; a record (its first game) under its own
    /// (`records::replay::record_options`). A refusal is the reference
    /// engine's, which names the clause that forbids the move (the fast
    /// engine only says that a move is not legal).
    pub fn load<R: Rules>(self, options: RulesOptions) -> Result<R, InputError> {
        self.load_numbered(None, options)
    }

    /// [`GameInput::load`] of game `game` (1 = the first) of a record, read
    /// one game at a time; a game number asked of a new game or a GameString
    /// is refused ([`InputError::NotARecord`]), as is one beyond the games
    /// of the record ([`InputError::NoSuchGame`]).
    pub fn load_numbered<R: Rules>(
        self,
        game: Option<usize>,
        options: RulesOptions,
    ) -> Result<R, InputError> {
        let number = game.unwrap_or(1);
        match self {
            GameInput::RecordFile(path) => load_record(path, number, None).map(|(_, game)| game),
            GameInput::PastedRecord(text) => {
                record_game(PASTED_RECORD, text.as_bytes(), number, None).map(|(_, game)| game)
            }
            _ if game.is_some() => Err(self.not_a_record(number)),
            GameInput::NewGame(game_type) => Ok(R::new_game(game_type, options)),
            GameInput::GameString(text) => load_game_string(text, options),
        }
    }

    /// The refusal of game `game` asked of an input that is one game.
    pub fn not_a_record(self, game: usize) -> InputError {
        let (text, what) = match self {
            GameInput::NewGame(game_type) => (game_type.to_string(), "a game type"),
            GameInput::GameString(text) => (text.to_string(), "a GameString"),
            GameInput::RecordFile(path) => (path.to_string(), "a record file"),
            GameInput::PastedRecord(_) => (PASTED_RECORD.to_string(), "a record"),
        };
        InputError::NotARecord { text, what, game }
    }
}

/// A GameString on the engine `R`; a refusal is the reference engine's.
fn load_game_string<R: Rules>(text: &str, options: RulesOptions) -> Result<R, InputError> {
    R::load_with(text, options).map_err(|refusal| match ReferenceEngine::load_with(text, options) {
        Err(explained) => InputError::Load(explained),
        Ok(_) => InputError::ReferenceAcceptsGame(refusal),
    })
}
