//! What the rules say about the moves of a finding: the reference engine's
//! verdict on each (as `hive-oracle explain` says it), the clauses behind
//! them, their pattern (each move's bug and form, for readers), and the
//! *reason* of each move, which groups findings into causes: the clauses
//! that forbid an illegal move, or the clause that grants a legal one
//! ([`reason_of`]), and for an illegal move the class of its refusal
//! ([`refusal_class`]). A reason never names the bug that moves, so one
//! bug of an engine shown by a queen in one game and by a mosquito in
//! another is one cause.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use hive_oracle_rules::core::{Move, Piece};
use hive_oracle_rules::explain::{grants, verdict};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The reference engine's verdict on one move of a finding.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct MoveVerdict {
    /// The move in canonical notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Whether the rules allow it.
    pub legal: bool,
    /// Why it is illegal, or what makes it legal, in sentences.
    pub reason: String,
    /// The clauses behind the verdict.
    pub clauses: Vec<String>,
}

/// At most this many moves of one finding get a verdict.
pub const MAX_VERDICTS: usize = 16;

/// The verdicts on `moves` in `game`, in the order of their names.
pub(crate) fn verdicts_of(game: &ReferenceEngine, moves: &BTreeSet<Move>) -> Vec<MoveVerdict> {
    let mut named: Vec<(String, Move)> =
        moves.iter().map(|&mv| (game.move_string(mv), mv)).collect();
    named.sort();
    named
        .into_iter()
        .take(MAX_VERDICTS)
        .map(|(name, mv)| {
            let v = verdict(game, mv);
            let mut clauses: Vec<String> = Vec::new();
            let mut texts: Vec<String> = Vec::new();
            for fact in &v.facts {
                for c in &fact.clauses {
                    if !clauses.iter().any(|x| x == c) {
                        clauses.push(c.to_string());
                    }
                }
                texts.push(fact.text.clone());
            }
            let reason = match v.refusal {
                Some(refusal) => refusal,
                None => texts.join("; "),
            };
            MoveVerdict {
                mv: name,
                legal: v.legal,
                reason,
                clauses,
            }
        })
        .collect()
}

/// The reason of `mv` in `game`, which a cause is keyed by: for an illegal
/// move the clauses of the reference's refusal (why the rules forbid it);
/// for a legal move the clause that grants each way to make it (the
/// bug's movement, a throw, a placement), each once, in order.
pub(crate) fn reason_of(game: &ReferenceEngine, mv: Move) -> Vec<String> {
    if let Err(refusal) = game.clone().play(mv) {
        return refusal.clauses.iter().map(|c| c.to_string()).collect();
    }
    let mut out: Vec<String> = Vec::new();
    for way in grants(game, mv) {
        let granting = way.iter().flat_map(|fact| fact.clauses.iter()).next();
        if let Some(clause) = granting {
            if !out.iter().any(|c| c == clause) {
                out.push(clause.to_string());
            }
        }
    }
    out
}

/// The pattern of the cause of a covered piece named as the mover,
/// whichever piece it is and whoever owns it (§9.25: the piece named moves,
/// §5.2: a covered piece cannot).
pub(crate) const COVERED_MOVER: &str = "covered piece named as the mover";

/// The class of a move in dispute, which keys its cause with its kind:
/// a pattern and clauses that never name the bug that moves. An illegal
/// move: [`COVERED_MOVER`] with §5.2 and §9.25, `pass`, else `illegal move`
/// with the clauses of the refusal ([`reason_of`]); a legal move: `legal
/// move` with the clauses that grant it.
pub(crate) fn move_class(game: &ReferenceEngine, mv: Move) -> (String, Vec<String>) {
    let covered = |piece: Piece| {
        let board = game.board();
        board
            .location(piece)
            .is_some_and(|at| board.stack(at).last() != Some(&piece))
    };
    match mv {
        Move::Move { piece, .. } if covered(piece) => {
            // §9.25 the piece named moves; §5.2 a covered piece cannot
            (
                COVERED_MOVER.to_string(),
                vec!["§5.2".to_string(), "§9.25".to_string()],
            )
        }
        Move::Pass => ("pass".to_string(), reason_of(game, mv)),
        _ if game.clone().play(mv).is_ok() => ("legal move".to_string(), reason_of(game, mv)),
        _ => ("illegal move".to_string(), reason_of(game, mv)),
    }
}
