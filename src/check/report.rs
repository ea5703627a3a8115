//! The reports of `hive-oracle check`: human text, JSON and JUnit XML.

use std::fmt::Write as _;

use crate::check::checker::Report;
use crate::render::xml_escape;

/// The report as text: the summary, then every finding.
pub fn text(report: &Report) -> String {
    let s = &report.summary;
    let mut out = String::new();
    let _ = writeln!(out, "engine: {} (id: {})", report.engine, s.engine_id);
    let _ = writeln!(
        out,
        "capabilities: {}",
        if s.capabilities.is_empty() {
            "(base game only)".to_string()
        } else {
            s.capabilities.join(";")
        }
    );
    let _ = writeln!(out, "protocol checks: {}", s.protocol_checks);
    let _ = writeln!(
        out,
        "corpus: {} cases checked, {} skipped",
        s.corpus_cases, s.corpus_cases_skipped
    );
    for (reason, n) in &s.corpus_skip_reasons {
        let _ = writeln!(out, "  skipped {n}: {reason}");
    }
    let _ = writeln!(
        out,
        "random games: {} games, {} plies, {} move sets compared, {} illegal-move probes, {} undo checks, {} pass checks",
        s.games, s.plies, s.validmoves_compared, s.illegal_probes, s.undo_checks, s.pass_checks
    );
    let _ = writeln!(
        out,
        "time: {:.2} s ({:.2} s waiting for the engine, {:.2} s in the reference engine); engine restarts: {}",
        s.seconds, s.engine_seconds, s.reference_seconds, s.engine_restarts
    );
    if s.shrinks > 0 {
        let _ = writeln!(
            out,
            "shrinking: {} finding(s) in {:.2} s: {} shorter games built, {} positions searched, {} shown to the engine",
            s.shrinks, s.shrink_seconds, s.shrink_candidates, s.shrink_positions, s.shrink_engine_checks
        );
    }
    for note in &s.notes {
        let _ = writeln!(out, "note: {note}");
    }
    if report.findings.is_empty() {
        let _ = writeln!(
            out,
            "no findings: the engine agrees with the rules everywhere checked"
        );
        return out;
    }
    let by_kind: Vec<String> = s
        .findings_by_kind
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    let _ = writeln!(
        out,
        "{} finding(s): {}",
        report.findings.len(),
        by_kind.join(", ")
    );
    for (i, f) in report.findings.iter().enumerate() {
        let _ = writeln!(out);
        let _ = writeln!(out, "finding {}: {} in {}", i + 1, f.kind.name(), f.test);
        let _ = writeln!(out, "  game type: {}", f.game_type);
        let _ = writeln!(out, "  position:  {}", f.game_string);
        if let Some(ply) = f.found_at_ply {
            let _ = writeln!(out, "  (shrunk from a position after {ply} plies)");
        }
        if !f.moves.is_empty() {
            let _ = writeln!(out, "  moves:     {}", f.moves.join("; "));
        }
        if !f.clauses.is_empty() {
            let _ = writeln!(out, "  clauses:   {}", f.clauses.join(", "));
        }
        let _ = writeln!(out, "  detail:    {}", f.detail);
        for v in &f.verdicts {
            let verdict = if v.legal { "legal" } else { "illegal" };
            let _ = writeln!(out, "  rules:     {}: {verdict}: {}", v.mv, v.reason);
        }
        let _ = writeln!(out, "  reproduce: {}", f.reproduce);
        if let Some(explain) = &f.explain {
            let _ = writeln!(out, "  explain:   {explain}");
        }
    }
    out
}

/// The report as JSON: `{"engine", "summary", "findings"}`.
pub fn json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// The report as JUnit XML: one test case for the protocol checks, one per
/// corpus case and one per random game; findings are failures.
pub fn junit(report: &Report) -> String {
    let mut out = String::new();
    let failures = report
        .tests
        .iter()
        .filter(|t| report.findings.iter().any(|f| f.test == t.name))
        .count();
    let skipped = report.tests.iter().filter(|t| t.skipped.is_some()).count();
    let _ = writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        out,
        "<testsuites name=\"hive-oracle check\" tests=\"{}\" failures=\"{failures}\" time=\"{:.3}\">",
        report.tests.len(),
        report.summary.seconds
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{:.3}\">",
        xml_escape(&format!("hive-oracle check: {}", report.engine)),
        report.tests.len(),
        report.summary.seconds
    );
    for test in &report.tests {
        let _ = write!(
            out,
            "    <testcase classname=\"hive-oracle.check.{}\" name=\"{}\" time=\"{:.3}\"",
            xml_escape(&test.class),
            xml_escape(&test.name),
            test.seconds
        );
        let findings: Vec<_> = report
            .findings
            .iter()
            .filter(|f| f.test == test.name)
            .collect();
        if findings.is_empty() && test.skipped.is_none() {
            let _ = writeln!(out, "/>");
            continue;
        }
        let _ = writeln!(out, ">");
        if let Some(reason) = &test.skipped {
            let _ = writeln!(out, "      <skipped message=\"{}\"/>", xml_escape(reason));
        }
        for f in findings {
            let mut body = String::new();
            let _ = writeln!(body, "game type: {}", f.game_type);
            let _ = writeln!(body, "position: {}", f.game_string);
            if !f.moves.is_empty() {
                let _ = writeln!(body, "moves: {}", f.moves.join("; "));
            }
            if !f.clauses.is_empty() {
                let _ = writeln!(body, "clauses: {}", f.clauses.join(", "));
            }
            let _ = writeln!(body, "detail: {}", f.detail);
            let _ = writeln!(body, "reproduce: {}", f.reproduce);
            let _ = writeln!(
                out,
                "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                f.kind.name(),
                xml_escape(&format!("{}: {}", f.kind.name(), f.detail)),
                xml_escape(&body)
            );
        }
        let _ = writeln!(out, "    </testcase>");
    }
    let _ = writeln!(out, "  </testsuite>");
    let _ = writeln!(out, "</testsuites>");
    out
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
