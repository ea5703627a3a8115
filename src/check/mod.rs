//! Checking other engines against the rules: `hive-oracle check`, split by
//! phase.
//!
//! * The session with the engine: [`client`] (a Universal Hive Protocol
//!   client with a timeout on every command, which survives engines that
//!   crash, hang, print garbage, omit `ok`, write CRLF or exit early; what
//!   it reads is in `answer`, its reader threads in `reader`), and
//!   `session` (the engine process of one job, restarted after a failure).
//! * The checks, each a unit that starts with `newgame`: `probes` (the
//!   protocol), `bestmove`, [`corpus`] (the case corpus, read from regular
//!   files and validated against the reference first), `games` (seeded
//!   random games); [`leniency`] says which spellings an engine MAY refuse.
//! * Shrinking: [`shrink`] (shorter legal games that still show a finding)
//!   and `shrinking` (showing them to the engine).
//! * The run: [`checker`] (what a check is given, and what the units share),
//!   [`run`] (units on `--jobs` processes, merged in a fixed order; the
//!   per-game generators).
//! * Findings and reports: [`finding`] (one [`finding::FindingGroup`] per
//!   cause, each reproducible with one shell pipe), [`baseline`] (known
//!   causes), [`summary`] (what a report holds) and [`report`] (text, JSON
//!   and its schema, JUnit).

mod answer;
pub mod baseline;
mod bestmove;
pub mod checker;
pub mod client;
pub mod corpus;
pub mod finding;
mod games;
pub mod leniency;
mod probes;
mod reader;
pub mod report;
pub mod run;
mod session;
pub mod shrink;
mod shrinking;
pub mod summary;
