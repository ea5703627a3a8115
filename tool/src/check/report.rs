//! The reports of `hive-oracle check`: human text, JSON (whose schema is
//! [`schema`], committed as `spec/check-report.schema.json`) and JUnit XML.

use std::fmt::Write as _;

use crate::check::finding::Severity;
use crate::check::group::{seen_text, FindingGroup};
use crate::check::summary::{Report, TestCase};
use hive_oracle_rules::render::xml_escape;

/// The status word of a cause.
fn status(group: &FindingGroup, strict: bool) -> &'static str {
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
        let _ = writeln!(
            out,
            "no findings: the engine agrees with the rules everywhere checked"
        );
    } else {
        write_causes(&mut out, report);
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "{}", verdict_line(report));
    out
}

/// The last line of the text report: PASS or FAIL, what decided it and the
/// exit status, as `report.passed` (the exit status) says. Failing causes
/// are the errors the baseline does not list, and the advisories too under
/// `--strict-notation`; the causes that do not fail it (known, advisory)
/// and the units not run are named so that a PASS hides nothing.
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
            "{} not run (see \"skipped\")",
            plural(report.skipped.len(), "unit", "units")
        ));
    }
    let (word, status) = if report.passed {
        ("PASS", 0)
    } else {
        ("FAIL", 1)
    };
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
    format!("{word}: {} (exit {status})", reasons.join(", "))
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
    let _ = writeln!(
        out,
        "{} {}: checking {} (id: {})",
        run.tool, run.version, run.engine, report.engine.id
    );
    let _ = writeln!(
        out,
        "capabilities: {}",
        if report.engine.capabilities.is_empty() {
            "(base game only)".to_string()
        } else {
            report.engine.capabilities.join(";")
        }
    );
    let _ = writeln!(
        out,
        "rules: {} opening, repetition draw {} (from {})",
        if run.rules.tournament_opening {
            "tournament"
        } else {
            "standard"
        },
        if run.rules.repetition_draw {
            "on"
        } else {
            "off"
        },
        run.rules.source
    );
    if let Some(shard) = &report.shard {
        let _ = writeln!(
            out,
            "shard {}/{}: {} of the check's {} units (merge the shards' JSON reports with check-merge)",
            shard.index,
            shard.count,
            shard.tests.len(),
            shard.units.len()
        );
    }
    let _ = writeln!(
        out,
        "corpus: {} ({} cases, hash {}): {} checked, {} skipped",
        run.corpus.name, run.corpus.cases, run.corpus.hash, s.corpus_cases, s.corpus_cases_skipped
    );
}

