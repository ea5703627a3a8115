//! The `pgn_record` and `sgf_record` targets: arbitrary bytes read as a
//! record file by one reader (spec/game-records.md).

use std::fmt;

use arbitrary::Arbitrary;

use crate::records::{decode, pgn, sgf, Record};

/// Bytes of a record input beyond this are ignored.
pub const MAX_RECORD_BYTES: usize = 8192;

/// The input of the record targets: a file's bytes. A seed file is a record
/// file as it is (`tests/records/`).
#[derive(Arbitrary)]
pub struct RecordInput<'a> {
    /// The file, as raw bytes.
    pub bytes: &'a [u8],
}

impl RecordInput<'_> {
    /// The text the readers see: the bytes within the cap, decoded as a
    /// record file is (UTF-8 else Latin-1, line endings normalised).
    pub fn text(&self) -> String {
        decode(&self.bytes[..self.bytes.len().min(MAX_RECORD_BYTES)])
    }
}

impl fmt::Debug for RecordInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RecordInput").field(&self.text()).finish()
    }
}

/// The property of the `pgn_record` target: reading any text as a PGN
/// record never panics, and every game it reads prints as PGN
/// (`pgn::write`) and reads back to the same game (type, opening, plies,
/// result and players).
pub fn check_pgn_record(input: RecordInput<'_>) {
    if let Ok(records) = pgn::read("fuzz.pgn", &input.text()) {
        for record in &records {
            round_trip(record);
        }
    }
}

/// The property of the `sgf_record` target: reading any text as a
/// boardspace SGF file never panics, and every game it reads prints as PGN
/// and reads back to the same game.
pub fn check_sgf_record(input: RecordInput<'_>) {
    if let Ok(records) = sgf::read("fuzz.sgf", &input.text()) {
        for record in &records {
            round_trip(record);
        }
    }
}

/// A record printed as PGN reads back to the same game, its players' names
/// as the writer writes a tag value (control characters escaped).
fn round_trip(record: &Record) {
    let text = pgn::write(record);
    let back = match pgn::read("round-trip.pgn", &text) {
        Ok(back) => back,
        Err(e) => panic!("a record printed as PGN does not read back: {e}\n{text}"),
    };
    assert_eq!(
        back.len(),
        1,
        "one game printed, {} read back:\n{text}",
        back.len()
    );
    let game = &back[0];
    assert_eq!(game.game_type, record.game_type, "{text}");
    assert_eq!(game.standard_opening, record.standard_opening, "{text}");
    assert_eq!(game.move_strings(), record.move_strings(), "{text}");
    assert_eq!(game.result, record.result, "{text}");
    let written = |name: &Option<String>| name.as_deref().map(pgn::written_tag_value);
    assert_eq!(
        (&game.white, &game.black),
        (&written(&record.white), &written(&record.black)),
        "{text}"
    );
}
