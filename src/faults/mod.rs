//! Deliberate faults for testing `hive-oracle check` (feature `faults`,
//! which the test suite turns on and a default build leaves out): the
//! hidden option `hive-oracle uhp --fault NAME` makes our own UHP engine wrong in one
//! known way, so that tests can assert the checker finds each fault.
//!
//! # A decorator around the real session
//!
//! The real session ([`Session`], `src/uhp/mod.rs`) holds no fault and does
//! not know this module. A [`FaultySession`] wraps one: it passes every line
//! on to it, except the few commands that its fault answers otherwise, and
//! rewrites the answers where the fault shows. [`run_with_fault`] drives it
//! with the real loop ([`serve`], the loop of [`run`](super::run)), adding
//! the faults that end or block the process. The session lends the
//! decorator its answers, its options and its game, and two crate-private
//! points: the game to change in place (to apply a move the rules refuse)
//! and to replace.
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
//! without checking (`play_unchecked`). Every fault is deterministic.

use std::collections::BTreeSet;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::core::notation::{parse_game_string, parse_game_type};
use crate::core::view::BoardView;
use crate::core::{Bug, Color, GameState, Hex, Move, Piece, RulesOptions};
use crate::reference::board::Board;
use crate::reference::bugs::pillbug::pillbug_throws;
use crate::reference::end::queen_is_surrounded;
use crate::reference::movement::{
    ground_step_possible, ground_steps_from, one_hive_holds, step_ignoring_height_gates,
};
use crate::reference::{opening, ReferenceEngine};
use crate::rules::Rules;
use crate::search::SearchLimits;
use crate::uhp::{
    command_words, quote, response, search_limits, serve, EngineChoice, Failure, Game, LineHandler,
    OptionName, Session,
};

/// A deliberate deviation from the rules or from the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// Breaks §6.4.2: the spider's moves also include the ends of three
    /// ground steps that revisit a cell (its start included).
    SpiderBacktracks,
    /// Breaks §6.2.2 (§5.6): beetle steps that only the height gate rule
    /// forbids (a climb, a step on top or a drop) are listed and accepted.
    BeetleIgnoresHeightGates,
    /// Breaks §5.10: a pillbug may throw the piece moved on the previous turn.
    PillbugThrowsLastMoved,
    /// Breaks §6.7.2: a mosquito on the ground whose neighbours are all
    /// mosquitoes moves as a queen (one ground step).
    MosquitoCopiesMosquito,
    /// Breaks §8.3: when both queens are surrounded the state printed is a
    /// win for the player who moved last instead of `Draw`.
    SimultaneousSurroundWins,
    /// Breaks §4.2: the queen may be a player's first placement although
    /// `TournamentOpening` is `True`.
    QueenFirstAllowed,
    /// Breaks §5.9 (any move clause): `validmoves` silently omits the last
    /// move in sorted order whenever it lists at least two (`play` still
    /// accepts it).
    DropOneMove,
    /// Breaks the UHP framing (spec/sources/uhp-notes.md section 2.3): the response to the
    /// sixth command (the first after five) has no `ok` line.
    MissingOk,
    /// Breaks the protocol: the process exits with status 101, printing
    /// nothing, on the first `play` (or `pass`) after six plies.
    CrashMidGame,
    /// Breaks the protocol: once four plies are played, `validmoves` never
    /// answers (the process blocks forever).
    Hang,
    /// Breaks §9.31 and §9.29 (the glyphs of §9.21): every GameString printed
    /// (after `newgame`, `play`, `pass`, `undo`) has `/` and `\` swapped in
    /// its moves, so `X/` (north-east) reads `X\` (south-east) and so on;
    /// the game played is the real one.
    WrongGameString,
    /// Breaks spec/sources/uhp-notes.md section 5.6 (the answer is a move the engine would
    /// play): `bestmove depth N` and `bestmove time hh:mm:ss` answer at once
    /// with a well-formed MoveString that is illegal in the position, a
    /// placement of a piece of the side not to move (§3.1), else a placement
    /// onto an occupied cell (§3.7), else a queen move onto an occupied cell.
    BestmoveIllegal,
    /// Breaks spec/sources/uhp-notes.md section 5.6 (`time` is a wall-clock budget):
    /// `bestmove time hh:mm:ss` answers its (legal) move only once twice the
    /// budget plus 2 s have passed; `bestmove depth N` is as usual.
    BestmoveSlow,
    /// Breaks spec/sources/uhp-notes.md section 2.3 (state on error: unchanged): a refused
    /// `newgame` answers `err` and `ok`, but the previous game is replaced
    /// by a new empty game of its type.
    NewgameRefusalLosesGame,
    /// Breaks spec/notation.md, "UHP engine conventions" (a line that is not
    /// UTF-8 is answered `err`): the process exits with status 1, printing
    /// nothing, on such a line.
    ExitOnNonUtf8,
    /// Breaks §5.2 and §9.25 (the piece named moves, and a covered one
    /// cannot): a `play` whose moving piece is covered moves the piece on
    /// top of its stack to the target instead,
    /// when that move is legal (`play wQ \wS1` with `wB1` on `wQ` plays
    /// `wB1`'s move); any other `play` is as usual.
    CoveredNameMovesTop,
    /// Breaks §8.7.2 (the repetition draw applies only when the game is set
    /// up with it) and spec/sources/uhp-notes.md section 5.8: the games are played with the
    /// repetition draw on whatever `RepetitionDraw` says, and the engine
    /// does not know that option (`options` omits it, `get` and `set` refuse
    /// it), so it plays the variant without saying so.
    RepetitionDraw,
    /// Declines the leniency of §9.20 (input in any letter case), which an
    /// engine MAY decline: a `play` move or `newgame` argument whose letters
    /// are not exactly in
    /// their canonical case (`play wq`, `play WQ`, `play PASS`, `newgame
    /// base`) is refused with `invalidmove` (play) or `err` (newgame).
    RefusesLowercase,
    /// Breaks spec/sources/uhp-notes.md section 2.3 (an answer ends with
    /// `ok`): once four plies are played, `validmoves` is answered with `y`
    /// lines without end, as `yes` prints them (issue 16).
    FloodLines,
    /// As flood-lines, with `y` bytes and no line break at all.
    FloodBytes,
    /// Breaks the framing: once four plies are played, `validmoves` is
    /// answered with one line of 1 GiB (`y` repeated) before its real
    /// answer (issue 16).
    HugeLine,
    /// Breaks section 2.3 (output holds protocol only): `validmoves` lists,
    /// after the legal moves, an entry holding terminal escape codes (clear
    /// the screen, set the window title, red text) and the engine writes
    /// such codes on stderr (issue 16).
    EscapeCodes,
    /// Writes 64 KiB of noise (escape codes included) on stderr before every
    /// answer; the answers are right. Stderr is not protocol: the check
    /// passes, with the last lines quoted in findings bounded (issue 16).
    StderrFlood,
    /// Breaks §9.35: `validmoves` lists every legal move twice.
    DuplicateMoves,
    /// Breaks §9.35: `validmoves` repeats its list until it holds at least
    /// 100,000 entries (issue 16).
    RepeatedMoves,
    /// Breaks §9.29 and §9.35's list: `validmoves` lists the legal moves and
    /// then 100,000 entries that name no move (issue 16).
    JunkMoves,
    /// Breaks the protocol: each process exits with status 101 on a command
    /// whose number (10 to 40) is drawn from its process id, so crashes
    /// come at different places in each run.
    RandomCrash,
}

