//! What a replay report ends on, and what it does with a file that gave no
//! game: shared by the text and the JSON report.

use crate::input::RecordFileError;
use hive_oracle_rules::records::replay::ReplaySummary;

use crate::cli::output;

/// What a report ends on: its summary, whether a file was too large for
/// the memory at hand, and whether every write succeeded.
pub(super) struct Ended {
    pub(super) summary: ReplaySummary,
    pub(super) too_large: bool,
    pub(super) written: std::io::Result<()>,
}

/// What the reports do with a file that gave no game: one that is not a
/// record is listed in the summary; one too large for the memory at hand
/// is said on stderr at once, and the run ends with exit status 2.
pub(super) fn not_replayed(
    summary: &mut ReplaySummary,
    too_large: &mut bool,
    error: RecordFileError,
) {
    match error {
        RecordFileError::NotARecord(error) => summary.add_unreadable(error),
        RecordFileError::TooLarge(error) => {
            output::say(&format!("error: {error}"));
            *too_large = true;
        }
    }
}
