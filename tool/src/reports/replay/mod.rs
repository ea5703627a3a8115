//! The reports of `hive-oracle replay`, written as the files come, in the
//! order of the files: text (`text`: the games with a problem, then the
//! unreadable files, the table by game type and the verdict line) and JSON
//! (`json`: every game, whose schema is committed as
//! `spec/replay-report.schema.json`). Both take each
//! file's games one by one and then its end ([`Piece`]), and end on the
//! same [`Ended`].

pub(crate) mod json;
pub(crate) mod text;

use crate::input::{RecordFileError, TooLargeForMemory};
use hive_oracle_rules::records::replay::{GameReport, ReplaySummary};
use hive_oracle_rules::records::RecordError;

/// One game of a file: replayed, or why it does not read (§10.16).
pub(crate) type GameResult = Result<GameReport, RecordError>;

/// How a file ended: every game of it given, or why it is not a record or
/// is too large for the memory at hand (found before any of its games).
pub(crate) type FileEnd = Result<(), RecordFileError>;

/// What the reports are given, file after file in the order of the files:
/// each game of a file as it is replayed, then the file's end.
pub(crate) enum Piece {
    Game(GameResult),
    End(FileEnd),
}

/// What a report ends on: its summary, whether a file was too large for
/// the memory at hand, and whether every write succeeded.
pub(crate) struct Ended {
    pub(crate) summary: ReplaySummary,
    pub(crate) too_large: bool,
    pub(crate) written: std::io::Result<()>,
}

/// What the reports do with a file that gave no game: one that is not a
/// record is listed in the summary; one too large for the memory at hand
/// is given back, to be said on stderr at once, and the run ends with exit
/// status 2.
fn not_replayed(
    summary: &mut ReplaySummary,
    too_large: &mut bool,
    error: RecordFileError,
) -> Result<(), TooLargeForMemory> {
    match error {
        RecordFileError::NotARecord(error) => {
            summary.add_unreadable(error);
            Ok(())
        }
        RecordFileError::TooLarge(error) => {
            *too_large = true;
            Err(error)
        }
    }
}
