//! Baselines: the findings a project has accepted, so that its CI fails
//! only on new ones. `check --write-baseline FILE` writes the causes of a
//! run; `check --baseline FILE` marks the causes it lists as known (shown,
//! not failing). A cause is named by its fingerprint (kind, clauses and
//! disputed-move pattern, [`crate::check::finding::Finding::fingerprint`]),
//! which does not depend on the position, the seed or the game.

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::check::finding::FindingGroup;

/// The format version written in baseline files.
pub(crate) const BASELINE_VERSION: u32 = 1;

/// One accepted cause.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BaselineEntry {
    pub(crate) fingerprint: String,
    /// An example, for readers: the detail of its shortest instance.
    #[serde(default)]
    pub example: String,
}

/// A baseline file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Baseline {
    /// The format version of the file.
    pub version: u32,
    /// The accepted causes, one entry each.
    pub findings: Vec<BaselineEntry>,
    /// The file it was read from, for the report (not written).
    #[serde(skip)]
    pub name: String,
}

impl Baseline {
    /// The baseline of a run's causes.
    pub fn of(groups: &[FindingGroup]) -> Baseline {
        Baseline {
            version: BASELINE_VERSION,
            findings: groups
                .iter()
                .map(|g| BaselineEntry {
                    fingerprint: g.fingerprint.clone(),
                    example: g.shortest.detail.chars().take(300).collect(),
                })
                .collect(),
            name: String::new(),
        }
    }

    /// Reads a baseline file; the error says which file and what is wrong.
    pub fn read(path: &Path) -> Result<Baseline, String> {
        let text = crate::check::corpus::read_regular_file(path)
            .map_err(|e| format!("the baseline: {e}"))?;
        let mut baseline: Baseline = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a baseline file: {e}", path.display()))?;
        if baseline.version != BASELINE_VERSION {
            return Err(format!(
                "{}: baseline version {} (this hive-oracle reads version {BASELINE_VERSION})",
                path.display(),
                baseline.version
            ));
        }
        baseline.name = path.display().to_string();
        Ok(baseline)
    }

    /// The file's text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Whether it lists a cause.
    pub fn contains(&self, fingerprint: &str) -> bool {
        self.findings.iter().any(|e| e.fingerprint == fingerprint)
    }

    /// The entries not among `seen`: fixed, or no longer reached.
    pub(crate) fn unseen<'a>(&self, seen: impl Iterator<Item = &'a str>) -> Vec<String> {
        let seen: BTreeSet<&str> = seen.collect();
        self.findings
            .iter()
            .filter(|e| !seen.contains(e.fingerprint.as_str()))
            .map(|e| e.fingerprint.clone())
            .collect()
    }

    /// Its name and size, for the report.
    pub fn describe(&self) -> String {
        format!("{} ({} entries)", self.name, self.findings.len())
    }
}
