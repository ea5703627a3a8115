//! The frame every report of the tool shares, `check`'s and `replay`'s:
//!
//! * a format version, `MAJOR.MINOR`, in the JSON report's
//!   `format_version`: a new minor version only adds fields, which readers
//!   of an older one ignore (the schemas allow fields they do not name); a
//!   new major version renames, removes or changes the meaning of a field,
//!   and a reader refuses a major version it does not know
//!   ([`check_format_version`]);
//! * a JSON Schema generated from the report's types ([`schema`]), printed
//!   by `--print-schema` and committed in `spec/`;
//! * the JSON text of a report ([`json`]);
//! * the last line of the text report, PASS or FAIL ([`verdict_line`]), as
//!   the exit status says.
//!
//! Each report's version is kept beside its types: `check`'s is
//! [`crate::check::findings::REPORT_FORMAT_VERSION`], `replay`'s is in
//! `reports/replay/json.rs`.

use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;

use hive_oracle_rules::core::escape_controls;

/// The major version of a format version `MAJOR.MINOR`: the number before
/// its first dot, if it is one.
///
/// ```
/// use hive_oracle::reports::frame::major_version;
///
/// assert_eq!(major_version("1.0"), Some(1));
/// assert_eq!(major_version("2.13"), Some(2));
/// assert_eq!(major_version("one.0"), None);
/// ```
pub fn major_version(version: &str) -> Option<u64> {
    version
        .split('.')
        .next()
        .and_then(|major| major.parse::<u64>().ok())
}

/// What is wrong with the format version of a report about to be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VersionProblem {
    /// The report has no `format_version`.
    Missing,
    /// Its `format_version` is not text: the JSON value, as written.
    NotText(String),
    /// Its `format_version` has another major version (or none): the
    /// version, control characters escaped.
    OtherMajor(String),
}

impl fmt::Display for VersionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VersionProblem::Missing => write!(f, "no format_version"),
            VersionProblem::NotText(value) => {
                write!(f, "format_version {value}, not \"MAJOR.MINOR\"")
            }
            VersionProblem::OtherMajor(version) => write!(f, "format_version \"{version}\""),
        }
    }
}

/// Checks the `format_version` of a report, given as JSON before the
/// report itself is read, against `ours`, the version this hive-oracle
/// writes: a version of the same major version is read (the fields a newer
/// minor version adds are ignored), another major version is refused, and
/// so is a version that is not text or a report without one. A value that
/// is not a JSON object passes: the reader of the report says what is
/// wrong with it.
pub fn check_format_version(report: &serde_json::Value, ours: &str) -> Result<(), VersionProblem> {
    let Some(object) = report.as_object() else {
        return Ok(());
    };
    match object.get("format_version") {
        None => Err(VersionProblem::Missing),
        Some(serde_json::Value::String(version)) => {
            if major_version(version).is_some() && major_version(version) == major_version(ours) {
                Ok(())
            } else {
                Err(VersionProblem::OtherMajor(
                    escape_controls(version).into_owned(),
                ))
            }
        }
        Some(other) => Err(VersionProblem::NotText(other.to_string())),
    }
}

/// The versions a reader of format `ours` reads, as messages say them:
/// `1.x (now 1.0)`.
pub fn readable_versions(ours: &str) -> String {
    let major = ours.split('.').next().unwrap_or(ours);
    format!("{major}.x (now {ours})")
}

/// The JSON Schema of a report, generated from its types, as
/// `--print-schema` prints it and `spec/` holds it.
pub fn schema<T: JsonSchema>() -> String {
    let schema = schemars::schema_for!(T);
    serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
}

/// A report as JSON text, indented, with a final line feed.
pub fn json<T: Serialize>(report: &T) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
        + "\n"
}

/// The last line of a text report, without its line feed: `PASS` or
/// `FAIL`, as `passed` says, then, when given, what decided it and the
/// exit status (`PASS: no findings (exit 0)`).
///
/// ```
/// use hive_oracle::reports::frame::verdict_line;
///
/// assert_eq!(verdict_line(false, None), "FAIL");
/// assert_eq!(verdict_line(true, Some("no error")), "PASS: no error (exit 0)");
/// assert_eq!(verdict_line(false, Some("1 error")), "FAIL: 1 error (exit 1)");
/// ```
pub fn verdict_line(passed: bool, decided_by: Option<&str>) -> String {
    let (word, status) = if passed { ("PASS", 0) } else { ("FAIL", 1) };
    match decided_by {
        None => word.to_string(),
        Some(reasons) => format!("{word}: {reasons} (exit {status})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    #[test]
    fn a_reader_takes_its_major_version_only() {
        // the rule of every report's format_version (this module's doc): the
        // same major version is read, whatever its minor version
        assert_eq!(
            check_format_version(&json!({"format_version": "1.0"}), "1.0"),
            Ok(())
        );
        assert_eq!(
            check_format_version(&json!({"format_version": "1.7"}), "1.0"),
            Ok(())
        );
        assert_eq!(
            check_format_version(&json!({"format_version": "2.0"}), "1.0"),
            Err(VersionProblem::OtherMajor("2.0".to_string()))
        );
        assert_eq!(
            check_format_version(&json!({"format_version": "x.1"}), "1.0"),
            Err(VersionProblem::OtherMajor("x.1".to_string()))
        );
        assert_eq!(
            check_format_version(&json!({"format_version": 1}), "1.0"),
            Err(VersionProblem::NotText("1".to_string()))
        );
        assert_eq!(
            check_format_version(&json!({"run": {}}), "1.0"),
            Err(VersionProblem::Missing)
        );
        // not an object: the report's own reader says what is wrong
        assert_eq!(check_format_version(&json!([1, 2]), "1.0"), Ok(()));
    }

    #[test]
    fn a_refused_version_is_quoted_escaped() {
        let problem = check_format_version(&json!({"format_version": "9\u{1b}[2J"}), "2.1");
        assert_eq!(
            problem.map_err(|p| p.to_string()),
            Err("format_version \"9\\x1b[2J\"".to_string())
        );
        assert_eq!(readable_versions("2.1"), "2.x (now 2.1)");
    }
}
