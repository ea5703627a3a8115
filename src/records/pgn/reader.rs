//! The PGN reader, line by line (spec/sources/records-notes.md section
//! 2.8): tags, comments, numbered plies and result lines, each game
//! collected into a [`Game`] and finished into a record when the next game
//! starts or the file ends.

use super::game::{
    cap_notes, Game, Note, MAX_GAMES_PER_FILE, MAX_RECORD_GAME_BYTES, MAX_TAGS_PER_GAME,
};
use super::ply::normalise_ply;
use super::quote::quote;
use super::result::result_word;
use crate::core::notation::parse_game_type;
use crate::records::{Record, RecordError, RecordedMove};

/// Reads every game of a PGN-style record. `text` is the decoded file
/// ([`crate::records::decode`]: UTF-8 or Latin-1, line endings `\n`; a leftover
/// byte-order mark or `\r` is tolerated too); `file` names it in errors.
///
/// Returns one [`Record`] per game, in file order, or the first error: a
/// line that is no tag, ply, result or comment, a malformed or cut tag, a
/// ply that is not a MoveString, an unknown GameType, a ply or result after
/// the game's result line, a comment never closed, or a file with no tag,
/// ply or result at all. In a file of several games the error names the
/// game ([`RecordError::game`]). Never panics.
pub fn read(file: &str, text: &str) -> Result<Vec<Record>, RecordError> {
    let mut games = Vec::new();
    let mut first_error = None;
    read_each(file, text, &mut |game| match game {
        Ok(record) => games.push(record),
        Err(error) => {
            first_error.get_or_insert(error);
        }
    })?;
    match first_error {
        Some(error) => Err(error),
        None => Ok(games),
    }
}

/// [`read`] one game at a time: each game is given to `sink` as soon as its
/// last line is read, so that only one game is held at once. A game that
/// does not read is given as its error, naming the game and the line
/// (§10.16), and the reader resumes at the next tag line that follows a
/// line other than a tag: the games after it are read as if it were not
/// there. The error of a file of one game (or of no game) is the file's:
/// it is returned, not given, and names no game; so is a file over
/// [`MAX_GAMES_PER_FILE`]. Returns the number of games read.
pub fn read_each(
    file: &str,
    text: &str,
    sink: &mut dyn FnMut(Result<Record, RecordError>),
) -> Result<usize, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader {
        file,
        sink,
        attempted: 0,
        read: 0,
        held: None,
        skipping: false,
        fatal: false,
        current: None,
        pending_notes: Vec::new(),
        pending_more: 0,
        comment: None,
        first_content: None,
    };
    // whether the last line with text was a tag line
    let mut after_tag = false;
    let mut lines = text.split('\n').enumerate().peekable();
    while let Some((index, raw)) = lines.next() {
        let trimmed = raw.trim();
        let tag_line = trimmed.starts_with('[') && trimmed.ends_with(']');
        if reader.skipping {
            // §10.16: the next game starts at a tag line after other text
            if !tag_line || after_tag {
                if !trimmed.is_empty() {
                    after_tag = trimmed.starts_with('[');
                }
                continue;
            }
            reader.skipping = false;
        }
        if !trimmed.is_empty() {
            after_tag = trimmed.starts_with('[');
        }
        if let Err(mut e) = reader.line(index + 1, raw) {
            if lines.peek().is_none() && !trimmed.is_empty() {
                e.message.push_str(
                    " (the file ends on this line without a line break: is it cut short?)",
                );
            }
            if reader.fatal {
                return Err(e);
            }
            reader.fail_game(e);
        }
    }
    reader.finish()
}

/// The reader's state between lines.
struct Reader<'a> {
    file: &'a str,
    /// Where each game goes, read or not.
    sink: &'a mut dyn FnMut(Result<Record, RecordError>),
    /// The games ended so far, read or not: the last game's number.
    attempted: usize,
    /// The games read so far.
    read: usize,
    /// The error of game 1, held until a second game shows that the file
    /// holds several (else it is the file's error).
    held: Option<RecordError>,
    /// After a game that does not read: skipping to the next game.
    skipping: bool,
    /// The error just returned ends the file (too many games).
    fatal: bool,
    current: Option<Game>,
    /// Notes about comments read before the first game's first line.
    pending_notes: Vec<Note>,
    /// The notes before the first game left out past the cap, counted.
    pending_more: usize,
    /// An open comment: its first line and its text so far.
    comment: Option<(usize, String)>,
    /// The first non-blank line, for the "not a record" error.
    first_content: Option<(usize, String)>,
}

