//! The engine-neutral case corpus (`tests/cases/*.toml`, format in
//! `spec/cases.md`): loading the files and running a case on any engine.
//!
//! A case is plain data: a position as a UHP GameString, rules options, and
//! assertions from a closed vocabulary. Moves are resolved in the case's
//! position and compared as absolute moves (§5.9), never as strings, because
//! UHP spells one move in several ways (§9.23, §9.24).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::core::notation::{parse_game_state, parse_piece};
use crate::core::{GameState, Move, RulesOptions};
use crate::reference::ReferenceEngine;
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
    ("opening.toml", include_str!("../tests/cases/opening.toml")),
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

/// What a case runner needs of an engine: load a position, list its legal
/// moves as it writes them, play a move as written (and take it back), tell
/// the state, and count perft leaves. Implemented for every [`Rules`] engine
/// ([`RulesEngine`]) and, in `check`, for any UHP engine. [`run_case`] is the
/// only interpreter of the case vocabulary (spec/cases.md).
pub trait CaseEngine {
    /// Why talking to the engine failed (not a refusal): the case stops.
    type Error;
    /// Loads `game` (a GameString) under `options`; `Ok(Err(reason))` when
    /// the engine refuses it.
    fn load(
        &mut self,
        game: &str,
        options: RulesOptions,
    ) -> Result<Result<(), String>, Self::Error>;
    /// The legal moves, as the engine writes them.
    fn valid_moves(&mut self) -> Result<Vec<String>, Self::Error>;
    /// Plays a move written `text`; `Ok(Err(reason))` when the engine refuses it.
    fn play(&mut self, text: &str) -> Result<Result<(), String>, Self::Error>;
    /// Takes back the move just played.
    fn undo(&mut self) -> Result<(), Self::Error>;
    /// The state of the game.
    fn state(&mut self) -> Result<GameState, Self::Error>;
    /// The perft leaf count at `depth`; `Ok(Err(reason))` when the engine
    /// cannot count (the assertion is skipped, with the reason).
    fn perft(&mut self, depth: u32) -> Result<Result<u64, String>, Self::Error>;
    /// Whether a refusal cites the clause that forbids the move (the
    /// reference engine explains; the fast engine and most UHP engines do
    /// not), so that `illegal` can check the clause too.
    fn cites_clauses(&self) -> bool;
}

/// A [`Rules`] engine as a [`CaseEngine`].
#[derive(Clone, Debug)]
pub struct RulesEngine<R> {
    game: Option<R>,
    cites_clauses: bool,
}

impl<R: Rules> RulesEngine<R> {
    /// An engine whose refusals cite their clauses (the reference engine).
    pub fn explaining() -> RulesEngine<R> {
        RulesEngine {
            game: None,
            cites_clauses: true,
        }
    }

    /// An engine whose refusals are only checked to be refusals (the fast
    /// engine leaves explanations to the reference).
    pub fn refusing_only() -> RulesEngine<R> {
        RulesEngine {
            game: None,
            cites_clauses: false,
        }
    }

    fn game(&mut self) -> Result<&mut R, String> {
        self.game
            .as_mut()
            .ok_or_else(|| "no game loaded".to_string())
    }
}

impl<R: Rules> CaseEngine for RulesEngine<R> {
    type Error = String;

    fn load(&mut self, game: &str, options: RulesOptions) -> Result<Result<(), String>, String> {
        Ok(match R::load_with(game, options) {
            Ok(loaded) => {
                self.game = Some(loaded);
                Ok(())
            }
            Err(e) => Err(e.to_string()),
        })
    }

    fn valid_moves(&mut self) -> Result<Vec<String>, String> {
        let game = self.game()?;
        Ok(game
            .legal_moves()
            .into_iter()
            .map(|mv| game.move_string(mv))
            .collect())
    }

    fn play(&mut self, text: &str) -> Result<Result<(), String>, String> {
        let game = self.game()?;
        Ok(match game.parse_move(text) {
            Err(e) => Err(e.to_string()),
            Ok(mv) => game.play(mv).map_err(|e| e.to_string()),
        })
    }

    fn undo(&mut self) -> Result<(), String> {
        self.game()?
            .undo()
            .map(|_| ())
            .ok_or_else(|| "nothing to undo".to_string())
    }

