//! PGN-style Hive records, as Mzinga and hivegame.com write them
//! (§10.3, §10.4, §10.5, §10.6; the format and its quirks in
//! spec/sources/records-notes.md section 2): a tag section, then one
//! numbered ply per line, then for a finished game a result word. One file
//! may hold several games.
//!
//! [`read`] follows the recommended reader of spec/sources/records-notes.md section 2.8,
//! line by line:
//!
//! * `[Key "value"]` or `[Key value]`: a tag, in any order; every tag is
//!   kept in [`Record::tags`]. A tag line after movetext (a ply or a result
//!   line) starts a new game.
//! * `{...}`: a comment, possibly over several lines, ending at the first
//!   `}`; also after a ply or a result on the same line. Comments are kept
//!   out of the moves and noted.
//! * `N. move` (`N.move` too): a ply. The numbers are not trusted: a number
//!   that is not the next one from 1 is noted and the plies are read in file
//!   order. Trailing blank space is allowed (hivegame writes `1. wL `).
//! * a result word (`WhiteWins`, `BlackWins`, `Draw`, `InProgress`,
//!   `NotStarted`, `Unknown`, `Unkown`, `Adjudicated`, `1-0`, `0-1`,
//!   `1/2-1/2`, `½-½`, `*`, in any letter case): the result line, which
//!   overrides the `Result` tag unless it says nothing (`Unknown`).
//! * anything else is an error naming the line and quoting it.
//!
//! Every ply is normalised to a standard UHP spelling (spec/notation.md
//! §9.29) without an engine, each change noted in [`Record::notes`]:
//! numbered single pieces `wM1`, `bL1`, `wP1`, `wQ1` lose their `1` (mover
//! and reference); a first ply `wL .` loses its `.`; letters take the case
//! of the standard spelling and blank space becomes one space; `PASS` is
//! `pass`. Spellings that only a position can rewrite (a glyph pointing at
//! a stack, a covered piece as stack target, the mover as its own
//! reference) are kept as written: the engine resolves them (§9.24, §9.26,
//! §9.27). Every ply must be a MoveString (`parse_move`).
//!
//! [`write()`] and [`write_game`] print a record in Mzinga's style, which
//! [`read`] reads back to the same game.

use std::fmt::Write as _;

use super::{DeclaredResult, Ending, Format, Record, RecordError, RecordedMove};
use crate::core::notation::{move_spec_text, parse_game_type, parse_move, MoveSpec, Target};
use crate::core::{Bug, GameType};

/// Quotes in messages and notes are cut after this many characters.
const QUOTE_LIMIT: usize = 60;

/// Reads every game of a PGN-style record. `text` is the decoded file
/// ([`super::decode`]: UTF-8 or Latin-1, line endings `\n`; a leftover
/// byte-order mark or `\r` is tolerated too); `file` names it in errors.
///
/// Returns one [`Record`] per game, in file order, or the first error: a
/// line that is no tag, ply, result or comment, a malformed or cut tag, a
/// ply that is not a MoveString, an unknown GameType, a ply or result after
/// the game's result line, a comment never closed, or a file with no tag,
/// ply or result at all. Never panics.
pub fn read(file: &str, text: &str) -> Result<Vec<Record>, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader {
        file,
        games: Vec::new(),
        current: None,
        pending_notes: Vec::new(),
        comment: None,
        first_content: None,
    };
    let lines: Vec<&str> = text.split('\n').collect();
    for (index, raw) in lines.iter().enumerate() {
        if let Err(mut e) = reader.line(index + 1, raw) {
            if index + 1 == lines.len() && !raw.trim().is_empty() {
                e.message.push_str(
                    " (the file ends on this line without a line break: is it cut short?)",
                );
            }
            return Err(e);
        }
    }
    reader.finish()
}

