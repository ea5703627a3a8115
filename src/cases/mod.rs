//! The engine-neutral case corpus (`tests/cases/*.toml`, format in
//! `spec/cases.md`): loading the files and running a case on any engine.
//!
//! A case is plain data: a position as a UHP GameString, rules options, and
//! assertions from a closed vocabulary. Moves are resolved in the case's
//! position and compared as absolute moves (§5.9), never as strings, because
//! UHP spells one move in several ways (§9.23, §9.24).
//!
//! * `case`: what a case is ([`Case`], [`LoadedCase`]);
//! * `files`: the one reader of corpus folders ([`load_corpus`],
//!   [`read_corpus_files`]), regular files only, and of one file
//!   ([`read_regular_file`]);
//! * `builtin`: the corpus built into the binary ([`BUILTIN_CORPUS`]);
//! * `engine`: what the runner needs of an engine ([`CaseEngine`]), for any
//!   [`Rules`](crate::rules::Rules) engine ([`RulesEngine`]);
//! * `run`: the runner ([`run_case`]) and what an engine fails
//!   ([`CaseFailure`]).

mod builtin;
mod case;
mod engine;
mod files;
mod run;

pub use builtin::{builtin_corpus, builtin_corpus_files, BUILTIN_CORPUS};
pub use case::{Case, CaseOptions, IllegalMoveCase, LoadedCase};
pub use engine::{CaseEngine, Refused, RulesEngine, RulesEngineError};
pub use files::{
    file_kind, load_corpus, parse_corpus_file, read_corpus_files, read_regular_file, CorpusError,
    CorpusFile, FolderError, ParseError, ReadError, MAX_CORPUS_FILE_BYTES,
};
pub use run::{run_case, CaseError, CaseFailure, CaseRun};
