//! How much work one shrink may do, and what a shrink found and cost.

use std::time::Duration;

use hive_oracle_rules::core::Move;

/// How much work one shrink may do.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Candidates shown to the predicate (each costs the engine under
    /// check a `newgame` and a question).
    pub(crate) predicate_calls: usize,
    /// Candidates built and replayed by the oracle, legal or not.
    pub candidates: usize,
    /// Positions scored by the rebuild search.
    pub positions: usize,
    /// A wall-clock safety cap, far above the normal cost of a shrink (on
    /// our own engine a shrink takes 0.02 to 4 s): it only stops a shrink
    /// against an engine that answers very slowly, and then
    /// [`Shrunk::capped`] says so, because the result then depends on the
    /// machine. The budgets above, which count work, decide every normal
    /// shrink, so that its result is the same on every machine.
    pub(crate) safety_cap: Duration,
}

impl Budget {
    /// The budget for a finding that costs the engine a timeout each time
    /// it is shown again: a few questions only.
    pub(crate) fn for_timeouts() -> Budget {
        Budget {
            predicate_calls: 6,
            ..Budget::default()
        }
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            predicate_calls: 600,
            candidates: 30_000,
            positions: 2_000_000,
            safety_cap: Duration::from_secs(300),
        }
    }
}

/// The result of a shrink, with what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shrunk {
    /// The shortest game found that still shows the finding.
    pub moves: Vec<Move>,
    /// The focus move, renamed and translated with the game.
    pub focus: Option<Move>,
    /// Candidates shown to the predicate.
    pub(crate) predicate_calls: usize,
    /// Candidates built (legal or not).
    pub candidates: usize,
    /// Positions scored by the rebuild search.
    pub positions: usize,
    /// Whether the search stopped on its budget (or on an abort) rather than
    /// because nothing more could be removed.
    pub(crate) exhausted: bool,
    /// Whether the wall-clock safety cap stopped it (see
    /// [`Budget::safety_cap`]).
    pub(crate) capped: bool,
}
