//! The corpus built into the library (and so into the binary), so that an installed
//! `hive-oracle check` runs every case from any directory.

use super::case::LoadedCase;
use super::text::{parse_corpus_file, CorpusFile, ParseError};

/// The corpus built into the library and the binary: every file of
/// `tests/cases/`, name and text, in file-name order, so that an installed
/// `hive-oracle check` runs every case from any directory. A test
/// (`tests/cases.rs`) checks that this list is the directory's content.
pub const BUILTIN_CORPUS: &[(&str, &str)] = &[
    ("ant.toml", include_str!("../../tests/cases/ant.toml")),
    ("beetle.toml", include_str!("../../tests/cases/beetle.toml")),
    (
        "components.toml",
        include_str!("../../tests/cases/components.toml"),
    ),
    ("end.toml", include_str!("../../tests/cases/end.toml")),
    (
        "grasshopper.toml",
        include_str!("../../tests/cases/grasshopper.toml"),
    ),
    (
        "ladybug.toml",
        include_str!("../../tests/cases/ladybug.toml"),
    ),
    (
        "mosquito.toml",
        include_str!("../../tests/cases/mosquito.toml"),
    ),
    (
        "movement.toml",
        include_str!("../../tests/cases/movement.toml"),
    ),
    (
        "notation.toml",
        include_str!("../../tests/cases/notation.toml"),
    ),
    (
        "opening.toml",
        include_str!("../../tests/cases/opening.toml"),
    ),
    (
        "options.toml",
        include_str!("../../tests/cases/options.toml"),
    ),
    (
        "pillbug.toml",
        include_str!("../../tests/cases/pillbug.toml"),
    ),
    (
        "placement.toml",
        include_str!("../../tests/cases/placement.toml"),
    ),
    (
        "queen-bee.toml",
        include_str!("../../tests/cases/queen-bee.toml"),
    ),
    ("spider.toml", include_str!("../../tests/cases/spider.toml")),
];

/// The built-in corpus ([`BUILTIN_CORPUS`]), parsed.
pub fn builtin_corpus() -> Result<Vec<LoadedCase>, ParseError> {
    Ok(builtin_corpus_files()?
        .into_iter()
        .flat_map(|file| file.cases)
        .collect())
}

/// The files of the built-in corpus ([`BUILTIN_CORPUS`]), each with its
/// name, text and cases, as `hive-oracle check --corpus DIR` reads those
/// of a folder.
pub fn builtin_corpus_files() -> Result<Vec<CorpusFile>, ParseError> {
    BUILTIN_CORPUS
        .iter()
        .map(|&(name, text)| {
            Ok(CorpusFile {
                name: name.to_string(),
                text: text.to_string(),
                cases: parse_corpus_file(name, text, &format!("built-in {name}"))?,
            })
        })
        .collect()
}