    fn state(&mut self) -> Result<GameState, String> {
        Ok(self.game()?.state())
    }

    fn perft(&mut self, depth: u32) -> Result<Result<u64, String>, String> {
        Ok(Ok(self.game()?.count_leaves(depth)))
    }

    fn cites_clauses(&self) -> bool {
        self.cites_clauses
    }
}

/// An assertion of a case that the engine fails. Moves are absolute moves
/// (§5.9) in the case's position, as the reference engine reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseFailure {
    /// The engine refused to load the position.
    LoadRefused {
        /// The engine's reason.
        reason: String,
    },
    /// A MoveString of the case itself does not resolve (a corpus error).
    Unresolvable {
        /// The field of the case that holds it (`valid-moves`, `legal`...).
        field: &'static str,
        /// The MoveString as written.
        text: String,
        /// Why the reference engine cannot read it.
        error: String,
    },
    /// Legal moves the engine does not list (`valid-moves`,
    /// `valid-moves-include`).
    Missing {
        /// The field of the case that lists them.
        field: &'static str,
        /// The legal moves missing from the engine's list.
        moves: BTreeSet<Move>,
    },
    /// Moves the engine lists that it must not (`valid-moves`,
    /// `valid-moves-exclude`), and texts of its list that name no move.
    Extra {
        /// The field of the case that rules them out.
        field: &'static str,
        /// The moves listed that must not be.
        moves: BTreeSet<Move>,
        /// The texts of the engine's list that name no move, as written.
        unreadable: Vec<String>,
    },
    /// A `legal` move the engine refused.
    LegalRefused {
        /// The MoveString as written in the case.
        text: String,
        /// The move it names.
        mv: Move,
        /// The engine's reason for refusing it.
        reason: String,
    },
    /// An `illegal` move the engine accepted.
    IllegalAccepted {
        /// The MoveString as written in the case.
        text: String,
        /// The clause that forbids it.
        clause: String,
    },
    /// An `illegal` move refused without citing its clause (engines that
    /// cite clauses only).
    WrongClause {
        /// The MoveString as written in the case.
        text: String,
        /// The clause that forbids it.
        clause: String,
        /// The engine's reason, which does not cite it.
        reason: String,
    },
    /// After the refusals of `illegal`, the legal moves changed.
    RefusalChangedGame,
    /// The state differs from `state`.
    State {
        /// The state the case expects (§8.8).
        expected: GameState,
        /// The state the engine reports.
        found: GameState,
    },
    /// A perft count differs.
    Perft {
        /// The depth of the count.
        depth: u32,
        /// The count the case expects.
        expected: u64,
        /// The count the engine gives.
        found: u64,
    },
}

/// The outcome of a case on one engine.
#[derive(Debug)]
pub struct CaseRun<E> {
    /// The assertions the engine fails, in the order of the case.
    pub failures: Vec<CaseFailure>,
    /// Assertions the engine cannot run, with the reason its adapter gives.
    pub skipped: Vec<String>,
    /// Set when talking to the engine failed: the rest of the case was not run.
    pub stopped: Option<E>,
}

impl<E> CaseRun<E> {
    /// Whether every assertion that ran held.
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.stopped.is_none()
    }
}

impl CaseFailure {
    /// The failure in one line, moves in canonical notation in `game`.
    pub fn describe(&self, game: &impl Rules) -> String {
        let names = |set: &BTreeSet<Move>| -> String {
            let mut names: Vec<String> = set.iter().map(|&mv| game.move_string(mv)).collect();
            names.sort();
            format!("[{}]", names.join("; "))
        };
        match self {
            CaseFailure::LoadRefused { reason } => format!("the game does not load: {reason}"),
            CaseFailure::Unresolvable { field, text, error } => {
                format!("{field}: move \"{text}\" does not resolve: {error}")
            }
            CaseFailure::Missing { field, moves } => format!("{field}: missing {}", names(moves)),
            CaseFailure::Extra {
                field,
                moves,
                unreadable,
            } => {
                let mut text = format!("{field}: extra {}", names(moves));
                if !unreadable.is_empty() {
                    text.push_str(&format!(", unreadable [{}]", unreadable.join("; ")));
                }
                text
            }
            CaseFailure::LegalRefused { text, reason, .. } => {
                format!("legal: {text} was refused: {reason}")
            }
            CaseFailure::IllegalAccepted { text, clause } => {
                format!("illegal: {text} was accepted ({clause})")
            }
            CaseFailure::WrongClause {
                text,
                clause,
                reason,
            } => format!("illegal: {text} refused citing {reason}, expected {clause}"),
            CaseFailure::RefusalChangedGame => {
                "illegal: the refusals changed the legal moves".to_string()
            }
            CaseFailure::State { expected, found } => {
                format!("state: {found} but expected {expected}")
            }
            CaseFailure::Perft {
                depth,
                expected,
                found,
            } => format!("perft {depth}: {found} but expected {expected}"),
        }
    }
}

