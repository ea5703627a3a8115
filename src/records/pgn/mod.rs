//! PGN-style Hive records, as Mzinga and hivegame.com write them
//! (§10.3, §10.4, §10.5, §10.6; the format and its quirks in
//! spec/sources/records-notes.md section 2): a tag section, then one
//! numbered ply per line, then for a finished game a result word. One file
//! may hold several games.
//!
//! [`read`] follows the recommended reader of spec/sources/records-notes.md section 2.8,
//! line by line:
//!
//! * `[Key "value"]` or `[Key value]`: a tag, in any order; every tag is
//!   kept in [`Record::tags`](super::Record::tags). A tag line after movetext (a ply or a result
//!   line) starts a new game.
//! * `{...}`: a comment, possibly over several lines, ending at the first
//!   `}`; also after a ply or a result on the same line. Comments are kept
//!   out of the moves and noted.
//! * `N. move` (`N.move` too): a ply. The numbers are not trusted: a number
//!   that is not the next one from 1 is noted and the plies are read in file
//!   order. Trailing blank space is allowed (hivegame writes `1. wL `).
//! * a result word (`WhiteWins`, `BlackWins`, `Draw`, `InProgress`,
//!   `NotStarted`, `Unknown`, `Unkown`, `Adjudicated`, `1-0`, `0-1`,
//!   `1/2-1/2`, `½-½`, `*`, in any letter case): the result line, which
//!   overrides the `Result` tag unless it says nothing (`Unknown`).
//! * anything else is an error naming the line and quoting it.
//!
//! Every ply is normalised to a standard UHP spelling (spec/notation.md
//! §9.29) without an engine, each change noted in [`Record::notes`](super::Record::notes):
//! numbered single pieces `wM1`, `bL1`, `wP1`, `wQ1` lose their `1` (mover
//! and reference); a first ply `wL .` loses its `.`; letters take the case
//! of the standard spelling and blank space becomes one space; `PASS` is
//! `pass`. Spellings that only a position can rewrite (a glyph pointing at
//! a stack, a covered piece as stack target, the mover as its own
//! reference) are kept as written: the engine resolves them (§9.24, §9.26,
//! §9.27). Every ply must be a MoveString (`parse_move`).
//!
//! [`write()`] and [`write_game`] print a record in Mzinga's style, which
//! [`read`] reads back to the same game.
//!
//! The files: `reader.rs` reads the lines; `game.rs` turns a game read into
//! its record (game type, result, opening, players); `ply.rs` normalises a
//! ply; `result.rs` holds the result words; `writer.rs` prints a record;
//! `quote.rs` quotes the file's text in messages.

mod game;
mod ply;
mod quote;
mod reader;
mod result;
mod writer;

pub use game::{MAX_GAMES_PER_FILE, MAX_NOTES_PER_GAME, MAX_RECORD_GAME_BYTES, MAX_TAGS_PER_GAME};
pub use reader::{read, read_each};
pub use writer::{tag_text, write, write_game, written_tag_value};
