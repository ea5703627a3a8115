//! The one runner of the case corpus: every assertion of spec/cases.md,
//! in the order it gives, on any [`CaseEngine`], and what an engine fails.
//! Texts are resolved in the case's position by the reference engine, so
//! that the engine's own spelling never matters (§9.23).

use std::collections::BTreeSet;

use thiserror::Error;

use super::case::Case;
use super::engine::{CaseEngine, Refused};
use crate::core::notation::{parse_game_state, parse_piece, NotationError};
use crate::core::{GameState, Move, RulesOptions};
use crate::reference::ReferenceEngine;
use crate::rules::{LoadError, Rules};

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

/// Why a case cannot be run at all: the case itself is broken.
#[derive(Debug, Error)]
pub enum CaseError {
    /// Its GameString does not load under its options.
    #[error("the game does not load on the reference engine: {0}")]
    GameDoesNotLoad(LoadError),
    /// Its `piece` is not a piece name (§9.19).
    #[error("bad `piece`: {0}")]
    BadPiece(NotationError),
    /// Its `state` is not a GameStateString (§9.17).
    #[error("bad `state`: {0}")]
    BadState(NotationError),
}

/// What the runner reads from a case before asking the engine anything.
struct Setup {
    options: RulesOptions,
    /// The case's position on the reference engine, which resolves texts.
    reference: ReferenceEngine,
    /// The piece the move assertions are restricted to.
    piece: Option<crate::core::Piece>,
    /// The state the case expects.
    expected_state: Option<GameState>,
}

impl Setup {
    fn of(case: &Case) -> Result<Setup, CaseError> {
        let options: RulesOptions = case.options.into();
        let reference =
            ReferenceEngine::load_with(&case.game, options).map_err(CaseError::GameDoesNotLoad)?;
        let piece = match case.piece.as_deref().map(parse_piece) {
            None => None,
            Some(Ok(piece)) => Some(piece),
            Some(Err(e)) => return Err(CaseError::BadPiece(e)),
        };
        let expected_state = match case.state.as_deref().map(parse_game_state) {
            None => None,
            Some(Ok(state)) => Some(state),
            Some(Err(e)) => return Err(CaseError::BadState(e)),
        };
        Ok(Setup {
            options,
            reference,
            piece,
            expected_state,
        })
    }
}

/// Runs one case on `engine`: every assertion of spec/cases.md, in the order
/// it gives. Texts are resolved in the case's position by the reference
/// engine, so that the engine's own spelling never matters (§9.23). `Err`
/// when the case itself is broken (its game does not load on the reference
/// engine, a bad `piece` or `state`).
///
/// The built-in corpus on the fast engine; for an engine of your own,
/// implement [`CaseEngine`] on its move strings (`examples/own_engine.rs`).
///
/// ```
/// use hive_oracle_rules::cases::{builtin_corpus, run_case, RulesEngine};
/// use hive_oracle_rules::fast::FastEngine;
///
/// let mut engine = RulesEngine::<FastEngine>::refusing_only();
/// for loaded in builtin_corpus()? {
///     let run = run_case(&mut engine, &loaded.case)?;
///     assert!(run.passed(), "{}: {:?}", loaded.id(), run.failures);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_case<E: CaseEngine>(
    engine: &mut E,
    case: &Case,
) -> Result<CaseRun<E::Error>, CaseError> {
    let setup = Setup::of(case)?;
    let mut run = CaseRun {
        failures: Vec::new(),
        skipped: Vec::new(),
        stopped: None,
    };
    if let Err(e) = run_steps(engine, case, &setup, &mut run) {
        run.stopped = Some(e);
    }
    Ok(run)
}

/// The steps of spec/cases.md; `Err` when talking to the engine failed (the
/// rest is not run).
fn run_steps<E: CaseEngine>(
    engine: &mut E,
    case: &Case,
    setup: &Setup,
    run: &mut CaseRun<E::Error>,
) -> Result<(), E::Error> {
    // 1. load
    if let Err(Refused(reason)) = engine.load(&case.game, setup.options)? {
        run.failures.push(CaseFailure::LoadRefused { reason });
        return Ok(());
    }
    let listed = compare_valid_moves(engine, case, setup, &mut run.failures)?;
    play_legal_moves(engine, case, &setup.reference, &mut run.failures)?;
    refuse_illegal_moves(engine, case, &setup.reference, &listed, &mut run.failures)?;
    // 6. the state
    if let Some(expected) = setup.expected_state {
        let found = engine.state()?;
        if found != expected {
            run.failures.push(CaseFailure::State { expected, found });
        }
    }
    count_perft(engine, case, run)
}

