//! Property: arbitrary bytes read as a GameString and as a MoveString (in a
//! position) never panic, and whatever reads prints and reads back to the
//! same value (`hive_oracle_rules::fuzzing::check_notation`).
#![no_main]

use hive_oracle_rules::fuzzing::{check_notation, NotationInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: NotationInput<'_>| check_notation(input));
