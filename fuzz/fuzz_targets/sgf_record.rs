//! Property: arbitrary bytes read as a boardspace SGF record never panic, and every
//! game read prints as PGN and reads back to the same game
//! (`hive_oracle_rules::fuzzing::check_sgf_record`).
#![no_main]

use hive_oracle_rules::fuzzing::{check_sgf_record, RecordInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: RecordInput<'_>| check_sgf_record(input));
