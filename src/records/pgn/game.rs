//! A game of a PGN record as the reader collects it (its tags, plies,
//! result line and notes), and how it becomes a [`Record`] once its last line
//! is read: the game type (§10.5), the declared result (§10.4), the opening
//! (§10.12), the players and the date.

use super::ply::spec_pieces;
use super::quote::quote;
use super::result::result_word;
use crate::core::notation::{parse_game_type, MoveSpec};
use crate::core::{Bug, GameType};
use crate::records::{DeclaredResult, Ending, Format, Record, RecordError, RecordedMove};

/// A note with its line (0: about the whole game); the notes of a record
/// are sorted by line.
pub(super) type Note = (usize, String);

/// A game being read.
pub(super) struct Game {
    /// Its first tag, ply or result line.
    pub line: usize,
    /// Tags with the line of each.
    pub tags: Vec<(String, String, usize)>,
    /// The plies read so far.
    pub moves: Vec<RecordedMove>,
    /// The parsed form of each ply, for the queen-first and expansion checks.
    pub specs: Vec<MoveSpec>,
    /// The result line: the result, the word as written, its line.
    pub result_line: Option<(DeclaredResult, String, usize)>,
    /// Notes with their line (0: about the whole game), at most
    /// [`MAX_NOTES_PER_GAME`] of them.
    pub notes: Vec<Note>,
    /// The notes left out beyond [`MAX_NOTES_PER_GAME`], counted.
    pub more_notes: usize,
    /// The length of the game's GameString so far: its plies and the `;`
    /// before each, within [`MAX_RECORD_GAME_BYTES`].
    pub game_string_bytes: usize,
    /// The number written before the last ply, when it read as a number:
    /// the next ply is expected to follow it (§10.22).
    pub last_ply_number: Option<u64>,
}

/// The most games read from one record file (the largest real archives
/// hold about 120,000 in 64 MiB): a file of tiny games is refused past it
/// rather than held in memory.
pub const MAX_GAMES_PER_FILE: usize = 200_000;

/// The most tags of one game: a flood of tag lines is refused past it.
pub const MAX_TAGS_PER_GAME: usize = 1_000;

/// The most notes kept for one game: a flood of comments or misnumbered
/// plies is counted past it, not held in memory.
pub const MAX_NOTES_PER_GAME: usize = 100;

/// The longest GameString a record's game may make, in bytes: the limit on
/// a GameString given directly (`input::MAX_GAME_STRING_BYTES`, 1 MiB,
/// about 100,000 plies), applied to a game read from a record, so that a
/// record of millions of plies is refused as it is read.
pub const MAX_RECORD_GAME_BYTES: usize = 1 << 20;

/// Keeps the first [`MAX_NOTES_PER_GAME`] of `notes` and counts the rest
/// in `more`.
pub(super) fn cap_notes(notes: &mut Vec<Note>, more: &mut usize) {
    if notes.len() > MAX_NOTES_PER_GAME {
        *more += notes.len() - MAX_NOTES_PER_GAME;
        notes.truncate(MAX_NOTES_PER_GAME);
    }
}

impl Game {
    pub(super) fn new(line: usize) -> Game {
        Game {
            line,
            tags: Vec::new(),
            moves: Vec::new(),
            specs: Vec::new(),
            result_line: None,
            notes: Vec::new(),
            more_notes: 0,
            last_ply_number: None,
            game_string_bytes: 0,
        }
    }

    /// Whether a ply or a result line has been read: a tag line now starts
    /// a new game.
    pub(super) fn has_movetext(&self) -> bool {
        !self.moves.is_empty() || self.result_line.is_some()
    }

    /// Turns the game read into its record, game `index` of `file`: the
    /// game type, the result, the players, the opening, the notes in line
    /// order.
    pub(super) fn finish(mut self, file: &str, index: usize) -> Result<Record, RecordError> {
        let mut notes = std::mem::take(&mut self.notes);
        let game_type = self.game_type(file, &mut notes)?;
        let result = self.declared_result(&mut notes);
        let queen_ply = self.queen_first(&mut notes);
        let text_tag = |key: &str, notes: &mut Vec<Note>| {
            self.last_tag(key, notes)
                .map(|(value, _)| value)
                .filter(|v| !v.is_empty())
        };
        let white = text_tag("White", &mut notes);
        let black = text_tag("Black", &mut notes);
        let date = text_tag("Date", &mut notes);
        notes.sort_by_key(|(line, _)| *line);
        if self.more_notes > 0 {
            notes.push((
                usize::MAX,
                format!(
                    "… and {} more notes, not listed (at most {MAX_NOTES_PER_GAME} are kept for a game)",
                    self.more_notes
                ),
            ));
        }
        Ok(Record {
            format: Format::Pgn,
            file: file.to_string(),
            index,
            line: self.line,
            game_type,
            standard_opening: queen_ply.is_some(),
            white,
            black,
            date,
            tags: self.tags.into_iter().map(|(k, v, _)| (k, v)).collect(),
            result,
            ending: Ending::Unstated,
            moves: self.moves,
            notes: notes.into_iter().map(|(_, note)| note).collect(),
        })
    }

