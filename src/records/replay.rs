//! Replaying records (spec/game-records.md, `hive-oracle replay`): every ply of a
//! game is played on an engine; the first ply the engine refuses is
//! explained by the reference engine with its clause, and a game played to
//! its end has its final state checked against the result it declares.

use std::collections::BTreeMap;

use super::{DeclaredResult, Ending, Format, Record, RecordError};
use crate::core::{GameState, GameType, Hex, Move, RulesOptions};
use crate::explain::{move_cells, verdict_in};
use crate::reference::Position;
use crate::render;
use crate::rules::Rules;

/// The rules a record is replayed under (§10.12): the tournament opening
/// unless the record placed a queen first, and no repetition draw,
/// since records end a repeated game their own way.
pub fn record_options(record: &Record) -> RulesOptions {
    RulesOptions {
        tournament_opening: !record.standard_opening,
        repetition_draw: false,
    }
}

/// The first ply an engine refused, explained by the reference engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalPly {
    /// The 1-based ply.
    pub ply: usize,
    /// The record's line.
    pub line: usize,
    /// The ply as the file writes it.
    pub written: String,
    /// The ply as a MoveString.
    pub uhp: String,
    /// The GameString of the position before the ply.
    pub position: String,
    /// The refusal: the reference engine's reason and clauses, or why the
    /// MoveString does not read in that position.
    pub refusal: String,
    /// The clauses that forbid the ply (empty for an unreadable one).
    pub clauses: Vec<&'static str>,
    /// The facts behind the refusal, one line each, as `explain` prints them.
    pub facts: Vec<String>,
    /// The ASCII picture of the position before the ply, the ply's cells
    /// highlighted (its origin and destination, when it reads), as
    /// `explain` draws it.
    pub picture: String,
}

/// Whether a replayed game ends as its record says (§10.13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultCheck {
    /// Checked: the final state is the declared result (a decided board, a
    /// draw by repetition under `--repetition-draw`, or an unfinished game
    /// declared unfinished).
    Agrees,
    /// Checked: the final state contradicts the declared result.
    Disagrees,
    /// Not decidable from the board: the record's ending (a resignation, an
    /// agreed draw, a result without its reason) leaves a position that is
    /// not over, so the board neither confirms nor refutes it.
    NotOnTheBoard,
    /// The record declares no result: nothing to check.
    Unknown,
}

impl ResultCheck {
    /// Whether the declared result was compared with the board.
    pub fn is_checked(self) -> bool {
        matches!(self, ResultCheck::Agrees | ResultCheck::Disagrees)
    }
}

/// What a note of a report is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NoteKind {
    /// A reader's note: a leniency applied, text skipped, a warning about
    /// the record (spec/game-records.md).
    Reader,
    /// A position that occurred for the third time (§8.7.2), noted under
    /// `--repetition-draw`.
    Repetition,
}

impl NoteKind {
    /// The kind's name as the reports print it.
    pub fn name(self) -> &'static str {
        match self {
            NoteKind::Reader => "reader",
            NoteKind::Repetition => "repetition",
        }
    }
}

/// One note of a game's report: what it is about, where, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// What the note is about.
    pub kind: NoteKind,
    /// The record's line it concerns, if one.
    pub line: Option<usize>,
    /// The 1-based ply it concerns, if one.
    pub ply: Option<usize>,
    /// The note, without its line.
    pub text: String,
}

impl Note {
    /// A reader's note as the readers write it (`line 7: wM1 read as wM`),
    /// its line taken out, and the ply written on that line, if any.
    fn of_reader(text: &str, record: &Record) -> Note {
        let parsed = text.strip_prefix("line ").and_then(|rest| {
            let (number, text) = rest.split_once(": ")?;
            Some((number.parse::<usize>().ok()?, text))
        });
        let (line, text) = match parsed {
            Some((line, text)) => (Some(line), text),
            None => (None, text),
        };
        let ply = line.and_then(|line| {
            record
                .moves
                .iter()
                .position(|m| m.line == line)
                .map(|i| i + 1)
        });
        Note {
            kind: NoteKind::Reader,
            line,
            ply,
            text: text.to_string(),
        }
    }
}

