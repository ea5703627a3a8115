//! The case corpus a check runs: the built-in corpus and folders given with
//! `--corpus`, read with the tool's one corpus reader
//! ([`crate::input::read_corpus_files`], regular files only), the cases
//! chosen with `--case`, and every case checked against the reference
//! engine first ([`validate`]): a bad corpus stops the check (exit 2) with
//! the case and the reason, rather than being skipped or blamed on the
//! engine.

use thiserror::Error;

use crate::check::findings::quote::escape_controls;
use crate::check::given::seed::fnv1a64;
use crate::input::{read_corpus_files, CorpusError, FolderError, ReadError};
use hive_oracle_rules::cases::{
    builtin_corpus_files, run_case, CaseError, CorpusFile, LoadedCase, ParseError, RulesEngine,
    RulesEngineError,
};
use hive_oracle_rules::core::RulesOptions;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::{LoadError, Rules};

/// The case corpus a check runs: the cases and where they came from.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// `built-in`, a directory as given, or several joined by `+`.
    pub name: String,
    /// The FNV-1a 64 hash of the corpus files (names and contents), hex.
    pub hash: String,
    /// The cases it holds.
    pub cases: Vec<LoadedCase>,
}

/// Why the corpus of a check cannot be used.
#[derive(Debug, Error)]
pub enum CheckCorpusError {
    /// A `--corpus` folder cannot be listed.
    #[error("--corpus {0}")]
    Folder(FolderError),
    /// A file of a corpus folder cannot be read.
    #[error(transparent)]
    File(ReadError),
    /// A file of the corpus is not a corpus.
    #[error(transparent)]
    Parse(ParseError),
    /// A `--corpus` folder holds no case.
    #[error("--corpus {0}: the folder holds no case (*.toml)")]
    NoCase(String),
    /// A `--case` names no case of the corpus.
    #[error("--case {0}: no such case in the corpus")]
    NoSuchCase(String),
    /// A case is wrong about the rules, or cannot be sent as written (each
    /// case is checked on the reference engine before the run).
    #[error(transparent)]
    Invalid(#[from] InvalidCase),
}

impl From<CorpusError> for CheckCorpusError {
    fn from(e: CorpusError) -> CheckCorpusError {
        match e {
            CorpusError::Folder(e) => CheckCorpusError::Folder(e),
            CorpusError::File(e) => CheckCorpusError::File(e),
            CorpusError::Parse(e) => CheckCorpusError::Parse(e),
        }
    }
}

/// Why a case cannot be sent to an engine: it is wrong about the rules, or
/// it could not be sent as written.
#[derive(Debug, Error)]
pub enum InvalidCase {
    /// A text it sends holds a line break (each entry is sent as one line).
    #[error("corpus case {id}: the `{field}` entry \"{text}\" holds a line break: each entry is sent as one line")]
    LineBreak {
        /// The case's `file::name`.
        id: String,
        /// The field that holds the text.
        field: &'static str,
        /// The text, control characters escaped.
        text: String,
    },
    /// Its GameString does not load under its options.
    #[error("corpus case {id}: its GameString does not load on the reference engine: {source}")]
    DoesNotLoad {
        /// The case's `file::name`.
        id: String,
        /// Why it does not load.
        source: Box<LoadError>,
    },
    /// The case runner cannot run it.
    #[error("corpus case {id}: {source}")]
    Broken {
        /// The case's `file::name`.
        id: String,
        /// Why it cannot run.
        source: Box<CaseError>,
    },
    /// The case runner stopped on the reference engine.
    #[error("corpus case {id}: {source}")]
    Stopped {
        /// The case's `file::name`.
        id: String,
        /// Why it stopped.
        source: RulesEngineError,
    },
    /// The reference engine fails one of its assertions.
    #[error("corpus case {id} is wrong: the reference engine fails it ({failure})")]
    Wrong {
        /// The case's `file::name`.
        id: String,
        /// The first failed assertion, described.
        failure: String,
    },
}

impl Corpus {
    /// No corpus (`--no-corpus`).
    pub fn none() -> Corpus {
        Corpus::none_with("none (--no-corpus)")
    }

    /// No case, under the name `name` (why there is none).
    pub fn none_with(name: &str) -> Corpus {
        Corpus {
            name: name.to_string(),
            hash: hash(b""),
            cases: Vec::new(),
        }
    }

