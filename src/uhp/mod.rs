//! A Universal Hive Protocol engine (`hive-oracle uhp`): the commands of
//! `spec/sources/uhp-notes.md` on either engine, answering every line and surviving any
//! input. The protocol choices where UHP engines disagree are recorded in
//! `spec/notation.md`, "UHP engine conventions".
//!
//! [`Session`] is the pure core: [`Session::handle_line`] takes one raw input
//! line and returns the response lines, ending with `ok`; [`run`] wraps it in
//! a loop over stdin and stdout, and [`serve`] runs that loop on anything
//! that answers lines the same way ([`LineHandler`]).
//!
//! The files, each using only those above it:
//!
//! * `reply.rs`: how an answer or a refusal is written, user input quoted;
//! * `arguments.rs`: the words of a command line and `bestmove`'s limits;
//! * `game.rs`: the game, on the fast or the reference engine ([`Game`]);
//! * `options.rs`: the engine options and their lines ([`Options`]);
//! * `session.rs`: the session and its commands ([`Session`]);
//! * `serve.rs`: the loop over the input and output streams.
//!
//! ```
//! use hive_oracle_rules::uhp::{EngineChoice, Session};
//!
//! let mut session = Session::new(EngineChoice::Fast);
//! assert_eq!(session.handle_line(b"newgame Base"), ["Base;NotStarted;White[1]", "ok"]);
//! assert_eq!(session.handle_line(b"play wS1"), ["Base;InProgress;Black[1];wS1", "ok"]);
//! assert_eq!(session.handle_line(b"undo"), ["Base;NotStarted;White[1]", "ok"]);
//! ```

pub(crate) mod arguments;
mod game;
mod options;
pub(crate) mod reply;
mod serve;
mod session;

pub use arguments::MAX_SEARCH_TIME;
pub use game::{EngineChoice, Game, GameError};
pub use options::{OptionError, OptionName, Options};
pub use serve::{run, run_session_with_reader, run_with_reader, serve, LineHandler};
pub use session::{Session, ID, MAX_LINE_BYTES};
