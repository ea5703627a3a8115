//! Checking other engines against the rules: `hive-oracle check`.
//!
//! * [`client`]: a Universal Hive Protocol client that drives any UHP engine
//!   process with a timeout on every command and survives engines that
//!   crash, hang, print garbage, omit `ok`, write CRLF or exit early.
//! * [`checker`]: the check itself, as independent units (protocol probes,
//!   corpus cases, random games) run on `--jobs` engine processes, merged
//!   in a fixed order into a [`checker::Report`].
//! * [`finding`]: what a report says, one [`finding::FindingGroup`] per
//!   cause, each reproducible with one shell pipe.
//! * [`baseline`]: known findings a project accepts.
//! * [`leniency`]: which spellings an engine MAY refuse (advisory findings).
//! * [`shrink`]: shortens the game that shows a finding.
//! * [`report`]: text, JSON (with its schema) and JUnit.

pub mod baseline;
pub mod checker;
pub mod client;
mod corpus;
pub mod finding;
mod games;
pub mod leniency;
mod probes;
pub mod report;
mod session;
pub mod shrink;