impl Fault {
    /// Every fault, in the order of their names in the documentation.
    pub const ALL: [Fault; 27] = [
        Fault::SpiderBacktracks,
        Fault::BeetleIgnoresHeightGates,
        Fault::PillbugThrowsLastMoved,
        Fault::MosquitoCopiesMosquito,
        Fault::SimultaneousSurroundWins,
        Fault::QueenFirstAllowed,
        Fault::DropOneMove,
        Fault::MissingOk,
        Fault::CrashMidGame,
        Fault::Hang,
        Fault::WrongGameString,
        Fault::BestmoveIllegal,
        Fault::BestmoveSlow,
        Fault::NewgameRefusalLosesGame,
        Fault::ExitOnNonUtf8,
        Fault::CoveredNameMovesTop,
        Fault::RepetitionDraw,
        Fault::RefusesLowercase,
        Fault::FloodLines,
        Fault::FloodBytes,
        Fault::HugeLine,
        Fault::EscapeCodes,
        Fault::StderrFlood,
        Fault::DuplicateMoves,
        Fault::RepeatedMoves,
        Fault::JunkMoves,
        Fault::RandomCrash,
    ];

    /// The name given to `--fault`.
    pub fn name(self) -> &'static str {
        match self {
            Fault::SpiderBacktracks => "spider-backtracks",
            Fault::BeetleIgnoresHeightGates => "beetle-ignores-height-gates",
            Fault::PillbugThrowsLastMoved => "pillbug-throws-last-moved",
            Fault::MosquitoCopiesMosquito => "mosquito-copies-mosquito",
            Fault::SimultaneousSurroundWins => "simultaneous-surround-wins",
            Fault::QueenFirstAllowed => "queen-first-allowed",
            Fault::DropOneMove => "drop-one-move",
            Fault::MissingOk => "missing-ok",
            Fault::CrashMidGame => "crash-mid-game",
            Fault::Hang => "hang",
            Fault::WrongGameString => "wrong-game-string",
            Fault::BestmoveIllegal => "bestmove-illegal",
            Fault::BestmoveSlow => "bestmove-slow",
            Fault::NewgameRefusalLosesGame => "newgame-refusal-loses-game",
            Fault::ExitOnNonUtf8 => "exit-on-non-utf8",
            Fault::CoveredNameMovesTop => "covered-name-moves-top",
            Fault::RepetitionDraw => "repetition-draw",
            Fault::RefusesLowercase => "refuses-lowercase",
            Fault::FloodLines => "flood-lines",
            Fault::FloodBytes => "flood-bytes",
            Fault::HugeLine => "huge-line",
            Fault::EscapeCodes => "escape-codes",
            Fault::StderrFlood => "stderr-flood",
            Fault::DuplicateMoves => "duplicate-moves",
            Fault::RepeatedMoves => "repeated-moves",
            Fault::JunkMoves => "junk-moves",
            Fault::RandomCrash => "random-crash",
        }
    }

    /// Whether the fault changes the rules of the game (chapters 1 to 8: the
    /// moves listed or accepted, or the state), as opposed to the notation
    /// (chapter 9) or the protocol.
    pub(crate) fn is_rule_fault(self) -> bool {
        matches!(
            self,
            Fault::SpiderBacktracks
                | Fault::BeetleIgnoresHeightGates
                | Fault::PillbugThrowsLastMoved
                | Fault::MosquitoCopiesMosquito
                | Fault::SimultaneousSurroundWins
                | Fault::QueenFirstAllowed
                | Fault::DropOneMove
                | Fault::CoveredNameMovesTop
                | Fault::RepetitionDraw
        )
    }

    /// Whether the fault's game is held by the reference engine, which can be
    /// made to play any move: the first seven faults of the rules, whose
    /// moves or state are computed on the reference position. The others
    /// play on the engine the session is given.
    fn needs_reference_engine(self) -> bool {
        self.is_rule_fault() && !matches!(self, Fault::CoveredNameMovesTop | Fault::RepetitionDraw)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Fault {
    type Err = String;

    fn from_str(text: &str) -> Result<Fault, String> {
        Fault::ALL
            .into_iter()
            .find(|fault| fault.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Fault::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown fault {}: the faults are {}",
                    quote(text),
                    names.join(", ")
                )
            })
    }
}

