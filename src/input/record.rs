//! A game of a record as the user asks for it (spec/game-records.md): which
//! game of the file, replayed to its end or through a number of plies, and
//! one ply of it with the position before it (`explain game.pgn 37`).
//!
//! A record is replayed under its own rules options
//! ([`record_options`]: its opening, and no repetition draw). A ply that does
//! not read or that the engine refuses stops the replay with an error naming
//! the file, the game, the ply and its line; the refusal is the reference
//! rules' judgement of the move in that position, with its clause
//! ([`play_explained`]).

use super::error::{InputError, PlyProblem};
use super::files::read_record_file;
use super::limits::MAX_GAME_STRING_BYTES;
use crate::core::Move;
use crate::explain::play_explained;
use crate::records::replay::record_options;
use crate::records::{self, Record, RecordedMove};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

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

/// [`load_record`] for a record already in memory (a record pasted on the
/// web page): `name` stands for the file in messages.
pub fn record_game<R: Rules>(
    name: &str,
    bytes: &[u8],
    game: usize,
    plies: Option<usize>,
) -> Result<(Record, R), InputError> {
    let NthRecord { record, .. } = nth_record(name, bytes, game)?;
    let replayed = replay_within_limit(&record, plies)?;
    Ok((record, replayed))
}

/// Game `game` of a record file's bytes ([`nth_record`]) with the count of
/// the file's games, replayed to its end on the reference engine: what
/// `convert` prints from.
pub fn nth_record_game(
    name: &str,
    bytes: &[u8],
    game: usize,
) -> Result<(NthRecord, ReferenceEngine), InputError> {
    let nth = nth_record(name, bytes, game)?;
    let replayed = replay_within_limit(&nth.record, None)?;
    Ok((nth, replayed))
}

/// [`replay_record`] of a record within the GameString limit: it holds for
/// a game read from a record too (the PGN reader refuses such a game as it
/// reads; an SGF one is caught here).
fn replay_within_limit<R: Rules>(record: &Record, plies: Option<usize>) -> Result<R, InputError> {
    let game_string_bytes: usize = record.moves.iter().map(|m| m.uhp.len() + 1).sum();
    if game_string_bytes > MAX_GAME_STRING_BYTES {
        return Err(InputError::GameStringTooLong {
            bytes: game_string_bytes,
        });
    }
    replay_record(record, plies)
}

/// One game of a record file, and how many the file holds.
#[derive(Clone, Debug)]
pub struct NthRecord {
    /// The game asked for.
    pub record: Record,
    /// The games of the file, read or not (§10.16): all of them, or, when
    /// the file turns out not to be a record after the game asked for,
    /// those given before ([`NthRecord::complete`] is false).
    pub games: usize,
    /// Whether the whole file was read.
    pub complete: bool,
}

/// Game `game` (1 = the first) of a record file's bytes, read one game at
/// a time (`records::read_each`): only that game is kept, whatever the size
/// of the archive. The game asked for reads even when another game of the
/// file does not (§10.16); when it is itself the game that does not read,
/// its error (naming the game and the line) is the answer. A zip archive
/// is refused: `replay` reads it as a folder (§10.21).
pub fn nth_record(name: &str, bytes: &[u8], game: usize) -> Result<NthRecord, InputError> {
    if super::archive::is_zip(bytes) {
        return Err(InputError::ZipArchive {
            file: name.to_string(),
        });
    }
    let text = records::decode(bytes);
    let mut count = 0;
    let mut wanted = None;
    let read = records::read_each(name, &text, &mut |read| {
        count += 1;
        if count == game {
            wanted = Some(read);
        }
    });
    match (wanted, read) {
        (Some(Ok(record)), read) => Ok(NthRecord {
            record,
            games: count,
            complete: read.is_ok(),
        }),
        (Some(Err(error)), _) => Err(error.into()),
        (None, Err(error)) => Err(error.into()),
        (None, Ok(_)) => Err(InputError::NoSuchGame {
            file: name.to_string(),
            games: count,
            game,
        }),
    }
}

/// `record` replayed on the engine `R` under the record's options: to its
/// end, or through its first `plies` plies.
pub fn replay_record<R: Rules>(record: &Record, plies: Option<usize>) -> Result<R, InputError> {
    let mut game = R::new_game(record.game_type, record_options(record));
    let wanted = record.moves.iter().take(plies.unwrap_or(usize::MAX));
    for (i, ply) in wanted.enumerate() {
        let played = game
            .parse_move(&ply.uhp)
            .map_err(PlyProblem::from)
            .and_then(|mv| play_explained(&mut game, mv).map_err(PlyProblem::from));
        if let Err(why) = played {
            return Err(InputError::IllegalPly {
                file: record.file.clone(),
                game: record.index,
                ply: i + 1,
                uhp: ply.uhp.clone(),
                line: ply.line,
                why: Box::new(why),
            });
        }
    }
    Ok(game)
}

/// One ply of a game of a record file, in the position before it.
#[derive(Clone, Debug)]
pub struct RecordPly {
    /// The record.
    pub record: Record,
    /// The ply's number, from 1.
    pub number: usize,
    /// The ply as the record writes it.
    pub ply: RecordedMove,
    /// The game before the ply, on the reference engine.
    pub game: ReferenceEngine,
    /// The ply's move in that position.
    pub mv: Move,
}

/// Ply `number` (1 = the first) of game `game` of the record file `path`,
/// with the position before it; the ply itself may be illegal there.
pub fn record_ply(path: &str, game: usize, number: usize) -> Result<RecordPly, InputError> {
    if number == 0 {
        return Err(InputError::PlyZero);
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
    if number == 0 {
        return Err(InputError::PlyZero);
    }
    let path = name;
    let (record, game) = record_game::<ReferenceEngine>(name, bytes, game, Some(number - 1))?;
    let ply = record
        .moves
        .get(number - 1)
        .cloned()
        .ok_or_else(|| InputError::NoSuchPly {
            file: path.to_string(),
            plies: record.moves.len(),
            ply: number,
        })?;
    let mv = game
        .parse_move(&ply.uhp)
        .map_err(|error| InputError::PlyDoesNotRead {
            ply: number,
            uhp: ply.uhp.clone(),
            line: ply.line,
            error,
        })?;
    Ok(RecordPly {
        record,
        number,
        ply,
        game,
        mv,
    })
}
