//! The engine-neutral case corpus (`tests/cases/*.toml`, format in
//! `spec/cases.md`): the cases from their text, the corpus built in, and
//! running a case on any engine.
//!
//! A case is plain data: a position as a UHP GameString, rules options, and
//! assertions from a closed vocabulary. Moves are resolved in the case's
//! position and compared as absolute moves (§5.9), never as strings, because
//! UHP spells one move in several ways (§9.23, §9.24).
//!
//! * `case`: what a case is ([`Case`], [`LoadedCase`]);
//! * `text`: the cases of one corpus file's text ([`parse_corpus_file`]);
//! * `builtin`: the corpus built into the library ([`BUILTIN_CORPUS`]);
//! * `engine`: what the runner needs of an engine ([`CaseEngine`]), for any
//!   [`Rules`](crate::rules::Rules) engine ([`RulesEngine`]);
//! * `run`: the runner ([`run_case`]) and what an engine fails
//!   ([`CaseFailure`]).

mod builtin;
mod case;
mod engine;
mod run;
mod text;

pub use builtin::{builtin_corpus, builtin_corpus_files, BUILTIN_CORPUS};
pub use case::{Case, CaseOptions, IllegalMoveCase, LoadedCase};
pub use engine::{CaseEngine, Refused, RulesEngine, RulesEngineError};
pub use run::{run_case, CaseError, CaseFailure, CaseRun};
pub use text::{parse_corpus_file, CorpusFile, ParseError};
