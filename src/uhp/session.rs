//! The UHP engine session: the options, the game and the search table, and
//! the commands that read and change them (spec/sources/uhp-notes.md
//! section 5). [`Session::handle_line`] takes one raw input line and returns
//! the response lines, ending with `ok`; the loop that feeds it lines is in
//! `serve.rs`.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use super::arguments::{command_words, no_arguments, perft_depth, search_limits};
use super::game::{EngineChoice, Game};
use super::options::{self, OptionName, Options};
use super::reply::{err, quote, response, Failure, Reply};
use crate::core::notation::parse_game_type;
use crate::core::position_string::is_position_string;
use crate::core::GameType;
use crate::search::{self, TranspositionTable};

/// The first line of `info` and of the start-up banner (spec/sources/uhp-notes.md section 2.1).
pub const ID: &str = concat!("id hive-oracle ", env!("CARGO_PKG_VERSION"));
/// The capabilities line: every expansion piece is supported (spec/sources/uhp-notes.md section 2.1).
const CAPABILITIES: &str = "Mosquito;Ladybug;Pillbug";
/// Input lines longer than this (1 MiB, line ending included) are refused
/// unread (their bytes are skipped). It bounds the GameString of `newgame`:
/// about 100,000 plies, hundreds of times the longest game played, loaded
/// in about a second on the reference engine (0.1 s on the fast one).
pub const MAX_LINE_BYTES: usize = 1 << 20;

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
    /// Set by the reader of `run_with_reader`
    /// when the input ends: it stops a running `bestmove` search.
    input_closed: Option<Arc<AtomicBool>>,
    /// Whether `newgame` takes a position string (§9.36), an extension of
    /// this engine that is off unless asked for.
    position_strings: bool,
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
            position_strings: false,
        }
    }

    /// The same session with `newgame` taking a position string (§9.36)
    /// too, an extension of this engine (`hive-oracle uhp --position-strings`).
    pub fn with_position_strings(mut self, on: bool) -> Session {
        self.position_strings = on;
        self
    }

    /// Stops a running `bestmove` search once `closed` is set (by the
    /// reader of `run_with_reader`, at the end of
    /// the input), as the end of its budget would.
    pub(super) fn stop_searches_on(&mut self, closed: Arc<AtomicBool>) {
        self.input_closed = Some(closed);
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
            "perft" => self.perft(&args),
            "options" => self.options_command(&args),
            "exit" => {
                no_arguments("exit", &args)?;
                self.exited = true;
                Ok(Vec::new())
            }
            _ => err(format!(
                "unknown command {}: the commands are info, newgame, play, pass, validmoves, bestmove, undo, perft, options and exit",
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
        if is_position_string(arg) && !self.position_strings {
            // §9.36 an extension: a UHP client that sends one by mistake
            // gets a refusal, not a game it did not ask for
            return err(
                "a position string (§9.36) is an extension of this engine, off by default: start it with `hive-oracle uhp --position-strings`",
            );
        }
        Ok(match parse_game_type(arg) {
            Ok(game_type) => Game::new(engine, game_type, rules),
            Err(type_error) if !arg.contains(';') => return err(type_error.to_string()),
            Err(_) => Game::load(engine, arg, rules).map_err(Failure::err)?,
        })
    }

    /// `play MoveString` and `pass` (spec/sources/uhp-notes.md sections 5.3 and 5.4).
    fn play(&mut self, text: &str) -> Reply {
        let game = live(&self.game)?;
        let mv = game.parse_move(text).map_err(Failure::invalid_move)?;
        let Some(game) = self.game.as_mut() else {
            return err("no game in progress: start one with newgame");
        };
        game.play(mv).map_err(Failure::invalid_move)?;
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
    /// (with `run_with_reader`) stops a search, by time or by depth, as the
    /// budget would: its best move so far is the answer, and a client that
    /// has gone costs no more work.
    fn bestmove(&mut self, args: &[&str]) -> Reply {
        let started = self.line_read_at;
        let limits = search_limits(args, self.options.max_depth)?;
        let game = live(&self.game)?;
        let copy;
        let fast = match game {
            Game::Fast(fast) => fast,
            Game::Reference(_) => {
                copy = game.to_fast().map_err(Failure::err)?;
                &copy
            }
        };
        let size = self.options.table_size_mib as usize;
        // A depth search ignores what earlier searches stored, so it is
        // deterministic; a time search profits from it.
        if self.table.is_none() {
            let table = TranspositionTable::new(size);
            // `options get TableSizeMiB` says what is in effect
            self.options.table_size_mib = table.size_in_effect(self.options.table_size_mib);
            self.table = Some(table);
        }
        let table = self
            .table
            .get_or_insert_with(|| TranspositionTable::new(size));
        let stop = self.input_closed.as_deref();
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

    /// `perft N`: the leaf counts of the game tree from the current
    /// position, one line `perft(d) = COUNT` for each depth d from 1 to N
    /// (Mzinga's line, without its timing, so that an answer is the same
    /// on every run; spec/notation.md, UHP engine conventions). A finished
    /// game counts 0 at every depth (§8.5). The work is bounded by leaves,
    /// never by time: before each depth its count is estimated from the
    /// last two (the branching factor stays about the same from one ply to
    /// the next), and when the leaves counted so far and the estimate
    /// exceed [`Game::perft_leaf_budget`] the command is refused with `err`
    /// naming the deepest depth within it. The answer is all or nothing: a
    /// refusal prints no count. The end of the input stops the count
    /// within milliseconds, even in the middle of a depth, and prints no
    /// count either.
    fn perft(&self, args: &[&str]) -> Reply {
        let depth = perft_depth(args)?;
        let game = current(&self.game)?;
        let budget = game.perft_leaf_budget();
        let mut counts: Vec<u64> = Vec::new();
        let mut spent: u64 = 0;
        for d in 1..=depth {
            let estimate = match counts.as_slice() {
                [] => game.legal_moves().len() as u64,
                [.., 0] => 0,
                [only] => only.saturating_mul(game.legal_moves().len() as u64),
                [.., before, last] => {
                    let next = u128::from(*last) * u128::from(*last) / u128::from((*before).max(1));
                    u64::try_from(next).unwrap_or(u64::MAX)
                }
            };
            if spent.saturating_add(estimate) > budget {
                return err(format!(
                    "perft {depth} would count about {estimate} leaves at depth {d} after {spent} below it, beyond the {budget} one perft may count on the {} engine; the deepest count within it from this position is perft {}",
                    game.engine().name(),
                    d - 1
                ));
            }
            let Some(count) = game.perft_until(d, &mut || self.input_ended()) else {
                return err("the input ended: perft stopped");
            };
            spent = spent.saturating_add(count);
            counts.push(count);
        }
        Ok(counts
            .iter()
            .zip(1..)
            .map(|(count, d)| format!("perft({d}) = {count}"))
            .collect())
    }

    /// Whether the reader of `run_with_reader` saw the input end.
    fn input_ended(&self) -> bool {
        self.input_closed
            .as_deref()
            .is_some_and(|closed| closed.load(std::sync::atomic::Ordering::Relaxed))
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
        // the plies that can be taken back: a set-up position (§9.36) has
        // no moves before it
        let plies = game.history().len();
        if plies == 0 {
            return err(if game.plies() == 0 {
                "nothing to undo: no move has been played"
            } else {
                "nothing to undo: no move has been played since the position was set up (§9.36)"
            });
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
                let name = OptionName::parse(name).map_err(Failure::err)?;
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
        let name = OptionName::parse(name).map_err(Failure::err)?;
        let mut next = options::with_value(&self.options, name, value).map_err(Failure::err)?;
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
                    game = Some(current.switched(next.engine).map_err(Failure::err)?);
                }
            }
            if name == OptionName::TableSizeMiB {
                // Allocated (and filled) now rather than by the next
                // `bestmove`, whose time budget must not pay for 1 GiB of it.
                self.table = None;
                let table = TranspositionTable::new(next.table_size_mib as usize);
                // halved for want of memory: the size in effect is the value
                next.table_size_mib = table.size_in_effect(next.table_size_mib);
                self.table = Some(table);
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
