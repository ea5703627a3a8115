//! hive-oracle: the rules oracle for the board game Hive as a tool. The
//! rules themselves (the spec, the reference and the fast engine, perft,
//! explanations, game records, the UHP session) are the `hive-oracle-rules`
//! package; this one is what is built on them and touches the machine: the
//! `hive-oracle` command line, the checker of other UHP engines
//! ([`check`]), the files, folders, zip archives and standard input it reads
//! ([`input`]), the files it writes ([`output_file`]) and the reports of
//! `check` and `replay` ([`reports`]).
//!
//! # Modules, by layer
//!
//! Each uses only the layers below it and the rules package
//! (`tests/boundaries.rs` holds the table):
//!
//! 0. [`input`]: what game a user gave (a GameString, a game type, a record
//!    file and which game and ply of it), the files and folders given to
//!    `replay` and `check --records`, zip archives, corpus folders, and the
//!    limits on them; [`output_file`]: the one writer of the files the tool
//!    writes, checked at the start and replaced whole after the run;
//! 1. [`check`]: checking another UHP engine against the rules
//!    (`hive-oracle check`);
//! 2. [`reports`]: the reports of `check` and `replay` in one frame (a
//!    versioned JSON report with its schema, a text report ending with the
//!    verdict), and the merge of a sharded check's reports;
//! 3. `cli`: the commands of the binary (`src/main.rs` calls
//!    [`cli_main`]).
//!
//! # The rules, re-exported
//!
//! Until 0.3 the rules were modules of this crate. They are re-exported
//! here under their old paths for one version (`hive_oracle::reference::…`
//! still works), and will be removed in 0.4: depend on `hive-oracle-rules`
//! for the rules alone.
//!
//! ```toml
//! hive-oracle-rules = "0.3"   # the rules, both engines, cases, explain, records, uhp
//! hive-oracle = "0.3"         # and the checker of other engines, the inputs, the reports
//! ```

// Unsafe code is refused everywhere but in the one module that sets the C
// allocator's parameters (`cli/replay/allocator.rs`).
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod check;
mod cli;
pub mod input;
pub mod output_file;
pub mod reports;

pub use cli::main as cli_main;

#[cfg(feature = "faults")]
#[doc(no_inline)]
pub use hive_oracle_rules::faults;
/// The rules package's modules under their 0.2 paths, for one version.
#[doc(no_inline)]
pub use hive_oracle_rules::{
    agreement, cases, core, explain, fast, records, reference, render, rules, search, uhp,
};