/// A UHP session that is deliberately wrong in the way its [`Fault`] says:
/// a real [`Session`] behind a decorator that answers a few commands itself
/// and rewrites some answers. The faults that end or block the process
/// (crash-mid-game, hang, exit-on-non-utf8) act only in [`run_with_fault`],
/// so that a `FaultySession` of any fault can be driven in process.
///
/// ```
/// use hive_oracle::uhp::{EngineChoice, Fault, FaultySession, Session};
///
/// let mut faulty = FaultySession::new(EngineChoice::Fast, Fault::WrongGameString);
/// let mut plain = Session::new(EngineChoice::Fast);
/// for line in ["newgame Base", "play wS1", "play bS1 wS1/"] {
///     faulty.handle_line(line.as_bytes());
///     plain.handle_line(line.as_bytes());
/// }
/// assert_eq!(plain.game_string().as_deref(), Some("Base;InProgress;White[2];wS1;bS1 wS1/"));
/// assert_eq!(faulty.game_string().as_deref(), Some(r"Base;InProgress;White[2];wS1;bS1 wS1\"));
/// ```
pub struct FaultySession {
    fault: Fault,
    session: Session,
    /// The non-blank lines handled so far (missing-ok).
    commands: usize,
}

impl FaultySession {
    /// A session with default options on the given engine and no game,
    /// wrong as `fault` says. A fault that adds moves holds its game on the
    /// reference engine, which can be made to play any move.
    pub fn new(engine: EngineChoice, fault: Fault) -> FaultySession {
        let engine = if fault.needs_reference_engine() {
            EngineChoice::Reference
        } else {
            engine
        };
        let mut session = Session::new(engine);
        if fault == Fault::RepetitionDraw {
            // §8.7.2 broken: every game is played with the repetition draw;
            // the option is then hidden (see `hidden_option`). Accepted: no
            // game is in progress yet.
            session.handle_line(b"options set RepetitionDraw True");
        }
        FaultySession {
            fault,
            session,
            commands: 0,
        }
    }

    /// The fault.
    pub fn fault(&self) -> Fault {
        self.fault
    }

    /// The real session underneath, which holds the game really played.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// What the engine prints at start-up: the `info` lines and `ok`.
    pub fn banner(&self) -> Vec<String> {
        self.session.banner()
    }

    /// The GameString of the current game as this engine prints it, `None`
    /// before the first `newgame`.
    pub fn game_string(&self) -> Option<String> {
        self.session
            .game()
            .map(|game| printed_game_string(self.fault, game))
    }

    /// Whether `exit` has been received; the session then answers nothing.
    pub fn has_exited(&self) -> bool {
        self.session.has_exited()
    }

    /// The response to a line longer than [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES).
    pub(crate) fn long_line_reply(&self) -> Vec<String> {
        self.session.long_line_reply()
    }

    /// Handles one input line as [`Session::handle_line`] does, with the
    /// fault applied.
    pub fn handle_line(&mut self, line: &[u8]) -> Vec<String> {
        let trimmed = line.trim_ascii();
        if self.session.has_exited() || trimmed.is_empty() {
            return self.session.handle_line(line);
        }
        self.commands += 1;
        let mut reply = match std::str::from_utf8(trimmed) {
            Ok(text) => self.command(line, text),
            Err(_) => self.session.handle_line(line),
        };
        // spec/sources/uhp-notes.md section 2.3 broken (missing-ok): the response to the sixth
        // command has no `ok` line
        if self.fault == Fault::MissingOk
            && self.commands == 6
            && reply.last().is_some_and(|last| last == "ok")
        {
            reply.pop();
        }
        reply
    }

    /// The response to one command line (`text` is `line` trimmed): the
    /// commands a fault may change go through the decorator, the others
    /// straight to the real session.
    fn command(&mut self, line: &[u8], text: &str) -> Vec<String> {
        let (keyword, args) = command_words(text);
        match keyword.as_str() {
            "newgame" => self.newgame(line, &args.join(" ")),
            "play" if !args.is_empty() => self.play(line, &args.join(" ")),
            "pass" | "undo" => self.forward_printing_game_string(line),
            "validmoves" => self.validmoves(line),
            "bestmove" => self.bestmove(line, &args),
            "options" => self.options(line, &args),
            _ => self.session.handle_line(line),
        }
    }

    /// Passes `line` on to the real session; a GameString it answers (an
    /// accepted `newgame`, `play`, `pass` or `undo`) is printed this
    /// engine's way instead (wrong-game-string, simultaneous-surround-wins).
    fn forward_printing_game_string(&mut self, line: &[u8]) -> Vec<String> {
        let mut reply = self.session.handle_line(line);
        if !is_refusal(&reply) {
            if let (Some(first), Some(game)) = (reply.first_mut(), self.session.game()) {
                *first = printed_game_string(self.fault, game);
            }
        }
        reply
    }

