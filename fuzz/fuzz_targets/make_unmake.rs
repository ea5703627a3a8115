//! Property: in the fast engine, after any sequence of moves, undos and
//! searches, the position and the incremental hash equal those rebuilt from
//! scratch (`hive_oracle_rules::fuzzing::check_make_unmake`).
#![no_main]

use hive_oracle_rules::fuzzing::{check_make_unmake, MakeUnmakeInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: MakeUnmakeInput<'_>| check_make_unmake(input));
