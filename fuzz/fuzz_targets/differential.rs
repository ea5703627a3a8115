//! Property: in a game whose moves are chosen by bytes (`byte % legal.len()`),
//! at every ply the reference and the fast engine agree on the legal move
//! set, the state and the GameString (`hive_oracle_rules::fuzzing::check_differential`).
#![no_main]

use hive_oracle_rules::fuzzing::{check_differential, DifferentialInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: DifferentialInput<'_>| check_differential(input));