/// What replaying one game gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every ply was legal.
    Legal {
        /// The state after the last ply.
        state: GameState,
        /// The GameString after the last ply.
        game_string: String,
        /// The declared result against the final state.
        result: ResultCheck,
        /// Under `--repetition-draw`: the ply after which a position stood
        /// for the third time (§8.7.2), the first such ply.
        third_occurrence: Option<usize>,
    },
    /// A ply was refused.
    Illegal(Box<IllegalPly>),
}

/// The report on one game of a record file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// The file.
    pub file: String,
    /// The file's format.
    pub format: Format,
    /// The game's number in its file.
    pub index: usize,
    /// The game's first line.
    pub line: usize,
    /// The game type.
    pub game_type: GameType,
    /// White's and Black's names.
    pub players: (Option<String>, Option<String>),
    /// The plies in the record.
    pub plies: usize,
    /// Whether the game was replayed without the tournament opening.
    pub standard_opening: bool,
    /// The declared result and ending.
    pub declared: (DeclaredResult, Ending),
    /// The notes: the reader's (leniencies applied, debris skipped,
    /// warnings), then the replay's.
    pub notes: Vec<Note>,
    /// What the replay gave.
    pub outcome: Outcome,
}

impl GameReport {
    /// Whether the game is legal to its end and, where its record states a
    /// result on the board, ends that way.
    pub fn is_clean(&self) -> bool {
        matches!(
            self.outcome,
            Outcome::Legal {
                result: ResultCheck::Agrees | ResultCheck::NotOnTheBoard | ResultCheck::Unknown,
                ..
            }
        )
    }
}

/// How a record is replayed, beyond its own rules (§10.12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Watch for the third occurrence of a position (§8.7.2, §10.20): note
    /// it, and take the game as drawn there when the record ends there; the
    /// game is still replayed without the rule, so no later ply is refused.
    pub repetition_draw: bool,
}

/// Replays `record` on the engine `R`, every ply in order up to the first
/// refused one (§10.14). A refused ply is explained by the
/// reference engine in the same position, whichever engine replays.
pub fn replay<R: Rules>(record: &Record, options: ReplayOptions) -> GameReport {
    let mut game = R::new_game(record.game_type, record_options(record));
    // §10.20 the same game under the repetition rule, until it draws
    let mut watch = options.repetition_draw.then(|| {
        let rules = RulesOptions {
            repetition_draw: true,
            ..record_options(record)
        };
        R::new_game(record.game_type, rules)
    });
    let mut third_occurrence = None;
    let mut outcome = None;
    for (i, ply) in record.moves.iter().enumerate() {
        let refusal = match game.parse_move(&ply.uhp) {
            Err(e) => Some((e.to_string(), Vec::new(), Vec::new(), Vec::new())),
            Ok(mv) => match game.play(mv) {
                Ok(()) => None,
                Err(_) => Some(explain_refusal(&game, mv)),
            },
        };
        if let Some((refusal, clauses, facts, cells)) = refusal {
            outcome = Some(Outcome::Illegal(Box::new(IllegalPly {
                ply: i + 1,
                line: ply.line,
                written: ply.written.clone(),
                uhp: ply.uhp.clone(),
                position: game.game_string(),
                refusal,
                clauses,
                facts,
                picture: render::ascii(&game, &cells),
            })));
            break;
        }
        if let (Some(watched), Some(&mv), None) =
            (&mut watch, game.history().last(), third_occurrence)
        {
            watched.play_unchecked(mv);
            // a draw the game without the rule does not have (§8.7.3: a
            // surround takes precedence, and a double surround is a draw in both)
            if watched.state() == GameState::Draw && game.state() != GameState::Draw {
                third_occurrence = Some(i + 1);
            }
        }
    }
    let mut notes: Vec<Note> = record
        .notes
        .iter()
        .map(|text| Note::of_reader(text, record))
        .collect();
    let outcome = outcome.unwrap_or_else(|| {
        let plies = record.moves.len();
        let mut state = game.state();
        let mut game_string = game.game_string();
        if let Some(ply) = third_occurrence {
            notes.push(repetition_note(ply, plies));
            if let (true, Some(watched)) = (ply == plies, &watch) {
                // §10.20 the record ends where the rule draws
                state = watched.state();
                game_string = watched.game_string();
            }
        }
        Outcome::Legal {
            state,
            game_string,
            result: check_result(state, record.result, record.ending),
            third_occurrence,
        }
    });
    GameReport {
        file: record.file.clone(),
        format: record.format,
        index: record.index,
        line: record.line,
        game_type: record.game_type,
        players: (record.white.clone(), record.black.clone()),
        plies: record.moves.len(),
        standard_opening: record.standard_opening,
        declared: (record.result, record.ending),
        notes,
        outcome,
    }
}

