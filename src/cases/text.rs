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
    /// The text is not TOML, or not a list of cases (the error gives the line
    /// and column).
    #[error("{shown}: {source}")]
    Toml {
        /// The file as shown in errors.
        shown: String,
        /// What the TOML reader says.
        source: toml::de::Error,
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

/// Parses one corpus file named `file` (shown as `shown` in errors).
pub fn parse_corpus_file(
    file: &str,
    text: &str,
    shown: &str,
) -> Result<Vec<LoadedCase>, ParseError> {
    let parsed: CaseFile = toml::from_str(text).map_err(|source| ParseError::Toml {
        shown: shown.to_string(),
        source,
    })?;
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
