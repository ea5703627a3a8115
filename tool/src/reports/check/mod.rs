//! The reports of `hive-oracle check` ([`Report`], built by
//! [`crate::check::run`]): human text ending with the verdict line
//! ([`text`]), JSON ([`json`], whose schema is [`schema`], committed as
//! `spec/check-report.schema.json`), JUnit XML ([`junit`]), and the merge
//! of the JSON reports of a sharded check's shards into the report of the
//! whole check ([`merge()`]).
//!
//! The files: `text` (the text report, and what is shown of a cause),
//! `junit` (which shows a cause as the text report does) and `merge`.

mod junit;
mod merge;
mod text;

use crate::check::findings::Report;
use crate::reports::frame;

pub use junit::junit;
pub use merge::{merge, read_report, MergeError};
pub use text::{text, verdict_line};

/// The report as JSON (see [`schema`]).
pub fn json(report: &Report) -> String {
    frame::json(report)
}

/// The JSON Schema of the JSON report, generated from its types.
pub fn schema() -> String {
    frame::schema::<Report>()
}