    /// The corpus of `check`: the built-in one (`builtin`, also when
    /// `sources` is empty) and folders, in the order given, read from
    /// regular files only; only the cases `selected` (by `file::name` or
    /// name) when some are; every case run is first validated against the
    /// reference engine (a bad case is an error naming it).
    pub fn load(sources: &[String], selected: &[String]) -> Result<Corpus, CheckCorpusError> {
        let sources: Vec<String> = if sources.is_empty() {
            vec!["builtin".to_string()]
        } else {
            sources.to_vec()
        };
        let mut names = Vec::new();
        let mut bytes = Vec::new();
        let mut cases = Vec::new();
        for source in &sources {
            let files = if source == "builtin" {
                names.push("built-in".to_string());
                builtin_corpus_files().map_err(CheckCorpusError::Parse)?
            } else {
                let files = read_corpus_files(std::path::Path::new(source))?;
                if files.iter().all(|file| file.cases.is_empty()) {
                    return Err(CheckCorpusError::NoCase(source.clone()));
                }
                names.push(source.clone());
                files
            };
            for CorpusFile {
                name,
                text,
                cases: parsed,
            } in files
            {
                bytes.extend(name.as_bytes());
                bytes.push(0);
                bytes.extend(text.as_bytes());
                bytes.push(0);
                cases.extend(parsed);
            }
        }
        if !selected.is_empty() {
            for name in selected {
                if !cases
                    .iter()
                    .any(|c| &c.id() == name || &c.case.name == name)
                {
                    return Err(CheckCorpusError::NoSuchCase(name.clone()));
                }
            }
            cases.retain(|c| selected.iter().any(|n| *n == c.id() || *n == c.case.name));
        }
        for case in &cases {
            validate(case)?;
        }
        Ok(Corpus {
            name: names.join("+"),
            hash: hash(&bytes),
            cases,
        })
    }
}

/// How the corpus's hash is written in reports.
fn hash(bytes: &[u8]) -> String {
    format!("fnv1a64:{:016x}", fnv1a64(bytes))
}

/// Checks a case against the reference engine before it is sent to an
/// engine: every text it sends is one line (no `\n` or `\r`), its
/// GameString loads under its options, its `legal` moves are legal, its
/// `illegal` moves are refused, and its other assertions hold (perft is
/// left to the test suite). `Err` names the case and the reason.
pub fn validate(loaded: &LoadedCase) -> Result<(), InvalidCase> {
    let case = &loaded.case;
    let id = loaded.id();
    let mut texts: Vec<(&'static str, &str)> = vec![("game", case.game.as_str())];
    texts.extend(case.piece.iter().map(|p| ("piece", p.as_str())));
    texts.extend(case.legal.iter().map(|m| ("legal", m.as_str())));
    texts.extend(case.illegal.iter().map(|e| ("illegal", e.mv.as_str())));
    texts.extend(
        case.valid_moves
            .iter()
            .flatten()
            .map(|m| ("valid-moves", m.as_str())),
    );
    texts.extend(
        case.valid_moves_include
            .iter()
            .map(|m| ("valid-moves-include", m.as_str())),
    );
    texts.extend(
        case.valid_moves_exclude
            .iter()
            .map(|m| ("valid-moves-exclude", m.as_str())),
    );
    if let Some((field, text)) = texts.iter().find(|(_, text)| text.contains(['\n', '\r'])) {
        return Err(InvalidCase::LineBreak {
            id,
            field,
            text: escape_controls(text),
        });
    }
    let options: RulesOptions = case.options.into();
    let game = match ReferenceEngine::load_with(&case.game, options) {
        Ok(game) => game,
        Err(e) => {
            return Err(InvalidCase::DoesNotLoad {
                id,
                source: Box::new(e),
            })
        }
    };
    let mut checked = case.clone();
    checked.perft.clear();
    let mut reference = RulesEngine::<ReferenceEngine>::refusing_only();
    let run = match run_case(&mut reference, &checked) {
        Ok(run) => run,
        Err(e) => {
            return Err(InvalidCase::Broken {
                id,
                source: Box::new(e),
            })
        }
    };
    if let Some(source) = run.stopped {
        return Err(InvalidCase::Stopped { id, source });
    }
    match run.failures.first() {
        None => Ok(()),
        Some(failure) => Err(InvalidCase::Wrong {
            failure: failure.describe(&game),
            id,
        }),
    }
}