    /// The game if moves can be played in it (§8.5). Otherwise a command
    /// that needs one is passed on, for the real session's refusal.
    fn live_game(&self) -> Option<&Game> {
        self.session.game().filter(|game| !game.state().is_over())
    }

    /// `newgame` (spec/sources/uhp-notes.md section 5.2) with the fault applied: an argument
    /// not in canonical letter case is refused (refuses-lowercase); a
    /// GameString is replayed the way this engine plays, so that a game it
    /// played loads again; a refusal leaves a new empty game behind
    /// (newgame-refusal-loses-game).
    fn newgame(&mut self, line: &[u8], arg: &str) -> Vec<String> {
        let reply = if let Some(refusal) = game_case_refusal(self.fault, arg) {
            response(Err(Failure::Err(refusal)))
        } else if arg.contains(';') && parse_game_type(arg).is_err() {
            match self.load(arg) {
                Ok(game) => {
                    let text = printed_game_string(self.fault, &game);
                    self.session.replace_game(game);
                    response(Ok(vec![text]))
                }
                Err(failure) => response(Err(failure)),
            }
        } else {
            self.forward_printing_game_string(line)
        };
        if self.fault == Fault::NewgameRefusalLosesGame && is_refusal(&reply) {
            // spec/sources/uhp-notes.md section 2.3 broken (state on error: unchanged): the
            // previous game is replaced by a new empty game of its type
            if let Some(game) = self.session.game() {
                let lost = Game::new(game.engine(), game.game_type(), game.options());
                self.session.replace_game(lost);
            }
        }
        reply
    }

    /// Loads a GameString (§9.31) by replaying its moves the way this engine
    /// plays them, on the session's engine and rules.
    fn load(&self, text: &str) -> Result<Game, Failure> {
        let options = self.session.options();
        let record = parse_game_string(text).map_err(|e| Failure::Err(e.to_string()))?;
        let mut game = Game::new(options.engine, record.game_type, options.rules());
        for (i, move_text) in record.moves.iter().enumerate() {
            let mv = game
                .parse_move(move_text)
                .map_err(|e| Failure::Err(format!("move {}: {e}", i + 1)))?;
            play(self.fault, &mut game, mv).map_err(|why| {
                Failure::Err(format!(
                    "move {} ({}) is illegal: {why}",
                    i + 1,
                    quote(move_text)
                ))
            })?;
        }
        Ok(game)
    }

    /// `play MoveString` (spec/sources/uhp-notes.md section 5.3) with the fault applied: a
    /// move not in canonical letter case is refused (refuses-lowercase); a
    /// move the fault plays otherwise than the rules is applied here
    /// ([`Deviation`]); any other goes to the real session.
    fn play(&mut self, line: &[u8], text: &str) -> Vec<String> {
        let Some(game) = self.live_game() else {
            return self.session.handle_line(line);
        };
        if let Some(refusal) = move_case_refusal(self.fault, text) {
            return response(Err(Failure::InvalidMove(refusal)));
        }
        let Ok(mv) = game.parse_move(text) else {
            return self.session.handle_line(line);
        };
        let Some(deviation) = deviation(self.fault, game, mv) else {
            return self.forward_printing_game_string(line);
        };
        let Some(game) = self.session.game_mut() else {
            return self.session.handle_line(line);
        };
        let result = deviation
            .apply(game)
            .map(|()| vec![printed_game_string(self.fault, game)])
            .map_err(Failure::InvalidMove);
        response(result)
    }

    /// `validmoves` (spec/sources/uhp-notes.md section 5.5): the real session's answer, with
    /// the list this engine gives instead.
    fn validmoves(&mut self, line: &[u8]) -> Vec<String> {
        let mut reply = self.session.handle_line(line);
        if !is_refusal(&reply) {
            if let (Some(first), Some(game)) = (reply.first_mut(), self.session.game()) {
                *first = valid_move_strings(self.fault, game).join(";");
            }
        }
        reply
    }

    /// `bestmove` (spec/sources/uhp-notes.md section 5.6) with the fault applied: an illegal
    /// answer at once (bestmove-illegal), or the real answer late
    /// (bestmove-slow). A command the real session refuses goes to it.
    fn bestmove(&mut self, line: &[u8], args: &[&str]) -> Vec<String> {
        let limits = search_limits(args, self.session.options().max_depth);
        let (Ok(limits), Some(game)) = (limits, self.live_game()) else {
            return self.session.handle_line(line);
        };
        if self.fault == Fault::BestmoveIllegal {
            if let Some(answer) = illegal_best_move(game) {
                return response(Ok(vec![answer]));
            }
        }
        let started = Instant::now();
        let reply = self.session.handle_line(line);
        if self.fault == Fault::BestmoveSlow && !is_refusal(&reply) {
            delay_best_move(&limits, started);
        }
        reply
    }

