//! Merging the reports of a sharded check (`check --shard I/N`, then
//! `hive-oracle check-merge A.json B.json...`) into the report the
//! unsharded run gives, apart from the timings and the run parameters.
//!
//! Every shard computes the whole list of units (the protocol unit, the
//! corpus cases, the random games, the record games) and runs the units
//! whose position `k` in it has `k mod N = I - 1` ([`Shard::holds`]); its
//! report lists every unit's name and the test units it ran
//! ([`ShardInfo`](crate::check::findings::ShardInfo)). Units are independent (each starts with `newgame`), so
//! the merge only puts the shards' results back in unit order: the counts
//! summed, the causes of one fingerprint joined (every instance in unit
//! order, the shortest kept, the causes in the order first seen), the
//! skips and the test units in unit order, the notes of every shard once.
//!
//! Reports that do not come from one check are refused: another engine,
//! other options, another seed or version, another list of units, another
//! shard count, a shard given twice or missing ([`MergeError`]).
//!
//! One thing is not restored: a shard gives up on an engine after a streak
//! of failed units *of its own*, so a merged report of an engine that
//! became unusable can list other units as not run than the unsharded run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use thiserror::Error;

use crate::check::findings::baseline::STALE_BASELINE_NOTE;
use crate::check::findings::group::{FindingGroup, Seen};
use crate::check::findings::quote::escape_controls;
use crate::check::findings::summary::{
    count_causes, incompleteness, is_derived_incompleteness, passes, Report, Skip, TestCase,
    REPORT_FORMAT_VERSION,
};
use crate::check::given::shard::{Shard, MAX_SHARDS};
use crate::input::read_regular_file;
use crate::reports::frame::{self, VersionProblem};

/// Why shard reports cannot be merged.
#[derive(Debug, Error)]
pub enum MergeError {
    /// No report given.
    #[error("no report to merge: give the JSON reports of every shard")]
    NoReport,
    /// A report of a format version this hive-oracle does not read: another
    /// major version, or none (written before reports had one).
    #[error("{file}: {found}; this hive-oracle ({}) reads check reports of format {reads}: merge them with the hive-oracle that wrote them, or run the shards again with this one", env!("CARGO_PKG_VERSION"))]
    FormatVersion {
        /// The file.
        file: String,
        /// What it holds ("format_version 2.0", "no format_version").
        found: String,
        /// The format versions this hive-oracle reads ("1.x (now 1.0)").
        reads: String,
    },
    /// A file is not a JSON check report.
    #[error("{file}: not a JSON report of `hive-oracle check` (--format json): {source}")]
    NotAReport {
        /// The file.
        file: String,
        /// Why.
        source: serde_json::Error,
    },
    /// A report file that is not a regular file, is too large or cannot be
    /// read.
    #[error("{file}: cannot read: {why}")]
    Unreadable {
        /// The file.
        file: String,
        /// Why.
        why: String,
    },
    /// A shard's fields that no check writes: a slice outside `1..=N`, more
    /// than [`MAX_SHARDS`] slices, a test of a unit that is not the shard's.
    #[error("{file}: not a report `check --shard` writes: {why}")]
    Forged {
        /// The file.
        file: String,
        /// What is wrong.
        why: String,
    },
    /// A report of a check run without `--shard`.
    #[error("{file}: not a shard's report: the check was run without --shard I/N")]
    NotAShard {
        /// The file.
        file: String,
    },
    /// Two reports that are not from one check.
    #[error("{file} and {first} are not shards of one check: their {field} differ")]
    Differs {
        /// The first report.
        first: String,
        /// The report that differs from it.
        file: String,
        /// What differs.
        field: String,
    },
    /// A shard given twice.
    #[error("shard {shard} is given twice: {first} and {second}")]
    Duplicate {
        /// The shard.
        shard: Shard,
        /// The first report of it.
        first: String,
        /// The second.
        second: String,
    },
    /// Shards missing.
    #[error("shard(s) {missing} of {count} missing: every shard's report is needed")]
    Missing {
        /// The shards missing, as `2, 5`.
        missing: String,
        /// The shard count.
        count: usize,
    },
}