/// Prints a record as a PGN in Mzinga's style: `[GameType "..."]` first,
/// then `Date`, `Event`, `Site`, `Round`, `White`, `Black` and `Result`
/// (the date, players and result from the record's fields, the others from
/// its tags), then the record's other tags in order; a blank line; one
/// `N. move` line per ply from [`RecordedMove::uhp`]; and for a decided
/// result a blank line and the result word (`WhiteWins`, `BlackWins`,
/// `Draw`).
///
/// An unfinished result is written `InProgress` (`NotStarted` for a game
/// with no ply); an unknown one writes no `Result` tag. Comments and notes
/// are not written. `read(write(r))` gives the same game type, moves, result,
/// players and date, provided the names and date are trimmed, non-empty and
/// on one line (as [`read`] gives them).
pub fn write(record: &Record) -> String {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut used = vec![false; record.tags.len()];
    let mut take_tag = |key: &str, tags: &mut Vec<(String, String)>| {
        if let Some(i) = record
            .tags
            .iter()
            .position(|(k, _)| k.eq_ignore_ascii_case(key))
        {
            used[i] = true;
            tags.push((key.to_string(), record.tags[i].1.clone()));
        }
    };
    if let Some(date) = &record.date {
        tags.push(("Date".to_string(), date.clone()));
    }
    for key in ["Event", "Site", "Round"] {
        take_tag(key, &mut tags);
    }
    if let Some(white) = &record.white {
        tags.push(("White".to_string(), white.clone()));
    }
    if let Some(black) = &record.black {
        tags.push(("Black".to_string(), black.clone()));
    }
    let result = match record.result {
        DeclaredResult::WhiteWins => Some("WhiteWins"),
        DeclaredResult::BlackWins => Some("BlackWins"),
        DeclaredResult::Draw => Some("Draw"),
        DeclaredResult::Unfinished if record.moves.is_empty() => Some("NotStarted"),
        DeclaredResult::Unfinished => Some("InProgress"),
        DeclaredResult::Unknown => None,
    };
    if let Some(result) = result {
        tags.push(("Result".to_string(), result.to_string()));
    }
    let written_from_fields = ["GameType", "Date", "White", "Black", "Result"];
    for (i, (key, value)) in record.tags.iter().enumerate() {
        if used[i]
            || written_from_fields
                .iter()
                .any(|k| k.eq_ignore_ascii_case(key))
        {
            continue;
        }
        tags.push((key.clone(), value.clone()));
    }
    let moves: Vec<String> = record.moves.iter().map(|m| m.uhp.clone()).collect();
    write_game(record.game_type, &moves, &tags)
}

/// Prints a game as a PGN in Mzinga's style, for converting a UHP
/// GameString: `[GameType "..."]`, then `tags` in the given order (a
/// `GameType` among them is skipped), a blank line, `N. move` for each of
/// `moves` (MoveStrings, `pass` included), and, when a `Result` tag reads
/// as a decided result (`WhiteWins`, `1-0`, `Draw`, ...), a blank line and
/// that result as a UHP word.
///
/// Tag names are kept to letters, digits and `_` (a tag whose name has no
/// letter first is dropped); values are trimmed and a line break in one
/// becomes a space, so that every tag stays one line. A `"` inside a value
/// is written as it is: [`read`] strips only the outer quotes, so a value
/// reads back unchanged when it is trimmed and on one line.
pub fn write_game(game_type: GameType, moves: &[String], tags: &[(String, String)]) -> String {
    let mut out = format!("[GameType \"{game_type}\"]\n");
    let mut result = None;
    for (key, value) in tags {
        let key: String = key
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !key.starts_with(|c: char| c.is_ascii_alphabetic())
            || key.eq_ignore_ascii_case("GameType")
        {
            continue;
        }
        let value: String = value
            .chars()
            .map(|c| if matches!(c, '\n' | '\r') { ' ' } else { c })
            .collect();
        let value = value.trim();
        if key.eq_ignore_ascii_case("Result") {
            result = result_word(value);
        }
        let _ = writeln!(out, "[{key} \"{value}\"]");
    }
    out.push('\n');
    for (i, mv) in moves.iter().enumerate() {
        let mv = mv.split_whitespace().collect::<Vec<_>>().join(" ");
        let _ = writeln!(out, "{}. {mv}", i + 1);
    }
    let word = match result {
        Some(DeclaredResult::WhiteWins) => Some("WhiteWins"),
        Some(DeclaredResult::BlackWins) => Some("BlackWins"),
        Some(DeclaredResult::Draw) => Some("Draw"),
        _ => None,
    };
    if let Some(word) = word {
        let _ = write!(out, "\n{word}\n");
    }
    out
}

// ---------------------------------------------------------------------------
// The reader
// ---------------------------------------------------------------------------

