//! What the rules say about the moves of a finding: the reference engine's
//! verdict on each (as `hive-oracle explain` says it), the clauses behind
//! them, and their pattern (each move's bug and form), which groups
//! findings into causes.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::{Move, Piece};
use crate::explain::verdict;
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// The reference engine's verdict on one move of a finding.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
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

/// The pattern of a set of moves: each move's bug and form, deduplicated.
pub(crate) fn move_pattern(game: &ReferenceEngine, moves: &BTreeSet<Move>) -> String {
    let letter = |piece: Piece| piece.bug.letter();
    let forms: BTreeSet<String> = moves
        .iter()
        .map(|&mv| match mv {
            Move::Pass => "pass".to_string(),
            Move::Place { piece, .. } => format!("{} place", letter(piece)),
            Move::Move { piece, to } => {
                let climbs = game.board().height(to) > 0;
                let form = if climbs { "climb" } else { "move" };
                format!("{} {form}", letter(piece))
            }
        })
        .collect();
    forms.into_iter().collect::<Vec<_>>().join(", ")
}

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

/// The clauses behind the verdict on each move (at most eight moves),
/// deduplicated, in order.
pub(crate) fn clauses_of(game: &ReferenceEngine, moves: &BTreeSet<Move>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for &mv in moves.iter().take(8) {
        let v = verdict(game, mv);
        let mut cited: Vec<&str> = Vec::new();
        if !v.legal {
            cited.extend(
                game.clone()
                    .play(mv)
                    .err()
                    .into_iter()
                    .flat_map(|e| e.clauses),
            );
        }
        cited.extend(v.facts.iter().flat_map(|f| f.clauses.iter().copied()));
        for clause in cited {
            if !out.iter().any(|c| c == clause) {
                out.push(clause.to_string());
            }
        }
    }
    out
}
