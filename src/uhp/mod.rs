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
//! ```
//! use hive_oracle::uhp::{EngineChoice, Session};
//!
//! let mut session = Session::new(EngineChoice::Fast);
//! assert_eq!(session.handle_line(b"newgame Base"), ["Base;NotStarted;White[1]", "ok"]);
//! assert_eq!(session.handle_line(b"play wS1"), ["Base;InProgress;Black[1];wS1", "ok"]);
//! assert_eq!(session.handle_line(b"undo"), ["Base;NotStarted;White[1]", "ok"]);
//! ```

mod game;
mod options;

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use crate::core::notation::parse_game_type;
use crate::core::GameType;
use crate::search::{self, SearchLimits, TranspositionTable};

pub use game::Game;
pub use options::{OptionName, Options};

/// The first line of `info` and of the start-up banner (spec/sources/uhp-notes.md section 2.1).
pub const ID: &str = concat!("id hive-oracle ", env!("CARGO_PKG_VERSION"));
/// The capabilities line: every expansion piece is supported (spec/sources/uhp-notes.md section 2.1).
pub(crate) const CAPABILITIES: &str = "Mosquito;Ladybug;Pillbug";
/// Input lines longer than this (1 MiB, line ending included) are refused
/// unread (their bytes are skipped). It bounds the GameString of `newgame`:
/// about 100,000 plies, hundreds of times the longest game played, loaded
/// in about a second on the reference engine (0.1 s on the fast one).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The longest budget of `bestmove time`: 24:00:00.
pub const MAX_SEARCH_TIME: Duration = Duration::from_secs(24 * 3600);

/// The longest quotation of user input in a message, in characters.
const QUOTE_LIMIT: usize = 60;

/// Which engine holds the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// The fast engine (src/fast/).
    Fast,
    /// The reference engine (src/reference/).
    Reference,
}

impl EngineChoice {
    /// The value of the `Engine` option.
    pub fn name(self) -> &'static str {
        match self {
            EngineChoice::Fast => "Fast",
            EngineChoice::Reference => "Reference",
        }
    }
}

/// Why a command failed: `err` or `invalidmove` (spec/sources/uhp-notes.md section 2.3).
pub(crate) enum Failure {
    Err(String),
    InvalidMove(String),
}

/// The outcome of one command: its lines (without `ok`) or its refusal.
pub(crate) type Reply = Result<Vec<String>, Failure>;

fn err<T>(message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure::Err(message.into()))
}

