//! The engine-neutral case corpus (`tests/cases/*.toml`, format in
//! `spec/cases.md`): loading the files and running a case on any engine.
//!
//! A case is plain data: a position as a UHP GameString, rules options, and
//! assertions from a closed vocabulary. Moves are resolved in the case's
//! position and compared as absolute moves (§5.9), never as strings, because
//! UHP spells one move in several ways (§9.7).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::core::notation::{parse_game_state, parse_piece};
use crate::core::{Move, RulesOptions};
use crate::rules::Rules;

/// One TOML file: a list of `[[case]]` tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    #[serde(default)]
    case: Vec<Case>,
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

/// The rules options of a case.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CaseOptions {
    #[serde(default = "default_true")]
    pub tournament_opening: bool,
    #[serde(default)]
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
    pub mv: String,
    pub clause: String,
}

/// A case with the file it came from.
#[derive(Clone, Debug)]
pub struct LoadedCase {
    /// The file name without directory, e.g. `pillbug.toml`.
    pub file: String,
    pub case: Case,
}

impl LoadedCase {
    /// `file::name`, the identifier used in reports and filters.
    pub fn id(&self) -> String {
        format!("{}::{}", self.file, self.case.name)
    }
}

/// The corpus built into the library and the binary: every file of
/// `tests/cases/`, name and text, in file-name order, so that an installed
/// `hive-oracle check` runs every case from any directory. A test
/// (`tests/cases.rs`) checks that this list is the directory's content.
pub const BUILTIN_CORPUS: &[(&str, &str)] = &[
    ("ant.toml", include_str!("../tests/cases/ant.toml")),
    ("beetle.toml", include_str!("../tests/cases/beetle.toml")),
    (
        "components.toml",
        include_str!("../tests/cases/components.toml"),
    ),
    ("end.toml", include_str!("../tests/cases/end.toml")),
    (
        "grasshopper.toml",
        include_str!("../tests/cases/grasshopper.toml"),
    ),
    ("ladybug.toml", include_str!("../tests/cases/ladybug.toml")),
    (
        "mosquito.toml",
        include_str!("../tests/cases/mosquito.toml"),
    ),
    (
        "movement.toml",
        include_str!("../tests/cases/movement.toml"),
    ),
    (
        "notation.toml",
        include_str!("../tests/cases/notation.toml"),
    ),
    ("options.toml", include_str!("../tests/cases/options.toml")),
    ("pillbug.toml", include_str!("../tests/cases/pillbug.toml")),
    (
        "placement.toml",
        include_str!("../tests/cases/placement.toml"),
    ),
    (
        "queen-bee.toml",
        include_str!("../tests/cases/queen-bee.toml"),
    ),
    ("queen.toml", include_str!("../tests/cases/queen.toml")),
    ("spider.toml", include_str!("../tests/cases/spider.toml")),
];

/// The built-in corpus ([`BUILTIN_CORPUS`]), parsed.
pub fn builtin_corpus() -> Result<Vec<LoadedCase>, String> {
    let mut out = Vec::new();
    for (file, text) in BUILTIN_CORPUS {
        out.extend(parse_corpus_file(file, text, &format!("built-in {file}"))?);
    }
    Ok(out)
}

/// Loads every `*.toml` file of a directory, in file-name order. Errors name
/// the file and, for TOML errors, the line and column; a case name used
/// twice in one file and a case without assertions are errors too.
pub fn load_corpus(dir: &Path) -> Result<Vec<LoadedCase>, String> {
    Ok(read_corpus_files(dir)?
        .into_iter()
        .map(|(_, _, cases)| cases)
        .collect::<Vec<_>>()
        .concat())
}

/// The `*.toml` files of a directory in file-name order: each file's name,
/// text and cases.
pub fn read_corpus_files(dir: &Path) -> Result<Vec<(String, String, Vec<LoadedCase>)>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let cases = parse_corpus_file(&file, &text, &path.display().to_string())?;
        out.push((file, text, cases));
    }
    Ok(out)
}

/// Parses one corpus file named `file` (shown as `shown` in errors).
pub fn parse_corpus_file(file: &str, text: &str, shown: &str) -> Result<Vec<LoadedCase>, String> {
    let parsed: CaseFile = toml::from_str(text).map_err(|e| format!("{shown}: {e}"))?;
    let mut names = BTreeSet::new();
    let mut out = Vec::new();
    for case in parsed.case {
        if !names.insert(case.name.clone()) {
            return Err(format!("{file}: case name \"{}\" is used twice", case.name));
        }
        if !has_assertion(&case) {
            return Err(format!("{file}::{}: the case asserts nothing", case.name));
        }
        out.push(LoadedCase {
            file: file.to_string(),
            case,
        });
    }
    Ok(out)
}

fn has_assertion(case: &Case) -> bool {
    case.valid_moves.is_some()
        || !case.valid_moves_include.is_empty()
        || !case.valid_moves_exclude.is_empty()
        || !case.illegal.is_empty()
        || !case.legal.is_empty()
        || case.state.is_some()
        || !case.perft.is_empty()
}

