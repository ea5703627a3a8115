//! The decorator: [`FaultySession`] wraps a real [`Session`], passes every
//! line on to it, answers the few commands its fault changes (`newgame`,
//! `play`, `pass`, `undo`, `validmoves`, `bestmove`, `options`) with the
//! real session's help, and rewrites the answers where the fault shows.

use std::time::Instant;

use super::bestmove::{delay_best_move, illegal_best_move};
use super::notation::{
    crlf_refusal, game_case_refusal, house_state, lax_piece_text, move_case_refusal,
    mzinga_move_text, printed_game_string, valid_move_strings,
};
use super::rules::{self, deviation};
use super::table::{Area, Fault};
use crate::core::notation::{parse_game_string, parse_game_type};
use crate::core::{GameState, Move};
use crate::uhp::arguments::{command_words, search_limits};
use crate::uhp::reply::{quote, response, Failure};
use crate::uhp::{EngineChoice, Game, LineHandler, OptionName, Session};

/// A UHP session that is deliberately wrong in the way its [`Fault`] says:
/// a real [`Session`] behind a decorator that answers a few commands itself
/// and rewrites some answers. The faults that end or block the process
/// or act on its streams (crash-mid-game, hang, exit-on-non-utf8, the
/// floods, stderr) act only in the tool's `hive-oracle uhp --fault`, which
/// runs a `FaultySession` as a process, so that a `FaultySession` of any
/// fault can be driven in process.
///
/// ```
/// use hive_oracle_rules::faults::{Fault, FaultySession};
/// use hive_oracle_rules::uhp::{EngineChoice, Session};
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
    /// The seed of the order shuffled-drop-one-move lists its moves in
    /// ([`FaultySession::with_order_seed`]).
    order_seed: u64,
}

impl FaultySession {
    /// A session with default options on the given engine and no game,
    /// wrong as `fault` says. A fault that adds moves holds its game on the
    /// reference engine, which can be made to play any move.
    pub fn new(engine: EngineChoice, fault: Fault) -> FaultySession {
        let engine = if fault.area() == Area::ReferenceRules {
            EngineChoice::Reference
        } else {
            engine
        };
        let mut session = Session::new(engine);
        if fault.plays_repetition_draw() {
            // §8.7.2 broken: every game is played with the repetition draw;
            // the option is then hidden (see `hidden_option`). Accepted: no
            // game is in progress yet.
            session.handle_line(b"options set RepetitionDraw True");
        }
        FaultySession {
            fault,
            session,
            commands: 0,
            order_seed: 0,
        }
    }

