//! The rulings of `spec/rulings.md` an explanation attaches: each ruling
//! named by a clause the facts cite, once, and only where the ruling's
//! question is the move's (the beetle's gate ruling for a beetle's step, not
//! for a ladybug's walk or a throw citing the same §5.6).

use std::collections::BTreeSet;

use crate::clauses::{clause_ruling, Ruling};
use crate::core::Move;
use crate::reference::facts::Fact;
use crate::reference::Position;

/// The rulings of `spec/rulings.md` behind the clauses the facts cite, each
/// once, in the order first cited: its anchor and its one-line summary, so
/// that a reader sees how the project decided where rule texts disagree.
/// Only a ruling whose question is this move's is attached
/// ([`ruling_in_question`]): the beetle's gate ruling for a beetle's step,
/// not for a ladybug's walk or a throw that cites the same §5.6.
pub(super) fn rulings(position: &Position, facts: &[Fact]) -> Vec<Fact> {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut out = Vec::new();
    for &clause in facts.iter().flat_map(|f| f.clauses.iter()) {
        let Some(ruling) =
            clause_ruling(clause).and_then(|r| ruling_in_question(position, facts, r))
        else {
            continue;
        };
        if seen.insert(ruling.anchor) {
            out.push(Fact::new(
                &[clause],
                format!("ruling rulings.md#{}: {}", ruling.anchor, ruling.summary),
            ));
        }
    }
    out
}

/// The ruling to attach for `ruling`, named by a clause the facts cite,
/// when its question is this move's: the beetle-gate ruling (its question:
/// does freedom to move bind the beetle?) only when the facts judge a
/// beetle's step (§6.2.1, §6.2.2, a mosquito moving as one included); the
/// just-placed ruling on §5.10 only when the immune piece was placed last
/// turn, and the ruling that a throw moves the thrown piece when it was
/// thrown. `None` when the ruling's question is not this move's.
fn ruling_in_question(position: &Position, facts: &[Fact], ruling: Ruling) -> Option<Ruling> {
    let cites = |clause: &str| facts.iter().any(|f| f.clauses.contains(&clause));
    match ruling.anchor {
        "beetle-height-gates" => (cites("§6.2.1") || cites("§6.2.2")).then_some(ruling),
        "just-placed-immunity" => match position.last_move() {
            Some(Move::Place { .. }) => Some(ruling),
            // §6.8.7 the piece immune after a throw is the thrown one
            _ if position.immune_piece_was_thrown() => clause_ruling("§6.8.7"),
            _ => None,
        },
        _ => Some(ruling),
    }
}
