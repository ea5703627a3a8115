//! A game played on the fast engine (the engine under test) and the
//! reference engine (the model) at once, compared at every ply: the walk of
//! the fuzz target `differential`, the differential tests and
//! `hive-oracle selfcheck`, written once. Each caller chooses the moves its
//! own way (bytes, proptest steps, a seeded generator) and reports a failure
//! its own way; what is checked on the way is here.

use std::fmt;

use super::engines::{compare_engines, Disagreement};
use crate::core::view::BoardView;
use crate::core::{notation, GameState, GameType, Hex, Move, Piece, RulesOptions};
use crate::fast::{BrokenInvariant, FastEngine};
use crate::reference::ReferenceEngine;
use crate::rules::{IllegalMove, Rules};

/// What is kept of a position when the game first reaches it, to check
/// that undo comes back to exactly that position.
struct Seen {
    /// The state (§8.8); with the MoveStrings so far it gives the GameString.
    state: GameState,
    /// The legal moves, sorted, as both engines listed them.
    legal: Vec<Move>,
    /// The fast engine's hash.
    hash: u64,
}

/// Both engines in the same game. Every position reached is compared with
/// [`compare_engines`] (legal moves as absolute moves each listed once, §5.9;
/// the state, §8.8; the side to move and the turn, §7.1, §9.18; the history;
/// the GameString, §9.31), and the fast engine's incremental structures are
/// compared with their from-scratch twins (`check_invariants`, the hash
/// included). An undo must come back to the position as it was first
/// reached: the same GameString, legal moves and hash.
///
/// The model's GameString is built from the MoveStrings kept as the game
/// goes, each printed by the model in the position before its move, which
/// is how `Rules::game_string` builds it, without replaying the game at
/// every ply.
///
/// After an `Err` the engines are no longer in step: only
/// [`moves`](LockStep::moves) and [`game_string`](LockStep::game_string),
/// the position that shows the failure, are meaningful.
///
/// ```
/// use hive_oracle_rules::agreement::LockStep;
/// use hive_oracle_rules::core::{GameType, RulesOptions};
///
/// let mut game = LockStep::new(GameType::BASE, RulesOptions::default())?;
/// let first = game.legal()[0];
/// game.play(first, true)?;
/// game.retake()?;
/// game.undo(1)?;
/// assert!(game.moves().is_empty());
/// # Ok::<(), hive_oracle_rules::agreement::LockStepError>(())
/// ```
pub struct LockStep {
    fast: FastEngine,
    model: ReferenceEngine,
    /// The moves from the start to the current position.
    moves: Vec<Move>,
    /// The model's canonical MoveString of each move, in its position.
    names: Vec<String>,
    /// For each move, the piece moved and the cell it came from (movements only).
    origins: Vec<Option<(Piece, Hex)>>,
    /// Each position from the start to the current one, as first reached:
    /// always one more than `moves` (the start), which the lookups rely on.
    seen: Vec<Seen>,
}

/// What an undo failed to bring back, against the position as it was first
/// reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotRestored {
    /// Another GameString; this one was first printed there.
    GameString(String),
    /// Other legal moves.
    LegalMoves,
    /// Another hash of the fast engine.
    Hash {
        /// The hash when the position was first reached.
        first: u64,
        /// The hash after the undo.
        now: u64,
    },
}

impl fmt::Display for NotRestored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRestored::GameString(earlier) => write!(f, "the GameString: was\n  {earlier}"),
            NotRestored::LegalMoves => f.write_str("the legal moves"),
            NotRestored::Hash { first, now } => {
                write!(f, "the hash: {first:#018x} first, {now:#018x} now")
            }
        }
    }
}