/// The reader's state between lines.
struct Reader<'a> {
    file: &'a str,
    games: Vec<Record>,
    current: Option<Game>,
    /// Notes about comments read before the first game's first line.
    pending_notes: Vec<(usize, String)>,
    /// An open comment: its first line and its text so far.
    comment: Option<(usize, String)>,
    /// The first non-blank line, for the "not a record" error.
    first_content: Option<(usize, String)>,
}

/// A game being read.
struct Game {
    /// Its first tag, ply or result line.
    line: usize,
    /// Tags with the line of each.
    tags: Vec<(String, String, usize)>,
    moves: Vec<RecordedMove>,
    /// The parsed form of each ply, for the queen-first and expansion checks.
    specs: Vec<MoveSpec>,
    /// The result line: the result, the word as written, its line.
    result_line: Option<(DeclaredResult, String, usize)>,
    /// Notes with their line (0: about the whole game).
    notes: Vec<(usize, String)>,
}

impl Game {
    fn new(line: usize) -> Game {
        Game {
            line,
            tags: Vec::new(),
            moves: Vec::new(),
            specs: Vec::new(),
            result_line: None,
            notes: Vec::new(),
        }
    }

    /// Whether a ply or a result line has been read: a tag line now starts
    /// a new game.
    fn has_movetext(&self) -> bool {
        !self.moves.is_empty() || self.result_line.is_some()
    }
}