    /// The same session with the seed of the order in which
    /// shuffled-drop-one-move lists its moves: the process id when
    /// `hive-oracle uhp --fault` runs it as a process, so that two engine
    /// processes list one position in different orders; 0 by default.
    pub fn with_order_seed(mut self, seed: u64) -> FaultySession {
        self.order_seed = seed;
        self
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

    /// The response to a line longer than [`MAX_LINE_BYTES`](crate::uhp::MAX_LINE_BYTES).
    pub fn long_line_reply(&self) -> Vec<String> {
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
        if let Some(refusal) = crlf_refusal(self.fault, line) {
            // spec/sources/uhp-notes.md section 1 declined (mzinga-readings)
            return response(Err(Failure::Err(refusal)));
        }
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
        if matches!(
            keyword.as_str(),
            "play" | "pass" | "validmoves" | "bestmove"
        ) {
            if let Some(refusal) = self.house_draw_refusal() {
                // the house rule's draw ends the game (§8.5 under it)
                return response(Err(Failure::Err(refusal)));
            }
        }
        match keyword.as_str() {
            "newgame" => self.newgame(line, &args.join(" ")),
            "play" if !args.is_empty() => self.play(line, &args.join(" ")),
            "pass" if self.fault == Fault::AcceptsIllegalPass => self.pass_always(line),
            "pass" | "undo" => self.forward_printing_game_string(line),
            "validmoves" => self.validmoves(line),
            "bestmove" => self.bestmove(line, &args),
            "options" => self.options(line, &args),
            "perft" => self.perft(line),
            // spec/sources/uhp-notes.md section 5.9 broken (exit-ignored)
            "exit" if self.fault == Fault::ExitIgnored => response(Ok(Vec::new())),
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

    /// `pass` under accepts-illegal-pass: played whatever moves are legal
    /// (§7.2 broken); a finished game or none goes to the real session.
    fn pass_always(&mut self, line: &[u8]) -> Vec<String> {
        if self.live_game().is_none() {
            return self.session.handle_line(line);
        }
        let Some(game) = self.session.game_mut() else {
            return self.session.handle_line(line);
        };
        // §7.2 broken: the turn passes although a move is legal
        game.play_unchecked(Move::Pass);
        let text = printed_game_string(self.fault, game);
        response(Ok(vec![text]))
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
            // §9.32 broken (skips-empty-moves): empty moves are left out
            let kept;
            let arg = if self.fault == Fault::SkipsEmptyMoves {
                kept = without_empty_moves(arg);
                kept.as_str()
            } else {
                arg
            };
            match self.load(arg) {
                Ok(game)
                    if self.fault == Fault::FinishedGameAnswersPrevious
                        && game.state().is_over() =>
                {
                    // spec/sources/uhp-notes.md section 5.2 broken: a
                    // finished game is not loaded, the previous game is
                    // kept and printed, and no err says so
                    match self.session.game() {
                        Some(previous) => {
                            response(Ok(vec![printed_game_string(self.fault, previous)]))
                        }
                        None => response(Err(Failure::Err("no game to load".to_string()))),
                    }
                }
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
        if self.fault == Fault::NewgameRefusalAnswersPrevious && is_refusal(&reply) {
            // spec/sources/uhp-notes.md section 2.3 broken: no err, the
            // previous game printed instead
            if let Some(game) = self.session.game() {
                return response(Ok(vec![printed_game_string(self.fault, game)]));
            }
        }
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
        let record = parse_game_string(text).map_err(Failure::err)?;
        let mut game = Game::new(options.engine, record.game_type, options.rules());
        for (i, move_text) in record.moves.iter().enumerate() {
            let mv = game
                .parse_move(move_text)
                .map_err(|e| Failure::Err(format!("move {}: {e}", i + 1)))?;
            if house_state(self.fault, &game) == Some(GameState::Draw) {
                return Err(Failure::Err(format!(
                    "move {} ({}): the game is over (Draw) (§8.5)",
                    i + 1,
                    quote(move_text)
                )));
            }
            rules::play(self.fault, &mut game, mv).map_err(|why| {
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
        if let Some(read) = mzinga_move_text(self.fault, game, text) {
            // §9.22, §9.10 broken (mzinga-readings): played as Mzinga reads it
            return self.forward_printing_game_string(format!("play {read}").as_bytes());
        }
        if let Some(read) = lax_piece_text(self.fault, game, text) {
            // §1.5 broken (lax-piece-numbers): a piece the game has not
            return self.forward_printing_game_string(format!("play {read}").as_bytes());
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
            .map_err(Failure::invalid_move);
        response(result)
    }

    /// `validmoves` (spec/sources/uhp-notes.md section 5.5): the real session's answer, with
    /// the list this engine gives instead.
    fn validmoves(&mut self, line: &[u8]) -> Vec<String> {
        let mut reply = self.session.handle_line(line);
        if !is_refusal(&reply) {
            if let (Some(first), Some(game)) = (reply.first_mut(), self.session.game()) {
                *first = valid_move_strings(self.fault, game, self.order_seed).join(";");
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
                return response(Err(Failure::err(why)));
            }
        }
        let mut reply = self.session.handle_line(line);
        if args.is_empty() {
            let prefix = format!("{};", hidden.text());
            reply.retain(|option| !option.starts_with(&prefix));
        }
        reply
    }

    /// `perft N` (spec/notation.md, UHP engine conventions) with the fault
    /// applied: refused as an unknown command (refuses-perft), or one leaf
    /// too many at its deepest depth (perft-miscounts).
    fn perft(&mut self, line: &[u8]) -> Vec<String> {
        if self.fault == Fault::RefusesPerft {
            return response(Err(Failure::err("unknown command \"perft\"")));
        }
        let mut reply = self.session.handle_line(line);
        if self.fault == Fault::PerftMiscounts && !is_refusal(&reply) {
            // the last line before `ok` is the deepest count
            let deepest = reply.len().checked_sub(2).and_then(|i| reply.get_mut(i));
            if let Some(last) = deepest {
                if let Some((label, count)) = last.split_once(" = ") {
                    if let Ok(count) = count.parse::<u64>() {
                        *last = format!("{label} = {}", count + 1);
                    }
                }
            }
        }
        reply
    }

    /// The refusal of a command that needs a game in progress when the
    /// fault's house repetition rule has drawn the game (the real session
    /// plays on, since its rules have no such draw).
    fn house_draw_refusal(&self) -> Option<String> {
        let game = self.live_game()?;
        (house_state(self.fault, game) == Some(GameState::Draw)).then(|| {
            "the game is over (Draw): start a new game with newgame, or take moves back with undo (§8.5)".to_string()
        })
    }

    /// The option the engine does not know: under repetition-draw,
    /// `RepetitionDraw`, so that it plays the variant without saying so
    /// (spec/sources/uhp-notes.md section 5.8 broken).
    fn hidden_option(&self) -> Option<OptionName> {
        (self.fault.plays_repetition_draw() || self.fault.house_rule().is_some())
            .then_some(OptionName::RepetitionDraw)
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

/// A GameString without the empty moves of a doubled or trailing `;`
/// (skips-empty-moves); its first three fields are kept as they are.
fn without_empty_moves(text: &str) -> String {
    let fields: Vec<&str> = text
        .split(';')
        .enumerate()
        .filter(|&(i, field)| i < 3 || !field.trim().is_empty())
        .map(|(_, field)| field)
        .collect();
    fields.join(";")
}

/// Whether a response is a refusal (`err` or `invalidmove`, spec/sources/uhp-notes.md section
/// 2.3), which leaves the real session as it was.
fn is_refusal(reply: &[String]) -> bool {
    reply
        .first()
        .is_some_and(|line| line.starts_with("err ") || line.starts_with("invalidmove "))
}
