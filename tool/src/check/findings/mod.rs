//! What a check finds and reports: each disagreement, its cause, the
//! report that holds them, and the causes a project already knows. These
//! are the types of the JSON report (`spec/check-report.schema.json`),
//! rendered by [`crate::reports::check`].
//!
//! The files, each using only those before it (and the client):
//! `quote` (engine output as reports quote it, reproduce pipes), `verdict`
//! (what the rules say about a finding's moves, [`MoveVerdict`]), `finding`
//! (one disagreement, [`Finding`]), `group` (one cause, each reproducible
//! with one shell pipe, [`FindingGroup`]), `summary` (what a report holds,
//! [`Report`]), `leniency` (which spellings an engine MAY refuse),
//! `baseline` (known causes, [`Baseline`]) and `reproduce` (each proven
//! pipe's input written to a file, with its POSIX shell and PowerShell
//! commands).

pub(crate) mod baseline;
pub(crate) mod finding;
pub(crate) mod group;
pub(crate) mod leniency;
pub(crate) mod quote;
pub(crate) mod reproduce;
pub(crate) mod summary;
pub(crate) mod verdict;

pub use baseline::{
    Baseline, BaselineEntry, BaselineError, MAX_BASELINE_BYTES, MAX_BASELINE_ENTRIES,
};
pub use finding::{fingerprint_of, Finding, Kind, Severity};
pub use group::{FindingGroup, Seen, MAX_SEEN_IN};
pub use reproduce::ReproduceError;
pub use summary::{
    CorpusInfo, EngineInfo, Report, RulesInfo, RunInfo, ShardInfo, Skip, Summary, TestCase,
    Timings, REPORT_FORMAT_VERSION,
};
pub use verdict::{MoveVerdict, MAX_VERDICTS};
