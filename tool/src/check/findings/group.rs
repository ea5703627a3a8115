//! Causes: the findings of one fingerprint (kind, clauses and pattern,
//! [`crate::check::findings::finding::fingerprint_of`]) grouped, shown by the
//! shortest, in the order each cause was first seen.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::check::findings::finding::{Finding, Kind, Severity};

/// One cause: the findings of one fingerprint, shown by the shortest.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct FindingGroup {
    /// The key of the group and of a baseline entry: `KIND [CLAUSES]
    /// PATTERN`, the clauses sorted. It never holds the position, the seed,
    /// the game or the bug that moves. A move in dispute is keyed by its
    /// class (`covered piece named as the mover`, `pass`, `illegal move`,
    /// `legal move`, or none for a `validmoves` difference) and the clauses
    /// that forbid or grant it; a state by where it was printed (`case
    /// ID`, `play`, `newgame`) and the state claimed for the state the rules
    /// give (`play: WhiteWins for InProgress`); a probe by its name.
    pub(crate) fingerprint: String,
    /// The kind of its findings.
    pub kind: Kind,
    /// The severity of its findings.
    pub severity: Severity,
    /// How many times it was seen.
    pub occurrences: usize,
    /// Every place it was seen, in check order: the test unit and the
    /// plies of the position shown there (the text report lists the first
    /// [`MAX_SEEN_IN`]).
    pub seen_in: Vec<Seen>,
    /// Whether the baseline (`--baseline`) lists it: a known finding, which
    /// does not fail the check.
    pub known: bool,
    /// The shortest instance (fewest plies, then first seen).
    pub shortest: Finding,
}

/// One instance of a cause.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Seen {
    /// The test unit.
    pub test: String,
    /// The plies of the position shown (after shrinking, for a random game).
    pub plies: usize,
}

impl Seen {
    fn of(finding: &Finding) -> Seen {
        Seen {
            test: finding.test.clone(),
            plies: finding.plies(),
        }
    }
}

/// The text report lists at most this many instances of a cause.
pub const MAX_SEEN_IN: usize = 10;

/// The tests of a group's instances, for text.
pub(crate) fn seen_text(group: &FindingGroup) -> String {
    let mut out: Vec<String> = group
        .seen_in
        .iter()
        .take(MAX_SEEN_IN)
        .map(|s| format!("{} ({} plies)", s.test, s.plies))
        .collect();
    if group.seen_in.len() > MAX_SEEN_IN {
        out.push(format!("and {} more", group.seen_in.len() - MAX_SEEN_IN));
    }
    out.join("; ")
}

/// Groups findings by fingerprint, in the order each cause was first seen.
pub fn group(findings: Vec<Finding>) -> Vec<FindingGroup> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<String, FindingGroup> = BTreeMap::new();
    for finding in findings {
        let key = finding.fingerprint();
        match groups.get_mut(&key) {
            Some(group) => {
                group.occurrences += 1;
                group.seen_in.push(Seen::of(&finding));
                if finding.plies() < group.shortest.plies() {
                    group.shortest = finding;
                }
            }
            None => {
                order.push(key.clone());
                groups.insert(
                    key.clone(),
                    FindingGroup {
                        fingerprint: key,
                        kind: finding.kind,
                        severity: finding.severity,
                        occurrences: 1,
                        seen_in: vec![Seen::of(&finding)],
                        known: false,
                        shortest: finding,
                    },
                );
            }
        }
    }
    order
        .into_iter()
        .filter_map(|key| groups.remove(&key))
        .collect()
}