    /// `options` (spec/sources/uhp-notes.md section 5.8) with the fault applied: an option the
    /// engine hides is neither listed nor known to `get` and `set`.
    fn options(&mut self, line: &[u8], args: &[&str]) -> Vec<String> {
        let Some(hidden) = self.hidden_option() else {
            return self.session.handle_line(line);
        };
        let named = match args {
            [get, name] if get.eq_ignore_ascii_case("get") => Some(name),
            [set, name, _] if set.eq_ignore_ascii_case("set") => Some(name),
            _ => None,
        };
        if let Some(name) = named {
            let known: Vec<OptionName> = OptionName::ALL
                .into_iter()
                .filter(|&known| known != hidden)
                .collect();
            if let Err(why) = OptionName::parse_among(name, &known) {
                return response(Err(Failure::Err(why)));
            }
        }
        let mut reply = self.session.handle_line(line);
        if args.is_empty() {
            let prefix = format!("{};", hidden.text());
            reply.retain(|option| !option.starts_with(&prefix));
        }
        reply
    }

    /// The option the engine does not know: under repetition-draw,
    /// `RepetitionDraw`, so that it plays the variant without saying so
    /// (spec/sources/uhp-notes.md section 5.8 broken).
    fn hidden_option(&self) -> Option<OptionName> {
        (self.fault == Fault::RepetitionDraw).then_some(OptionName::RepetitionDraw)
    }
}

impl LineHandler for FaultySession {
    fn banner(&self) -> Vec<String> {
        FaultySession::banner(self)
    }

    fn handle_line(&mut self, line: &[u8]) -> Vec<String> {
        FaultySession::handle_line(self, line)
    }

    fn long_line_reply(&self) -> Vec<String> {
        FaultySession::long_line_reply(self)
    }

    fn has_exited(&self) -> bool {
        FaultySession::has_exited(self)
    }
}

/// A [`FaultySession`] run as a process: before each line is answered, the
/// faults that end or block the process act ([`before_command`]).
struct FaultyProcess(FaultySession);

impl LineHandler for FaultyProcess {
    fn banner(&self) -> Vec<String> {
        self.0.banner()
    }

    fn handle_line(&mut self, line: &[u8]) -> Vec<String> {
        let plies = self.0.session.game().map_or(0, Game::plies);
        before_command(self.0.fault, line, plies);
        self.0.handle_line(line)
    }

    fn long_line_reply(&self) -> Vec<String> {
        self.0.long_line_reply()
    }

    fn has_exited(&self) -> bool {
        self.0.has_exited()
    }
}

/// [`run`](super::run) with a deliberate fault (`hive-oracle uhp --fault
/// NAME`, for testing the checker): the same loop on a [`FaultySession`],
/// where besides the session's faults `crash-mid-game` exits the process
/// with status 101, `hang` blocks forever and `exit-on-non-utf8` exits with
/// status 1, before the line that triggers them is answered.
pub fn run_with_fault(
    input: impl BufRead,
    output: impl Write,
    engine: EngineChoice,
    fault: Fault,
) -> io::Result<()> {
    serve(
        input,
        output,
        FaultyProcess(FaultySession::new(engine, fault)),
    )
}

/// Whether a response is a refusal (`err` or `invalidmove`, spec/sources/uhp-notes.md section
/// 2.3), which leaves the real session as it was.
fn is_refusal(reply: &[String]) -> bool {
    reply
        .first()
        .is_some_and(|line| line.starts_with("err ") || line.starts_with("invalidmove "))
}

/// The game on the reference engine, replayed without checks (the faulty
/// game may hold moves the real rules refuse).
fn reference_of(game: &Game) -> ReferenceEngine {
    if let Game::Reference(g) = game {
        return g.clone();
    }
    let mut reference = ReferenceEngine::new_game(game.game_type(), game.options());
    for &mv in game.history() {
        reference.play_unchecked(mv);
    }
    reference
}

/// The moves the fault adds to the legal moves of the position (none that
/// the rules allow, none for a protocol fault or a finished game).
pub(crate) fn extra_moves(fault: Fault, game: &Game) -> BTreeSet<Move> {
    let adds_moves = matches!(
        fault,
        Fault::SpiderBacktracks
            | Fault::BeetleIgnoresHeightGates
            | Fault::MosquitoCopiesMosquito
            | Fault::PillbugThrowsLastMoved
            | Fault::QueenFirstAllowed
    );
    if !adds_moves || game.state().is_over() {
        return BTreeSet::new();
    }
    let reference = reference_of(game);
    let mut extra = match fault {
        Fault::SpiderBacktracks => own_bug_moves(&reference, Bug::Spider, backtracking_walk_ends),
        Fault::BeetleIgnoresHeightGates => {
            own_bug_moves(&reference, Bug::Beetle, steps_through_height_gates)
        }
        Fault::MosquitoCopiesMosquito => {
            own_bug_moves(&reference, Bug::Mosquito, mosquito_as_queen)
        }
        Fault::PillbugThrowsLastMoved => throws_of_last_moved(&reference),
        Fault::QueenFirstAllowed => queen_first(&reference),
        _ => BTreeSet::new(),
    };
    let legal = reference.legal_move_set();
    extra.retain(|mv| !legal.contains(mv));
    extra
}

/// The side to move's pieces of `bug` that may act (queen placed §4.3, on
/// top §5.2, not immune §5.10, lifting them keeps one hive §5.3), each with
/// the destinations `destinations` gives.
fn own_bug_moves(
    reference: &ReferenceEngine,
    bug: Bug,
    destinations: fn(&Board, Hex) -> BTreeSet<Hex>,
) -> BTreeSet<Move> {
    let board = reference.board();
    let color = reference.side_to_move();
    let mut moves = BTreeSet::new();
    if !opening::may_move_pieces(board, color) {
        return moves;
    }
    for from in board.occupied_cells() {
        let Some(piece) = board.top(from) else {
            continue;
        };
        if piece.color != color || piece.bug != bug || reference.immune_piece() == Some(piece) {
            continue;
        }
        if !one_hive_holds(board, from) {
            continue;
        }
        for to in destinations(board, from) {
            if to != from {
                moves.insert(Move::Move { piece, to });
            }
        }
    }
    moves
}