/// The clauses a refusal cites: every `§` followed by numbers and dots.
fn cited_clauses(reason: &str) -> Vec<&str> {
    reason
        .match_indices('§')
        .map(|(at, _)| {
            let rest = &reason[at + '§'.len_utf8()..];
            let len = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(rest.len());
            reason[at..at + '§'.len_utf8() + len].trim_end_matches('.')
        })
        .collect()
}

/// Runs one case on `engine`: every assertion of spec/cases.md, in the order
/// it gives. Texts are resolved in the case's position by the reference
/// engine, so that the engine's own spelling never matters (§9.23). `Err`
/// when the case itself is broken (its game does not load on the reference
/// engine, a bad `piece` or `state`).
pub fn run_case<E: CaseEngine>(engine: &mut E, case: &Case) -> Result<CaseRun<E::Error>, String> {
    let options: RulesOptions = case.options.into();
    let reference = ReferenceEngine::load_with(&case.game, options)
        .map_err(|e| format!("the game does not load on the reference engine: {e}"))?;
    let piece = match case.piece.as_deref().map(parse_piece) {
        None => None,
        Some(Ok(piece)) => Some(piece),
        Some(Err(e)) => return Err(format!("bad `piece`: {e}")),
    };
    let expected_state = match case.state.as_deref().map(parse_game_state) {
        None => None,
        Some(Ok(state)) => Some(state),
        Some(Err(e)) => return Err(format!("bad `state`: {e}")),
    };
    let mut run = CaseRun {
        failures: Vec::new(),
        skipped: Vec::new(),
        stopped: None,
    };
    macro_rules! ask {
        ($call:expr) => {
            match $call {
                Ok(answer) => answer,
                Err(e) => {
                    run.stopped = Some(e);
                    return Ok(run);
                }
            }
        };
    }
    // 1. load
    if let Err(reason) = ask!(engine.load(&case.game, options)) {
        run.failures.push(CaseFailure::LoadRefused { reason });
        return Ok(run);
    }
    // 2, 3. the legal moves, restricted to `piece`
    let in_scope = |mv: &Move| piece.is_none() || mv.piece() == piece;
    let texts = ask!(engine.valid_moves());
    let mut unreadable = Vec::new();
    let mut listed = BTreeSet::new();
    for text in &texts {
        match reference.parse_move(text) {
            Ok(mv) => {
                listed.insert(mv);
            }
            Err(_) => unreadable.push(text.clone()),
        }
    }
    let listed_in_scope: BTreeSet<Move> = listed.iter().copied().filter(in_scope).collect();
    run.failures.extend(move_list_failures(
        &reference,
        case,
        &listed_in_scope,
        &unreadable,
    ));
    // 4. each `legal` move as written: played, then taken back
    for text in &case.legal {
        let Ok(mv) = reference.parse_move(text) else {
            resolve(
                &reference,
                "legal",
                std::slice::from_ref(text),
                &mut run.failures,
            );
            continue;
        };
        match ask!(engine.play(text)) {
            Ok(()) => ask!(engine.undo()),
            Err(reason) => run.failures.push(CaseFailure::LegalRefused {
                text: text.clone(),
                mv,
                reason,
            }),
        }
    }
    // 5. each `illegal` move refused (with its clause, when the engine
    // cites clauses), and the game unchanged after the refusals
    for entry in &case.illegal {
        match ask!(engine.play(&entry.mv)) {
            Ok(()) => {
                run.failures.push(CaseFailure::IllegalAccepted {
                    text: entry.mv.clone(),
                    clause: entry.clause.clone(),
                });
                ask!(engine.undo());
            }
            Err(reason) => {
                // an unreadable move's notation error names its clause too
                // (§9.14)
                if engine.cites_clauses()
                    && !cited_clauses(&reason).contains(&entry.clause.as_str())
                {
                    run.failures.push(CaseFailure::WrongClause {
                        text: entry.mv.clone(),
                        clause: entry.clause.clone(),
                        reason,
                    });
                }
            }
        }
    }
    if !case.illegal.is_empty() {
        let after = ask!(engine.valid_moves());
        let after: BTreeSet<Move> = after
            .iter()
            .filter_map(|t| reference.parse_move(t).ok())
            .collect();
        if after != listed {
            run.failures.push(CaseFailure::RefusalChangedGame);
        }
    }
    // 6. the state
    if let Some(expected) = expected_state {
        let found = ask!(engine.state());
        if found != expected {
            run.failures.push(CaseFailure::State { expected, found });
        }
    }
    // 7. perft
    for (i, &expected) in case.perft.iter().enumerate() {
        let depth = i as u32 + 1;
        match ask!(engine.perft(depth)) {
            Ok(found) if found == expected => {}
            Ok(found) => run.failures.push(CaseFailure::Perft {
                depth,
                expected,
                found,
            }),
            Err(reason) => {
                run.skipped.push(format!("perft {depth}: {reason}"));
                break;
            }
        }
    }
    Ok(run)
}