/// The text report's counts: what was checked, the time, the shrinks, the
/// skips and the notes.
fn write_counts(out: &mut String, report: &Report) {
    let s = &report.summary;
    let run = &report.run;
    let _ = writeln!(out, "protocol checks: {}", s.protocol_checks);
    let _ = writeln!(
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
        let _ = writeln!(
            out,
            "records: {} game(s) replayed, {} plies, {} not checked ({})",
            s.record_games,
            s.record_plies,
            s.record_games_skipped,
            run.records.join(", ")
        );
    }
    let t = &report.timings;
    let _ = writeln!(
        out,
        "time: {:.2} s with {} job(s) ({:.2} s waiting for the engine, {:.2} s in the reference engine); engine restarts: {}",
        t.seconds, run.jobs, t.engine_seconds, t.reference_seconds, s.engine_restarts
    );
    if s.shrinks > 0 {
        let _ = writeln!(
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
        let _ = writeln!(out, "skipped {n}: {reason}");
    }
    for note in &report.notes {
        let _ = writeln!(out, "note: {note}");
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
    let _ = writeln!(
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
        let _ = writeln!(
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
            let _ = writeln!(out, "  {:<10} {value}", format!("{label}:"));
        }
    }
}

/// The report as JSON (see [`schema`]).
pub fn json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
        + "\n"
}

/// The JSON Schema of the JSON report, generated from its types.
pub fn schema() -> String {
    let schema = schemars::schema_for!(Report);
    serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
}

/// What is shown of a cause, as labelled lines, in the text report and in
/// JUnit: everything needed to act on it.
fn cause_lines(g: &FindingGroup) -> Vec<(&'static str, String)> {
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

/// The body of a cause in JUnit.
fn junit_body(g: &FindingGroup) -> String {
    let mut body = String::new();
    let _ = writeln!(body, "seen {} time(s), in: {}", g.occurrences, seen_text(g));
    let _ = writeln!(body, "shortest instance: {}", g.shortest.test);
    for (label, value) in cause_lines(g) {
        let _ = writeln!(body, "{label}: {value}");
    }
    body
}

/// The report as JUnit XML: one test case per cause (a failure, or an
/// error for a crash or a timeout; a known or advisory cause passes with
/// its text in `system-out`), then one per unit that showed no finding
/// (passed or skipped). So one bug is one failure, however often seen.
pub fn junit(report: &Report) -> String {
    let mut cases = JunitCases::default();
    for g in &report.findings {
        cases.cause(g, report.run.strict_notation);
    }
    for test in &report.tests {
        let showed = report
            .findings
            .iter()
            .any(|g| g.seen_in.iter().any(|s| s.test == test.name) || g.shortest.test == test.name);
        if !showed {
            cases.unit(test);
        }
    }
    let JunitCases {
        text: cases,
        tests,
        failures,
        errors,
        skipped,
    } = cases;
    let mut out = String::new();
    let seconds = report.timings.seconds;
    let _ = writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        out,
        "<testsuites name=\"hive-oracle check\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{seconds:.3}\">"
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{seconds:.3}\">",
        xml_escape(&format!("hive-oracle check: {}", report.run.engine)),
    );
    write_properties(&mut out, report);
    out.push_str(&cases);
    let _ = writeln!(out, "  </testsuite>");
    let _ = writeln!(out, "</testsuites>");
    out
}

/// The test cases of a JUnit report, and their counts.
#[derive(Default)]
struct JunitCases {
    text: String,
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
}

impl JunitCases {
    /// The test case of a cause.
    fn cause(&mut self, g: &FindingGroup, strict: bool) {
        self.tests += 1;
        let f = &g.shortest;
        let failing = status(g, strict) == "error";
        let _ = writeln!(
            self.text,
            "    <testcase classname=\"hive-oracle.check.findings\" name=\"{}\" time=\"0\">",
            xml_escape(&g.fingerprint)
        );
        let body = xml_escape(&junit_body(g));
        let message = xml_escape(&format!("{}: {}", f.kind.name(), f.detail));
        if !failing {
            let _ = writeln!(
                self.text,
                "      <system-out>{}: {}</system-out>",
                status(g, strict),
                body
            );
        } else if g.kind.is_engine_failure() {
            self.errors += 1;
            let _ = writeln!(
                self.text,
                "      <error type=\"{}\" message=\"{message}\">{body}</error>",
                f.kind.name()
            );
        } else {
            self.failures += 1;
            let _ = writeln!(
                self.text,
                "      <failure type=\"{}\" message=\"{message}\">{body}</failure>",
                f.kind.name()
            );
        }
        let _ = writeln!(self.text, "    </testcase>");
    }

    /// The test case of a unit that showed no finding.
    fn unit(&mut self, test: &TestCase) {
        self.tests += 1;
        let _ = write!(
            self.text,
            "    <testcase classname=\"hive-oracle.check.{}\" name=\"{}\" time=\"{:.3}\"",
            xml_escape(&test.class),
            xml_escape(&test.name),
            test.seconds
        );
        match &test.skipped {
            None => {
                let _ = writeln!(self.text, "/>");
            }
            Some(reason) => {
                self.skipped += 1;
                let _ = writeln!(
                    self.text,
                    ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                    xml_escape(reason)
                );
            }
        }
    }
}

/// The JUnit properties: the run's arguments.
fn write_properties(out: &mut String, report: &Report) {
    let run = &report.run;
    let _ = writeln!(out, "    <properties>");
    for (name, value) in [
        ("version", run.version.clone()),
        ("seed", run.seed.to_string()),
        ("games", run.games.to_string()),
        ("game-types", run.game_types.join(",")),
        ("max-plies", run.max_plies.to_string()),
        ("corpus", run.corpus.name.clone()),
        ("corpus-hash", run.corpus.hash.clone()),
        (
            "rules",
            format!(
                "tournament-opening={} repetition-draw={} ({})",
                run.rules.tournament_opening, run.rules.repetition_draw, run.rules.source
            ),
        ),
        ("strict-notation", run.strict_notation.to_string()),
        (
            "baseline",
            run.baseline.clone().unwrap_or_else(|| "none".into()),
        ),
    ] {
        let _ = writeln!(
            out,
            "      <property name=\"{name}\" value=\"{}\"/>",
            xml_escape(&value)
        );
    }
    let _ = writeln!(out, "    </properties>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_xml() {
        assert_eq!(
            xml_escape("a<b & \"c\" 'd'>\u{1}"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{FFFD}"
        );
    }
}