/// The note of a third occurrence after ply `ply` of a game of `plies`
/// plies (§8.7.2, §10.20).
fn repetition_note(ply: usize, plies: usize) -> Note {
    let went_on = plies - ply;
    let text = if went_on == 0 {
        format!("third occurrence after ply {ply}: a draw by repetition (§8.7.2), where the record ends")
    } else {
        format!(
            "third occurrence after ply {ply}: a draw by repetition (§8.7.2), but the record goes on for {went_on} more {}",
            if went_on == 1 { "ply" } else { "plies" }
        )
    };
    Note {
        kind: NoteKind::Repetition,
        line: None,
        ply: Some(ply),
        text,
    }
}

/// The reference engine's refusal of `mv` in the engine's position: its
/// reason with clauses, the clauses, the facts as `explain` prints them and
/// the cells a picture highlights. The reference rules judge the move on a
/// copy of the position ([`Position::of_game`]), not on the game replayed
/// from its start.
fn explain_refusal<R: Rules>(
    game: &R,
    mv: Move,
) -> (String, Vec<&'static str>, Vec<String>, Vec<Hex>) {
    let verdict = verdict_in(&Position::of_game(game), mv);
    let clauses = verdict
        .facts
        .first()
        .map(|f| f.clauses.clone())
        .unwrap_or_default();
    let refusal = verdict.refusal.unwrap_or_else(|| {
        format!(
            "{mv} is refused by the engine but the reference engine accepts it: please report it"
        )
    });
    (
        refusal,
        clauses,
        verdict.facts.iter().map(|f| f.line()).collect(),
        move_cells(game, mv),
    )
}

/// The declared result against the final state (§10.13).
fn check_result(state: GameState, declared: DeclaredResult, ending: Ending) -> ResultCheck {
    let on_board = match state {
        GameState::WhiteWins => Some(DeclaredResult::WhiteWins),
        GameState::BlackWins => Some(DeclaredResult::BlackWins),
        GameState::Draw => Some(DeclaredResult::Draw),
        GameState::NotStarted | GameState::InProgress => None,
    };
    match (on_board, declared, ending) {
        // Nothing declared: nothing to check.
        (_, DeclaredResult::Unknown, _) => ResultCheck::Unknown,
        // A finished board is a fact: every declared result must be it.
        (Some(board), declared, _) if declared == board => ResultCheck::Agrees,
        (Some(_), _, _) => ResultCheck::Disagrees,
        // An unfinished game declared unfinished: the board confirms it.
        (None, DeclaredResult::Unfinished, _) => ResultCheck::Agrees,
        // An unfinished board: a result declared to be on the board is wrong;
        // a resignation, an agreed draw or a result without its reason may
        // leave the position unfinished.
        (
            None,
            DeclaredResult::WhiteWins | DeclaredResult::BlackWins | DeclaredResult::Draw,
            Ending::Board,
        ) => ResultCheck::Disagrees,
        (None, _, _) => ResultCheck::NotOnTheBoard,
    }
}

/// The errors a [`ReplaySummary`] keeps of each kind (the files and games
/// that do not read; the records not of a UHP game), in the order added;
/// past them it only counts, so that an archive of a million unreadable
/// games costs a summary no more than a thousand. A report that lists every
/// one (the JSON report) writes each as it comes.
pub const ERRORS_KEPT: usize = 1_000;