/// Quotes user input for a message: at most [`QUOTE_LIMIT`] characters,
/// control characters and blanks other than the space escaped.
pub(crate) fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_LIMIT {
            out.push('…');
            break;
        }
        if c.is_control() || (c.is_whitespace() && c != ' ') {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// A UHP engine session: the options, the game (none until `newgame`) and
/// the search's transposition table.
pub struct Session {
    options: Options,
    game: Option<Game>,
    /// Allocated by the first `bestmove`, so that start-up stays fast.
    table: Option<TranspositionTable>,
    exited: bool,
    /// When the line being handled was read: `bestmove time` counts its
    /// budget from there.
    line_read_at: Instant,
    /// Set by the reader of [`run_with_reader`] when the input ends: it
    /// stops a running `bestmove time` search.
    input_closed: Option<Arc<AtomicBool>>,
}

impl Session {
    /// A session with default options on the given engine and no game.
    pub fn new(engine: EngineChoice) -> Session {
        Session {
            options: Options::new(engine),
            game: None,
            table: None,
            exited: false,
            line_read_at: Instant::now(),
            input_closed: None,
        }
    }

    /// What the engine prints at start-up: the `info` lines and `ok`.
    pub fn banner(&self) -> Vec<String> {
        vec![ID.to_string(), CAPABILITIES.to_string(), "ok".to_string()]
    }

    /// The GameString of the current game, `None` before the first `newgame`.
    pub fn game_string(&self) -> Option<String> {
        self.game.as_ref().map(Game::game_string)
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The game, if any.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The game, if any, to change in place. The caller keeps its engine
    /// and its rules those of the options. (For the fault decorator.)
    #[cfg(feature = "faults")]
    pub(crate) fn game_mut(&mut self) -> Option<&mut Game> {
        self.game.as_mut()
    }

    /// Replaces the game. The caller gives it the engine and the rules of
    /// the options (as `newgame` does). (For the fault decorator.)
    #[cfg(feature = "faults")]
    pub(crate) fn replace_game(&mut self, game: Game) {
        self.game = Some(game);
    }

    /// Whether `exit` has been received; the session then answers nothing.
    pub fn has_exited(&self) -> bool {
        self.exited
    }

    /// Handles one input line (with or without its line ending) and returns
    /// the response: zero or more lines and `ok`. A blank line and `exit`
    /// get no response at all.
    pub fn handle_line(&mut self, line: &[u8]) -> Vec<String> {
        self.handle_line_read_at(line, Instant::now())
    }

    /// [`Session::handle_line`] for a line read at `read_at`: the budget of
    /// `bestmove time` counts from then.
    pub fn handle_line_read_at(&mut self, line: &[u8], read_at: Instant) -> Vec<String> {
        self.line_read_at = read_at;
        if self.exited {
            return Vec::new();
        }
        let trimmed = line.trim_ascii();
        if trimmed.is_empty() {
            return Vec::new();
        }
        let result = match std::str::from_utf8(trimmed) {
            Ok(text) => self.command(text),
            Err(e) => err(format!(
                "the line is not valid UTF-8 (bad byte at offset {}); UHP commands are ASCII",
                e.valid_up_to()
            )),
        };
        if self.exited {
            return Vec::new();
        }
        response(result)
    }

    /// The response to a line longer than [`MAX_LINE_BYTES`], which is not read.
    pub(crate) fn long_line_reply(&self) -> Vec<String> {
        vec![
            format!("err the line is longer than {MAX_LINE_BYTES} bytes and was skipped"),
            "ok".to_string(),
        ]
    }

    fn command(&mut self, text: &str) -> Reply {
        let (keyword, args) = command_words(text);
        match keyword.as_str() {
            "info" => {
                no_arguments("info", &args)?;
                Ok(vec![ID.to_string(), CAPABILITIES.to_string()])
            }
            "newgame" => self.newgame(&args.join(" ")),
            "play" => {
                if args.is_empty() {
                    return err("play needs a MoveString, such as \"play wS1\" or \"play pass\"");
                }
                self.play(&args.join(" "))
            }
            "pass" => {
                no_arguments("pass", &args)?;
                self.play("pass")
            }
            "validmoves" => {
                no_arguments("validmoves", &args)?;
                self.validmoves()
            }
            "bestmove" => self.bestmove(&args),
            "undo" => self.undo(&args),
            "options" => self.options_command(&args),
            "exit" => {
                no_arguments("exit", &args)?;
                self.exited = true;
                Ok(Vec::new())
            }
            _ => err(format!(
                "unknown command {}: the commands are info, newgame, play, pass, validmoves, bestmove, undo, options and exit",
                quote(&keyword)
            )),
        }
    }

    /// `newgame`, `newgame GameTypeString` or `newgame GameString`
    /// (spec/sources/uhp-notes.md section 5.2). A refusal keeps the previous game.
    fn newgame(&mut self, arg: &str) -> Reply {
        let game = self.new_game(arg)?;
        let text = game.game_string();
        self.game = Some(game);
        Ok(vec![text])
    }

    /// The game a `newgame` argument asks for. The argument is a
    /// GameTypeString when it reads as one (§9.15), otherwise a GameString (§9.31).
    fn new_game(&self, arg: &str) -> Result<Game, Failure> {
        let engine = self.options.engine;
        let rules = self.options.rules();
        if arg.is_empty() {
            return Ok(Game::new(engine, GameType::BASE, rules));
        }
        Ok(match parse_game_type(arg) {
            Ok(game_type) => Game::new(engine, game_type, rules),
            Err(type_error) if !arg.contains(';') => return err(type_error.to_string()),
            Err(_) => Game::load(engine, arg, rules).map_err(Failure::Err)?,
        })
    }

    /// `play MoveString` and `pass` (spec/sources/uhp-notes.md sections 5.3 and 5.4).
    fn play(&mut self, text: &str) -> Reply {
        let game = live(&self.game)?;
        let mv = game
            .parse_move(text)
            .map_err(|e| Failure::InvalidMove(e.to_string()))?;
        let Some(game) = self.game.as_mut() else {
            return err("no game in progress: start one with newgame");
        };
        game.play(mv).map_err(Failure::InvalidMove)?;
        Ok(vec![game.game_string()])
    }

    /// `validmoves`: the legal moves, canonical (§9.30), sorted, `;`-separated.
    fn validmoves(&self) -> Reply {
        let game = live(&self.game)?;
        Ok(vec![game.valid_move_strings().join(";")])
    }

    /// `bestmove depth N` and `bestmove time hh:mm:ss` (spec/sources/uhp-notes.md section 5.6).
    /// The budget of a time search counts from the moment the line was read,
    /// so the copy of a game held by the reference engine and the first
    /// allocation of the table are spent from it; the end of the input
    /// (with [`run_with_reader`]) stops a time search as the budget would.
    /// A depth search, bounded by `MaxDepth`, always runs to its end.
    fn bestmove(&mut self, args: &[&str]) -> Reply {
        let started = self.line_read_at;
        let limits = search_limits(args, self.options.max_depth)?;
        let game = live(&self.game)?;
        let copy;
        let fast = match game {
            Game::Fast(fast) => fast,
            Game::Reference(_) => {
                copy = game.to_fast().map_err(Failure::Err)?;
                &copy
            }
        };
        let size = self.options.table_size_mib as usize;
        // A depth search ignores what earlier searches stored, so it is
        // deterministic; a time search profits from it.
        let table = self
            .table
            .get_or_insert_with(|| TranspositionTable::new(size));
        let stop = match limits.time {
            Some(_) => self.input_closed.as_deref(),
            None => None,
        };
        let Some(result) = search::best_move_from(fast, &limits, table, started, stop) else {
            return err("the search found no move");
        };
        if !game.legal_moves().contains(&result.best) {
            return err(format!(
                "the search chose an illegal move ({}): please report it",
                result.best
            ));
        }
        Ok(vec![game.move_string(result.best)])
    }

    /// `undo [n]`: takes back 1 ≤ n ≤ plies plies (spec/sources/uhp-notes.md section 5.7).
    fn undo(&mut self, args: &[&str]) -> Reply {
        let count = match args {
            [] => Some(1),
            [n] if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                n.parse::<usize>().ok()
            }
            _ => {
                return err(format!(
                    "undo takes a whole number of plies, not {}",
                    quote(&args.join(" "))
                ))
            }
        };
        let game = current(&self.game)?;
        let plies = game.plies();
        if plies == 0 {
            return err("nothing to undo: no move has been played");
        }
        let count = match count {
            Some(n) if (1..=plies).contains(&n) => n,
            _ => {
                return err(format!(
                    "undo takes a number of plies from 1 to {plies}, not {}",
                    quote(args.first().copied().unwrap_or("1"))
                ))
            }
        };
        let Some(game) = self.game.as_mut() else {
            return err("no game in progress: start one with newgame");
        };
        for _ in 0..count {
            game.undo();
        }
        Ok(vec![game.game_string()])
    }

    /// `options`, `options get Name`, `options set Name Value` (spec/sources/uhp-notes.md section 5.8).
    fn options_command(&mut self, args: &[&str]) -> Reply {
        match args {
            [] => Ok(self.options.lines()),
            [get, name] if get.eq_ignore_ascii_case("get") => {
                let name = OptionName::parse(name).map_err(Failure::Err)?;
                Ok(vec![self.options.line(name)])
            }
            [set, name, value] if set.eq_ignore_ascii_case("set") => self.set_option(name, value),
            _ => err(format!(
                "options takes nothing, \"get Name\" or \"set Name Value\", not {}",
                quote(&args.join(" "))
            )),
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Reply {
        let name = OptionName::parse(name).map_err(Failure::Err)?;
        let next = options::with_value(&self.options, name, value).map_err(Failure::Err)?;
        let mut game = self.game.clone();
        if next != self.options {
            if let Some(current) = &game {
                if name.is_rule() {
                    // §4.2, §8.7.2: the rules of a game are fixed once a move is played
                    if current.plies() > 0 {
                        return err(format!(
                            "{} cannot change in the middle of a game ({} plies played): start a new game with newgame, then set it",
                            name.text(),
                            current.plies()
                        ));
                    }
                    game = Some(Game::new(
                        current.engine(),
                        current.game_type(),
                        next.rules(),
                    ));
                } else if name == OptionName::Engine {
                    game = Some(current.switched(next.engine).map_err(Failure::Err)?);
                }
            }
            if name == OptionName::TableSizeMiB {
                // Allocated (and filled) now rather than by the next
                // `bestmove`, whose time budget must not pay for 1 GiB of it.
                self.table = None;
                self.table = Some(TranspositionTable::new(next.table_size_mib as usize));
            }
        }
        self.options = next;
        self.game = game;
        Ok(vec![self.options.line(name)])
    }
}

/// The game, or `err` when there is none.
fn current(game: &Option<Game>) -> Result<&Game, Failure> {
    match game {
        Some(game) => Ok(game),
        None => err("no game in progress: start one with newgame"),
    }
}

/// The game if moves can be played in it: `err` when there is none or when
/// it is over (§8.5).
fn live(game: &Option<Game>) -> Result<&Game, Failure> {
    let game = current(game)?;
    let state = game.state();
    if state.is_over() {
        // §8.5 no move is legal once the game has ended
        return err(format!(
            "the game is over ({state}): start a new game with newgame, or take moves back with undo (§8.5)"
        ));
    }
    Ok(game)
}

/// The keyword of a command line, lower-cased, and its arguments.
pub(crate) fn command_words(text: &str) -> (String, Vec<&str>) {
    let mut tokens = text.split_ascii_whitespace();
    let keyword = tokens.next().unwrap_or_default().to_ascii_lowercase();
    (keyword, tokens.collect())
}

/// The response to a command: its lines, or its refusal as one `err` or
/// `invalidmove` line, every control character escaped, then `ok`.
pub(crate) fn response(result: Reply) -> Vec<String> {
    let mut out = match result {
        Ok(lines) => lines,
        Err(Failure::Err(message)) => vec![format!("err {message}")],
        Err(Failure::InvalidMove(message)) => vec![format!("invalidmove {message}")],
    };
    for line in &mut out {
        *line = printable(line);
    }
    out.push("ok".to_string());
    out
}

/// The limits of `bestmove depth N` or `bestmove time hh:mm:ss` (spec/sources/uhp-notes.md
/// section 5.6), a depth capped at `max_depth`.
pub(crate) fn search_limits(args: &[&str], max_depth: u32) -> Result<SearchLimits, Failure> {
    let usage = "bestmove takes \"depth N\" or \"time hh:mm:ss\"";
    Ok(match args {
        [kind, value] if kind.eq_ignore_ascii_case("depth") => SearchLimits {
            depth: Some(parse_depth(value, max_depth)?),
            time: None,
        },
        [kind, value] if kind.eq_ignore_ascii_case("time") => SearchLimits {
            depth: None,
            time: Some(parse_time(value)?),
        },
        [] => return err(format!("{usage}; a search without a limit is not offered")),
        _ => return err(format!("{usage}, not {}", quote(&args.join(" ")))),
    })
}

/// `err` when a command that takes no argument gets one.
fn no_arguments(command: &str, args: &[&str]) -> Result<(), Failure> {
    if args.is_empty() {
        Ok(())
    } else {
        err(format!(
            "{command} takes no argument, not {}",
            quote(&args.join(" "))
        ))
    }
}

/// A search depth: a positive whole number, capped at `max` (huge values included).
fn parse_depth(text: &str, max: u32) -> Result<u32, Failure> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return err(format!(
            "the depth must be a whole number of plies, not {}",
            quote(text)
        ));
    }
    if text.bytes().all(|b| b == b'0') {
        return err("the depth must be at least 1");
    }
    // Digits only and not zero: anything that does not fit is above the cap.
    Ok(text.parse::<u32>().map_or(max, |depth| depth.min(max)))
}

/// A time budget `hh:mm:ss`: three `:`-separated whole numbers, minutes and
/// seconds below 60, from 00:00:01 to 24:00:00 ([`MAX_SEARCH_TIME`]).
fn parse_time(text: &str) -> Result<Duration, Failure> {
    let problem = || {
        Failure::Err(format!(
            "the time must be hh:mm:ss from 00:00:01 to 24:00:00, minutes and seconds below 60, such as 00:00:05, not {}",
            quote(text)
        ))
    };
    let fields: Vec<&str> = text.split(':').collect();
    let [hours, minutes, seconds] = fields.as_slice() else {
        return Err(problem());
    };
    let mut total: u64 = 0;
    for (field, unit, below) in [(hours, 3600, 25), (minutes, 60, 60), (seconds, 1, 60)] {
        if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
            return Err(problem());
        }
        // digits only: a value that does not fit is out of range too
        let value: u64 = field.parse().map_err(|_| problem())?;
        if value >= below {
            return Err(problem());
        }
        total += value * unit;
    }
    let budget = Duration::from_secs(total);
    if total == 0 || budget > MAX_SEARCH_TIME {
        return Err(problem());
    }
    Ok(budget)
}

