//! The integration tests, one test binary: each `tests/*.rs` file is a module
//! here, so a fresh `cargo test` compiles and links the test code once instead
//! of once per file (33 binaries before, each linking the whole library and its
//! dependencies).
//!
//! Run one file's tests by its module name: `cargo test --test integration
//! records_pgn::`. `tests/fuzz_replay.rs` stays a binary of its own: it reads
//! `fuzz/`, which the published package does not ship.

// Shared helpers: processes and games (`common`), the two engines side by
// side (`engines`, whose `on_both_engines!` the rules files use), and the
// documented-commands test that `cli` runs (`documented`).
mod common;
#[macro_use]
mod engines;
mod documented;

mod boundaries;
mod case_snapshots;
mod cases;
mod check;
mod check_faults;
mod check_gate;
mod check_probes;
mod check_proof;
mod check_scale;
mod check_schema;
mod cli;
mod differential;
mod hostile_cli;
mod hostile_engines;
mod identities;
mod notation;
mod perft;
mod provenance;
mod records_pgn;
mod records_replay;
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
mod uhp_client;
mod uhp_faults;
mod web_page;