/// The largest report `check-merge` reads (256 MiB): a shard's report
/// holds its findings' shortest and a few more of each cause, tens of KiB
/// to a few MiB for a check of a day.
pub const MAX_REPORT_BYTES: u64 = 256 << 20;

/// Reads a JSON report written by `check --format json`: a regular file of
/// at most [`MAX_REPORT_BYTES`] (a FIFO or `/dev/zero` is refused unread,
/// by the tool's one file reader).
pub fn read_report(path: &Path) -> Result<Report, MergeError> {
    let file = path.display().to_string();
    let text =
        read_regular_file(path, MAX_REPORT_BYTES).map_err(|error| MergeError::Unreadable {
            file: file.clone(),
            why: error.why.to_string(),
        })?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|source| MergeError::NotAReport {
            file: file.clone(),
            source,
        })?;
    check_format_version(&file, &value)?;
    serde_json::from_value(value).map_err(|source| MergeError::NotAReport { file, source })
}

/// Refuses a report whose `format_version` has another major version than
/// [`REPORT_FORMAT_VERSION`] (its fields may mean something else), or has
/// none ([`frame::check_format_version`]); a newer minor version is read,
/// its new fields ignored.
fn check_format_version(file: &str, report: &serde_json::Value) -> Result<(), MergeError> {
    let refused = |found: String| MergeError::FormatVersion {
        file: file.to_string(),
        found,
        reads: frame::readable_versions(REPORT_FORMAT_VERSION),
    };
    match frame::check_format_version(report, REPORT_FORMAT_VERSION) {
        Ok(()) => Ok(()),
        // a report of 0.2.0 has a run and a summary but no version
        Err(VersionProblem::Missing) if is_unversioned_report(report) => Err(refused(
            "no format_version (a report of hive-oracle 0.2.0 or earlier)".to_string(),
        )),
        // not a report at all: the reader says what is wrong
        Err(VersionProblem::Missing) => Ok(()),
        Err(problem) => Err(refused(problem.to_string())),
    }
}

/// Whether a JSON value without a format version is a check report of
/// hive-oracle 0.2.0 or earlier, written before reports had one: an object
/// with a run and a summary.
fn is_unversioned_report(report: &serde_json::Value) -> bool {
    report
        .as_object()
        .is_some_and(|object| object.contains_key("run") && object.contains_key("summary"))
}

/// Merges the reports of every shard of one check (each named by its
/// file, in any order) into the report of the whole check.
pub fn merge(reports: Vec<(String, Report)>) -> Result<Report, MergeError> {
    let shards = in_shard_order(reports)?;
    let (first_file, first) = &shards[0];
    for (file, report) in &shards[1..] {
        if let Some(field) = difference(first, report) {
            return Err(MergeError::Differs {
                first: first_file.clone(),
                file: file.clone(),
                field,
            });
        }
    }
    let reports: Vec<&Report> = shards.iter().map(|(_, r)| r).collect();
    let units = unit_positions(first);
    let mut merged = first.clone();
    // written in this hive-oracle's format, whichever minor version it read
    merged.format_version = REPORT_FORMAT_VERSION.to_string();
    merged.shard = None;
    merged.findings = merge_groups(&reports, &units);
    merged.skipped = in_unit_order(&units, reports.iter().map(|r| &r.skipped), |s: &Skip| {
        &s.test
    });
    merged.tests = in_unit_order(
        &units,
        reports
            .iter()
            .filter_map(|r| r.shard.as_ref().map(|s| &s.tests)),
        |t: &TestCase| &t.name,
    );
    merged.notes = merge_notes(&reports);
    merge_counts(&mut merged, &reports);
    // what a shard could not do stays; what the counts show is judged again
    // on the merged counts (one shard's 0 move sets compared is no reason)
    let mut incomplete: Vec<String> = Vec::new();
    for reason in reports.iter().flat_map(|r| &r.incomplete) {
        if !is_derived_incompleteness(reason) && !incomplete.contains(reason) {
            incomplete.push(reason.clone());
        }
    }
    incomplete.extend(incompleteness(&merged.run, &merged.summary));
    merged.passed = passes(&merged.findings, merged.run.strict_notation) && incomplete.is_empty();
    merged.incomplete = incomplete;
    Ok(merged)
}

