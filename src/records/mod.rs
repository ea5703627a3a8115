//! Game records (spec/game-records.md): PGN-style Hive records, as Mzinga and
//! hivegame.com write them, and boardspace.net SGF files (the formats in one
//! table, [`FORMATS`]), read into one typed [`Record`] per game: the players, the date, the declared result,
//! the game type and every ply as written and as a UHP MoveString.
//!
//! A reader decides nothing about the rules: it turns the file's text into
//! MoveStrings (applying the documented leniencies, each noted in
//! [`Record::notes`]) and leaves the judging to an engine (`replay`). A file
//! that is not a record, or a record the reader cannot follow, is a typed
//! [`RecordError`] naming the file, the line and what is wrong; no input
//! makes a reader panic.

mod format;
mod game_text;
pub mod pgn;
mod read;
pub mod replay;
pub mod sgf;

pub use format::{
    is_zip, record_extensions, Format, FormatEntry, ReadAll, ReadEach, DEFAULT_FORMAT, FORMATS,
};
pub use game_text::{
    check_game_string_length, load_game_string, nth_record, nth_record_game, one_game, record_game,
    record_ply, replay_record, GameText, GameTextError, NthRecord, PlyProblem, RecordPly,
    MAX_GAME_STRING_BYTES, PASTED_RECORD,
};
pub use read::{decode, read, read_each, read_text};

use std::fmt;

use crate::core::{Color, GameState, GameType};
use crate::rules::Rules;

/// Why a record, or one game of it, could not be read: the file, the game
/// of a file of several, the 1-based line and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RecordError {
    /// The file as the user named it (or `-`).
    pub file: String,
    /// The 1-based number of the game that does not read, when the file
    /// holds several and the reader went on to the next (§10.16); `None`
    /// when the error is the whole file's.
    pub game: Option<usize>,
    /// The 1-based line of the problem; 0 when it concerns the whole file.
    pub line: usize,
    /// What is wrong, quoting the offending text.
    pub message: String,
    /// The record is of a game that UHP does not describe (boardspace's
    /// Ultimate Hive, §10.21): `replay` reports it as skipped, not as
    /// unreadable.
    pub not_a_uhp_game: bool,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.game, self.line) {
            (Some(game), 0) => write!(f, "{}: game {game}: {}", self.file, self.message),
            (Some(game), line) => {
                write!(
                    f,
                    "{}: game {game}, line {line}: {}",
                    self.file, self.message
                )
            }
            (None, 0) => write!(f, "{}: {}", self.file, self.message),
            (None, line) => write!(f, "{}:{line}: {}", self.file, self.message),
        }
    }
}

impl RecordError {
    /// An error at `line` of `file`.
    pub fn new(file: &str, line: usize, message: impl Into<String>) -> RecordError {
        RecordError {
            file: file.to_string(),
            game: None,
            line,
            message: message.into(),
            not_a_uhp_game: false,
        }
    }
}

/// The result a record declares (a tag, a result line, an SGF `RE`, a
/// resignation or an agreed draw), before any replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DeclaredResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
    /// The record says the game is not finished (`InProgress`, `NotStarted`, `*`).
    Unfinished,
    /// The record says nothing usable (`Unknown`, no result at all).
    Unknown,
}

impl DeclaredResult {
    /// The result's name as the reports print it.
    pub fn name(self) -> &'static str {
        match self {
            DeclaredResult::WhiteWins => "WhiteWins",
            DeclaredResult::BlackWins => "BlackWins",
            DeclaredResult::Draw => "Draw",
            DeclaredResult::Unfinished => "Unfinished",
            DeclaredResult::Unknown => "Unknown",
        }
    }

    /// The winner of a decided result.
    pub fn winner(self) -> Option<Color> {
        match self {
            DeclaredResult::WhiteWins => Some(Color::White),
            DeclaredResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }
}

/// How the record says the game ended, which decides whether the final
/// position must show the declared result (spec/game-records.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ending {
    /// On the board: the declared result must be the replayed state.
    Board,
    /// The given colour resigned: the position may be unfinished.
    Resignation(Color),
    /// The players agreed a draw: the position may be unfinished.
    AgreedDraw,
    /// The record does not say how (a PGN result, an SGF `RE` alone): a
    /// decided board must match the result, an unfinished one may stand.
    Unstated,
}

/// One ply of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The 1-based line of the file where the ply is written (for SGF, the
    /// line of the action that completed it).
    pub line: usize,
    /// The ply as the file writes it (for SGF, the actions of the turn
    /// joined by ` ; `).
    pub written: String,
    /// The ply as a standard UHP MoveString (spec/notation.md §9.21), after
    /// the reader's normalisations; `pass` for a pass.
    pub uhp: String,
}

/// One game read from a record file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The file's format.
    pub format: Format,
    /// The file as the user named it.
    pub file: String,
    /// The game's 1-based number within its file.
    pub index: usize,
    /// The 1-based line where the game starts.
    pub line: usize,
    /// The game type (§9.15).
    pub game_type: GameType,
    /// Whether the game was played without the tournament opening (a queen
    /// placed on the first or second ply, §10.12).
    pub standard_opening: bool,
    /// White's name, if the record gives one.
    pub white: Option<String>,
    /// Black's name, if the record gives one.
    pub black: Option<String>,
    /// The date as written, if any.
    pub date: Option<String>,
    /// Every tag or root property as written, in file order.
    pub tags: Vec<(String, String)>,
    /// The result the record declares.
    pub result: DeclaredResult,
    /// How the record says the game ended.
    pub ending: Ending,
    /// The plies, in order.
    pub moves: Vec<RecordedMove>,
    /// The leniencies the reader applied and anything it skipped, each a
    /// sentence with its line (`line 7: wM1 read as wM`).
    pub notes: Vec<String>,
}

impl Record {
    /// The MoveStrings of the game, in order.
    pub fn move_strings(&self) -> Vec<&str> {
        self.moves.iter().map(|m| m.uhp.as_str()).collect()
    }

    /// A game played on an engine as a record, so that it prints as a PGN
    /// ([`pgn::write`]): its game type, opening and moves (each written as
    /// its canonical MoveString, §9.30, on line 1), its state as the result,
    /// reached on the board, and no players, date, tags or notes; the file
    /// is `-`.
    pub fn of_game<R: Rules>(game: &R) -> Record {
        let mut replay = R::new_game(game.game_type(), game.options());
        let mut moves = Vec::with_capacity(game.plies());
        for &mv in game.history() {
            let text = replay.move_string(mv);
            moves.push(RecordedMove {
                line: 1,
                written: text.clone(),
                uhp: text,
            });
            replay.play_unchecked(mv);
        }
        let result = match game.state() {
            GameState::WhiteWins => DeclaredResult::WhiteWins,
            GameState::BlackWins => DeclaredResult::BlackWins,
            GameState::Draw => DeclaredResult::Draw,
            GameState::NotStarted | GameState::InProgress => DeclaredResult::Unfinished,
        };
        Record {
            format: Format::Pgn,
            file: "-".to_string(),
            index: 1,
            line: 1,
            game_type: game.game_type(),
            standard_opening: !game.options().tournament_opening,
            white: None,
            black: None,
            date: None,
            tags: Vec::new(),
            result,
            ending: Ending::Board,
            moves,
            notes: Vec::new(),
        }
    }
}