/// Steps 2 and 3: the legal moves, restricted to `piece`, against the
/// case's move lists. Returns every move the engine lists (in any scope).
fn compare_valid_moves<E: CaseEngine>(
    engine: &mut E,
    case: &Case,
    setup: &Setup,
    failures: &mut Vec<CaseFailure>,
) -> Result<BTreeSet<Move>, E::Error> {
    let in_scope = |mv: &Move| setup.piece.is_none() || mv.piece() == setup.piece;
    let texts = engine.valid_moves()?;
    let mut unreadable = Vec::new();
    let mut listed = BTreeSet::new();
    for text in &texts {
        match setup.reference.parse_move(text) {
            Ok(mv) => {
                listed.insert(mv);
            }
            Err(_) => unreadable.push(text.clone()),
        }
    }
    let listed_in_scope: BTreeSet<Move> = listed.iter().copied().filter(in_scope).collect();
    failures.extend(move_list_failures(
        &setup.reference,
        case,
        &listed_in_scope,
        &unreadable,
    ));
    Ok(listed)
}

/// Step 4: each `legal` move as written, played, then taken back.
fn play_legal_moves<E: CaseEngine>(
    engine: &mut E,
    case: &Case,
    reference: &ReferenceEngine,
    failures: &mut Vec<CaseFailure>,
) -> Result<(), E::Error> {
    for text in &case.legal {
        let Ok(mv) = reference.parse_move(text) else {
            resolve(reference, "legal", std::slice::from_ref(text), failures);
            continue;
        };
        match engine.play(text)? {
            Ok(()) => engine.undo()?,
            Err(Refused(reason)) => failures.push(CaseFailure::LegalRefused {
                text: text.clone(),
                mv,
                reason,
            }),
        }
    }
    Ok(())
}

/// Step 5: each `illegal` move refused (with its clause, when the engine
/// cites clauses), and the game unchanged after the refusals (the same
/// legal moves as `listed`).
fn refuse_illegal_moves<E: CaseEngine>(
    engine: &mut E,
    case: &Case,
    reference: &ReferenceEngine,
    listed: &BTreeSet<Move>,
    failures: &mut Vec<CaseFailure>,
) -> Result<(), E::Error> {
    for entry in &case.illegal {
        match engine.play(&entry.mv)? {
            Ok(()) => {
                failures.push(CaseFailure::IllegalAccepted {
                    text: entry.mv.clone(),
                    clause: entry.clause.clone(),
                });
                engine.undo()?;
            }
            Err(Refused(reason)) => {
                // an unreadable move's notation error names its clause too
                // (§9.14)
                if engine.cites_clauses()
                    && !cited_clauses(&reason).contains(&entry.clause.as_str())
                {
                    failures.push(CaseFailure::WrongClause {
                        text: entry.mv.clone(),
                        clause: entry.clause.clone(),
                        reason,
                    });
                }
            }
        }
    }
    if !case.illegal.is_empty() {
        let after = engine.valid_moves()?;
        let after: BTreeSet<Move> = after
            .iter()
            .filter_map(|t| reference.parse_move(t).ok())
            .collect();
        if after != *listed {
            failures.push(CaseFailure::RefusalChangedGame);
        }
    }
    Ok(())
}

/// Step 7: the perft counts, depth by depth; the first depth the engine
/// cannot count is a skip, and ends the step.
fn count_perft<E: CaseEngine>(
    engine: &mut E,
    case: &Case,
    run: &mut CaseRun<E::Error>,
) -> Result<(), E::Error> {
    for (i, &expected) in case.perft.iter().enumerate() {
        let depth = i as u32 + 1;
        match engine.perft(depth)? {
            Ok(found) if found == expected => {}
            Ok(found) => run.failures.push(CaseFailure::Perft {
                depth,
                expected,
                found,
            }),
            Err(Refused(reason)) => {
                run.skipped.push(format!("perft {depth}: {reason}"));
                break;
            }
        }
    }
    Ok(())
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