/// The reports checked to be shards `1..=N` of `N`, each once, in shard
/// order.
fn in_shard_order(reports: Vec<(String, Report)>) -> Result<Vec<(String, Report)>, MergeError> {
    let mut by_index: BTreeMap<usize, (String, Report)> = BTreeMap::new();
    let mut count = None;
    for (file, report) in reports {
        let Some(shard) = report.shard.as_ref().map(|s| Shard {
            index: s.index,
            count: s.count,
        }) else {
            return Err(MergeError::NotAShard { file });
        };
        if let Some(why) = forged(&report) {
            return Err(MergeError::Forged { file, why });
        }
        match count {
            None => count = Some((shard.count, file.clone())),
            Some((n, ref first)) if n != shard.count => {
                return Err(MergeError::Differs {
                    first: first.clone(),
                    file,
                    field: format!("shard counts ({n} and {})", shard.count),
                })
            }
            Some(_) => {}
        }
        if let Some((first, _)) = by_index.get(&shard.index) {
            return Err(MergeError::Duplicate {
                shard,
                first: first.clone(),
                second: file,
            });
        }
        by_index.insert(shard.index, (file, report));
    }
    let Some((count, _)) = count else {
        return Err(MergeError::NoReport);
    };
    let missing: Vec<String> = (1..=count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            missing: missing.join(", "),
            count,
        });
    }
    Ok(by_index.into_values().collect())
}

/// What in a shard's report no check writes, if anything: its slice
/// outside `1..=N` or `N` over [`MAX_SHARDS`] (the merge would list
/// billions of missing shards), a test of a unit that is not among the
/// check's units or not this shard's (`k mod N = I - 1`), or two tests of
/// one unit.
fn forged(report: &Report) -> Option<String> {
    let info = report.shard.as_ref()?;
    let Some(shard) = Shard::new(info.index, info.count) else {
        return Some(format!(
            "shard {}/{}: expected I/N with 1 <= I <= N <= {MAX_SHARDS}",
            info.index, info.count
        ));
    };
    let units = unit_positions(report);
    let mut seen = BTreeSet::new();
    for test in &info.tests {
        match units.get(&test.name) {
            None => {
                return Some(format!(
                    "a test of {:?}, which is not a unit of the check",
                    test.name
                ))
            }
            Some(&k) if !shard.holds(k) => {
                return Some(format!(
                    "a test of {:?}, the unit at position {k}, which is not shard {shard}'s",
                    test.name
                ))
            }
            Some(k) if !seen.insert(*k) => return Some(format!("two tests of {:?}", test.name)),
            Some(_) => {}
        }
    }
    None
}

/// What differs between two shards' reports that must be equal (the
/// engine, every run parameter but `jobs`, the units), if anything.
fn difference(a: &Report, b: &Report) -> Option<String> {
    if serde_json::to_value(&a.engine).ok() != serde_json::to_value(&b.engine).ok() {
        return Some("engines (id, capabilities or options)".to_string());
    }
    let (Ok(serde_json::Value::Object(run_a)), Ok(serde_json::Value::Object(run_b))) =
        (serde_json::to_value(&a.run), serde_json::to_value(&b.run))
    else {
        return Some("run parameters".to_string());
    };
    let keys: BTreeSet<&String> = run_a.keys().chain(run_b.keys()).collect();
    for key in keys {
        if key != "jobs" && run_a.get(key) != run_b.get(key) {
            return Some(format!("run parameters (`{key}`)"));
        }
    }
    let units = |r: &Report| r.shard.as_ref().map(|s| s.units.clone());
    if units(a) != units(b) {
        return Some("lists of units (corpus cases, games or records)".to_string());
    }
    None
}

/// Each unit's position in the check, by its name as reports write it
/// (raw, and with control characters escaped as findings write it).
fn unit_positions(report: &Report) -> BTreeMap<String, usize> {
    let mut positions = BTreeMap::new();
    let names = report.shard.as_ref().map(|s| s.units.as_slice());
    for (k, name) in names.unwrap_or_default().iter().enumerate() {
        positions.entry(name.clone()).or_insert(k);
        positions.entry(escape_controls(name)).or_insert(k);
    }
    positions
}

