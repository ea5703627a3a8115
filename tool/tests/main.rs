//! The tool's integration tests, one test binary: each file is a module
//! here, so the test code is compiled and linked once. Run one file's tests
//! by its module name: `cargo test -p hive-oracle --test tool check_gate::`.
//!
//! They run the binary (`CARGO_BIN_EXE_hive-oracle`) and read the
//! repository's test data beside the rules package (`../tests/records`,
//! `../tests/cases`) and its documentation (`../README.md`, `../docs/`), so
//! they are the repository's tests: the published package ships none.

// Shared helpers: the binary and temporary folders (`common`), running
// `check` and reading its report (`check_run`) and the documented-commands
// test that `cli` runs (`documented`).
mod check_run;
mod common;
mod documented;

mod boundaries;
mod check;
mod check_faults;
mod check_gate;
mod check_probes;
mod check_proof;
mod check_scale;
mod check_schema;
mod citations;
mod cli;
mod hostile_cli;
mod hostile_engines;
mod hostile_records;
mod records_replay;
mod render_explain;
mod uhp_binary;
mod uhp_client;
mod uhp_faults;
