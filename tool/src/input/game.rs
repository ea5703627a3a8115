//! What a user gave as the game on the command line, told apart before
//! anything is loaded: a game as text (a GameTypeString, a GameString:
//! [`GameText`]) or the path of a record file; and the game loaded from it
//! on any engine.

use std::path::Path;

use hive_oracle_rules::core::notation::parse_game_type;
use hive_oracle_rules::core::RulesOptions;
use hive_oracle_rules::records::{check_game_string_length, GameText};
use hive_oracle_rules::rules::Rules;

use super::error::InputError;
use super::record::load_record;
use super::regular_file::FileKind;

/// What a user gave as the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameInput<'a> {
    /// A game as text: a GameTypeString (a new game) or a GameString.
    Text(GameText<'a>),
    /// A game record file (spec/game-records.md), by its path.
    RecordFile(&'a str),
}

impl<'a> GameInput<'a> {
    /// A command line's game argument: a text with a `;` is a GameString;
    /// without one it is a GameTypeString, else the path of a record file.
    /// A text over the GameString limit
    /// ([`MAX_GAME_STRING_BYTES`](hive_oracle_rules::records::MAX_GAME_STRING_BYTES))
    /// is refused unread; a path that names a folder, a FIFO or a device is
    /// refused as not a regular file; anything else is refused as neither a
    /// file nor a game type.
    pub fn of_argument(text: &'a str) -> Result<GameInput<'a>, InputError> {
        check_game_string_length(text)?;
        if text.contains(';') {
            return Ok(GameInput::Text(GameText::GameString(text)));
        }
        match parse_game_type(text) {
            Ok(game_type) => Ok(GameInput::Text(GameText::NewGame(game_type))),
            Err(_) if Path::new(text).is_file() => Ok(GameInput::RecordFile(text)),
            Err(e) => match FileKind::of_path(Path::new(text)).and_then(FileKind::not_regular) {
                Some(why) => Err(InputError::NotARegularFile {
                    path: text.to_string(),
                    why,
                }),
                None => Err(InputError::NeitherFileNorGameType {
                    text: text.to_string(),
                    why: e,
                }),
            },
        }
    }

    /// The game on the engine `R` ([`GameText::load`] for a text; a record
    /// file's first game under the record's own options).
    pub fn load<R: Rules>(self, options: RulesOptions) -> Result<R, InputError> {
        self.load_numbered(None, options)
    }

    /// [`GameInput::load`] of game `game` (1 = the first) of a record file
    /// ([`GameText::load_numbered`]).
    pub fn load_numbered<R: Rules>(
        self,
        game: Option<usize>,
        options: RulesOptions,
    ) -> Result<R, InputError> {
        match self {
            GameInput::RecordFile(path) => {
                load_record(path, game.unwrap_or(1), None).map(|(_, game)| game)
            }
            GameInput::Text(text) => Ok(text.load_numbered(game, options)?),
        }
    }

    /// The refusal of game `game` asked of an input that is one game.
    pub fn not_a_record(self, game: usize) -> InputError {
        match self {
            GameInput::Text(text) => text.not_a_record(game).into(),
            GameInput::RecordFile(path) => hive_oracle_rules::records::GameTextError::NotARecord {
                text: path.to_string(),
                what: "a record file",
                game,
            }
            .into(),
        }
    }
}
