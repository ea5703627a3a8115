//! Checking other engines against the rules: `hive-oracle check` drives a
//! UHP engine through protocol probes, the case corpus and seeded random
//! games, compares everything it says with the reference engine, and
//! reports each cause of disagreement once.
//!
//! The check is a list of independent *units*: the protocol probes, each
//! corpus case, each random game, each game of the records given. A unit
//! starts from `newgame`, so its result does not depend on the units before
//! it; units run on `--jobs` engine processes (unit `i` on process
//! `i mod jobs`) and their results are merged in unit order. Nothing a unit
//! reports depends on time: the shrinker's budgets count work, game `i`'s
//! moves come from a ChaCha8 generator keyed by the seed, the game type and
//! `i` ([`given::seed::game_rng`]), and timings are kept apart in
//! [`findings::Report::timings`]. So the same engine, the same arguments
//! and the same version give the same JSON report, whatever the machine's
//! load (a wall-clock safety cap far above the normal cost of a shrink is
//! the one exception, and a finding it touched says so).
//!
//! Moves are always compared as absolute moves (§5.9), resolved in the
//! reference position with [`client::resolve_moves`], never as strings.
//!
//! ```no_run
//! use hive_oracle::check::given::{CheckOptions, Config};
//!
//! let options = CheckOptions::from_args(["--engine", "my-engine --uhp", "--games", "5"])?;
//! let report = hive_oracle::check::run(&Config::from_options(options)?)?;
//! println!("{}", hive_oracle::reports::check::text(&report));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The check is in four wings, each a folder using only the wings before
//! it, then three files:
//!
//! * [`client`]: the Universal Hive Protocol client, with a timeout on
//!   every command, which survives engines that crash, hang, print
//!   garbage, omit `ok`, write CRLF or exit early, and the engine of one
//!   job, restarted after a failure.
//! * [`findings`]: what a check finds and reports: one disagreement, its
//!   cause (each reproducible with one shell pipe), the report that holds
//!   them, which spellings an engine MAY refuse, the causes a baseline
//!   knows, and the reproduce files.
//! * [`given`]: what a check is given: the options (declared once, for the
//!   command line and for the library), checked into a [`given::Config`];
//!   the per-game generators, the case corpus (validated against the
//!   reference first), the games of the records given, the slice of a
//!   sharded run.
//! * `units`: the units, each starting with `newgame`: the engine's
//!   answers judged against the reference, the protocol probes, the corpus
//!   cases, the random games with their illegal-move probes and the
//!   shrinker of findings, the games of real records.
//! * `proof`, before the report: each cause's reproduce pipe run on a fresh
//!   engine, and kept only if it shows the finding again.
//! * `jobs` (units on `--jobs` processes) and [`run()`] (merged in a fixed
//!   order, graded against the baseline).
//!
//! The reports (text, JSON and its schema, JUnit, the merge of a sharded
//! check's reports) are [`crate::reports::check`].

pub mod client;
pub mod findings;
pub mod given;
mod jobs;
mod proof;
mod run;
mod units;

pub use run::run;