/// The case's MoveStrings of `field` resolved in the reference position;
/// one that does not resolve is a failure of the case itself.
fn resolve(
    reference: &ReferenceEngine,
    field: &'static str,
    texts: &[String],
    failures: &mut Vec<CaseFailure>,
) -> BTreeSet<Move> {
    let mut set = BTreeSet::new();
    for text in texts {
        match reference.parse_move(text) {
            Ok(mv) => {
                set.insert(mv);
            }
            Err(e) => failures.push(CaseFailure::Unresolvable {
                field,
                text: text.clone(),
                error: e.to_string(),
            }),
        }
    }
    set
}

/// Steps 2 and 3 of spec/cases.md: the engine's legal moves (`listed`, in
/// the scope of `piece`; `unreadable`, its texts that name no move) against
/// `valid-moves`, `valid-moves-include` and `valid-moves-exclude`.
fn move_list_failures(
    reference: &ReferenceEngine,
    case: &Case,
    listed: &BTreeSet<Move>,
    unreadable: &[String],
) -> Vec<CaseFailure> {
    let mut failures = Vec::new();
    if let Some(expected) = &case.valid_moves {
        let expected = resolve(reference, "valid-moves", expected, &mut failures);
        let missing: BTreeSet<Move> = expected.difference(listed).copied().collect();
        let extra: BTreeSet<Move> = listed.difference(&expected).copied().collect();
        if !missing.is_empty() {
            failures.push(CaseFailure::Missing {
                field: "valid-moves",
                moves: missing,
            });
        }
        if !extra.is_empty() || !unreadable.is_empty() {
            failures.push(CaseFailure::Extra {
                field: "valid-moves",
                moves: extra,
                unreadable: unreadable.to_vec(),
            });
        }
    }
    let include = resolve(
        reference,
        "valid-moves-include",
        &case.valid_moves_include,
        &mut failures,
    );
    let missing: BTreeSet<Move> = include.difference(listed).copied().collect();
    if !missing.is_empty() {
        failures.push(CaseFailure::Missing {
            field: "valid-moves-include",
            moves: missing,
        });
    }
    let exclude = resolve(
        reference,
        "valid-moves-exclude",
        &case.valid_moves_exclude,
        &mut failures,
    );
    let present: BTreeSet<Move> = exclude.intersection(listed).copied().collect();
    if !present.is_empty() {
        failures.push(CaseFailure::Extra {
            field: "valid-moves-exclude",
            moves: present,
            unreadable: Vec::new(),
        });
    }
    failures
}