/// How strictly refusals are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalCheck {
    /// The refusal must cite the case's clause (the reference engine explains).
    CitesClause,
    /// The move must be refused; the reason is not checked (an engine that
    /// does not explain, such as the fast engine).
    RefusedOnly,
}

/// Runs one case on engine `R`; returns every failed assertion (empty when
/// the case passes), each a readable line with moves in canonical notation.
pub fn run_case<R: Rules>(case: &Case, refusals: RefusalCheck) -> Vec<String> {
    let mut failures = Vec::new();
    let game = match R::load_with(&case.game, case.options.into()) {
        Ok(game) => game,
        Err(e) => return vec![format!("the game does not load: {e}")],
    };
    let piece = match case.piece.as_deref().map(parse_piece) {
        None => None,
        Some(Ok(piece)) => Some(piece),
        Some(Err(e)) => return vec![format!("bad `piece`: {e}")],
    };
    let in_scope = |mv: &Move| piece.is_none() || mv.piece() == piece;
    let legal: BTreeSet<Move> = game.legal_moves().into_iter().filter(in_scope).collect();
    let resolve = |texts: &[String], failures: &mut Vec<String>| -> BTreeSet<Move> {
        let mut set = BTreeSet::new();
        for text in texts {
            match game.parse_move(text) {
                Ok(mv) => {
                    set.insert(mv);
                }
                Err(e) => failures.push(format!("move \"{text}\" does not resolve: {e}")),
            }
        }
        set
    };
    let names = |set: &BTreeSet<Move>| -> String {
        let mut names: Vec<String> = set.iter().map(|&mv| game.move_string(mv)).collect();
        names.sort();
        format!("[{}]", names.join("; "))
    };
    if let Some(expected) = &case.valid_moves {
        let expected = resolve(expected, &mut failures);
        let missing: BTreeSet<Move> = expected.difference(&legal).copied().collect();
        let extra: BTreeSet<Move> = legal.difference(&expected).copied().collect();
        if !missing.is_empty() {
            failures.push(format!("valid-moves: missing {}", names(&missing)));
        }
        if !extra.is_empty() {
            failures.push(format!("valid-moves: extra {}", names(&extra)));
        }
    }
    let include = resolve(&case.valid_moves_include, &mut failures);
    let missing: BTreeSet<Move> = include.difference(&legal).copied().collect();
    if !missing.is_empty() {
        failures.push(format!("valid-moves-include: missing {}", names(&missing)));
    }
    let exclude = resolve(&case.valid_moves_exclude, &mut failures);
    let present: BTreeSet<Move> = exclude.intersection(&legal).copied().collect();
    if !present.is_empty() {
        failures.push(format!("valid-moves-exclude: present {}", names(&present)));
    }
    for text in &case.legal {
        let Ok(mv) = game.parse_move(text) else {
            failures.push(format!("legal move \"{text}\" does not resolve"));
            continue;
        };
        let mut copy = game.clone();
        if let Err(e) = copy.play(mv) {
            failures.push(format!("legal: {text} was refused: {e}"));
        }
    }
    let before = game.game_string();
    for entry in &case.illegal {
        // A move that cannot even be read is refused too (UHP: `invalidmove`);
        // its notation error names the clause (§9.14).
        let mv = match game.parse_move(&entry.mv) {
            Ok(mv) => mv,
            Err(e) => {
                if refusals == RefusalCheck::CitesClause
                    && !e.to_string().contains(entry.clause.as_str())
                {
                    failures.push(format!(
                        "illegal: {} refused as unreadable ({e}), expected {}",
                        entry.mv, entry.clause
                    ));
                }
                continue;
            }
        };
        let mut copy = game.clone();
        match copy.play(mv) {
            Ok(()) => failures.push(format!(
                "illegal: {} was accepted ({})",
                entry.mv, entry.clause
            )),
            Err(e) => {
                if refusals == RefusalCheck::CitesClause
                    && !e.clauses.contains(&entry.clause.as_str())
                {
                    failures.push(format!(
                        "illegal: {} refused citing {e}, expected {}",
                        entry.mv, entry.clause
                    ));
                }
                if copy.game_string() != before {
                    failures.push(format!("illegal: refusing {} changed the game", entry.mv));
                }
            }
        }
    }
    if let Some(state) = &case.state {
        match parse_game_state(state) {
            Ok(expected) if expected == game.state() => {}
            Ok(expected) => {
                failures.push(format!("state: {} but expected {expected}", game.state()))
            }
            Err(e) => failures.push(format!("bad `state`: {e}")),
        }
    }
    for (i, &expected) in case.perft.iter().enumerate() {
        let depth = i as u32 + 1;
        let mut copy = game.clone();
        let nodes = copy.count_leaves(depth);
        if nodes != expected {
            failures.push(format!("perft {depth}: {nodes} but expected {expected}"));
        }
    }
    failures
}