/// A response line with every control character escaped, so that no input
/// echoed in a message can break the line framing.
fn printable(line: &str) -> String {
    if !line.chars().any(char::is_control) {
        return line.to_string();
    }
    line.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The outcome of reading one line.
enum Read {
    Eof,
    Line,
    TooLong,
}

/// Reads one line, its `\n` included, into `line` (cleared first); a line
/// longer than `max` bytes is skipped to its end and reported as too long.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<Read> {
    line.clear();
    let mut seen = 0usize;
    let mut too_long = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(match (seen, too_long) {
                (0, _) => Read::Eof,
                (_, true) => Read::TooLong,
                _ => Read::Line,
            });
        }
        let (length, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        seen = seen.saturating_add(length);
        if !too_long {
            if line.len() + length > max {
                too_long = true;
                line.clear();
                line.shrink_to_fit();
            } else {
                line.extend_from_slice(&buffer[..length]);
            }
        }
        input.consume(length);
        if done {
            return Ok(if too_long { Read::TooLong } else { Read::Line });
        }
    }
}

fn write_lines(output: &mut impl Write, lines: &[String]) -> io::Result<()> {
    for line in lines {
        output.write_all(line.as_bytes())?;
        output.write_all(b"\n")?;
    }
    output.flush()
}

/// What [`serve`] drives: a UHP engine that answers one input line at a
/// time. [`Session`] is the real one; a type that wraps a `Session` to
/// change some of its answers runs in the same loop.
pub trait LineHandler {
    /// What the engine prints at start-up: the `info` lines and `ok`.
    fn banner(&self) -> Vec<String>;
    /// The response to one input line (with or without its line ending):
    /// zero or more lines and `ok`, nothing for a blank line or `exit`.
    fn handle_line(&mut self, line: &[u8]) -> Vec<String>;
    /// The response to a line longer than [`MAX_LINE_BYTES`], which is not read.
    fn long_line_reply(&self) -> Vec<String>;
    /// Whether `exit` has been received; nothing more is read then.
    fn has_exited(&self) -> bool;
}

