//! Deliberate faults for testing `hive-oracle check`: the hidden option
//! `hive-oracle uhp --fault NAME` makes our own UHP engine wrong in one
//! known way, so that tests can assert the checker finds each fault.
//!
//! # Test support behind the `faults` feature
//!
//! This module exists only with the non-default Cargo feature `faults`. It
//! is test support, not part of the rules: no default build has it, and the
//! `hive-oracle` tool has the `--fault` option only with its own `faults`
//! feature, which turns this one on. The test suites turn the features on
//! through dev-dependencies of the packages on themselves (this package's
//! `tests/uhp_faults.rs` drives a [`FaultySession`] in process; the tool's
//! checker tests run `hive-oracle uhp --fault NAME` as an engine).
//!
//! # A decorator around the real session
//!
//! The real session ([`Session`](crate::uhp::Session)) holds no fault. A
//! [`FaultySession`] wraps one: it passes every line on to it, except the
//! few commands that its fault answers otherwise, and rewrites the answers
//! where the fault shows. The tool's `hive-oracle uhp --fault NAME` drives
//! it with the real loop ([`serve`](crate::uhp::serve)), adding the faults
//! that end or block the process, which need a process of their own and so
//! are the tool's. The session lends the
//! decorator its answers, its options and its game, and two crate-private
//! points that exist only with the feature: the game to change in place (to
//! apply a move the rules refuse) and to replace.
//!
//! Why a decorator rather than a separate binary target: a fault must leave
//! everything else exactly as the real engine has it (the parsing, the
//! search, the messages, the framing), so that the checker's tests show that
//! this one fault is caught and nothing else is reported. A decorator gets
//! that by construction, since every command it does not intercept is the
//! real session's. A second binary would still need this code, and would
//! add a target that the tests and installs must find or avoid, while
//! `uhp --fault NAME` stays the command the tests already run.
//!
//! Where a fault shows: the `validmoves` list, what `play` (and `newgame
//! GameString`) accepts, the GameString printed, the `bestmove` answer, the
//! rules options and the `options` lines, what a refused `newgame` leaves
//! behind, and the session loop (framing, exit, hang). A rule fault's extra
//! moves are computed on the reference position with the reference engine's
//! building blocks, printed in canonical notation and, when played, applied
//! without checking (`play_unchecked`). Every fault is deterministic (for
//! random-crash, given the process id). The faults of the process and its
//! streams (floods, a huge line, escape codes, noise on stderr, crashes)
//! play a hostile engine: the checker must survive them with bounded time
//! and memory, and keep the terminal clean.
//!
//! # Files
//!
//! Each file uses only those above it:
//!
//! * `table.rs`: every fault named once, with its name, area and summary;
//! * `rules.rs`: the rule faults: the moves they add and how they play;
//! * `notation.rs`: what the engine prints (`validmoves`, the GameString)
//!   and the letter case it reads;
//! * `bestmove.rs`: an illegal answer, or a late one;
//! * `session.rs`: the decorator, [`FaultySession`].
//!
//! The faults of the process and its streams (exits, hangs, floods, stderr)
//! are named in the table here and act in the tool
//! (`tool/src/cli/faulty_process.rs`).

mod bestmove;
mod notation;
mod rules;
mod session;
mod table;

pub use notation::ESCAPE_CODES;
pub use session::FaultySession;
pub use table::{Area, Fault, UnknownFault};

/// The moves a fault adds in a position, for the tests of the tool's
/// shrinker, which shrink games that show a fault.
pub use rules::extra_moves;
