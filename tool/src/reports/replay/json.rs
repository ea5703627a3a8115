//! The JSON report of `replay`: typed structs serialized with serde, whose
//! JSON Schema is generated from the same types (`replay --print-schema`,
//! committed as `spec/replay-report.schema.json`). The schema allows fields
//! it does not name, so that a field added in a later version breaks no
//! consumer; a change that removes or retypes a field raises
//! [`FORMAT_VERSION`].
//!
//! The report is written as the files come: its summary comes before its
//! games, so the games are written to a temporary file (the spool) rather
//! than kept in memory, then copied to stdout into the report without its
//! games.

use std::collections::BTreeMap;
use std::io::{Seek, Write};

use schemars::JsonSchema;
use serde::Serialize;

use crate::input::Skipped;
use hive_oracle_rules::core::Color;
use hive_oracle_rules::records::replay::{
    Counts, GameReport, IllegalPly, Note, NoteKind, Outcome, ReplaySummary, ResultCheck,
};
use hive_oracle_rules::records::{Ending, RecordError};

use super::{not_replayed, Ended, Piece};
use crate::input::{RecordFileError, TooLargeForMemory};
use crate::reports::frame;

/// The version of the report's format, MAJOR.MINOR as the check report's:
/// a minor version only adds fields, a major one removes or retypes one.
/// Major version 1 was the unversioned report of hive-oracle 0.2.0 (notes
/// as strings, `ending` as Rust debug text, the result `not on the board`).
pub(crate) const FORMAT_VERSION: &str = "2.1";

/// The report of `hive-oracle replay --format json`: every game of every
/// record file, the counts, the files that are not records and the paths a
/// folder walk skipped. Consumers should ignore fields they do not know.
#[derive(Serialize, JsonSchema)]
struct ReplayReport {
    /// The version of this format, MAJOR.MINOR: the minor version is
    /// raised when a field is added, the major one when a field is removed
    /// or changes its meaning or type.
    format_version: &'static str,
    /// Whether every game is legal and ends as declared, and every file
    /// read: the verdict of the exit status (0 when true).
    clean: bool,
    /// The counts, overall and by game type.
    summary: Summary,
    /// Every game, in the order of the files and within a file.
    games: Vec<Game>,
    /// The files that are not records, with why, in the order of the files.
    unreadable: Vec<Unreadable>,
    /// The paths a folder walk did not read (a FIFO, a device, a link to a
    /// folder), with why.
    skipped: Vec<SkippedPath>,
    /// The records of games that UHP does not describe (Ultimate Hive),
    /// skipped (§10.21): they fail the run only under `--strict`.
    not_a_uhp_game: Vec<Unreadable>,
}

/// The counts of the run.
#[derive(Serialize, JsonSchema)]
struct Summary {
    /// Every game.
    all: GameCounts,
    /// The games of each game type, by GameTypeString.
    by_game_type: BTreeMap<String, GameCounts>,
    /// Files that are not records, and games that do not read in a file
    /// of several (§10.16).
    unreadable: usize,
    /// Records skipped as not of a UHP game type (§10.21).
    not_a_uhp_game: usize,
}

/// The counts of a set of games.
#[derive(Serialize, JsonSchema)]
struct GameCounts {
    /// Games read.
    games: usize,
    /// Games legal to their end whose result agrees, cannot be decided from
    /// the board, or is not declared.
    legal: usize,
    /// Games with an illegal ply.
    illegal: usize,
    /// Games legal to their end whose final state contradicts the declared
    /// result.
    wrong_result: usize,
    /// Plies replayed (up to and including a refused one).
    plies: usize,
    /// The results of the games legal to their end.
    results: ResultCounts,
}

/// The results of the games legal to their end: `agree + disagree +
/// undecidable + unknown` is `games - illegal`.
#[derive(Serialize, JsonSchema)]
struct ResultCounts {
    /// Results compared with the board: `agree + disagree`.
    checked: usize,
    /// Checked, and the board confirms them.
    agree: usize,
    /// Checked, and the board contradicts them (`wrong_result`).
    disagree: usize,
    /// Not decidable from the board: a resignation, an agreed draw or a
    /// result without its reason, on a position that is not over.
    undecidable: usize,
    /// The record declares no result.
    unknown: usize,
}