/// §6.4.2 broken: the ends of every walk of three ground steps, revisits allowed.
fn backtracking_walk_ends(board: &Board, from: Hex) -> BTreeSet<Hex> {
    if board.height(from) != 1 {
        return BTreeSet::new();
    }
    let lifted = board.with_top_lifted(from);
    let mut cells = BTreeSet::from([from]);
    for _ in 0..3 {
        let mut next_cells = BTreeSet::new();
        for &here in &cells {
            for next in here.neighbours() {
                if ground_step_possible(&lifted, here, next) {
                    next_cells.insert(next);
                }
            }
        }
        cells = next_cells;
    }
    cells
}

/// §6.2.2 broken: one-cell beetle steps with the height gate rule ignored,
/// except ground-to-ground steps (whose gate is §5.5, not §5.6).
fn steps_through_height_gates(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    from.neighbours()
        .into_iter()
        .filter(|&to| lifted.height(from) > 0 || lifted.height(to) > 0)
        .filter(|&to| step_ignoring_height_gates(&lifted, from, to))
        .collect()
}

/// §6.7.2 broken: a ground mosquito touching only mosquitoes steps like a queen.
fn mosquito_as_queen(board: &Board, from: Hex) -> BTreeSet<Hex> {
    if board.height(from) != 1 {
        return BTreeSet::new();
    }
    let tops: Vec<_> = from
        .neighbours()
        .into_iter()
        .filter_map(|n| board.top(n))
        .collect();
    if tops.is_empty() || tops.iter().any(|top| top.bug != Bug::Mosquito) {
        return BTreeSet::new();
    }
    let lifted = board.with_top_lifted(from);
    ground_steps_from(&lifted, from).into_iter().collect()
}

/// §5.10 broken: the side to move's pillbugs also throw the piece moved last turn.
fn throws_of_last_moved(reference: &ReferenceEngine) -> BTreeSet<Move> {
    let board = reference.board();
    let color = reference.side_to_move();
    let mut moves = BTreeSet::new();
    let Some(immune) = reference.immune_piece() else {
        return moves;
    };
    if !opening::may_move_pieces(board, color) {
        return moves;
    }
    for from in board.occupied_cells() {
        let Some(piece) = board.top(from) else {
            continue;
        };
        if piece.color != color || piece.bug != Bug::Pillbug || piece == immune {
            continue;
        }
        for (target, to) in pillbug_throws(board, from, None) {
            if target == immune {
                moves.insert(Move::Move { piece: target, to });
            }
        }
    }
    moves
}

/// §4.2 broken: the queen placements a standard opening would allow.
fn queen_first(reference: &ReferenceEngine) -> BTreeSet<Move> {
    if !reference.options().tournament_opening {
        return BTreeSet::new();
    }
    let standard = RulesOptions {
        tournament_opening: false,
        ..reference.options()
    };
    let mut replay = ReferenceEngine::new_game(reference.game_type(), standard);
    for &mv in reference.history() {
        replay.play_unchecked(mv);
    }
    replay
        .legal_move_set()
        .into_iter()
        .filter(|mv| matches!(mv, Move::Place { piece, .. } if piece.bug == Bug::Queen))
        .collect()
}

/// The `validmoves` list with the fault applied: the moves it adds, and
/// under drop-one-move the last one omitted.
fn valid_move_strings(fault: Fault, game: &Game) -> Vec<String> {
    let mut moves = game.valid_move_strings();
    let extra = extra_moves(fault, game);
    if !extra.is_empty() {
        moves.retain(|m| m != "pass");
        moves.extend(extra.into_iter().map(|mv| game.move_string(mv)));
        moves.sort();
        moves.dedup();
    }
    if fault == Fault::DropOneMove && moves.len() >= 2 {
        // §5.9 broken: a legal move is not listed
        moves.pop();
    }
    match fault {
        // §9.35 broken: every move twice
        Fault::DuplicateMoves => {
            moves = moves.iter().flat_map(|m| [m.clone(), m.clone()]).collect()
        }
        // §9.35 broken: the list repeated to 100,000 entries
        Fault::RepeatedMoves if !moves.is_empty() => {
            let times = JUNK_ENTRIES.div_ceil(moves.len());
            moves = std::iter::repeat_n(moves, times).flatten().collect();
        }
        // §9.29 broken: 100,000 entries that name no move
        Fault::JunkMoves => moves.extend((0..JUNK_ENTRIES).map(|i| format!("junk{i}"))),
        // output that is not protocol: terminal escape codes
        Fault::EscapeCodes => moves.push(ESCAPE_CODES.to_string()),
        _ => {}
    }
    moves
}

/// How many entries repeated-moves and junk-moves list.
const JUNK_ENTRIES: usize = 100_000;

/// Terminal escape codes: clear the screen, set the window title, red text.
const ESCAPE_CODES: &str = "\x1b[2J\x1b]0;pwned\x07\x1b[31mwQ";

/// How the fault plays a move otherwise than the rules.
enum Deviation {
    /// A move the fault adds, applied without checking.
    Unchecked(Move),
    /// Under covered-name-moves-top, the move of the piece on top of the
    /// covered mover's stack, played instead (§5.2 broken).
    TopOfStack(Move),
}

