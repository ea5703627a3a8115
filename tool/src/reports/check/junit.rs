//! The JUnit XML report of `hive-oracle check`: one test case per cause,
//! then one per unit that showed no finding.

use std::fmt::Write as _;

use crate::check::findings::group::{seen_text, FindingGroup};
use crate::check::findings::summary::{Report, TestCase};
use hive_oracle_rules::render::xml_escape;

use super::text::{cause_lines, status};

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
    // a check that could not do what it was asked is one failing test case,
    // so that the JUnit counts fail the build as the exit status does
    for reason in &report.incomplete {
        cases.incomplete(reason);
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

    /// The failing test case of a reason the check is incomplete.
    fn incomplete(&mut self, reason: &str) {
        self.tests += 1;
        self.failures += 1;
        let reason = xml_escape(reason);
        let _ = writeln!(
            self.text,
            "    <testcase classname=\"hive-oracle.check.completeness\" name=\"{reason}\" time=\"0\">\n      <failure type=\"incomplete\" message=\"{reason}\">the check cannot pass: {reason}</failure>\n    </testcase>"
        );
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
                "tournament-opening={} repetition-draw={}{} ({})",
                run.rules.tournament_opening,
                run.rules.repetition_draw,
                run.rules
                    .house_repetition
                    .as_ref()
                    .map_or(String::new(), |house| format!(" house-rule={house}")),
                run.rules.source
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
