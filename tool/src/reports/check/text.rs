//! The text report of `hive-oracle check`: the run, the counts, every
//! cause with what is needed to act on it, and the verdict line.

use std::fmt::Write as _;

use hive_oracle_rules::core::escape_controls;

use crate::check::findings::finding::Severity;
use crate::check::findings::group::{seen_text, FindingGroup};
use crate::check::findings::summary::Report;
use crate::reports::frame;

/// Writes one line of the report: the text formatted, every control
/// character in it escaped (a file name, a zip entry's name, a record's or
/// an engine's text may hold any, and a line feed there would forge a line
/// of the report), then the line feed that ends it.
macro_rules! line {
    ($out:expr, $($arg:tt)*) => {{
        let line = format!($($arg)*);
        let _ = writeln!($out, "{}", escape_controls(&line));
    }};
}

/// The status word of a cause.
pub(super) fn status(group: &FindingGroup, strict: bool) -> &'static str {
    if group.known {
        "known (baseline)"
    } else if group.severity == Severity::Advisory && !strict {
        "advisory"
    } else {
        "error"
    }
}

/// The report as text: the run, the summary, then every cause.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    write_run(&mut out, report);
    write_counts(&mut out, report);
    if report.findings.is_empty() {
        line!(
            out,
            "no findings: the engine agrees with the rules everywhere checked"
        );
    } else {
        write_causes(&mut out, report);
        let _ = writeln!(out);
    }
    line!(out, "{}", verdict_line(report));
    out
}

/// The last line of the text report ([`frame::verdict_line`]): PASS or
/// FAIL, what decided it and the exit status, as `report.passed` (the exit
/// status) says. Failing causes are the errors the baseline does not list,
/// and the advisories too under `--strict-notation`; the causes that do not
/// fail it (known, advisory) and the units not run are named so that a PASS
/// hides nothing.
pub fn verdict_line(report: &Report) -> String {
    let strict = report.run.strict_notation;
    let with_baseline = report.run.baseline.is_some();
    let count = |pick: &dyn Fn(&FindingGroup) -> bool| -> usize {
        report.findings.iter().filter(|g| pick(g)).count()
    };
    let errors = count(&|g| !g.known && g.severity == Severity::Error);
    let advisories = count(&|g| !g.known && g.severity == Severity::Advisory);
    let known = count(&|g| g.known);
    let error_word = if with_baseline { "new error" } else { "error" };
    let mut failing = Vec::new();
    let mut passing = Vec::new();
    if errors > 0 {
        failing.push(plural(errors, error_word, &format!("{error_word}s")));
    }
    if advisories > 0 && strict {
        failing.push(format!(
            "{} under --strict-notation",
            plural(advisories, "advisory", "advisories")
        ));
    } else if advisories > 0 {
        passing.push(format!(
            "{} (fails only with --strict-notation)",
            plural(advisories, "advisory", "advisories")
        ));
    }
    if known > 0 {
        passing.push(format!(
            "{} (baseline)",
            plural(known, "known cause", "known causes")
        ));
    }
    if !report.skipped.is_empty() {
        passing.push(format!(
            "{} not run in full (see \"skipped\")",
            plural(report.skipped.len(), "unit", "units")
        ));
    }
    // a check that could not do what it was asked fails, whatever it found
    failing.extend(report.incomplete.iter().cloned());
    let mut reasons = failing;
    if reasons.is_empty() {
        reasons.push(if report.findings.is_empty() {
            "no findings".to_string()
        } else if with_baseline {
            "no new error".to_string()
        } else {
            "no error".to_string()
        });
    }
    reasons.extend(passing);
    frame::verdict_line(report.passed, Some(&escape_controls(&reasons.join(", "))))
}

/// `n` and its noun, singular for 1.
fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The text report's first lines: the engine, its rules and the corpus.
fn write_run(out: &mut String, report: &Report) {
    let s = &report.summary;
    let run = &report.run;
    line!(
        out,
        "{} {}: checking {} (id: {})",
        run.tool,
        run.version,
        run.engine,
        report.engine.id
    );
    line!(
        out,
        "capabilities: {}",
        if report.engine.capabilities.is_empty() {
            "(base game only)".to_string()
        } else {
            report.engine.capabilities.join(";")
        }
    );
    line!(
        out,
        "rules: {} opening, repetition draw {} (from {})",
        if run.rules.tournament_opening {
            "tournament"
        } else {
            "standard"
        },
        match (&run.rules.house_repetition, run.rules.repetition_draw) {
            (Some(house), _) => format!("by the house rule {house}"),
            (None, true) => "on".to_string(),
            (None, false) => "off".to_string(),
        },
        run.rules.source
    );
    if let Some(shard) = &report.shard {
        line!(
            out,
            "shard {}/{}: {} of the check's {} units (merge the shards' JSON reports with check-merge)",
            shard.index,
            shard.count,
            shard.tests.len(),
            shard.units.len()
        );
    }
    line!(
        out,
        "corpus: {} ({} cases, hash {}): {} checked, {} skipped",
        run.corpus.name,
        run.corpus.cases,
        run.corpus.hash,
        s.corpus_cases,
        s.corpus_cases_skipped
    );
}

