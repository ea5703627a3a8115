//! Property: arbitrary bytes read as a PGN-style record never panic, and every
//! game read prints as PGN and reads back to the same game
//! (`hive_oracle_rules::fuzzing::check_pgn_record`).
#![no_main]

use hive_oracle_rules::fuzzing::{check_pgn_record, RecordInput};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: RecordInput<'_>| check_pgn_record(input));