impl Reader<'_> {
    /// Gives a game ended to the sink, after the held error of game 1.
    fn give(&mut self, game: Result<Record, RecordError>) {
        if self.attempted > 1 {
            if let Some(held) = self.held.take() {
                (self.sink)(Err(held));
            }
        }
        match game {
            Err(error) if self.attempted == 1 => self.held = Some(error),
            game => (self.sink)(game),
        }
    }

    /// Ends the current game as read.
    fn end_game(&mut self, game: Game) {
        self.attempted += 1;
        let ended = game.finish(self.file, self.attempted).map_err(|mut e| {
            e.game = Some(self.attempted);
            e
        });
        if ended.is_ok() {
            self.read += 1;
        }
        self.give(ended);
    }

    /// Ends the current game as not read, at `error`, and skips to the
    /// next game (§10.16).
    fn fail_game(&mut self, mut error: RecordError) {
        self.attempted += 1;
        error.game = Some(self.attempted);
        self.current = None;
        self.comment = None;
        self.pending_notes.clear();
        self.pending_more = 0;
        self.skipping = true;
        self.give(Err(error));
    }

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
            // §10.18: a comment may end a ply, and another ply follow it
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
                cap_notes(&mut game.notes, &mut game.more_notes);
            }
            None => {
                self.pending_notes.push((
                    start,
                    format!(
                        "line {start}: comment before the first ply: \"{}\"",
                        quote(&text)
                    ),
                ));
                cap_notes(&mut self.pending_notes, &mut self.pending_more);
            }
        }
    }

    /// The game a tag, ply or result at `line_no` belongs to.
    fn game_at(&mut self, line_no: usize, starts_new: bool) -> Result<&mut Game, RecordError> {
        if starts_new {
            if let Some(done) = self.current.take() {
                self.end_game(done);
            }
        }
        if self.current.is_none() && self.attempted >= MAX_GAMES_PER_FILE {
            self.fatal = true;
            return Err(self.error(
                line_no,
                format!("too many games: a record file may hold at most {MAX_GAMES_PER_FILE}"),
            ));
        }
        let (pending, more) = (&mut self.pending_notes, &mut self.pending_more);
        Ok(self.current.get_or_insert_with(|| {
            let mut game = Game::new(line_no);
            game.notes.append(pending);
            game.more_notes = std::mem::take(more);
            game
        }))
    }

    /// A line starting with `[`.
    fn tag(&mut self, line_no: usize, line: &str, text: &str) -> Result<(), RecordError> {
        // A tag after movetext starts a new game: the game before it ends
        // here, whether or not this tag reads (§10.16).
        let starts_new = self.current.as_ref().is_some_and(Game::has_movetext);
        self.game_at(line_no, starts_new)?;
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
                Some(v) => unescaped(v.trim()),
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
            value.to_string()
        };
        if key.eq_ignore_ascii_case("GameType") && !value.is_empty() {
            // Checked now, so that the error names this line.
            if let Err(e) = parse_game_type(&value) {
                return Err(self.error(line_no, format!("tag GameType: {e}")));
            }
        }
        let file = self.file;
        let game = self.game_at(line_no, false)?;
        if game.tags.len() >= MAX_TAGS_PER_GAME {
            let message = format!("too many tags: a game may have at most {MAX_TAGS_PER_GAME}");
            return Err(RecordError::new(file, line_no, message));
        }
        game.tags.push((key.to_string(), value, line_no));
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
        note_ply_number(game, line_no, number, ply);
        let noted = normalise_ply(move_text, ply, line_no, &mut game.notes);
        cap_notes(&mut game.notes, &mut game.more_notes);
        match noted {
            Ok((uhp, _)) if game.game_string_bytes + uhp.len() + 1 > MAX_RECORD_GAME_BYTES => {
                Err(RecordError::new(
                    self.file,
                    line_no,
                    format!(
                        "ply {ply}: the game is too large: its GameString would be over the limit of {MAX_RECORD_GAME_BYTES} bytes (1 MiB, about 100,000 plies)"
                    ),
                ))
            }
            Ok((uhp, spec)) => {
                game.game_string_bytes += uhp.len() + 1;
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

    fn finish(mut self) -> Result<usize, RecordError> {
        if let Some((start, text)) = self.comment.take() {
            let message = format!(
                "the comment \"{{{}\" is never closed with \"}}\" (is the file cut short?)",
                quote(text.trim())
            );
            let error = self.error(start, message);
            self.fail_game(error);
        }
        if let Some(game) = self.current.take() {
            self.end_game(game);
        }
        if let Some(mut error) = self.held.take() {
            // a file of one game that does not read: the file's error
            error.game = None;
            return Err(error);
        }
        if self.attempted > 0 {
            return Ok(self.read);
        }
        Err(match &self.first_content {
            Some((line, text)) => self.error(
                *line,
                format!(
                    "no tag, ply or result: not a PGN record; it starts with \"{}\"",
                    quote(text)
                ),
            ),
            None => self.error(0, "the file is empty: no tag, ply or result"),
        })
    }
}

/// A quoted tag value with its escapes undone (§10.17): `\\` is `\` and
/// `\"` is `"`; any other backslash stands for itself.
fn unescaped(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&next) = chars.peek().filter(|&&n| n == '\\' || n == '"') {
                out.push(next);
                chars.next();
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Notes a ply whose number is out of sequence (§10.4: the plies are read in
/// file order whatever their numbers). A number is in sequence when it is the
/// ply's place in the file or follows the number of the ply before it
/// (§10.22), so one skipped number is noted once, not with every later ply.
fn note_ply_number(game: &mut Game, line_no: usize, number: &str, ply: usize) {
    let written = number.parse::<u64>().ok();
    let in_place = written == Some(ply as u64);
    let follows_previous = matches!(
        (written, game.last_ply_number),
        (Some(n), Some(previous)) if Some(n) == previous.checked_add(1)
    );
    if !in_place && !follows_previous {
        game.notes.push((
            line_no,
            format!(
                "line {line_no}: ply numbered {}, expected {ply}: plies are read in file order",
                quote(number)
            ),
        ));
    }
    game.last_ply_number = written;
}