    /// The value and line of the tag `key` (any letter case): the last of
    /// its name counts; a repeated one is noted.
    fn last_tag(&self, key: &str, notes: &mut Vec<Note>) -> Option<(String, usize)> {
        let found: Vec<&(String, String, usize)> = self
            .tags
            .iter()
            .filter(|(k, _, _)| k.eq_ignore_ascii_case(key))
            .collect();
        let (_, value, line) = found.last()?;
        if found.len() > 1 {
            let lines: Vec<String> = found.iter().map(|(_, _, l)| l.to_string()).collect();
            notes.push((
                *line,
                format!(
                    "line {line}: tag {key} given {} times (lines {}): the last counts",
                    found.len(),
                    lines.join(", ")
                ),
            ));
        }
        Some((value.clone(), *line))
    }

    /// The game type of the `GameType` tag (§10.5); Base, noted, when the
    /// tag is missing or empty.
    fn game_type(&self, file: &str, notes: &mut Vec<Note>) -> Result<GameType, RecordError> {
        let found = match self.last_tag("GameType", notes) {
            Some((value, line)) if !value.is_empty() => {
                let game_type = parse_game_type(&value)
                    .map_err(|e| RecordError::new(file, line, format!("tag GameType: {e}")))?;
                let canonical = game_type.to_string();
                if canonical != value {
                    notes.push((
                        line,
                        format!(
                            "line {line}: GameType \"{}\" read as {canonical}",
                            quote(&value)
                        ),
                    ));
                }
                return Ok(game_type);
            }
            found => found,
        };
        // §10.19: no game type given: Base, noted, naming an expansion piece
        let what = match &found {
            Some((_, line)) => format!("line {line}: empty GameType tag"),
            None => "no GameType tag".to_string(),
        };
        let line = found.map_or(0, |(_, l)| l);
        let expansion = self.moves.iter().zip(&self.specs).find(|(_, spec)| {
            spec_pieces(**spec)
                .iter()
                .any(|piece| piece.bug.is_expansion())
        });
        let note = match expansion {
            Some((mv, _)) => format!(
                "{what}: read as Base, although line {} names an expansion piece (\"{}\"), which Base does not have",
                mv.line,
                quote(&mv.uhp)
            ),
            None => format!("{what}: read as Base"),
        };
        notes.push((line, note));
        Ok(GameType::BASE)
    }

    /// The declared result (§10.4): the result line, unless it says nothing
    /// and the `Result` tag does; each disagreement noted.
    fn declared_result(&self, notes: &mut Vec<Note>) -> DeclaredResult {
        let tag_result = self.last_tag("Result", notes).map(|(value, line)| {
            let result = match result_word(&value) {
                Some(result) => {
                    if value.eq_ignore_ascii_case("Adjudicated") {
                        notes.push((
                            line,
                            format!(
                                "line {line}: Result Adjudicated names no winner: read as Unknown"
                            ),
                        ));
                    }
                    result
                }
                None if value.is_empty() => DeclaredResult::Unknown,
                None => {
                    notes.push((
                        line,
                        format!(
                            "line {line}: Result \"{}\" is not a result: read as Unknown",
                            quote(&value)
                        ),
                    ));
                    DeclaredResult::Unknown
                }
            };
            (result, value, line)
        });
        let Some((tag, tag_word, tag_line)) = tag_result else {
            return self
                .result_line
                .as_ref()
                .map_or(DeclaredResult::Unknown, |(result, _, _)| *result);
        };
        let Some((line_result, word, line)) = &self.result_line else {
            return tag;
        };
        if *line_result == DeclaredResult::Unknown && tag != DeclaredResult::Unknown {
            notes.push((
                *line,
                format!(
                    "line {line}: result line {} says nothing: the Result tag \"{}\" (line {tag_line}) stands",
                    quote(word),
                    quote(&tag_word)
                ),
            ));
            return tag;
        }
        if *line_result != tag {
            notes.push((
                *line,
                format!(
                    "line {line}: result line {} overrides the Result tag \"{}\" (line {tag_line})",
                    quote(word),
                    quote(&tag_word)
                ),
            ));
        }
        *line_result
    }

    /// The ply (0 or 1) that places a queen, if one of the first two does:
    /// the game was played without the tournament opening (§10.12), noted.
    fn queen_first(&self, notes: &mut Vec<Note>) -> Option<usize> {
        let queen_ply = self.specs.iter().take(2).position(
            |spec| matches!(spec, MoveSpec::Piece { piece, .. } if piece.bug == Bug::Queen),
        );
        if let (Some(i), Some(mv)) = (queen_ply, queen_ply.and_then(|i| self.moves.get(i))) {
            notes.push((
                mv.line,
                format!(
                    "line {}: a queen placed on ply {}: the game was played without the tournament opening",
                    mv.line,
                    i + 1
                ),
            ));
        }
        queen_ply
    }
}