/// One game of a record file.
#[derive(Serialize, JsonSchema)]
struct Game {
    /// The file as named (`stdin` for `-`).
    file: String,
    /// The file's format: `pgn` or `sgf`.
    format: String,
    /// The game's 1-based number in its file (`explain FILE --game N`).
    game: usize,
    /// The game's first line.
    line: usize,
    /// The GameTypeString.
    game_type: String,
    /// White's name, if the record gives one.
    white: Option<String>,
    /// Black's name, if the record gives one.
    black: Option<String>,
    /// The plies in the record.
    plies: usize,
    /// Whether the game is replayed without the tournament opening (§10.12).
    standard_opening: bool,
    /// The declared result: `WhiteWins`, `BlackWins`, `Draw`, `Unfinished`
    /// or `Unknown`.
    declared_result: String,
    /// How the record says the game ended.
    ending: EndingJson,
    /// The notes: the reader's, then the replay's.
    notes: Vec<NoteJson>,
    /// What the replay gave.
    outcome: OutcomeJson,
}

/// How the record says the game ended (§10.13).
#[derive(Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum EndingJson {
    /// On the board: the declared result must be the replayed state.
    Board,
    /// A resignation: the position may be unfinished.
    Resignation {
        /// The colour that resigned: `White` or `Black`.
        resigned: String,
    },
    /// An agreed draw: the position may be unfinished.
    AgreedDraw,
    /// The record does not say how.
    Unstated,
}

/// A note of a game.
#[derive(Serialize, JsonSchema)]
struct NoteJson {
    /// What the note is about.
    kind: NoteKindJson,
    /// The record's line it concerns, if one.
    line: Option<usize>,
    /// The 1-based ply it concerns, if one.
    ply: Option<usize>,
    /// The note, without its line.
    text: String,
}

/// What a note is about.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum NoteKindJson {
    /// A reader's note: a leniency applied, text skipped, a warning.
    Reader,
    /// A third occurrence of a position (§8.7.2), under `--repetition-draw`.
    Repetition,
}

/// What replaying a game gave: every ply legal, or the first refused one.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
enum OutcomeJson {
    /// Every ply was legal.
    Legal(LegalGame),
    /// A ply was refused.
    Illegal(IllegalGame),
}

/// A game whose every ply is legal.
#[derive(Serialize, JsonSchema)]
struct LegalGame {
    /// Always true.
    legal: bool,
    /// The state after the last ply (a draw by repetition where the record
    /// ends at a third occurrence under `--repetition-draw`).
    state: String,
    /// The GameString after the last ply.
    game_string: String,
    /// The declared result against the final state.
    result: ResultJson,
    /// Under `--repetition-draw`, the ply after which a position stood for
    /// the third time, the first such ply (§10.20).
    third_occurrence: Option<usize>,
}

/// The declared result against the final state (§10.13).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum ResultJson {
    /// Checked: the board confirms it.
    Agrees,
    /// Checked: the board contradicts it.
    Disagrees,
    /// The board cannot decide it (the position is not over).
    Undecidable,
    /// The record declares no result.
    Unknown,
}

/// A game stopped at its first refused ply.
#[derive(Serialize, JsonSchema)]
struct IllegalGame {
    /// Always false.
    legal: bool,
    /// The 1-based ply (`explain FILE --game N PLY`).
    ply: usize,
    /// The record's line of the ply.
    line: usize,
    /// The ply as the file writes it.
    written: String,
    /// The ply as a MoveString.
    #[serde(rename = "move")]
    move_string: String,
    /// The GameString of the position before the ply.
    position: String,
    /// The reference engine's refusal with its clauses, or why the
    /// MoveString does not read there.
    refusal: String,
    /// The clauses that forbid the ply (empty for one that does not read).
    clauses: Vec<String>,
    /// The facts behind the refusal, one line each, as `explain` prints them.
    facts: Vec<String>,
}

/// A file that is not a record.
#[derive(Serialize, JsonSchema)]
struct Unreadable {
    /// The file as named.
    file: String,
    /// The 1-based number of the game that does not read, in a file of
    /// several whose other games were read (§10.16); absent when the
    /// whole file is unreadable.
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<usize>,
    /// The 1-based line of the problem; 0 when it concerns the whole file.
    line: usize,
    /// What is wrong there.
    message: String,
}

/// A path a folder walk did not read.
#[derive(Serialize, JsonSchema)]
struct SkippedPath {
    /// The path as the walk found it.
    path: String,
    /// Why it was not read.
    why: String,
}

