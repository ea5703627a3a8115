//! The integration tests, one test binary: each `tests/*.rs` file is a module
//! here, so a fresh `cargo test` compiles and links the test code once instead
//! of once per file (33 binaries before, each linking the whole library and its
//! dependencies).
//!
//! Run one file's tests by its module name: `cargo test -p hive-oracle-rules
//! --test integration records_pgn::`. `tests/fuzz_replay.rs` stays a binary
//! of its own: it reads `fuzz/`, which the published package does not ship.
//! These are the rules package's tests, in process and on its own files;
//! the command line's are the tool's (`tool/tests/`).

// Shared helpers: games (`common`), the two engines side by side
// (`engines`, whose `on_both_engines!` the rules files use) and the layout
// checks (`layout`).
mod common;
#[macro_use]
mod engines;
// The layout tests' machinery, shared with the tool's (`boundaries`).
mod layout;

mod boundaries;
mod case_snapshots;
mod cases;
mod differential;
mod explain_premise;
mod house_rules;
mod identities;
mod notation;
mod perft;
mod position_strings;
mod provenance;
mod records_pgn;
mod records_sgf;
mod refusals;
mod render_explain;
mod rules_end;
mod rules_expansions;
mod rules_movement;
mod rules_placement;
mod search;
mod spec_coverage;
mod uhp;
mod uhp_faults;
