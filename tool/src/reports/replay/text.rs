//! The text report of `replay`: the lines of each game with a problem (its
//! illegal ply with the facts, the picture and a ready `explain` command,
//! or its wrong result) and its notes, then the unreadable files, the table
//! by game type, the results checked and the verdict.

use std::fmt::Write as _;
use std::io::Write;

use hive_oracle_rules::core::{escape_controls, GameType};
use hive_oracle_rules::records::replay::{
    Counts, GameReport, IllegalPly, Note, Outcome, ReplaySummary, ResultCheck,
};

use super::{not_replayed, Ended, GameResult, Piece};
use crate::input::{stdin, TooLargeForMemory};
use crate::reports::frame;

/// Lines listed for a note repeated in a game before "and N more".
const LINES_LISTED: usize = 3;

/// The text report written as the files come: the lines of each game that
/// is not clean (with `verbose`, of every game with notes too), then (at
/// the end) the unreadable files and the summary. After a failed write
/// nothing more is written, but the files are still counted, for the
/// verdict.
pub(crate) struct TextReport<W: Write> {
    out: W,
    verbose: bool,
    /// Whether `-` was given: a game of the file named stdin was read there.
    stdin_given: bool,
    summary: ReplaySummary,
    /// Whether a file was too large for the memory at hand (exit 2).
    too_large: bool,
    wrote_games: bool,
    written: std::io::Result<()>,
}

impl<W: Write> TextReport<W> {
    pub(crate) fn new(out: W, verbose: bool, stdin_given: bool, strict: bool) -> TextReport<W> {
        TextReport {
            out,
            verbose,
            stdin_given,
            summary: ReplaySummary {
                strict,
                ..ReplaySummary::default()
            },
            too_large: false,
            wrote_games: false,
            written: Ok(()),
        }
    }

    /// Counts and writes one game as it comes (the lines of a game with a
    /// problem), or ends a file: flushes its lines, so that a reader sees
    /// each file's lines as soon as it is reported. A file too large for
    /// the memory at hand is given back, to be said at once.
    pub(crate) fn piece(&mut self, piece: Piece) -> Result<(), TooLargeForMemory> {
        match piece {
            Piece::Game(game) => {
                self.game(game);
                Ok(())
            }
            Piece::End(Ok(())) => {
                if self.written.is_ok() {
                    self.written = self.out.flush();
                }
                Ok(())
            }
            Piece::End(Err(error)) => not_replayed(&mut self.summary, &mut self.too_large, error),
        }
    }