/// The JSON Schema of the report, generated from its types.
pub(crate) fn schema() -> String {
    frame::schema::<ReplayReport>()
}

fn counts(c: &Counts) -> GameCounts {
    GameCounts {
        games: c.games,
        legal: c.legal,
        illegal: c.illegal,
        wrong_result: c.wrong_result,
        plies: c.plies,
        results: ResultCounts {
            checked: c.results_checked(),
            agree: c.results_agree,
            disagree: c.wrong_result,
            undecidable: c.results_undecidable,
            unknown: c.results_unknown,
        },
    }
}

/// The report without its games and unreadable or skipped records, as
/// text: the summary and every path a folder walk skipped.
fn without_arrays(summary: &ReplaySummary, skipped: &[Skipped]) -> serde_json::Result<String> {
    let report = ReplayReport {
        format_version: FORMAT_VERSION,
        clean: summary.is_clean(),
        summary: Summary {
            all: counts(&summary.total),
            by_game_type: summary
                .by_type
                .iter()
                .map(|(t, c)| (t.to_string(), counts(c)))
                .collect(),
            unreadable: summary.unreadable_files + summary.unreadable_games,
            not_a_uhp_game: summary.not_uhp_count,
        },
        games: Vec::new(),
        unreadable: Vec::new(),
        skipped: skipped
            .iter()
            .map(|s| SkippedPath {
                path: s.path.clone(),
                why: s.why.clone(),
            })
            .collect(),
        not_a_uhp_game: Vec::new(),
    };
    serde_json::to_string_pretty(&report)
}

fn unreadable(e: &RecordError) -> Unreadable {
    Unreadable {
        file: e.file.clone(),
        game: e.game,
        line: e.line,
        message: e.message.clone(),
    }
}

fn game(game: &GameReport) -> Game {
    let outcome = match &game.outcome {
        Outcome::Legal {
            state,
            game_string,
            result,
            third_occurrence,
        } => OutcomeJson::Legal(LegalGame {
            legal: true,
            state: state.to_string(),
            game_string: game_string.clone(),
            result: match result {
                ResultCheck::Agrees => ResultJson::Agrees,
                ResultCheck::Disagrees => ResultJson::Disagrees,
                ResultCheck::NotOnTheBoard => ResultJson::Undecidable,
                ResultCheck::Unknown => ResultJson::Unknown,
            },
            third_occurrence: *third_occurrence,
        }),
        Outcome::Illegal(ply) => OutcomeJson::Illegal(illegal(ply)),
    };
    Game {
        file: game.file.clone(),
        format: game.format.name().to_string(),
        game: game.index,
        line: game.line,
        game_type: game.game_type.to_string(),
        white: game.players.0.clone(),
        black: game.players.1.clone(),
        plies: game.plies,
        standard_opening: game.standard_opening,
        declared_result: game.declared.0.name().to_string(),
        ending: ending(game.declared.1),
        notes: game.notes.iter().map(note).collect(),
        outcome,
    }
}

fn ending(ending: Ending) -> EndingJson {
    match ending {
        Ending::Board => EndingJson::Board,
        Ending::Resignation(color) => EndingJson::Resignation {
            resigned: match color {
                Color::White => "White",
                Color::Black => "Black",
            }
            .to_string(),
        },
        Ending::AgreedDraw => EndingJson::AgreedDraw,
        Ending::Unstated => EndingJson::Unstated,
    }
}

fn note(note: &Note) -> NoteJson {
    NoteJson {
        kind: match note.kind {
            NoteKind::Reader => NoteKindJson::Reader,
            NoteKind::Repetition => NoteKindJson::Repetition,
        },
        line: note.line,
        ply: note.ply,
        text: note.text.clone(),
    }
}

fn illegal(ply: &IllegalPly) -> IllegalGame {
    IllegalGame {
        legal: false,
        ply: ply.ply,
        line: ply.line,
        written: ply.written.clone(),
        move_string: ply.uhp.clone(),
        position: ply.position.clone(),
        refusal: ply.refusal.clone(),
        clauses: ply.clauses.iter().map(|c| c.to_string()).collect(),
        facts: ply.facts.clone(),
    }
}

/// The JSON report as the files come: its games and its unreadable and
/// skipped records spooled, the counts kept.
pub(crate) struct JsonReport {
    games: Spooled,
    unreadable: Spooled,
    not_uhp: Spooled,
    summary: ReplaySummary,
    /// Whether a file was too large for the memory at hand (exit 2).
    too_large: bool,
}