/// Where the engines part in a lock-step game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LockStepError {
    /// They disagree on a position ([`compare_engines`]).
    #[error(transparent)]
    Disagree(#[from] Disagreement),
    /// The reference engine refuses a move it listed.
    #[error("the reference refuses its own move {name}: {why}")]
    ReferenceRefuses {
        /// The move, in the model's notation.
        name: String,
        /// Why it says the move is illegal.
        why: IllegalMove,
    },
    /// The fast engine refuses a move both engines list.
    #[error("the fast engine refuses the legal move {name}: {why}")]
    FastRefuses {
        /// The move, in the model's notation.
        name: String,
        /// Why it says the move is illegal.
        why: IllegalMove,
    },
    /// An incremental structure of the fast engine differs from its twin.
    #[error("the fast engine's incremental structures are wrong after {after}: {why}")]
    Invariant {
        /// What was last done: `new_game`, `playing wS1`, `undoing wS1`, `redoing wS1`.
        after: String,
        /// The structure that differs.
        why: BrokenInvariant,
    },
    /// An engine's undo takes back another move than the last one played.
    #[error("undo of {name} on the {engine} returned {got:?}")]
    Undo {
        /// `fast engine` or `reference`.
        engine: &'static str,
        /// The last move played, in the model's notation.
        name: String,
        /// What the undo returned.
        got: Option<Move>,
    },
    /// An undo does not come back to the position as it was first reached.
    #[error("undo of {name} does not restore {what}")]
    NotRestored {
        /// The move undone, in the model's notation.
        name: String,
        /// What differs.
        what: NotRestored,
    },
    /// Playing a move again after undoing it gives another hash.
    #[error("redoing {name} gives another hash")]
    Redo {
        /// The move, in the model's notation.
        name: String,
    },
}

impl LockStep {
    /// Both engines at the start of a new game, compared.
    pub fn new(game_type: GameType, options: RulesOptions) -> Result<LockStep, LockStepError> {
        let mut game = LockStep {
            fast: FastEngine::new_game(game_type, options),
            model: ReferenceEngine::new_game(game_type, options),
            moves: Vec::new(),
            names: Vec::new(),
            origins: Vec::new(),
            seen: Vec::new(),
        };
        game.invariants(|| "new_game".to_string())?;
        let seen = game.compare()?;
        game.seen.push(seen);
        Ok(game)
    }

    /// The legal moves of the position, sorted, as both engines list them.
    pub fn legal(&self) -> &[Move] {
        self.seen.last().map_or(&[], |seen| &seen.legal)
    }

    /// The moves from the start to the current position.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The number of plies played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The reference engine (the model), in the current position.
    pub fn model(&self) -> &ReferenceEngine {
        &self.model
    }

    /// The fast engine, in the current position.
    pub fn fast(&self) -> &FastEngine {
        &self.fast
    }

    /// The model's canonical GameString of the current position (§9.31).
    pub fn game_string(&self) -> String {
        notation::game_string(
            self.model.game_type(),
            self.model.state(),
            self.moves.len(),
            &self.names,
        )
    }

    /// The move that takes the piece the side to move moved two plies ago
    /// back to the cell it came from, if it is legal: a way to make
    /// positions repeat (§8.7.2).
    pub fn taking_back(&self) -> Option<Move> {
        let (piece, from) = (*self.origins.iter().rev().nth(1)?)?;
        let back = Move::Move { piece, to: from };
        self.legal().binary_search(&back).is_ok().then_some(back)
    }

    /// Plays `mv` on both engines: the model checks it; the fast engine
    /// checks it when `checked`, or plays it unchecked (both ways of playing
    /// are exercised). Then the fast engine's invariants and the new
    /// position are compared. When the fast engine refuses the move the
    /// model takes it back, so the position that shows it is the one before.
    pub fn play(&mut self, mv: Move, checked: bool) -> Result<(), LockStepError> {
        let name = self.model.move_string(mv);
        let origin = mv
            .piece()
            .zip(mv.piece().and_then(|p| self.model.board().location(p)));
        if let Err(why) = self.model.play(mv) {
            return Err(LockStepError::ReferenceRefuses { name, why });
        }
        if checked {
            if let Err(why) = self.fast.play(mv) {
                self.model.undo();
                return Err(LockStepError::FastRefuses { name, why });
            }
        } else {
            self.fast.play_unchecked(mv);
        }
        self.moves.push(mv);
        self.origins.push(origin);
        self.names.push(name);
        self.invariants(|| format!("playing {}", self.names[self.names.len() - 1]))?;
        let seen = self.compare()?;
        self.seen.push(seen);
        Ok(())
    }

    /// Undoes the last move and plays it again on the fast engine alone:
    /// the undo must return that move and come back to the position before
    /// it (GameString, legal moves, hash), and playing it again must give
    /// the same hash. Does nothing at the start. When the undo fails, the
    /// model takes the move back too, so the position that shows it is the
    /// one before.
    pub fn retake(&mut self) -> Result<(), LockStepError> {
        let (Some(&mv), Some(name)) = (self.moves.last(), self.names.last()) else {
            return Ok(());
        };
        let name = name.clone();
        let took_back = self.fast_undo(mv, &name).and_then(|()| {
            self.invariants(|| format!("undoing {name}"))?;
            self.fast_restored(self.moves.len() - 1, &name)
        });
        if let Err(why) = took_back {
            self.model.undo();
            self.forget_last();
            return Err(why);
        }
        self.fast.play_unchecked(mv);
        self.invariants(|| format!("redoing {name}"))?;
        if self
            .seen
            .last()
            .is_some_and(|seen| seen.hash != self.fast.hash())
        {
            return Err(LockStepError::Redo { name });
        }
        Ok(())
    }