/// What a run has replayed so far, without its games: the counts overall and
/// by game type, and the files that could not be read. A run adds each game
/// as it reports it and keeps only this, so that its memory does not grow
/// with the games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplaySummary {
    /// Every game added.
    pub total: Counts,
    /// The games added, by game type.
    pub by_type: BTreeMap<GameType, Counts>,
    /// The files that are not records and the games that do not read, with
    /// why, in the order added: the first [`ERRORS_KEPT`], the rest
    /// counted only.
    pub unreadable: Vec<RecordError>,
    /// How many files are not records.
    pub unreadable_files: usize,
    /// How many games do not read in files that hold others (§10.16).
    pub unreadable_games: usize,
    /// The records of games that are not UHP's (Ultimate Hive, §10.21),
    /// skipped: they fail the run only when [`ReplaySummary::strict`]. The
    /// first [`ERRORS_KEPT`], the rest counted only.
    pub not_uhp: Vec<RecordError>,
    /// How many records were skipped as not UHP's.
    pub not_uhp_count: usize,
    /// Whether a record skipped as not a UHP game makes the run unclean
    /// (`replay --strict`).
    pub strict: bool,
}

/// The counts of a run, overall and by game type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games read.
    pub games: usize,
    /// Games legal to the end whose result agrees (or is not on the board).
    pub legal: usize,
    /// Games with an illegal ply.
    pub illegal: usize,
    /// Games legal to the end whose final state contradicts the result
    /// (checked, and disagreeing).
    pub wrong_result: usize,
    /// Plies replayed.
    pub plies: usize,
    /// Games legal to the end whose declared result the board confirms
    /// (checked, and agreeing).
    pub results_agree: usize,
    /// Games legal to the end whose result the board cannot decide
    /// ([`ResultCheck::NotOnTheBoard`]).
    pub results_undecidable: usize,
    /// Games legal to the end whose record declares no result.
    pub results_unknown: usize,
}

impl Counts {
    /// Counts `game`: its plies replayed (up to the refused one) and its
    /// outcome.
    fn add(&mut self, game: &GameReport) {
        self.games += 1;
        self.plies += match &game.outcome {
            Outcome::Legal { .. } => game.plies,
            Outcome::Illegal(ply) => ply.ply,
        };
        let result = match &game.outcome {
            Outcome::Illegal(_) => {
                self.illegal += 1;
                return;
            }
            Outcome::Legal { result, .. } => *result,
        };
        match result {
            ResultCheck::Disagrees => self.wrong_result += 1,
            _ => self.legal += 1,
        }
        match result {
            ResultCheck::Agrees => self.results_agree += 1,
            ResultCheck::Disagrees => {}
            ResultCheck::NotOnTheBoard => self.results_undecidable += 1,
            ResultCheck::Unknown => self.results_unknown += 1,
        }
    }

    /// Games legal to the end whose declared result was compared with the
    /// board.
    pub fn results_checked(&self) -> usize {
        self.results_agree + self.wrong_result
    }
}

impl ReplaySummary {
    /// Counts one game's report.
    pub fn add_game(&mut self, game: &GameReport) {
        self.total.add(game);
        self.by_type.entry(game.game_type).or_default().add(game);
    }

    /// Notes a file that is not a record, or a game that does not read
    /// ([`RecordError::game`]); a record of a game that is not UHP's
    /// ([`RecordError::not_a_uhp_game`]) is noted as skipped (§10.21).
    pub fn add_unreadable(&mut self, error: RecordError) {
        let kept = if error.not_a_uhp_game {
            self.not_uhp_count += 1;
            &mut self.not_uhp
        } else {
            if error.game.is_some() {
                self.unreadable_games += 1;
            } else {
                self.unreadable_files += 1;
            }
            &mut self.unreadable
        };
        if kept.len() < ERRORS_KEPT {
            kept.push(error);
        }
    }

    /// The files and games that do not read and the records skipped as not
    /// UHP's that the summary counted but did not keep.
    pub fn errors_not_kept(&self) -> (usize, usize) {
        (
            self.unreadable_files + self.unreadable_games - self.unreadable.len(),
            self.not_uhp_count - self.not_uhp.len(),
        )
    }

    /// Whether every game is legal and ends as declared
    /// ([`GameReport::is_clean`]), every file read and, when
    /// [`ReplaySummary::strict`], no record skipped as not a UHP game.
    pub fn is_clean(&self) -> bool {
        self.unreadable_files == 0
            && self.unreadable_games == 0
            && self.total.illegal == 0
            && self.total.wrong_result == 0
            && (!self.strict || self.not_uhp_count == 0)
    }
}
