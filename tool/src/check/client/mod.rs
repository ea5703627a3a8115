//! A Universal Hive Protocol client: drives an engine process over its stdin
//! and stdout, one command at a time, following the client checklist of
//! `spec/sources/uhp-notes.md` (section 8).
//!
//! Every read has a deadline: the engine's stdout is read on a background
//! thread that forwards whole lines over a channel, so an engine that hangs
//! turns into [`ClientError::Timeout`] instead of blocking the caller, and one
//! that dies turns into [`ClientError::Exited`] with whatever it printed
//! first. Lines are split on `\n` with a trailing `\r` removed (CRLF engines
//! work); bytes that are not UTF-8 are replaced (lossily) and flagged in
//! [`Response::garbled`], never a panic. After a timeout, a crash or a
//! framing error the client is *defunct*: the engine's state is unknown, so
//! every later command fails at once with [`ClientError::Defunct`].
//!
//! What an engine prints is bounded: a line is kept up to
//! [`MAX_LINE_BYTES`], and one answer (with the lines printed before it
//! unasked) up to [`MAX_ANSWER_BYTES`] and [`MAX_ANSWER_LINES`]; beyond
//! them the engine is flooding ([`ClientError::Flood`]), and is ended.
//!
//! The engine runs in a process group of its own, and the whole group is
//! killed when the client is dropped, so that nothing it started (a wrapper
//! script's engine, a background job) is left running; [`UhpClient::exit`]
//! asks it politely first. An engine whose process exits while something it
//! started keeps its stdout open is reported as such
//! ([`ClientError::OutputHeldOpen`]), not as a hang.
//!
//! The files, each using only those before it: `reader` (the reader
//! threads and the bound on a line), `process_tree` (the engine's process
//! tree, ended as a whole), `process` (the engine's process, in a tree of
//! its own), `command_line` (the engine's command line, in shell syntax),
//! `answer` (what an engine answers, and the [`ClientError`]s of talking to
//! it), `uhp_client` (the client, [`UhpClient`]) and `session` (the engine
//! of one job of a check, restarted after a failure).
//!
//! ```no_run
//! use std::time::Duration;
//! use hive_oracle::check::client::UhpClient;
//!
//! let mut engine = UhpClient::spawn("target/release/hive-oracle uhp", Duration::from_secs(5))?;
//! println!("{} supports {:?}", engine.id(), engine.capabilities());
//! engine.newgame("Base")?;
//! let moves = engine.validmoves()?;
//! assert_eq!(moves.len(), 4);
//! engine.exit();
//! # Ok::<(), hive_oracle::check::client::ClientError>(())
//! ```

pub(crate) mod answer;
pub(crate) mod command_line;
mod process;
mod process_tree;
mod reader;
pub(crate) mod session;
mod uhp_client;

pub use answer::{
    resolve_counted, resolve_moves, Capabilities, ClientError, Response, Shutdown, STARTUP,
};
pub(crate) use command_line::split_command_line;
pub use command_line::CommandLineError;
pub use process::EXIT_GRACE;

/// Makes Ctrl-C and SIGTERM end every engine process the check started,
/// then the check itself with status 130 or 143 (the command line calls it
/// before a check; a library caller decides for itself).
pub fn end_engines_on_interrupt() {
    process_tree::on_interrupt::install();
}
pub use reader::MAX_LINE_BYTES;
pub use uhp_client::{UhpClient, MAX_ANSWER_BYTES, MAX_ANSWER_LINES, MAX_LISTED_MOVES};