impl JsonReport {
    pub(crate) fn new(strict: bool) -> JsonReport {
        JsonReport {
            games: Spooled::new(),
            unreadable: Spooled::new(),
            not_uhp: Spooled::new(),
            summary: ReplaySummary {
                strict,
                ..ReplaySummary::default()
            },
            too_large: false,
        }
    }

    /// Counts one game and spools it as it comes, or ends a file; a file
    /// too large for the memory at hand is given back, to be said at once.
    pub(crate) fn piece(&mut self, piece: Piece) -> Result<(), TooLargeForMemory> {
        let error = match piece {
            Piece::Game(Ok(report)) => {
                self.summary.add_game(&report);
                self.games.push(&game(&report));
                return Ok(());
            }
            // §10.16: a game that does not read is listed as such
            Piece::Game(Err(error)) => error,
            Piece::End(Ok(())) => return Ok(()),
            Piece::End(Err(RecordFileError::NotARecord(error))) => error,
            Piece::End(Err(error)) => {
                return not_replayed(&mut self.summary, &mut self.too_large, error)
            }
        };
        // every one listed here; the summary keeps the first ones only
        if error.not_a_uhp_game {
            self.not_uhp.push(&unreadable(&error));
        } else {
            self.unreadable.push(&unreadable(&error));
        }
        self.summary.add_unreadable(error);
        Ok(())
    }

    /// Writes the report on stdout; what it ends on (every write: to the
    /// spools and to stdout).
    pub(crate) fn end(self, skipped: &[Skipped]) -> Ended {
        let arrays = [
            ("games", self.games),
            ("unreadable", self.unreadable),
            ("not_a_uhp_game", self.not_uhp),
        ];
        let written = without_arrays(&self.summary, skipped)
            .map_err(std::io::Error::from)
            .and_then(|outline| write_json(&outline, arrays));
        Ended {
            summary: self.summary,
            too_large: self.too_large,
            written,
        }
    }
}

/// An array of the report written to a temporary file as its elements
/// come, each indented as an element of a top-level array, then copied
/// into place: the report's summary comes first, and its arrays may hold
/// millions of elements that memory should not.
struct Spooled {
    file: std::io::Result<std::io::BufWriter<std::fs::File>>,
    count: usize,
}

impl Spooled {
    fn new() -> Spooled {
        Spooled {
            file: tempfile::tempfile().map(std::io::BufWriter::new),
            count: 0,
        }
    }

    /// Writes one element; after a failed write nothing more is written and
    /// the report fails at its end.
    fn push(&mut self, element: &impl Serialize) {
        let first = self.count == 0;
        self.count += 1;
        if let Ok(file) = &mut self.file {
            if let Err(error) = spool_element(file, element, first) {
                self.file = Err(error);
            }
        }
    }
}

fn spool_element(
    spool: &mut impl Write,
    element: &impl Serialize,
    first: bool,
) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(element)?;
    spool.write_all(if first { b"\n    " } else { b",\n    " })?;
    spool.write_all(text.replace('\n', "\n    ").as_bytes())
}

/// Writes the JSON report on stdout: `outline`, the report with its
/// spooled arrays empty, with each array's elements copied in place of its
/// empty array, in the order of the report's fields. The bytes are those
/// of `serde_json::to_string_pretty` of the whole report.
fn write_json(outline: &str, arrays: [(&str, Spooled); 3]) -> std::io::Result<()> {
    // a spool that failed fails the report before anything is written
    let mut spools = Vec::new();
    for (name, spooled) in arrays {
        let file = spooled.file?.into_inner().map_err(|e| e.into_error())?;
        spools.push((name, spooled.count, file));
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut rest = outline;
    for (name, count, mut file) in spools {
        let empty = format!("\n  \"{name}\": []");
        let (head, tail) = rest.split_once(&empty).unwrap_or((rest, ""));
        out.write_all(head.as_bytes())?;
        if count == 0 {
            out.write_all(empty.as_bytes())?;
        } else {
            file.seek(std::io::SeekFrom::Start(0))?;
            out.write_all(format!("\n  \"{name}\": [").as_bytes())?;
            std::io::copy(&mut file, &mut out)?;
            out.write_all(b"\n  ]")?;
        }
        rest = tail;
    }
    out.write_all(rest.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}
