//! Baselines: the findings a project has accepted, so that its CI fails
//! only on new ones. `check --write-baseline FILE` writes the causes of a
//! run; `check --baseline FILE` marks the causes it lists as known (shown,
//! not failing). A cause is named by its fingerprint (kind, clauses and
//! disputed-move pattern, [`crate::check::finding::Finding::fingerprint`]),
//! which does not depend on the position, the seed or the game.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::cases::{read_regular_file, ReadError};
use crate::check::group::FindingGroup;

/// The format version written in baseline files.
pub(crate) const BASELINE_VERSION: u32 = 1;

/// The largest baseline file read, in bytes (4 MiB), and the most entries
/// it may list: a project accepts tens of causes, and a file far larger would
/// flood the report with notes on entries no longer seen.
pub const MAX_BASELINE_BYTES: u64 = 4 << 20;
/// The most entries a baseline file may list (see [`MAX_BASELINE_BYTES`]).
pub const MAX_BASELINE_ENTRIES: usize = 10_000;

/// Why a baseline file cannot be used.
#[derive(Debug, Error)]
pub enum BaselineError {
    /// The file cannot be read (regular files only).
    #[error("the baseline: {0}")]
    File(ReadError),
    /// Its text is not a baseline.
    #[error("{}: not a baseline file: {source}", .path.display())]
    NotABaseline {
        /// The file.
        path: PathBuf,
        /// What the JSON reader says.
        source: serde_json::Error,
    },
    /// It lists more than [`MAX_BASELINE_ENTRIES`] entries.
    #[error("{}: the baseline lists {entries} entries; the limit is {MAX_BASELINE_ENTRIES}", .path.display())]
    TooManyEntries {
        /// The file.
        path: PathBuf,
        /// How many entries it lists.
        entries: usize,
    },
    /// It was written in another format version.
    #[error("{}: baseline version {version} (this hive-oracle reads version {BASELINE_VERSION})", .path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it holds.
        version: u32,
    },
}

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
    pub fn read(path: &Path) -> Result<Baseline, BaselineError> {
        let text = read_regular_file(path, MAX_BASELINE_BYTES).map_err(BaselineError::File)?;
        let mut baseline: Baseline =
            serde_json::from_str(&text).map_err(|source| BaselineError::NotABaseline {
                path: path.to_path_buf(),
                source,
            })?;
        if baseline.version != BASELINE_VERSION {
            return Err(BaselineError::Version {
                path: path.to_path_buf(),
                version: baseline.version,
            });
        }
        if baseline.findings.len() > MAX_BASELINE_ENTRIES {
            return Err(BaselineError::TooManyEntries {
                path: path.to_path_buf(),
                entries: baseline.findings.len(),
            });
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
