//! Checking other engines against the rules: `hive-oracle check` drives a
//! UHP engine through protocol probes, the case corpus and seeded random
//! games, compares everything it says with the reference engine, and
//! reports each cause of disagreement once.
//!
//! The check is a list of independent *units*: the protocol probes, each
//! corpus case, each random game, each game of the records given. A unit starts from `newgame`, so its
//! result does not depend on the units before it; units run on `--jobs`
//! engine processes (unit `i` on process `i mod jobs`) and their results are
//! merged in unit order. Nothing a unit reports depends on time: the
//! shrinker's budgets count work, game `i`'s moves come from a ChaCha8
//! generator keyed by the seed, the game type and `i`
//! ([`seed::game_rng`]), and timings are kept apart in
//! [`summary::Report::timings`]. So the same engine, the same arguments and
//! the same version give the same JSON report, whatever the machine's load
//! (a wall-clock safety cap far above the normal cost of a shrink is the
//! one exception, and a finding it touched says so).
//!
//! Moves are always compared as absolute moves (§5.9), resolved in the
//! reference position with [`client::resolve_moves`], never as strings.
//!
//! The files form layers, each using only the files listed before it:
//!
//! * The protocol client: `reader` (the reader threads and the bound on a
//!   line), `process` (the engine's process, in a group of its own),
//!   `command_line` (the engine's command line, in shell syntax), `answer`
//!   (what an engine answers, and the [`client::ClientError`]s of talking to
//!   it), [`client`] (a Universal Hive Protocol client with a timeout on
//!   every command, which survives engines that crash, hang, print garbage,
//!   omit `ok`, write CRLF or exit early) and `session` (the engine of one
//!   job, restarted after a failure).
//! * Findings: `quote` (engine output as reports quote it, reproduce pipes),
//!   `verdict` (what the rules say about a finding's moves), [`finding`] (one
//!   disagreement), [`group`] (one cause, each reproducible with one shell
//!   pipe), [`summary`] (what a report holds), [`leniency`] (which spellings
//!   an engine MAY refuse), [`baseline`] (known causes) and [`reproduce`]
//!   (each proven pipe's input written to a file, with its POSIX shell and
//!   PowerShell commands).
//! * What a check is given: [`seed`] (the per-game generators), `lines` (the
//!   lines sent to an engine), [`corpus`] (the case corpus, read from
//!   regular files and validated against the reference first), [`record_set`]
//!   (the games of the records given, read before the run), [`shard`]
//!   (the slice of the units a `--shard I/N` run takes) and [`config`] (the
//!   options, checked).
//! * The units, each starting with `newgame`: `judge` (an engine's answers
//!   against the reference), `worker` (the engine of one job and the record
//!   of its unit), then the runners: `bestmove`, `probes` (the protocol
//!   unit, a table of probes), `case_engine` and `case_unit` (the corpus
//!   through the crate's one case runner), [`shrink`] (shorter legal games
//!   that still show a finding) and `shrinking` (showing them to the
//!   engine), `illegal` and `games` (seeded random games), `record_unit`
//!   (the games of real records replayed, `--records`).
//! * Before the report: `proof` (each cause's reproduce pipe run on a
//!   fresh engine, and kept only if it shows the finding again).
//! * The run and the reports: `jobs` (units on `--jobs` processes), [`run`]
//!   (merged in a fixed order, graded), [`report`] (text, JSON and its
//!   schema, JUnit) and [`merge`] (the reports of a check's shards merged
//!   into the report of the whole check).

mod answer;
pub mod baseline;
mod bestmove;
mod case_engine;
mod case_unit;
pub mod client;
mod command_line;
pub mod config;
pub mod corpus;
pub mod finding;
mod games;
pub mod group;
mod illegal;
mod jobs;
mod judge;
pub mod leniency;
mod lines;
pub mod merge;
mod probes;
mod process;
mod process_tree;
mod proof;
pub mod quote;
mod reader;
pub mod record_set;
mod record_unit;
pub mod report;
pub mod reproduce;
pub mod run;
pub mod seed;
mod session;
pub mod shard;
pub mod shrink;
mod shrinking;
pub mod summary;
pub mod verdict;
mod worker;
