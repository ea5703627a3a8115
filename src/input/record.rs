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
    // §10.16: the game asked for reads even when another game of the file
    // does not; the games after it are counted, not kept
    if super::archive::is_zip(bytes) {
        // §10.20: an archive is read by `replay`, as a folder
        let message = "a zip archive, not a record file: `replay` reads the records in it";
        return Err(records::RecordError::new(name, 0, message).into());
    }
    let text = records::decode(bytes);
    let mut games = 0;
    let mut wanted = None;
    records::read_each(name, &text, &mut |read| {
        games += 1;
        if games == game {
            wanted = Some(read);
        }
    })?;
    let record = wanted.ok_or_else(|| InputError::NoSuchGame {
        file: name.to_string(),
        games,
        game,
    })??;
    // The GameString limit holds for a game read from a record too (the
    // PGN reader refuses such a game as it reads; an SGF one is caught here).
    let game_string_bytes: usize = record.moves.iter().map(|m| m.uhp.len() + 1).sum();
    if game_string_bytes > MAX_GAME_STRING_BYTES {
        return Err(InputError::GameStringTooLong {
            bytes: game_string_bytes,
        });
    }
    let replayed = replay_record(&record, plies)?;
    Ok((record, replayed))
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

/// One ply of a record file's first game, in the position before it.
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

/// Ply `number` (1 = the first) of the first game of the record file
/// `path`, with the position before it; the ply itself may be illegal there.
pub fn record_ply(path: &str, number: usize) -> Result<RecordPly, InputError> {
    if number == 0 {
        return Err(InputError::PlyZero);
    }
    record_ply_in(path, &read_record_file(path)?, number)
}

/// [`record_ply`] for a record already in memory (one read from stdin):
/// `name` stands for the file in messages.
pub fn record_ply_in(name: &str, bytes: &[u8], number: usize) -> Result<RecordPly, InputError> {
    if number == 0 {
        return Err(InputError::PlyZero);
    }
    let path = name;
    let (record, game) = record_game::<ReferenceEngine>(name, bytes, 1, Some(number - 1))?;
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