impl Deviation {
    fn apply(self, game: &mut Game) -> Result<(), String> {
        match self {
            Deviation::Unchecked(mv) => {
                game.play_unchecked(mv);
                Ok(())
            }
            Deviation::TopOfStack(instead) => game.play(instead),
        }
    }
}

/// How the fault plays `mv` in the game, `None` when it plays it as the
/// rules do.
fn deviation(fault: Fault, game: &Game, mv: Move) -> Option<Deviation> {
    if extra_moves(fault, game).contains(&mv) {
        return Some(Deviation::Unchecked(mv));
    }
    if fault == Fault::CoveredNameMovesTop {
        return top_of_covered_mover(game, mv).map(Deviation::TopOfStack);
    }
    None
}

/// Plays a move with the fault applied ([`Deviation`]); any other move
/// goes to the real engine.
fn play(fault: Fault, game: &mut Game, mv: Move) -> Result<(), String> {
    match deviation(fault, game, mv) {
        Some(deviation) => deviation.apply(game),
        None => game.play(mv),
    }
}

/// §5.2 broken: when `mv` moves a covered piece, the same move by the piece
/// on top of its stack, if that move is legal.
fn top_of_covered_mover(game: &Game, mv: Move) -> Option<Move> {
    let Move::Move { piece, to } = mv else {
        return None;
    };
    let reference = reference_of(game);
    let board = reference.board();
    let top = board.top(board.location(piece)?)?;
    if top == piece {
        return None;
    }
    let instead = Move::Move { piece: top, to };
    game.legal_moves().contains(&instead).then_some(instead)
}

/// The GameString printed, with the fault applied to its moves
/// (wrong-game-string) or to its state (simultaneous-surround-wins).
fn printed_game_string(fault: Fault, game: &Game) -> String {
    let text = game.game_string();
    if fault == Fault::WrongGameString {
        return with_glyphs_swapped(&text);
    }
    if fault != Fault::SimultaneousSurroundWins || game.state() != GameState::Draw {
        return text;
    }
    let reference = reference_of(game);
    let board = reference.board();
    if !(queen_is_surrounded(board, Color::White) && queen_is_surrounded(board, Color::Black)) {
        return text;
    }
    // §8.3 broken: the player who made the last move is declared the winner
    let mover = match reference.history().len() % 2 {
        1 => GameState::WhiteWins,
        _ => GameState::BlackWins,
    };
    let mut fields: Vec<String> = text.split(';').map(str::to_string).collect();
    if fields.len() >= 2 {
        fields[1] = mover.to_string();
    }
    fields.join(";")
}

/// §9.31, §9.29 broken: the GameString with `/` and `\` swapped in every
/// move (the fields after the type, the state and the turn).
fn with_glyphs_swapped(text: &str) -> String {
    let fields: Vec<String> = text
        .split(';')
        .enumerate()
        .map(|(i, field)| {
            if i < 3 {
                return field.to_string();
            }
            field
                .chars()
                .map(|c| match c {
                    '/' => '\\',
                    '\\' => '/',
                    other => other,
                })
                .collect()
        })
        .collect();
    fields.join(";")
}

/// The answer of `bestmove` under bestmove-illegal: a MoveString that reads
/// in the position but names a move the rules refuse (spec/sources/uhp-notes.md section 5.6
/// broken). `None` in the unlikely position where none of the candidates is
/// illegal.
fn illegal_best_move(game: &Game) -> Option<String> {
    let reference = reference_of(game);
    let board = reference.board();
    let game_type = reference.game_type();
    let mover = reference.side_to_move();
    let in_reserve = |color: Color| -> Vec<Piece> {
        // the lowest-numbered piece of each bug still in the reserve (§3.2),
        // the queen last so that only one rule is broken where possible
        let mut pieces: Vec<Piece> = Vec::new();
        for piece in game_type.pieces_of(color) {
            let first_of_bug = !pieces.iter().any(|p| p.bug == piece.bug);
            if board.location(piece).is_none() && first_of_bug {
                pieces.push(piece);
            }
        }
        pieces.sort_by_key(|p| p.bug == Bug::Queen);
        pieces
    };
    let occupied: Vec<Hex> = board.occupied_cells().collect();
    let empty_cell = if board.is_empty() {
        Some(Hex::ORIGIN)
    } else {
        board.empty_cells_touching_hive().into_iter().next()
    };
    let mut candidates: Vec<Move> = Vec::new();
    // §3.1 broken: a placement of a piece of the side not to move
    if let Some(to) = empty_cell {
        for piece in in_reserve(mover.opponent()) {
            candidates.push(Move::Place { piece, to });
        }
    }
    // §3.7 broken: a placement onto an occupied cell
    let own_reserve = in_reserve(mover);
    for &to in &occupied {
        for &piece in &own_reserve {
            candidates.push(Move::Place { piece, to });
        }
    }
    // §6.1 broken: the queen, which never climbs, moved onto another stack
    let queen = Piece::first(mover, Bug::Queen);
    if let Some(from) = board.location(queen) {
        for &to in occupied.iter().filter(|&&to| to != from) {
            candidates.push(Move::Move { piece: queen, to });
        }
    }
    let legal = reference.legal_move_set();
    candidates
        .into_iter()
        .find(|mv| !legal.contains(mv))
        .map(|mv| game.move_string(mv))
}

