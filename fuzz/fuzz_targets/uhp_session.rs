//! Property: arbitrary command lines fed to the UHP engine in-process never
//! make it panic, every command is answered and ends with `ok`, and a
//! refused command (`err`, `invalidmove`) leaves the game unchanged
//! (`hive_oracle_rules::fuzzing::check_uhp_session`).
#![no_main]

use hive_oracle_rules::fuzzing::{check_uhp_session, UhpInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: UhpInput<'_>| check_uhp_session(input));
