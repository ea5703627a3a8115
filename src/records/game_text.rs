//! A game given as text, told apart before anything is loaded: a
//! GameTypeString (a new game, §9.15), a GameString (§9.31) or the text of a
//! game record (spec/game-records.md); the game loaded from it on any
//! engine, and a game of a record replayed to its end or through a number
//! of plies, with one ply of it in the position before it.
//!
//! This is what the web page's text box and the command line's standard
//! input hold; the command line's file arguments are read by the tool
//! (`hive-oracle`'s `input`), which hands their bytes here. A record is
//! replayed under its own rules options ([`record_options`]: its opening,
//! and no repetition draw). A ply that does not read or that the rules
//! refuse stops the replay with an error naming the record, the game, the
//! ply and its line; the refusal is the reference rules' judgement of the
//! move in that position, with its clause ([`play_explained`]).
//!
//! ```
//! use hive_oracle_rules::core::RulesOptions;
//! use hive_oracle_rules::records::GameText;
//! use hive_oracle_rules::reference::ReferenceEngine;
//! use hive_oracle_rules::rules::Rules;
//!
//! assert!(matches!(GameText::of_paste("Base+M"), Ok(GameText::NewGame(_))));
//! let text = GameText::of_paste("Base;InProgress;White[2];wS1;bS1 wS1-").unwrap();
//! let game: ReferenceEngine = text.load(RulesOptions::default()).unwrap();
//! assert_eq!(game.plies(), 2);
//! let refused = GameText::of_paste("Base;InProgress;White[2];wS1;bQ wS1-").unwrap();
//! let refused = refused.load::<ReferenceEngine>(RulesOptions::default());
//! assert!(refused.unwrap_err().to_string().contains("§4.2"));
//! ```

use crate::core::notation::{parse_game_type, NotationError};
use crate::core::{GameType, Move, RulesOptions};
use crate::explain::{play_explained, PlayRefused};
use crate::records::replay::record_options;
use crate::records::{decode, read_each, Format, Record, RecordError, RecordedMove};
use crate::reference::ReferenceEngine;
use crate::rules::{LoadError, Rules};

/// The longest GameString the command line and the web page read, in bytes
/// (1 MiB, the longest line of the UHP server, `uhp::MAX_LINE_BYTES`):
/// about 100,000 plies, hundreds of times the longest game played, and
/// loaded in about a second on the reference engine (0.1 s on the fast one).
/// It holds for a game read from a record too.
pub const MAX_GAME_STRING_BYTES: usize = 1 << 20;

/// The name a pasted record goes by in messages.
pub const PASTED_RECORD: &str = "the pasted record";