    /// Undoes `k` plies (fewer at the start) on both engines; each position
    /// on the way back is compared, and must be the one first reached.
    pub fn undo(&mut self, k: usize) -> Result<(), LockStepError> {
        for _ in 0..k {
            let Some(name) = self.undo_both()? else {
                return Ok(());
            };
            let plies = self.moves.len();
            let model_string = self.game_string();
            let agreement = compare_engines(&self.fast, &self.model, &model_string)?;
            self.restored(plies, &name, &agreement.legal, &agreement.game_string)?;
        }
        Ok(())
    }

    /// Undoes the whole game. On the way back the fast engine's positions
    /// must be the ones first reached (GameString, legal moves, hash,
    /// invariants); the model takes the moves back alongside without being
    /// asked for its legal moves again.
    pub fn rewind(&mut self) -> Result<(), LockStepError> {
        while let Some(name) = self.undo_both()? {
            self.fast_restored(self.moves.len(), &name)?;
        }
        Ok(())
    }

    /// Undoes the last move on both engines, each of which must return it,
    /// and checks the fast engine's invariants; the move's name, `None` at
    /// the start.
    fn undo_both(&mut self) -> Result<Option<String>, LockStepError> {
        let (Some(&mv), Some(name)) = (self.moves.last(), self.names.last()) else {
            return Ok(None);
        };
        let name = name.clone();
        let model_undid = self.model.undo();
        let fast_undid = self.fast_undo(mv, &name);
        self.forget_last();
        fast_undid?;
        if model_undid != Some(mv) {
            return Err(LockStepError::Undo {
                engine: "reference",
                name,
                got: model_undid,
            });
        }
        self.invariants(|| format!("undoing {name}"))?;
        Ok(Some(name))
    }

    /// The fast engine's undo, which must return `mv`.
    fn fast_undo(&mut self, mv: Move, name: &str) -> Result<(), LockStepError> {
        let got = self.fast.undo();
        if got == Some(mv) {
            return Ok(());
        }
        Err(LockStepError::Undo {
            engine: "fast engine",
            name: name.to_string(),
            got,
        })
    }

    /// Drops the records of the last move.
    fn forget_last(&mut self) {
        self.moves.pop();
        self.names.pop();
        self.origins.pop();
        self.seen.pop();
    }

    /// Compares the engines in the current position; what is kept of it.
    fn compare(&self) -> Result<Seen, Disagreement> {
        let agreement = compare_engines(&self.fast, &self.model, &self.game_string())?;
        Ok(Seen {
            state: self.model.state(),
            legal: agreement.legal,
            hash: self.fast.hash(),
        })
    }

    /// The fast engine's invariants; `after` names what was last done.
    fn invariants(&self, after: impl FnOnce() -> String) -> Result<(), LockStepError> {
        self.fast
            .check_invariants()
            .map_err(|why| LockStepError::Invariant {
                after: after(),
                why,
            })
    }

    /// Checks the fast engine alone against position `plies` as first reached.
    fn fast_restored(&self, plies: usize, name: &str) -> Result<(), LockStepError> {
        let mut legal = self.fast.legal_moves();
        legal.sort();
        self.restored(plies, name, &legal, &self.fast.game_string())
    }

    /// Checks that the fast engine, with these legal moves (sorted) and this
    /// GameString, is in position `plies` as first reached; `name` is the
    /// move just undone.
    fn restored(
        &self,
        plies: usize,
        name: &str,
        legal: &[Move],
        game_string: &str,
    ) -> Result<(), LockStepError> {
        let not_restored = |what| LockStepError::NotRestored {
            name: name.to_string(),
            what,
        };
        let seen = &self.seen[plies];
        let earlier = notation::game_string(
            self.model.game_type(),
            seen.state,
            plies,
            &self.names[..plies],
        );
        if game_string != earlier {
            return Err(not_restored(NotRestored::GameString(earlier)));
        }
        if legal != seen.legal {
            return Err(not_restored(NotRestored::LegalMoves));
        }
        let now = self.fast.hash();
        if now != seen.hash {
            return Err(not_restored(NotRestored::Hash {
                first: seen.hash,
                now,
            }));
        }
        Ok(())
    }
}
