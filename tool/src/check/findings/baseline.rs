//! Baselines: the findings a project has accepted, so that its CI fails
//! only on new ones. `check --write-baseline FILE` writes the causes of a
//! run; `check --baseline FILE` marks the causes it lists as known (shown,
//! not failing, and not shrunk again). A cause is named by its fingerprint
//! ([`crate::check::findings::finding::fingerprint_of`]: kind, clauses and pattern),
//! which does not depend on the position, the seed, the game or the bug
//! that moves; an entry may also name a corpus case, to accept what is
//! seen there only, or everything seen there.
//!
//! Version 1 files (written before the fingerprint told a state claimed
//! apart from another and an illegal move's class apart from its bug) are
//! refused with the command that rewrites them: matching their coarser
//! keys would let a new bug pass as a known one.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use hive_oracle_rules::core::escape_controls;

use crate::check::findings::group::FindingGroup;
use crate::input::{read_regular_file, ReadError};

/// The format version written in baseline files.
pub(crate) const BASELINE_VERSION: u32 = 2;

/// The largest baseline file read, in bytes (4 MiB), and the most entries
/// it may list: a project accepts tens of causes, and a file far larger would
/// flood the report with notes on entries no longer seen.
pub const MAX_BASELINE_BYTES: u64 = 4 << 20;
/// The most entries a baseline file may list (see [`MAX_BASELINE_BYTES`]).
pub const MAX_BASELINE_ENTRIES: usize = 10_000;

/// The start of the note on a baseline entry no cause matched.
pub(crate) const STALE_BASELINE_NOTE: &str = "baseline entry not seen in this run: ";

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
    /// An entry's `case` names no corpus case: a unit (`protocol`, a random
    /// game, a record game), which an entry must not accept wholesale.
    #[error("{}: entry {entry} accepts everything seen in {}, which is not a corpus case: an entry's case is a corpus case's id (FILE.toml::NAME), and what a unit of the check (the protocol unit, a random game, a record game) shows is accepted by its fingerprint only, one cause at a time", .path.display(), escape_controls(&format!("{case:?}")))]
    NotACase {
        /// The file.
        path: PathBuf,
        /// The entry's place in the list, from 1.
        entry: usize,
        /// The case it names.
        case: String,
    },
    /// It was written with the coarser fingerprints of version 1.
    #[error("{}: a version 1 baseline, whose causes are keyed more coarsely than this hive-oracle's (a state without the state claimed, an illegal move by its bug), so a new bug could pass as a known one; rewrite it from a run of the engine it accepts: `hive-oracle check --engine CMD --write-baseline {}` (then review the new file)", .path.display(), .path.display())]
    OldVersion {
        /// The file.
        path: PathBuf,
    },
    /// It was written in another format version.
    #[error("{}: baseline version {version}, which this hive-oracle ({}) does not read (it reads version {BASELINE_VERSION}): use the hive-oracle that wrote it, or rewrite it with `hive-oracle check --engine CMD --write-baseline {}`", .path.display(), env!("CARGO_PKG_VERSION"), .path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it holds.
        version: u32,
    },
}

/// One accepted cause: a fingerprint, a corpus case, or both (the cause
/// as seen in that case only). A cause matches when every place it was
/// seen is the named case.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BaselineEntry {
    /// The cause's fingerprint; empty for every cause of `case`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) fingerprint: String,
    /// A corpus case id: the entry accepts only what is seen there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
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
    /// The ids of the corpus cases of the run: an entry naming a case
    /// matches only one of them (not written).
    #[serde(skip)]
    pub(crate) corpus_cases: BTreeSet<String>,
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
                    case: None,
                    example: g.shortest.detail.chars().take(300).collect(),
                })
                .collect(),
            name: String::new(),
            corpus_cases: BTreeSet::new(),
        }
    }

    /// The baseline for a run of the corpus cases `case_ids`: its entries
    /// that name a case match only these.
    pub(crate) fn for_corpus(mut self, case_ids: impl IntoIterator<Item = String>) -> Baseline {
        self.corpus_cases = case_ids.into_iter().collect();
        self
    }

    /// Reads a baseline file; the error says which file and what is wrong.
    pub fn read(path: &Path) -> Result<Baseline, BaselineError> {
        let text = read_regular_file(path, MAX_BASELINE_BYTES).map_err(BaselineError::File)?;
        let mut baseline: Baseline =
            serde_json::from_str(&text).map_err(|source| BaselineError::NotABaseline {
                path: path.to_path_buf(),
                source,
            })?;
        if baseline.version == 1 {
            return Err(BaselineError::OldVersion {
                path: path.to_path_buf(),
            });
        }
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
        if let Some((i, entry)) = baseline
            .findings
            .iter()
            .enumerate()
            .find(|(_, e)| e.case.as_deref().is_some_and(|c| !is_case_id(c)))
        {
            return Err(BaselineError::NotACase {
                path: path.to_path_buf(),
                entry: i + 1,
                case: entry.case.clone().unwrap_or_default(),
            });
        }
        baseline.name = path.display().to_string();
        Ok(baseline)
    }

    /// The file's text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Whether it lists a cause by its fingerprint alone (whatever the
    /// case): then a finding of it is not shrunk again.
    pub fn contains(&self, fingerprint: &str) -> bool {
        self.findings
            .iter()
            .any(|e| e.case.is_none() && e.fingerprint == fingerprint)
    }

    /// Whether it accepts the cause `group`.
    pub(crate) fn accepts(&self, group: &FindingGroup) -> bool {
        self.findings
            .iter()
            .any(|e| e.matches(group, &self.corpus_cases))
    }

    /// The entries that match none of `groups`: fixed, or no longer
    /// reached.
    pub(crate) fn unseen(&self, groups: &[FindingGroup]) -> Vec<String> {
        self.findings
            .iter()
            .filter(|e| !groups.iter().any(|g| e.matches(g, &self.corpus_cases)))
            .map(BaselineEntry::describe)
            .collect()
    }

    /// Its name and size, for the report.
    pub fn describe(&self) -> String {
        format!("{} ({} entries)", self.name, self.findings.len())
    }
}

/// Whether `name` has the shape of a corpus case's id, `FILE.toml::NAME`
/// (spec/cases.md), which the names of the other units do not have
/// (`protocol`, `game 3 (Base)`, `FILE game 2`). An entry of that shape
/// still matches only a case of the corpus the check runs
/// ([`Baseline::for_corpus`]), never a record file named to look like one.
fn is_case_id(name: &str) -> bool {
    name.split_once("::")
        .is_some_and(|(file, case)| file.ends_with(".toml") && !case.is_empty())
}

impl BaselineEntry {
    /// Whether it accepts `group`: the same fingerprint (when it names
    /// one), and every instance in its case (when it names one, a case of
    /// `corpus_cases`).
    fn matches(&self, group: &FindingGroup, corpus_cases: &BTreeSet<String>) -> bool {
        let cause = self.fingerprint.is_empty() || self.fingerprint == group.fingerprint;
        let case = self.case.as_ref().is_none_or(|case| {
            corpus_cases.contains(case) && group.seen_in.iter().all(|seen| &seen.test == case)
        });
        cause && case && !(self.fingerprint.is_empty() && self.case.is_none())
    }

    /// Its fingerprint and case, for notes.
    fn describe(&self) -> String {
        match &self.case {
            Some(case) if self.fingerprint.is_empty() => format!("every cause of case {case}"),
            Some(case) => format!("{} in case {case}", self.fingerprint),
            None => self.fingerprint.clone(),
        }
    }
}