/// Why a text gives no game. `Display` gives the message the command line
/// and the web page show: each names the input (the record, the game of it,
/// the ply and its line) and what is wrong there.
#[derive(Debug, thiserror::Error)]
pub enum GameTextError {
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
    /// The reference engine refuses the GameString (§9.31, §9.34): the move
    /// and the clause.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The engine refuses a GameString that the reference engine loads: a
    /// bug of the engine, with its own refusal.
    #[error("{0} (the reference engine accepts this game: please report it)")]
    ReferenceAcceptsGame(LoadError),
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

/// Refuses a GameString longer than [`MAX_GAME_STRING_BYTES`] before any work.
pub fn check_game_string_length(text: &str) -> Result<(), GameTextError> {
    if text.len() > MAX_GAME_STRING_BYTES {
        return Err(GameTextError::GameStringTooLong { bytes: text.len() });
    }
    Ok(())
}

/// A game given as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameText<'a> {
    /// A GameTypeString (§9.15): a new game of that type.
    NewGame(GameType),
    /// A GameString (§9.31), loaded move by move.
    GameString(&'a str),
    /// The text of a game record (spec/game-records.md).
    Record(&'a str),
}

impl<'a> GameText<'a> {
    /// A text given as a whole (the web page's box, standard input),
    /// trimmed: a text that opens as a record format does
    /// ([`Format::of_text`]: `[`, PGN tags; `(`, an SGF tree) is a record;
    /// else a text with a `;` is a GameString and one without a
    /// GameTypeString. Refused when empty or over [`MAX_GAME_STRING_BYTES`]
    /// (a mistaken paste of a whole web page is refused at once).
    pub fn of_paste(text: &'a str) -> Result<GameText<'a>, GameTextError> {
        check_game_string_length(text)?;
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(GameTextError::NothingPasted);
        }
        if Format::of_text(trimmed).is_some() {
            return Ok(GameText::Record(trimmed));
        }
        if !trimmed.contains(';') {
            return Ok(GameText::NewGame(parse_game_type(trimmed)?));
        }
        Ok(GameText::GameString(trimmed))
    }

    /// The game on the engine `R`. A new game and a GameString are played
    /// under `options`; a record (its first game) under its own
    /// ([`record_options`]). A refusal is the reference engine's, which
    /// names the clause that forbids the move (the fast engine only says
    /// that a move is not legal).
    pub fn load<R: Rules>(self, options: RulesOptions) -> Result<R, GameTextError> {
        self.load_numbered(None, options)
    }

    /// [`GameText::load`] of game `game` (1 = the first) of a record, read
    /// one game at a time; a game number asked of a new game or a GameString
    /// is refused ([`GameTextError::NotARecord`]), as is one beyond the games
    /// of the record ([`GameTextError::NoSuchGame`]). A record goes by
    /// `name` in messages (the file it came from, or [`PASTED_RECORD`]).
    pub fn load_numbered<R: Rules>(
        self,
        game: Option<usize>,
        options: RulesOptions,
    ) -> Result<R, GameTextError> {
        self.load_named(PASTED_RECORD, game, options)
    }

    /// [`GameText::load_numbered`] with a record named `name` in messages.
    pub fn load_named<R: Rules>(
        self,
        name: &str,
        game: Option<usize>,
        options: RulesOptions,
    ) -> Result<R, GameTextError> {
        let number = game.unwrap_or(1);
        match self {
            GameText::Record(text) => {
                record_game(name, text.as_bytes(), number, None).map(|(_, game)| game)
            }
            _ if game.is_some() => Err(self.not_a_record(number)),
            GameText::NewGame(game_type) => Ok(R::new_game(game_type, options)),
            GameText::GameString(text) => load_game_string(text, options),
        }
    }

    /// The refusal of game `game` asked of an input that is one game.
    pub fn not_a_record(self, game: usize) -> GameTextError {
        let (text, what) = match self {
            GameText::NewGame(game_type) => (game_type.to_string(), "a game type"),
            GameText::GameString(text) => (text.to_string(), "a GameString"),
            GameText::Record(_) => (PASTED_RECORD.to_string(), "a record"),
        };
        GameTextError::NotARecord { text, what, game }
    }
}

/// A GameString on the engine `R`; a refusal is the reference engine's.
pub fn load_game_string<R: Rules>(text: &str, options: RulesOptions) -> Result<R, GameTextError> {
    R::load_with(text, options).map_err(|refusal| match ReferenceEngine::load_with(text, options) {
        Err(explained) => GameTextError::Load(explained),
        Ok(_) => GameTextError::ReferenceAcceptsGame(refusal),
    })
}

/// Game `game` (1 = the first) of a record's bytes, replayed on the engine
/// `R`: to its end, or through its first `plies` plies. `name` stands for
/// the file in messages.
pub fn record_game<R: Rules>(
    name: &str,
    bytes: &[u8],
    game: usize,
    plies: Option<usize>,
) -> Result<(Record, R), GameTextError> {
    let NthRecord { record, .. } = nth_record(name, bytes, game)?;
    let replayed = replay_within_limit(&record, plies)?;
    Ok((record, replayed))
}

/// Game `game` of a record's bytes ([`nth_record`]) with the count of the
/// file's games, replayed to its end on the reference engine: what
/// `convert` prints from.
pub fn nth_record_game(
    name: &str,
    bytes: &[u8],
    game: usize,
) -> Result<(NthRecord, ReferenceEngine), GameTextError> {
    let nth = nth_record(name, bytes, game)?;
    let replayed = replay_within_limit(&nth.record, None)?;
    Ok((nth, replayed))
}

/// A new game or a GameString as a record of one game.
pub fn one_game(text: GameText<'_>) -> Result<(NthRecord, ReferenceEngine), GameTextError> {
    let loaded: ReferenceEngine = text.load(RulesOptions::default())?;
    let nth = NthRecord {
        record: Record::of_game(&loaded),
        games: 1,
        complete: true,
    };
    Ok((nth, loaded))
}

/// [`replay_record`] of a record within the GameString limit: it holds for
/// a game read from a record too (the PGN reader refuses such a game as it
/// reads; an SGF one is caught here).
fn replay_within_limit<R: Rules>(
    record: &Record,
    plies: Option<usize>,
) -> Result<R, GameTextError> {
    let game_string_bytes: usize = record.moves.iter().map(|m| m.uhp.len() + 1).sum();
    if game_string_bytes > MAX_GAME_STRING_BYTES {
        return Err(GameTextError::GameStringTooLong {
            bytes: game_string_bytes,
        });
    }
    replay_record(record, plies)
}

/// One game of a record file, and how many the file holds.
#[derive(Clone, Debug)]
pub struct NthRecord {
    /// The game asked for.
    pub record: Record,
    /// The games of the file, read or not (§10.16): all of them, or, when
    /// the file turns out not to be a record after the game asked for,
    /// those given before ([`NthRecord::complete`] is false).
    pub games: usize,
    /// Whether the whole file was read.
    pub complete: bool,
}

/// Game `game` (1 = the first) of a record's bytes, read one game at a time
/// ([`read_each`]): only that game is kept, whatever the size of the file.
/// The game asked for reads even when another game of the file does not
/// (§10.16); when it is itself the game that does not read, its error
/// (naming the game and the line) is the answer.
pub fn nth_record(name: &str, bytes: &[u8], game: usize) -> Result<NthRecord, GameTextError> {
    let text = decode(bytes);
    let mut count = 0;
    let mut wanted = None;
    let read = read_each(name, &text, &mut |read| {
        count += 1;
        if count == game {
            wanted = Some(read);
        }
    });
    match (wanted, read) {
        (Some(Ok(record)), read) => Ok(NthRecord {
            record,
            games: count,
            complete: read.is_ok(),
        }),
        (Some(Err(error)), _) => Err(error.into()),
        (None, Err(error)) => Err(error.into()),
        (None, Ok(_)) => Err(GameTextError::NoSuchGame {
            file: name.to_string(),
            games: count,
            game,
        }),
    }
}

/// `record` replayed on the engine `R` under the record's options: to its
/// end, or through its first `plies` plies.
pub fn replay_record<R: Rules>(record: &Record, plies: Option<usize>) -> Result<R, GameTextError> {
    let mut game = R::new_game(record.game_type, record_options(record));
    let wanted = record.moves.iter().take(plies.unwrap_or(usize::MAX));
    for (i, ply) in wanted.enumerate() {
        let played = game
            .parse_move(&ply.uhp)
            .map_err(PlyProblem::from)
            .and_then(|mv| play_explained(&mut game, mv).map_err(PlyProblem::from));
        if let Err(why) = played {
            return Err(GameTextError::IllegalPly {
                file: record.file.clone(),
                game: record.index,
                ply: i + 1,
                uhp: ply.uhp.clone(),
                line: ply.line,
                why: Box::new(why),
            });
        }
    }
    Ok(game)
}

/// One ply of a game of a record file, in the position before it.
#[derive(Clone, Debug)]
pub struct RecordPly {
    /// The record.
    pub record: Record,
    /// The ply's number, from 1.
    pub number: usize,
    /// The ply as the record writes it.
    pub ply: RecordedMove,
    /// The game before the ply, on the reference engine.
    pub game: ReferenceEngine,
    /// The ply's move in that position.
    pub mv: Move,
}

/// Ply `number` (1 = the first) of game `game` of a record's bytes, with
/// the position before it; the ply itself may be illegal there. `name`
/// stands for the file in messages.
pub fn record_ply(
    name: &str,
    bytes: &[u8],
    game: usize,
    number: usize,
) -> Result<RecordPly, GameTextError> {
    if number == 0 {
        return Err(GameTextError::PlyZero);
    }
    let (record, game) = record_game::<ReferenceEngine>(name, bytes, game, Some(number - 1))?;
    let ply = record
        .moves
        .get(number - 1)
        .cloned()
        .ok_or_else(|| GameTextError::NoSuchPly {
            file: name.to_string(),
            plies: record.moves.len(),
            ply: number,
        })?;
    let mv = game
        .parse_move(&ply.uhp)
        .map_err(|error| GameTextError::PlyDoesNotRead {
            ply: number,
            uhp: ply.uhp.clone(),
            line: ply.line,
            error,
        })?;
    Ok(RecordPly {
        record,
        number,
        ply,
        game,
        mv,
    })
}

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
