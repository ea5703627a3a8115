//! A game of a record file as the user asks for it (spec/game-records.md):
//! which game of the file, replayed to its end or through a number of
//! plies, and one ply of it with the position before it (`explain game.pgn
//! 37`). The file is read here, within its limit; the game is read and
//! replayed by the rules library from the file's bytes
//! ([`hive_oracle_rules::records::record_game`]).

use hive_oracle_rules::records::{self, NthRecord, Record, RecordPly};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

use super::archive::is_zip;
use super::error::InputError;
use super::files::read_record_file;

/// Game `game` (1 = the first) of the record file `path`, replayed on the
/// engine `R`: to its end, or through its first `plies` plies.
pub fn load_record<R: Rules>(
    path: &str,
    game: usize,
    plies: Option<usize>,
) -> Result<(Record, R), InputError> {
    let bytes = read_record_file(path)?;
    record_game(path, &bytes, game, plies)
}

/// [`load_record`] for a record file's bytes already in memory (read from
/// standard input): `name` stands for the file in messages. A zip archive
/// is refused: `replay` reads it as a folder (§10.21).
pub fn record_game<R: Rules>(
    name: &str,
    bytes: &[u8],
    game: usize,
    plies: Option<usize>,
) -> Result<(Record, R), InputError> {
    refuse_zip(name, bytes)?;
    Ok(records::record_game(name, bytes, game, plies)?)
}

/// Game `game` of a record file's bytes with the count of the file's games,
/// replayed to its end on the reference engine: what `convert` prints from.
pub fn nth_record_game(
    name: &str,
    bytes: &[u8],
    game: usize,
) -> Result<(NthRecord, ReferenceEngine), InputError> {
    refuse_zip(name, bytes)?;
    Ok(records::nth_record_game(name, bytes, game)?)
}

/// Ply `number` (1 = the first) of game `game` of the record file `path`,
/// with the position before it; the ply itself may be illegal there.
pub fn record_ply(path: &str, game: usize, number: usize) -> Result<RecordPly, InputError> {
    if number == 0 {
        return Err(records::GameTextError::PlyZero.into());
    }
    record_ply_in(path, &read_record_file(path)?, game, number)
}

/// [`record_ply`] for a record already in memory (one read from stdin):
/// `name` stands for the file in messages.
pub fn record_ply_in(
    name: &str,
    bytes: &[u8],
    game: usize,
    number: usize,
) -> Result<RecordPly, InputError> {
    refuse_zip(name, bytes)?;
    Ok(records::record_ply(name, bytes, game, number)?)
}

/// A zip archive given where one record file is read (§10.21).
fn refuse_zip(name: &str, bytes: &[u8]) -> Result<(), InputError> {
    if is_zip(bytes) {
        return Err(InputError::ZipArchive {
            file: name.to_string(),
        });
    }
    Ok(())
}