/// The position of the unit named `name` (an unknown name last).
fn position(units: &BTreeMap<String, usize>, name: &str) -> usize {
    units.get(name).copied().unwrap_or(usize::MAX)
}

/// The items of every shard, in unit order (a stable sort: the items of
/// one unit come from one shard, in that shard's order).
fn in_unit_order<'r, T: Clone + 'r>(
    units: &BTreeMap<String, usize>,
    lists: impl Iterator<Item = &'r Vec<T>>,
    name: impl Fn(&T) -> &String,
) -> Vec<T> {
    let mut all: Vec<T> = lists.flatten().cloned().collect();
    all.sort_by_key(|item| position(units, name(item)));
    all
}

/// The causes of every shard joined by fingerprint, in the order first
/// seen.
fn merge_groups(reports: &[&Report], units: &BTreeMap<String, usize>) -> Vec<FindingGroup> {
    // fingerprint -> (first seen: unit, place in its shard's list; the group)
    let mut joined: BTreeMap<String, ((usize, usize), FindingGroup)> = BTreeMap::new();
    for report in reports {
        for (place, group) in report.findings.iter().enumerate() {
            let first = group
                .seen_in
                .first()
                .map_or(usize::MAX, |s| position(units, &s.test));
            let key = (first, place);
            match joined.get_mut(cause_key(group)) {
                None => {
                    joined.insert(cause_key(group).to_string(), (key, group.clone()));
                }
                Some((seen_first, merged)) => {
                    *seen_first = (*seen_first).min(key);
                    join(merged, group, units);
                }
            }
        }
    }
    let mut groups: Vec<((usize, usize), FindingGroup)> = joined.into_values().collect();
    groups.sort_by_key(|(key, _)| *key);
    groups.into_iter().map(|(_, g)| g).collect()
}

/// The key that joins the causes of shards: the fingerprint.
fn cause_key(group: &FindingGroup) -> &str {
    &group.fingerprint
}

/// Adds the instances of `other` (a cause of another shard) to `merged`.
fn join(merged: &mut FindingGroup, other: &FindingGroup, units: &BTreeMap<String, usize>) {
    merged.occurrences += other.occurrences;
    merged.seen_in.extend(other.seen_in.iter().cloned());
    merged
        .seen_in
        .sort_by_key(|s: &Seen| position(units, &s.test));
    // the shortest: fewest plies, then first seen
    let rank = |g: &FindingGroup| (g.shortest.plies(), position(units, &g.shortest.test));
    if rank(other) < rank(merged) {
        merged.shortest = other.shortest.clone();
    }
}

/// The notes of every shard, each once, in the order of the shards; a
/// stale baseline entry only when no shard saw it.
fn merge_notes(reports: &[&Report]) -> Vec<String> {
    let mut notes: Vec<String> = Vec::new();
    for report in reports {
        for note in &report.notes {
            if !note.starts_with(STALE_BASELINE_NOTE) && !notes.contains(note) {
                notes.push(note.clone());
            }
        }
    }
    let stale_everywhere = reports[0]
        .notes
        .iter()
        .filter(|n| n.starts_with(STALE_BASELINE_NOTE))
        .filter(|n| reports.iter().all(|r| r.notes.contains(n)));
    notes.extend(stale_everywhere.cloned());
    notes
}

/// The counts summed and the causes counted again; the timings summed,
/// but for the whole check's seconds: the longest shard's (shards run side
/// by side).
fn merge_counts(merged: &mut Report, reports: &[&Report]) {
    let mut summary = reports[0].summary.clone();
    let mut timings = reports[0].timings.clone();
    for report in &reports[1..] {
        summary.add(&report.summary);
        summary.findings_seen += report.summary.findings_seen;
        let t = &report.timings;
        timings.seconds = timings.seconds.max(t.seconds);
        timings.engine_seconds += t.engine_seconds;
        timings.reference_seconds += t.reference_seconds;
        timings.shrink_seconds += t.shrink_seconds;
    }
    count_causes(&merged.findings, &mut summary);
    merged.summary = summary;
    merged.timings = timings;
}