/// Under bestmove-slow, waits until twice the time budget plus 2 s have
/// passed since `started` (spec/sources/uhp-notes.md section 5.6 broken); returns at once for a
/// depth search.
fn delay_best_move(limits: &SearchLimits, started: Instant) {
    let Some(budget) = limits.time else {
        return;
    };
    let total = budget
        .saturating_mul(2)
        .saturating_add(Duration::from_secs(2));
    std::thread::sleep(total.saturating_sub(started.elapsed()));
}

/// Under refuses-lowercase, the refusal of a `play` move whose letters are
/// not in canonical case (§9.20 declined); `None` otherwise.
fn move_case_refusal(fault: Fault, text: &str) -> Option<String> {
    if fault != Fault::RefusesLowercase || move_in_canonical_case(text) {
        return None;
    }
    Some(format!(
        "{} is not written in canonical letter case",
        quote(text.trim())
    ))
}

/// Under refuses-lowercase, the refusal of a `newgame` argument (a
/// GameTypeString or a GameString) whose letters are not in canonical case
/// (§9.20 declined); `None` otherwise.
fn game_case_refusal(fault: Fault, text: &str) -> Option<String> {
    if fault != Fault::RefusesLowercase || game_in_canonical_case(text) {
        return None;
    }
    Some(format!(
        "{} is not written in canonical letter case",
        quote(text.trim())
    ))
}

/// Whether the letters of a MoveString are as printed (§9.19, §9.21): `pass`
/// lower-case, and in each piece name a lower-case colour letter and an
/// upper-case bug letter. Tokens of no such form are left to the parser.
fn move_in_canonical_case(text: &str) -> bool {
    text.split_whitespace().all(|token| {
        if token.eq_ignore_ascii_case("pass") {
            return token == "pass";
        }
        let name = token.trim_matches(|c| matches!(c, '-' | '/' | '\\'));
        let mut letters = name.chars();
        let colour = letters.next().is_none_or(|c| !c.is_ascii_uppercase());
        let bug = letters.next().is_none_or(|c| !c.is_ascii_lowercase());
        colour && bug
    })
}

/// Whether the letters of a GameTypeString or a GameString are as printed
/// (§9.15, §9.17, §9.18, and §9.19, §9.21 for the moves). Fields of no known
/// form are left to the parser.
fn game_in_canonical_case(text: &str) -> bool {
    let fields: Vec<&str> = text.split(';').map(str::trim).collect();
    fields.iter().enumerate().all(|(i, field)| match i {
        0 => game_type_in_canonical_case(field),
        1 => GameState::ALL
            .into_iter()
            .find(|state| state.name().eq_ignore_ascii_case(field))
            .is_none_or(|state| state.name() == *field),
        2 => ["White", "Black"].into_iter().all(|word| {
            field
                .get(..word.len())
                .is_none_or(|head| !head.eq_ignore_ascii_case(word) || head == word)
        }),
        _ => move_in_canonical_case(field),
    })
}

/// `Base` with a capital B only, expansion letters upper-case (§9.15).
fn game_type_in_canonical_case(field: &str) -> bool {
    match field.get(..4) {
        Some(head) if head.eq_ignore_ascii_case("base") => {
            head == "Base" && !field[4..].bytes().any(|b| b.is_ascii_lowercase())
        }
        _ => true,
    }
}

/// The protocol faults that act before a command is answered: exit with
/// status 101 (crash-mid-game), block forever (hang) or exit with status 1
/// on a line that is not UTF-8 (exit-on-non-utf8). Returns otherwise.
fn before_command(fault: Fault, line: &[u8], plies: usize) {
    let keyword = line
        .trim_ascii()
        .split(|b| b.is_ascii_whitespace())
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    match fault {
        Fault::CrashMidGame if plies >= 6 && (keyword == b"play" || keyword == b"pass") => {
            std::process::exit(101)
        }
        Fault::Hang if plies >= 4 && keyword == b"validmoves" => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        Fault::ExitOnNonUtf8 if std::str::from_utf8(line).is_err() => std::process::exit(1),
        Fault::FloodLines if plies >= 4 && keyword == b"validmoves" => flood(b"y\n"),
        Fault::FloodBytes if plies >= 4 && keyword == b"validmoves" => flood(b"y"),
        Fault::HugeLine if plies >= 4 && keyword == b"validmoves" => huge_line(),
        Fault::EscapeCodes => {
            let _ = writeln!(io::stderr(), "{ESCAPE_CODES} debug output");
        }
        Fault::StderrFlood => {
            let noise = format!("{ESCAPE_CODES} noise {}\n", "z".repeat(200)).repeat(300);
            let _ = io::stderr().write_all(noise.as_bytes());
        }
        Fault::RandomCrash => {
            let commands = COMMANDS_SEEN.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            if commands >= 10 + (std::process::id() as usize % 31) {
                std::process::exit(101)
            }
        }
        _ => {}
    }
}

/// The commands random-crash has seen in this process.
static COMMANDS_SEEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Writes `chunk` on stdout until the process is killed (or stdout is
/// closed, then exits).
fn flood(chunk: &[u8]) -> ! {
    let block = chunk.repeat(65536 / chunk.len());
    let mut out = io::stdout().lock();
    while out.write_all(&block).is_ok() {}
    std::process::exit(1)
}

/// Writes one line of 1 GiB on stdout (exits if stdout is closed).
fn huge_line() {
    let block = vec![b'y'; 1 << 20];
    let mut out = io::stdout().lock();
    for _ in 0..1024 {
        if out.write_all(&block).is_err() {
            std::process::exit(1);
        }
    }
    if out.write_all(b"\n").and_then(|()| out.flush()).is_err() {
        std::process::exit(1);
    }
}
