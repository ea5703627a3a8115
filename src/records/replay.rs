//! Replaying records (spec/game-records.md, `hive-oracle replay`): every ply of a
//! game is played on an engine; the first ply the engine refuses is
//! explained by the reference engine with its clause, and a game played to
//! its end has its final state checked against the result it declares.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{DeclaredResult, Ending, Format, Record, RecordError};
use crate::core::{escape_controls, GameState, GameType, Move, RulesOptions};
use crate::explain::verdict_in;
use crate::reference::Position;
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
}

/// Whether a replayed game ends as its record says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultCheck {
    /// The final state is the declared result.
    Agrees,
    /// The record's ending (a resignation, an agreed draw, an unfinished or
    /// unknown result) leaves a position that is not over; nothing to check.
    NotOnTheBoard,
    /// The final state contradicts the declared result.
    Disagrees,
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
    /// The reader's notes (leniencies applied, debris skipped).
    pub notes: Vec<String>,
    /// What the replay gave.
    pub outcome: Outcome,
}

/// Adds `line` to `out` with every control character escaped
/// ([`escape_controls`]: a file name or a record's text may hold any), then
/// the line feed that ends it.
fn push_line(out: &mut String, line: &str) {
    out.push_str(&escape_controls(line));
    out.push('\n');
}

impl GameReport {
    /// The game's lines in the text report: nothing for a clean game; for
    /// an illegal ply, the ply, its refusal, the position, the ply as
    /// written and the facts; for a wrong result, the result and the final
    /// position. Each line's text is escaped for a terminal.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let name = format!("{} game {} (line {})", self.file, self.index, self.line);
        match &self.outcome {
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
            }
            Outcome::Legal {
                state,
                result: ResultCheck::Disagrees,
                game_string,
            } => {
                push_line(
                    &mut out,
                    &format!(
                        "{name}: the record says {}, but after its {} plies the game is {state}",
                        self.declared.0.name(),
                        self.plies
                    ),
                );
                push_line(&mut out, &format!("  final position: {game_string}"));
            }
            Outcome::Legal { .. } => {}
        }
        out
    }

    /// Whether the game is legal to its end and, where its record states a
    /// result on the board, ends that way.
    pub fn is_clean(&self) -> bool {
        matches!(
            self.outcome,
            Outcome::Legal {
                result: ResultCheck::Agrees | ResultCheck::NotOnTheBoard,
                ..
            }
        )
    }
}

/// Replays `record` on the engine `R`, every ply in order up to the first
/// refused one (§10.14). A refused ply is explained by the
/// reference engine in the same position, whichever engine replays.
pub fn replay<R: Rules>(record: &Record) -> GameReport {
    let mut game = R::new_game(record.game_type, record_options(record));
    let mut outcome = None;
    for (i, ply) in record.moves.iter().enumerate() {
        let refusal = match game.parse_move(&ply.uhp) {
            Err(e) => Some((e.to_string(), Vec::new(), Vec::new())),
            Ok(mv) => match game.play(mv) {
                Ok(()) => None,
                Err(_) => Some(explain_refusal(&game, mv)),
            },
        };
        if let Some((refusal, clauses, facts)) = refusal {
            outcome = Some(Outcome::Illegal(Box::new(IllegalPly {
                ply: i + 1,
                line: ply.line,
                written: ply.written.clone(),
                uhp: ply.uhp.clone(),
                position: game.game_string(),
                refusal,
                clauses,
                facts,
            })));
            break;
        }
    }
    let outcome = outcome.unwrap_or_else(|| {
        let state = game.state();
        Outcome::Legal {
            state,
            game_string: game.game_string(),
            result: check_result(state, record.result, record.ending),
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
        notes: record.notes.clone(),
        outcome,
    }
}

/// The reference engine's refusal of `mv` in the engine's position: its
/// reason with clauses, the clauses, and the facts as `explain` prints them.
/// The reference rules judge the move on a copy of the position
/// ([`Position::of_game`]), not on the game replayed from its start.
fn explain_refusal<R: Rules>(game: &R, mv: Move) -> (String, Vec<&'static str>, Vec<String>) {
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
        // A finished board is a fact: every declared result must be it.
        (Some(board), declared, _) if declared == board => ResultCheck::Agrees,
        (Some(_), DeclaredResult::Unknown, _) => ResultCheck::Agrees,
        (Some(_), _, _) => ResultCheck::Disagrees,
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
    /// The files that are not records, with why, in the order added.
    pub unreadable: Vec<RecordError>,
    /// The records of games that are not UHP's (Ultimate Hive, §10.20),
    /// skipped: they fail the run only under `replay --strict`.
    pub not_uhp: Vec<RecordError>,
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
    /// Games legal to the end whose final state contradicts the result.
    pub wrong_result: usize,
    /// Plies replayed.
    pub plies: usize,
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
        match &game.outcome {
            Outcome::Illegal(_) => self.illegal += 1,
            Outcome::Legal {
                result: ResultCheck::Disagrees,
                ..
            } => self.wrong_result += 1,
            Outcome::Legal { .. } => self.legal += 1,
        }
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
    /// ([`RecordError::not_a_uhp_game`]) is noted as skipped (§10.20).
    pub fn add_unreadable(&mut self, error: RecordError) {
        if error.not_a_uhp_game {
            self.not_uhp.push(error);
        } else {
            self.unreadable.push(error);
        }
    }

    /// Whether every game is legal and ends as declared
    /// ([`GameReport::is_clean`]), and every file read.
    pub fn is_clean(&self) -> bool {
        self.unreadable.is_empty() && self.total.illegal == 0 && self.total.wrong_result == 0
    }

    /// The end of the text report, after the lines of the games that are
    /// not clean ([`GameReport::text`]; `after_games` says whether there
    /// were any): the unreadable files, a blank line when anything came
    /// before, then the summary table by game type.
    pub fn closing_text(&self, after_games: bool) -> String {
        let mut out = String::new();
        for error in &self.unreadable {
            push_line(&mut out, &format!("unreadable: {error}"));
        }
        for error in &self.not_uhp {
            push_line(&mut out, &format!("skipped: not a UHP game type: {error}"));
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
        for (game_type, c) in &self.by_type {
            row(&mut out, &game_type.to_string(), c);
        }
        row(&mut out, "all", &self.total);
        // §10.16: the games that do not read in files that hold others
        let games = self.unreadable.iter().filter(|e| e.game.is_some()).count();
        let _ = writeln!(out, "unreadable files: {}", self.unreadable.len() - games);
        if games > 0 {
            let _ = writeln!(out, "unreadable games: {games}");
        }
        if !self.not_uhp.is_empty() {
            let _ = writeln!(out, "skipped: not a UHP game type: {}", self.not_uhp.len());
        }
        out
    }
}