    fn game(&mut self, game: GameResult) {
        // §10.16: a game that does not read is listed as such
        let game = match game {
            Ok(game) => game,
            Err(error) => {
                self.summary.add_unreadable(error);
                return;
            }
        };
        self.summary.add_game(&game);
        let text = self.game_text(&game);
        if !text.is_empty() {
            self.wrote_games = true;
            self.write(text.as_bytes());
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.written.is_ok() {
            self.written = self.out.write_all(bytes);
        }
    }

    /// Writes the unreadable files, the table, the results and the
    /// verdict; what the report ends on.
    pub(crate) fn end(mut self) -> Ended {
        let closing = closing_text(&self.summary, self.wrote_games);
        self.write(closing.as_bytes());
        // the last line says the verdict the exit status gives (a file too
        // large for memory makes it 2: not a pass)
        let passed = self.summary.is_clean() && !self.too_large;
        let verdict = frame::verdict_line(passed, None) + "\n";
        self.write(verdict.as_bytes());
        if self.written.is_ok() {
            self.written = self.out.flush();
        }
        Ended {
            summary: self.summary,
            too_large: self.too_large,
            written: self.written,
        }
    }

    /// The game's lines: nothing for a clean game (but its notes under
    /// `verbose`); for an illegal ply, the ply, its refusal, the position,
    /// the ply as written, the facts, the notes, the picture of the
    /// position and the `explain` command; for a wrong result, the result,
    /// the final position and the notes. Notes repeated in a game are
    /// listed once with their count, unless `verbose`. Each line's text is
    /// escaped for a terminal.
    fn game_text(&self, game: &GameReport) -> String {
        let mut out = String::new();
        let name = format!("{} game {} (line {})", game.file, game.index, game.line);
        match &game.outcome {
            Outcome::Illegal(ply) => {
                push_line(
                    &mut out,
                    &format!(
                        "{name}: illegal ply {} (line {}): {} — {}",
                        ply.ply, ply.line, ply.uhp, ply.refusal
                    ),
                );
                push_line(&mut out, &format!("  position: {}", ply.position));
                if ply.written != ply.uhp {
                    push_line(&mut out, &format!("  written: {}", ply.written));
                }
                for fact in &ply.facts {
                    push_line(&mut out, &format!("  {fact}"));
                }
                self.push_notes(&mut out, &game.notes);
                push_picture(&mut out, ply);
                push_line(
                    &mut out,
                    &format!("  explain: {}", self.explain_command(game, ply)),
                );
            }
            Outcome::Legal {
                state,
                result: ResultCheck::Disagrees,
                game_string,
                ..
            } => {
                push_line(
                    &mut out,
                    &format!(
                        "{name}: the record says {}, but after its {} plies the game is {state}",
                        game.declared.0.name(),
                        game.plies
                    ),
                );
                push_line(&mut out, &format!("  final position: {game_string}"));
                self.push_notes(&mut out, &game.notes);
            }
            Outcome::Legal { .. } => {
                if self.verbose && !game.notes.is_empty() {
                    push_line(&mut out, &format!("{name}: {}", notes_count(&game.notes)));
                    self.push_notes(&mut out, &game.notes);
                }
            }
        }
        out
    }

    /// The notes of a game, each `  note: WHERE: TEXT`; a note repeated
    /// (the same kind and text on other lines) is listed once with its
    /// lines and `(×N)`, unless `verbose`.
    fn push_notes(&self, out: &mut String, notes: &[Note]) {
        if self.verbose {
            for note in notes {
                push_line(out, &format!("  note: {}", note_text(note, &[note])));
            }
            return;
        }
        let mut groups: Vec<Vec<&Note>> = Vec::new();
        for note in notes {
            match groups
                .iter_mut()
                .find(|g| g[0].kind == note.kind && g[0].text == note.text)
            {
                Some(group) => group.push(note),
                None => groups.push(vec![note]),
            }
        }
        for group in &groups {
            push_line(out, &format!("  note: {}", note_text(group[0], group)));
        }
    }

    /// The command that explains the illegal ply: `hive-oracle explain
    /// FILE --game G PLY`, the file quoted for a POSIX shell; for records
    /// read from stdin, `-` and a reminder that they must be piped again.
    fn explain_command(&self, game: &GameReport, ply: &IllegalPly) -> String {
        let from_stdin = self.stdin_given && game.file == stdin::NAME;
        let file = if from_stdin {
            stdin::DASH.to_string()
        } else {
            shell_words::quote(&game.file).into_owned()
        };
        let command = format!(
            "hive-oracle explain {file} --game {} {}",
            game.index, ply.ply
        );
        if from_stdin {
            format!("{command} (with the same records on stdin)")
        } else {
            command
        }
    }
}

/// "1 note" or "N notes".
fn notes_count(notes: &[Note]) -> String {
    match notes.len() {
        1 => "1 note".to_string(),
        n => format!("{n} notes"),
    }
}

/// A note (or a group of the same note) as `WHERE: TEXT`, `WHERE` its
/// line (or lines) and ply, and `(×N)` for a group of more than one.
fn note_text(note: &Note, group: &[&Note]) -> String {
    let lines: Vec<usize> = group.iter().filter_map(|n| n.line).collect();
    let mut place = match lines.len() {
        0 => String::new(),
        1 => format!("line {}", lines[0]),
        n => {
            let listed: Vec<String> = lines
                .iter()
                .take(LINES_LISTED)
                .map(usize::to_string)
                .collect();
            let more = n.saturating_sub(LINES_LISTED);
            let mut text = format!("lines {}", listed.join(", "));
            if more > 0 {
                let _ = write!(text, " and {more} more");
            }
            text
        }
    };
    if let (1, Some(ply)) = (group.len(), note.ply) {
        if !place.is_empty() {
            place.push_str(", ");
        }
        let _ = write!(place, "ply {ply}");
    }
    let mut text = if place.is_empty() {
        note.text.clone()
    } else {
        format!("{place}: {}", note.text)
    };
    if group.len() > 1 {
        let _ = write!(text, " (×{})", group.len());
    }
    text
}

/// The picture of the position before the illegal ply, indented under the
/// game, between blank lines.
fn push_picture(out: &mut String, ply: &IllegalPly) {
    out.push('\n');
    for line in ply.picture.lines() {
        push_line(out, format!("    {line}").trim_end());
    }
    out.push('\n');
}

/// Adds `line` to `out` with every control character escaped
/// ([`escape_controls`]: a file name or a record's text may hold any), then
/// the line feed that ends it.
fn push_line(out: &mut String, line: &str) {
    out.push_str(&escape_controls(line));
    out.push('\n');
}

/// The end of the text report, after the lines of the games
/// (`after_games` says whether there were any): the unreadable files, a
/// blank line when anything came before, the table by game type, the
/// results checked and the count of unreadable files.
fn closing_text(summary: &ReplaySummary, after_games: bool) -> String {
    let mut out = String::new();
    let (unreadable_more, not_uhp_more) = summary.errors_not_kept();
    for error in &summary.unreadable {
        push_line(&mut out, &format!("unreadable: {error}"));
    }
    if unreadable_more > 0 {
        push_line(
            &mut out,
            &format!("unreadable: and {unreadable_more} more files or games, not listed (the JSON report, --format json, lists every one)"),
        );
    }
    for error in &summary.not_uhp {
        push_line(&mut out, &format!("skipped: not a UHP game type: {error}"));
    }
    if not_uhp_more > 0 {
        push_line(
            &mut out,
            &format!("skipped: not a UHP game type: and {not_uhp_more} more records, not listed (the JSON report lists every one)"),
        );
    }
    if after_games || !out.is_empty() {
        out.push('\n');
    }
    let row = |out: &mut String, name: &str, c: &Counts| {
        let _ = writeln!(
            out,
            "{:<10} {:>6} {:>6} {:>8} {:>12} {:>8}",
            name, c.games, c.legal, c.illegal, c.wrong_result, c.plies
        );
    };
    let _ = writeln!(
        out,
        "{:<10} {:>6} {:>6} {:>8} {:>12} {:>8}",
        "game type", "games", "legal", "illegal", "wrong result", "plies"
    );
    // In the order UHP lists the game types (§1.4), not the map's order of
    // expansion flags, which put Base+P before Base+L.
    for game_type in GameType::ALL {
        if let Some(c) = summary.by_type.get(&game_type) {
            row(&mut out, &game_type.to_string(), c);
        }
    }
    row(&mut out, "all", &summary.total);
    out.push_str(&results_text(&summary.total));
    let _ = writeln!(out, "unreadable files: {}", summary.unreadable_files);
    // §10.16: the games that do not read in files that hold others
    if summary.unreadable_games > 0 {
        let _ = writeln!(out, "unreadable games: {}", summary.unreadable_games);
    }
    if summary.not_uhp_count > 0 {
        let _ = writeln!(
            out,
            "skipped: not a UHP game type: {}",
            summary.not_uhp_count
        );
    }
    out
}

/// The results of the games played to their end: how many the board
/// checked (agreeing or not), could not decide, or had nothing to check.
fn results_text(c: &Counts) -> String {
    let played = c.games - c.illegal;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "results of the {played} games legal to their end: {} checked ({} agree, {} disagree), {} not decidable from the board, {} unknown",
        c.results_checked(),
        c.results_agree,
        c.wrong_result,
        c.results_undecidable,
        c.results_unknown
    );
    out
}
