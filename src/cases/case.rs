//! What a case is: the fields of a `[[case]]` table (spec/cases.md), its
//! rules options, and a case with the file it came from.

use serde::Deserialize;

use crate::core::RulesOptions;

/// One TOML file: a list of `[[case]]` tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CaseFile {
    #[serde(default)]
    pub(super) case: Vec<Case>,
}

/// One case (spec/cases.md).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Case {
    /// Unique within its file.
    pub name: String,
    /// The most specific clauses the case pins.
    pub clauses: Vec<String>,
    /// Where the case comes from: a rule text, a ruling, a bug.
    pub source: String,
    /// The position: a GameString with a legal history.
    pub game: String,
    /// Rules options; defaults: tournament opening on, repetition draw off.
    #[serde(default)]
    pub options: CaseOptions,
    /// Restricts the move assertions to the moves of this piece.
    pub piece: Option<String>,
    /// The exact set of legal moves (of `piece`, if given).
    pub valid_moves: Option<Vec<String>>,
    /// Moves that must be legal (of `piece`, if given).
    #[serde(default)]
    pub valid_moves_include: Vec<String>,
    /// Moves that must not be legal.
    #[serde(default)]
    pub valid_moves_exclude: Vec<String>,
    /// Moves that `play` must refuse, each with the clause that forbids it.
    #[serde(default)]
    pub illegal: Vec<IllegalMoveCase>,
    /// Moves that `play` must accept.
    #[serde(default)]
    pub legal: Vec<String>,
    /// The game state: NotStarted, InProgress, Draw, WhiteWins, BlackWins.
    pub state: Option<String>,
    /// Perft counts at depths 1, 2, … from the position.
    #[serde(default)]
    pub perft: Vec<u64>,
    /// Free text for readers.
    pub note: Option<String>,
}

impl Case {
    /// Whether the case asserts something (spec/cases.md: a case without
    /// assertions is an error, so that it cannot pass silently).
    pub(super) fn has_assertion(&self) -> bool {
        self.valid_moves.is_some()
            || !self.valid_moves_include.is_empty()
            || !self.valid_moves_exclude.is_empty()
            || !self.illegal.is_empty()
            || !self.legal.is_empty()
            || self.state.is_some()
            || !self.perft.is_empty()
    }
}

/// The rules options of a case.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CaseOptions {
    #[serde(default = "default_true")]
    /// Tournament opening: the queen may not be a first placement (§4.2); on unless the case says `false`.
    pub tournament_opening: bool,
    #[serde(default)]
    /// Repetition draw (§8.7.2); off unless the case says `true`.
    pub repetition_draw: bool,
}

fn default_true() -> bool {
    true
}

impl Default for CaseOptions {
    fn default() -> Self {
        CaseOptions {
            tournament_opening: true,
            repetition_draw: false,
        }
    }
}

impl From<CaseOptions> for RulesOptions {
    fn from(options: CaseOptions) -> RulesOptions {
        RulesOptions {
            tournament_opening: options.tournament_opening,
            repetition_draw: options.repetition_draw,
        }
    }
}

/// A move that must be refused and the clause that forbids it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IllegalMoveCase {
    #[serde(rename = "move")]
    /// The MoveString that must be refused (the TOML key `move`).
    pub mv: String,
    /// The clause that forbids it, e.g. `§5.3`.
    pub clause: String,
}

/// A case with the file it came from.
#[derive(Clone, Debug)]
pub struct LoadedCase {
    /// The file name without directory, e.g. `pillbug.toml`.
    pub file: String,
    /// The case as written in the file.
    pub case: Case,
}

impl LoadedCase {
    /// `file::name`, the identifier used in reports and filters.
    pub fn id(&self) -> String {
        format!("{}::{}", self.file, self.case.name)
    }
}