impl Reader<'_> {
    fn error(&self, line: usize, message: impl Into<String>) -> RecordError {
        RecordError::new(self.file, line, message)
    }

    /// Reads one line (without its `\n`).
    fn line(&mut self, line_no: usize, raw: &str) -> Result<(), RecordError> {
        let line = raw.trim();
        if line.is_empty() {
            if let Some((_, text)) = &mut self.comment {
                text.push('\n');
            }
            return Ok(());
        }
        if self.first_content.is_none() {
            self.first_content = Some((line_no, line.to_string()));
        }
        let mut rest = line;
        loop {
            if let Some((start, mut text)) = self.comment.take() {
                match rest.find('}') {
                    Some(end) => {
                        text.push_str(&rest[..end]);
                        self.close_comment(start, &text);
                        rest = rest[end + 1..].trim();
                    }
                    None => {
                        text.push_str(rest);
                        text.push('\n');
                        self.comment = Some((start, text));
                        return Ok(());
                    }
                }
            }
            if rest.is_empty() {
                return Ok(());
            }
            if let Some(after) = rest.strip_prefix('{') {
                self.comment = Some((line_no, String::new()));
                rest = after;
                continue;
            }
            if rest.starts_with('[') {
                // A tag is the whole line: a `{` inside its value is text.
                return self.tag(line_no, line, rest);
            }
            let (head, tail) = match rest.find('{') {
                Some(i) => (rest[..i].trim(), &rest[i..]),
                None => (rest, ""),
            };
            self.movetext(line_no, line, head)?;
            rest = tail;
        }
    }

    /// A comment closed: noted on the game it belongs to.
    fn close_comment(&mut self, start: usize, text: &str) {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        match &mut self.current {
            Some(game) => {
                let place = match game.moves.len() {
                    0 => "before the first ply".to_string(),
                    n => format!("after ply {n}"),
                };
                game.notes.push((
                    start,
                    format!("line {start}: comment {place}: \"{}\"", quote(&text)),
                ));
            }
            None => self.pending_notes.push((
                start,
                format!(
                    "line {start}: comment before the first ply: \"{}\"",
                    quote(&text)
                ),
            )),
        }
    }

    /// The game a tag, ply or result at `line_no` belongs to.
    fn game_at(&mut self, line_no: usize, starts_new: bool) -> Result<&mut Game, RecordError> {
        if starts_new {
            if let Some(done) = self.current.take() {
                let record = finish_game(self.file, self.games.len() + 1, done)?;
                self.games.push(record);
            }
        }
        let pending = &mut self.pending_notes;
        Ok(self.current.get_or_insert_with(|| {
            let mut game = Game::new(line_no);
            game.notes.append(pending);
            game
        }))
    }

    /// A line starting with `[`.
    fn tag(&mut self, line_no: usize, line: &str, text: &str) -> Result<(), RecordError> {
        let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
            return Err(self.error(
                line_no,
                format!("a tag must end with \"]\", found \"{}\"", quote(line)),
            ));
        };
        let inner = inner.trim();
        let key_end = inner
            .find(|c: char| c.is_whitespace() || c == '"')
            .unwrap_or(inner.len());
        let key = &inner[..key_end];
        let value = inner[key_end..].trim();
        let key_ok = key.starts_with(|c: char| c.is_ascii_alphabetic())
            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !key_ok {
            return Err(self.error(
                line_no,
                format!(
                    "expected a tag [Name \"value\"] whose name is letters, digits and _, found \"{}\"",
                    quote(line)
                ),
            ));
        }
        let value = if let Some(quoted) = value.strip_prefix('"') {
            match quoted.strip_suffix('"') {
                Some(v) => v.trim(),
                None => {
                    return Err(self.error(
                        line_no,
                        format!(
                            "the value of tag {key} has no closing quote: \"{}\"",
                            quote(line)
                        ),
                    ))
                }
            }
        } else {
            value
        };
        if key.eq_ignore_ascii_case("GameType") && !value.is_empty() {
            // Checked now, so that the error names this line.
            if let Err(e) = parse_game_type(value) {
                return Err(self.error(line_no, format!("tag GameType: {e}")));
            }
        }
        let starts_new = self.current.as_ref().is_some_and(Game::has_movetext);
        let game = self.game_at(line_no, starts_new)?;
        game.tags
            .push((key.to_string(), value.to_string(), line_no));
        Ok(())
    }

    /// A line (or the part of a line before a comment) that is not a tag:
    /// a ply or a result.
    fn movetext(&mut self, line_no: usize, line: &str, text: &str) -> Result<(), RecordError> {
        if text.is_empty() {
            return Ok(());
        }
        if let Some(result) = result_word(text) {
            let Some(game) = self.current.as_mut() else {
                return Err(self.error(
                    line_no,
                    format!(
                        "a result with no tag or ply before it: \"{}\" is not a PGN record",
                        quote(line)
                    ),
                ));
            };
            if let Some((_, _, first)) = &game.result_line {
                let message = format!(
                    "a second result line \"{}\" (the game's result is on line {first})",
                    quote(text)
                );
                return Err(self.error(line_no, message));
            }
            game.result_line = Some((result, text.to_string(), line_no));
            if text.eq_ignore_ascii_case("Adjudicated") {
                game.notes.push((
                    line_no,
                    format!("line {line_no}: result Adjudicated names no winner: read as Unknown"),
                ));
            }
            return Ok(());
        }
        let digits = text.chars().take_while(char::is_ascii_digit).count();
        let move_text = match text[digits..].strip_prefix('.') {
            Some(rest) if digits > 0 => rest.trim(),
            _ => {
                return Err(self.error(
                    line_no,
                    format!(
                        "expected a tag [Name \"value\"], a numbered ply such as \"1. wS1\", a result such as \"WhiteWins\" or a {{comment}}, found \"{}\"",
                        quote(line)
                    ),
                ))
            }
        };
        let number = &text[..digits];
        let game = self.game_at(line_no, false)?;
        if let Some((_, word, result_line)) = &game.result_line {
            let message = format!(
                "a ply after the result line \"{}\" (line {result_line}): \"{}\"",
                quote(word),
                quote(line)
            );
            return Err(RecordError::new(self.file, line_no, message));
        }
        let ply = game.moves.len() + 1;
        if number.parse::<usize>().ok() != Some(ply) {
            game.notes.push((
                line_no,
                format!(
                    "line {line_no}: ply numbered {}, expected {ply}: plies are read in file order",
                    quote(number)
                ),
            ));
        }
        match normalise_ply(move_text, ply, line_no, &mut game.notes) {
            Ok((uhp, spec)) => {
                game.moves.push(RecordedMove {
                    line: line_no,
                    written: move_text.to_string(),
                    uhp,
                });
                game.specs.push(spec);
                Ok(())
            }
            Err(message) => Err(RecordError::new(
                self.file,
                line_no,
                format!("ply {ply}: {message}"),
            )),
        }
    }

    fn finish(mut self) -> Result<Vec<Record>, RecordError> {
        if let Some((start, text)) = &self.comment {
            let message = format!(
                "the comment \"{{{}\" is never closed with \"}}\" (is the file cut short?)",
                quote(text.trim())
            );
            return Err(self.error(*start, message));
        }
        match self.current.take() {
            Some(game) => {
                let record = finish_game(self.file, self.games.len() + 1, game)?;
                self.games.push(record);
                Ok(self.games)
            }
            None => Err(match &self.first_content {
                Some((line, text)) => self.error(
                    *line,
                    format!(
                        "no tag, ply or result: not a PGN record; it starts with \"{}\"",
                        quote(text)
                    ),
                ),
                None => self.error(0, "the file is empty: no tag, ply or result"),
            }),
        }
    }
}