/// The text report's counts: what was checked, the time, the shrinks, the
/// skips and the notes.
fn write_counts(out: &mut String, report: &Report) {
    let s = &report.summary;
    let run = &report.run;
    line!(out, "protocol checks: {}", s.protocol_checks);
    line!(
        out,
        "random games: {} games (seed {}, {}, at most {} plies), {} plies, {} move sets compared, {} GameStrings replayed, {} illegal-move probes, {} undo checks, {} pass checks, {} bestmove checks",
        s.games,
        run.seed,
        run.game_types.join(","),
        run.max_plies,
        s.plies,
        s.validmoves_compared,
        s.game_strings_replayed,
        s.illegal_probes,
        s.undo_checks,
        s.pass_checks,
        s.bestmove_checks
    );
    if !run.records.is_empty() {
        line!(
            out,
            "records: {} game(s) replayed, {} plies, {} not checked ({})",
            s.record_games,
            s.record_plies,
            s.record_games_skipped,
            run.records.join(", ")
        );
    }
    let t = &report.timings;
    line!(
        out,
        "time: {:.2} s with {} job(s) ({:.2} s waiting for the engine, {:.2} s in the reference engine); engine restarts: {}",
        t.seconds, run.jobs, t.engine_seconds, t.reference_seconds, s.engine_restarts
    );
    if s.shrinks > 0 {
        line!(
            out,
            "shrinking: {} finding(s) in {:.2} s: {} shorter games built, {} positions searched, {} shown to the engine",
            s.shrinks, t.shrink_seconds, s.shrink_candidates, s.shrink_positions, s.shrink_engine_checks
        );
    }
    let mut reasons: std::collections::BTreeMap<&str, usize> = Default::default();
    for skip in &report.skipped {
        *reasons.entry(skip.reason.as_str()).or_default() += 1;
    }
    for (reason, n) in reasons {
        line!(out, "skipped {n}: {reason}");
    }
    for note in &report.notes {
        line!(out, "note: {note}");
    }
}

/// The text report's causes: how many of each kind, then each one.
fn write_causes(out: &mut String, report: &Report) {
    let s = &report.summary;
    let by_kind: Vec<String> = s
        .causes_by_kind
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    line!(
        out,
        "{} cause(s) from {} finding(s): {} error(s), {} advisory, {} known; {}",
        s.causes,
        s.findings_seen,
        s.errors,
        s.advisories,
        s.known,
        by_kind.join(", ")
    );
    for (i, g) in report.findings.iter().enumerate() {
        let f = &g.shortest;
        let _ = writeln!(out);
        line!(
            out,
            "finding {}: {} [{}] in {}{}",
            i + 1,
            f.kind.name(),
            status(g, report.run.strict_notation),
            f.test,
            if g.occurrences > 1 {
                format!(" (seen {} times, in {})", g.occurrences, seen_text(g))
            } else {
                String::new()
            }
        );
        for (label, value) in cause_lines(g) {
            line!(out, "  {:<10} {value}", format!("{label}:"));
        }
    }
}

/// What is shown of a cause, as labelled lines, in the text report and in
/// JUnit: everything needed to act on it.
pub(super) fn cause_lines(g: &FindingGroup) -> Vec<(&'static str, String)> {
    let f = &g.shortest;
    let mut lines = vec![
        ("cause", g.fingerprint.clone()),
        ("game type", f.game_type.clone()),
        ("position", f.game_string.clone()),
    ];
    if let Some(ply) = f.found_at_ply {
        lines.push(("shrunk", format!("from a position after {ply} plies")));
    }
    if let Some(note) = &f.shrink_note {
        lines.push(("note", note.clone()));
    }
    if !f.moves.is_empty() {
        lines.push(("moves", f.moves.join("; ")));
    }
    if !f.clauses.is_empty() {
        lines.push(("clauses", f.clauses.join(", ")));
    }
    if !f.case_clauses.is_empty() {
        lines.push(("case pins", f.case_clauses.join(", ")));
    }
    lines.push(("detail", f.detail.clone()));
    for v in &f.verdicts {
        let verdict = if v.legal { "legal" } else { "illegal" };
        lines.push(("rules", format!("{}: {verdict}: {}", v.mv, v.reason)));
    }
    if !f.answer.is_empty() {
        lines.push(("answer", f.answer.join(" / ")));
    }
    for line in &f.stderr {
        lines.push(("stderr", line.clone()));
    }
    match (f.reproduced, &f.reproduce_note) {
        (Some(false), Some(note)) => lines.push(("reproduce", format!("not reproduced: {note}"))),
        _ => lines.push(("reproduce", f.reproduce.clone())),
    }
    if let Some(file) = &f.reproduce_file {
        lines.push(("file", file.clone()));
    }
    if let Some(sh) = &f.reproduce_sh {
        lines.push(("sh", sh.clone()));
    }
    match &f.reproduce_powershell {
        Some(command) => lines.push(("powershell", command.clone())),
        None if f.reproduce_file.is_some() => lines.push((
            "powershell",
            "none: the file holds bytes that are not ASCII, which PowerShell re-encodes (use the sh command)".to_string(),
        )),
        None => {}
    }
    if let Some(explain) = &f.explain {
        lines.push(("explain", explain.clone()));
    }
    lines
}
