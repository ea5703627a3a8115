//! A corpus file from its text (spec/cases.md): the cases of one TOML file,
//! checked for what a reader of the format must refuse (a name used twice,
//! a case that asserts nothing). Reading the files of a folder is the
//! tool's (`hive-oracle check --corpus DIR`); the library has the corpus
//! built in ([`builtin_corpus`](super::builtin_corpus)).

use std::collections::BTreeSet;

use thiserror::Error;

use super::case::{CaseFile, LoadedCase};

/// Why the text of a corpus file is not a corpus (spec/cases.md).
#[derive(Debug, Error)]
pub enum ParseError {
    /// The text is not TOML, or not a list of cases: one line with the line
    /// and column where the TOML reader stopped and what it says (its own
    /// message spreads over several lines with a picture of the text).
    #[error("{shown}: line {line}, column {column}: {message}")]
    Toml {
        /// The file as shown in errors.
        shown: String,
        /// The line where the reader stopped, from 1 (0 when it gives no place).
        line: usize,
        /// The column, in characters from 1 (0 when it gives no place).
        column: usize,
        /// What the TOML reader says, its line breaks turned into spaces.
        message: String,
    },
    /// Two cases of one file share a name.
    #[error("{file}: case name \"{name}\" is used twice")]
    NameUsedTwice {
        /// The file name.
        file: String,
        /// The name.
        name: String,
    },
    /// A case asserts nothing (it would pass silently).
    #[error("{file}::{name}: the case asserts nothing")]
    AssertsNothing {
        /// The file name.
        file: String,
        /// The case's name.
        name: String,
    },
}

/// One corpus file: its name, its text and its cases.
#[derive(Clone, Debug)]
pub struct CorpusFile {
    /// The file name without folder, e.g. `pillbug.toml`.
    pub name: String,
    /// Its text, as read.
    pub text: String,
    /// Its cases, in the order written.
    pub cases: Vec<LoadedCase>,
}

/// The TOML reader's `error` on `text` as one line: where (line and column,
/// counted as an editor counts them) and what.
fn toml_error(shown: &str, text: &str, error: &toml::de::Error) -> ParseError {
    let (line, column) = match error.span() {
        Some(span) => {
            let before = text.get(..span.start).unwrap_or(text);
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            (
                before.matches('\n').count() + 1,
                before[line_start..].chars().count() + 1,
            )
        }
        None => (0, 0),
    };
    ParseError::Toml {
        shown: shown.to_string(),
        line,
        column,
        message: error
            .message()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Parses one corpus file named `file` (shown as `shown` in errors).
pub fn parse_corpus_file(
    file: &str,
    text: &str,
    shown: &str,
) -> Result<Vec<LoadedCase>, ParseError> {
    let parsed: CaseFile = toml::from_str(text).map_err(|error| toml_error(shown, text, &error))?;
    let mut names = BTreeSet::new();
    let mut out = Vec::new();
    for case in parsed.case {
        if !names.insert(case.name.clone()) {
            return Err(ParseError::NameUsedTwice {
                file: file.to_string(),
                name: case.name,
            });
        }
        if !case.has_assertion() {
            return Err(ParseError::AssertsNothing {
                file: file.to_string(),
                name: case.name,
            });
        }
        out.push(LoadedCase {
            file: file.to_string(),
            case,
        });
    }
    Ok(out)
}