/// Turns a game read into its record: the game type, the result, the
/// players, the opening, the notes in line order.
fn finish_game(file: &str, index: usize, mut game: Game) -> Result<Record, RecordError> {
    let mut notes = std::mem::take(&mut game.notes);

    // Known tags: the last of each name counts; a repeated one is noted.
    let last_tag = |key: &str, notes: &mut Vec<(usize, String)>| -> Option<(String, usize)> {
        let found: Vec<&(String, String, usize)> = game
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
    };

    let game_type = match last_tag("GameType", &mut notes) {
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
            game_type
        }
        found => {
            let what = match found {
                Some((_, line)) => format!("line {line}: empty GameType tag"),
                None => "no GameType tag".to_string(),
            };
            let line = found.map_or(0, |(_, l)| l);
            let expansion = game.moves.iter().zip(&game.specs).find(|(_, spec)| {
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
            GameType::BASE
        }
    };

    let tag_result = last_tag("Result", &mut notes).map(|(value, line)| {
        let result = match result_word(&value) {
            Some(result) => {
                if value.eq_ignore_ascii_case("Adjudicated") {
                    notes.push((
                        line,
                        format!("line {line}: Result Adjudicated names no winner: read as Unknown"),
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
    let result = match (&tag_result, &game.result_line) {
        (None, None) => DeclaredResult::Unknown,
        (Some((result, _, _)), None) => *result,
        (None, Some((result, _, _))) => *result,
        (Some((tag, tag_word, tag_line)), Some((line_result, word, line))) => {
            if *line_result == DeclaredResult::Unknown && *tag != DeclaredResult::Unknown {
                notes.push((
                    *line,
                    format!(
                        "line {line}: result line {} says nothing: the Result tag \"{}\" (line {tag_line}) stands",
                        quote(word),
                        quote(tag_word)
                    ),
                ));
                *tag
            } else {
                if line_result != tag {
                    notes.push((
                        *line,
                        format!(
                            "line {line}: result line {} overrides the Result tag \"{}\" (line {tag_line})",
                            quote(word),
                            quote(tag_word)
                        ),
                    ));
                }
                *line_result
            }
        }
    };

    let queen_ply =
        game.specs.iter().take(2).position(
            |spec| matches!(spec, MoveSpec::Piece { piece, .. } if piece.bug == Bug::Queen),
        );
    if let (Some(i), Some(mv)) = (queen_ply, queen_ply.and_then(|i| game.moves.get(i))) {
        notes.push((
            mv.line,
            format!(
                "line {}: a queen placed on ply {}: the game was played without the tournament opening",
                mv.line,
                i + 1
            ),
        ));
    }

    let text_tag = |key: &str, notes: &mut Vec<(usize, String)>| {
        last_tag(key, notes)
            .map(|(value, _)| value)
            .filter(|v| !v.is_empty())
    };
    let white = text_tag("White", &mut notes);
    let black = text_tag("Black", &mut notes);
    let date = text_tag("Date", &mut notes);

    notes.sort_by_key(|(line, _)| *line);
    Ok(Record {
        format: Format::Pgn,
        file: file.to_string(),
        index,
        line: game.line,
        game_type,
        standard_opening: queen_ply.is_some(),
        white,
        black,
        date,
        tags: game.tags.into_iter().map(|(k, v, _)| (k, v)).collect(),
        result,
        ending: Ending::Unstated,
        moves: game.moves,
        notes: notes.into_iter().map(|(_, note)| note).collect(),
    })
}

/// The result a result line or a `Result` tag names, in any letter case:
/// the words of records-notes.md section 2.4, and `Adjudicated` (a hivegame status word
/// that names no winner) as Unknown.
fn result_word(text: &str) -> Option<DeclaredResult> {
    const WORDS: [(&str, DeclaredResult); 13] = [
        ("WhiteWins", DeclaredResult::WhiteWins),
        ("1-0", DeclaredResult::WhiteWins),
        ("BlackWins", DeclaredResult::BlackWins),
        ("0-1", DeclaredResult::BlackWins),
        ("Draw", DeclaredResult::Draw),
        ("1/2-1/2", DeclaredResult::Draw),
        ("½-½", DeclaredResult::Draw),
        ("InProgress", DeclaredResult::Unfinished),
        ("NotStarted", DeclaredResult::Unfinished),
        ("*", DeclaredResult::Unfinished),
        ("Unknown", DeclaredResult::Unknown),
        ("Unkown", DeclaredResult::Unknown),
        ("Adjudicated", DeclaredResult::Unknown),
    ];
    let text = text.trim();
    WORDS
        .into_iter()
        .find(|(word, _)| word.eq_ignore_ascii_case(text))
        .map(|(_, result)| result)
}

/// Normalises one ply (the text after its number) to a standard UHP
/// spelling, noting each change; the error message when it is not a
/// MoveString.
fn normalise_ply(
    written: &str,
    ply: usize,
    line: usize,
    notes: &mut Vec<(usize, String)>,
) -> Result<(String, MoveSpec), String> {
    let tokens: Vec<&str> = written.split_whitespace().collect();
    if tokens.is_empty() {
        return Err("the ply has no move after its number".to_string());
    }
    let mut fixed: Vec<String> = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        if ply == 1 && i == 1 && *token == "." && tokens.len() == 2 {
            notes.push((
                line,
                format!(
                    "line {line}: first ply \"{}\" read as \"{}\" (a \".\" destination, as hivegame wrote before 2024)",
                    quote(&tokens.join(" ")),
                    quote(tokens[0])
                ),
            ));
            continue;
        }
        fixed.push(drop_singleton_number(token, line, notes));
    }
    let candidate = fixed.join(" ");
    let spec = parse_move(&candidate).map_err(|e| e.to_string())?;
    let uhp = move_spec_text(spec);
    let mut why = Vec::new();
    if uhp != candidate {
        why.push("letter case");
    }
    if tokens.join(" ") != written {
        why.push("blank space");
    }
    if !why.is_empty() {
        notes.push((
            line,
            format!(
                "line {line}: \"{}\" read as \"{uhp}\" ({})",
                quote(written),
                why.join(", ")
            ),
        ));
    }
    Ok((uhp, spec))
}

/// `wM1`, `-bL1`, `wP1\`, `wQ1`: a single piece written with the number 1
/// (older converters), read without it (§10.6), noted.
fn drop_singleton_number(token: &str, line: usize, notes: &mut Vec<(usize, String)>) -> String {
    let is_glyph = |c: char| matches!(c, '-' | '/' | '\\');
    let (before, rest) = match token.strip_prefix(is_glyph) {
        Some(rest) => (&token[..1], rest),
        None => ("", token),
    };
    let (core, after) = match rest.strip_suffix(is_glyph) {
        Some(core) => (core, &rest[core.len()..]),
        None => (rest, ""),
    };
    let chars: Vec<char> = core.chars().collect();
    if let [color @ ('w' | 'W' | 'b' | 'B'), letter, '1'] = chars[..] {
        if matches!(letter.to_ascii_uppercase(), 'Q' | 'M' | 'L' | 'P') {
            let name = format!(
                "{}{}",
                color.to_ascii_lowercase(),
                letter.to_ascii_uppercase()
            );
            notes.push((line, format!("line {line}: {core} read as {name}")));
            return format!("{before}{name}{after}");
        }
    }
    token.to_string()
}

/// The pieces a parsed ply names: the mover and its reference.
fn spec_pieces(spec: MoveSpec) -> Vec<crate::core::Piece> {
    match spec {
        MoveSpec::Pass => Vec::new(),
        MoveSpec::Piece { piece, target } => match target {
            Target::Origin => vec![piece],
            Target::OnTop(reference) | Target::Beside { reference, .. } => vec![piece, reference],
        },
    }
}

/// At most [`QUOTE_LIMIT`] characters of `text`, control characters escaped.
fn quote(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_LIMIT {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