impl LineHandler for Session {
    fn banner(&self) -> Vec<String> {
        Session::banner(self)
    }

    fn handle_line(&mut self, line: &[u8]) -> Vec<String> {
        Session::handle_line(self, line)
    }

    fn long_line_reply(&self) -> Vec<String> {
        Session::long_line_reply(self)
    }

    fn has_exited(&self) -> bool {
        Session::has_exited(self)
    }
}

/// Runs a UHP session: prints the banner, then answers each input line,
/// flushing after every response, until `exit` or the end of the input.
/// Only an I/O error on the streams ends it early.
pub fn run(input: impl BufRead, output: impl Write, engine: EngineChoice) -> io::Result<()> {
    serve(input, output, Session::new(engine))
}

/// One input line as the reader thread of [`run_with_reader`] hands it over.
enum Received {
    Line(Vec<u8>, Instant),
    TooLong,
}

/// Runs a UHP session like [`run`], with the input read on a thread of its
/// own (the `hive-oracle uhp` command). The reader hands over one line at a
/// time and reads the next while the session answers; when the input ends
/// it sets a flag that stops a running `bestmove time` search at once (its
/// best move so far is printed, as when the budget runs out), so an engine
/// whose client has gone does not search on for hours. A `bestmove depth`
/// search, bounded by `MaxDepth`, runs to its end, so that a script piped
/// in gets the same answers as an interactive client. `bestmove time`
/// counts its budget from the moment the reader read the line.
pub fn run_with_reader(
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
    engine: EngineChoice,
) -> io::Result<()> {
    let mut session = Session::new(engine);
    let closed = Arc::new(AtomicBool::new(false));
    session.input_closed = Some(Arc::clone(&closed));
    // a rendezvous channel: the reader is at most one line ahead
    let (lines, received) = mpsc::sync_channel::<io::Result<Received>>(0);
    // Detached: after `exit` the process ends while the reader may still
    // wait for input; its sends then fail and it stops.
    std::thread::spawn(move || {
        let mut input = input;
        let mut line = Vec::new();
        loop {
            let item = match read_line(&mut input, &mut line, MAX_LINE_BYTES) {
                Ok(Read::Line) => Ok(Received::Line(std::mem::take(&mut line), Instant::now())),
                Ok(Read::TooLong) => Ok(Received::TooLong),
                Ok(Read::Eof) => {
                    closed.store(true, Ordering::Relaxed);
                    return;
                }
                Err(e) => {
                    closed.store(true, Ordering::Relaxed);
                    Err(e)
                }
            };
            let failed = item.is_err();
            if lines.send(item).is_err() || failed {
                return;
            }
        }
    });
    write_lines(&mut output, &session.banner())?;
    // the channel closes when the reader stops: the end of the input
    while let Ok(item) = received.recv() {
        let reply = match item? {
            Received::Line(line, read_at) => session.handle_line_read_at(&line, read_at),
            Received::TooLong => session.long_line_reply(),
        };
        if !reply.is_empty() {
            write_lines(&mut output, &reply)?;
        }
        if session.has_exited() {
            return Ok(());
        }
    }
    Ok(())
}

/// The loop of [`run`] on any [`LineHandler`]: prints its banner, then
/// reads lines (skipping those longer than [`MAX_LINE_BYTES`]) and writes
/// each response, until `exit` or the end of the input.
pub fn serve(
    mut input: impl BufRead,
    mut output: impl Write,
    mut session: impl LineHandler,
) -> io::Result<()> {
    write_lines(&mut output, &session.banner())?;
    let mut line = Vec::new();
    loop {
        let reply = match read_line(&mut input, &mut line, MAX_LINE_BYTES)? {
            Read::Eof => return Ok(()),
            Read::Line => session.handle_line(&line),
            Read::TooLong => session.long_line_reply(),
        };
        if !reply.is_empty() {
            write_lines(&mut output, &reply)?;
        }
        if session.has_exited() {
            return Ok(());
        }
    }
}
