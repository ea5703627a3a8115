//! The engine under check as a [`CaseEngine`], so that the crate's one case
//! runner ([`hive_oracle_rules::cases::run_case`]) drives it over UHP: its position
//! sent with `newgame` as written, its moves with `play` in the spelling
//! of the case, with check's own checks on the side (every printed
//! GameString replayed, every `undo` checked).

use std::collections::BTreeMap;

use crate::check::client::answer::perft_count;
use crate::check::client::{ClientError, Response};
use crate::check::findings::quote::{quote, MAX_QUOTE_BYTES};
use crate::check::given::lines::play_line_as_written;
use crate::check::units::judge::{
    another_game, printed_again, state_and_turn, ANOTHER_GAME_PRINTED_AGAIN,
};
use crate::check::units::worker::{Stop, Worker};
use hive_oracle_rules::cases::{CaseEngine, Refused};
use hive_oracle_rules::core::{GameState, Move, RulesOptions};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// Why a UHP case engine stopped.
pub(crate) enum UhpCaseError {
    /// Talking to the engine failed after these lines.
    Client(ClientError, Vec<String>),
    /// A finding was recorded (a printed GameString, an undo): the case stops.
    Reported,
}

/// What the engine said during a case that its findings quote.
pub(crate) struct Said {
    /// The engine's answer to each line sent.
    pub answers: BTreeMap<String, Vec<String>>,
    /// Its first `validmoves` answer.
    pub listed: Vec<String>,
    /// The moves that answer names more than once (§9.35).
    pub duplicates: BTreeMap<Move, usize>,
    /// For each line sent, the lines sent up to its first sending, itself
    /// included, exactly as sent ([`UhpCase::sent`]).
    pub sent_to: BTreeMap<String, Vec<String>>,
    /// Every line sent for the case, exactly as sent.
    pub sent: Vec<String>,
    /// The case's `newgame GameString` when the engine did not load it
    /// (refused it, or answered with another game): one finding, and the
    /// case's questions asked from its position reached by its moves.
    pub not_loaded: Option<NotLoaded>,
}

/// A `newgame GameString` of a case that the engine did not load.
pub(crate) struct NotLoaded {
    /// The lines sent up to it, itself included.
    pub sent: Vec<String>,
    /// The engine's answer.
    pub answer: Response,
    /// What the engine printed instead of the game, when it answered with
    /// another game rather than refusing.
    pub another: Option<String>,
    /// Whether the position was reached by its moves, so that the case's
    /// questions were asked.
    pub reached: bool,
}

/// The engine under check as a [`CaseEngine`]: the worker's session, with
/// check's own checks on the side.
pub(crate) struct UhpCase<'w, 'a> {
    worker: &'w mut Worker<'a>,
    /// The case's position on the reference engine.
    game: ReferenceEngine,
    /// The lines that set the case's rules options, if any.
    prefix: Vec<String>,
    said: Said,
    /// The state it printed when the case was loaded.
    state: Option<GameState>,
    /// Crashes and timeouts the case went on after ([`UhpCase::recover`]).
    recovered: usize,
    /// A legal move whose `play` the engine crashed on: the engine is at
    /// the case's position again, so the `undo` after it is not sent.
    skip_undo: bool,
}

/// The crashes and timeouts a case goes on after; one more stops it.
const MAX_RECOVERIES: usize = 3;

/// The answer a case is given for a question the engine crashed (or timed
/// out) on: the failure is a finding of its own, and the question no other.
const RECOVERED: &str = "the engine failed on it (a finding of its own); the case went on from its position on a new engine process";

impl<'w, 'a> UhpCase<'w, 'a> {
    /// The case engine on `worker`'s engine, for the case's position `game`
    /// reached after the lines `prefix` (which set its rules options).
    pub fn new(worker: &'w mut Worker<'a>, game: ReferenceEngine, prefix: Vec<String>) -> Self {
        UhpCase {
            worker,
            game,
            prefix,
            said: Said {
                answers: BTreeMap::new(),
                listed: Vec::new(),
                duplicates: BTreeMap::new(),
                sent_to: BTreeMap::new(),
                sent: Vec::new(),
                not_loaded: None,
            },
            state: None,
            recovered: 0,
            skip_undo: false,
        }
    }

    /// After the engine failed on a question of the case (`error`): a
    /// crash or a timeout is recorded as a finding of its own, the engine
    /// is started again with the case's rules and position (`newgame` with
    /// the canonical GameString) and the case goes on, so that each of its
    /// questions gets its own verdict: one failure never hides another. At
    /// most [`MAX_RECOVERIES`] a case; any other failure, or one more,
    /// stops the case with `error`.
    fn recover(&mut self, error: UhpCaseError) -> Result<(), UhpCaseError> {
        let UhpCaseError::Client(failure, sent) = error else {
            return Err(error);
        };
        let recoverable = matches!(
            failure,
            ClientError::Exited { .. } | ClientError::Timeout { .. }
        );
        if !recoverable || self.recovered >= MAX_RECOVERIES || self.worker.engine_failed {
            return Err(UhpCaseError::Client(failure, sent));
        }
        self.recovered += 1;
        let game = self.game.clone();
        self.worker.engine_failure(&game, failure, sent);
        // a new process: the lines of this case start again
        self.worker.session.transcript.clear();
        let options = game.options();
        if self.worker.ctx.settable && !self.worker.set_rules(options) {
            return Err(UhpCaseError::Reported);
        }
        let answer = self.command(&format!("newgame {}", game.game_string()))?;
        if answer.is_error() || another_game(&game, answer.last_line().unwrap_or("")).is_some() {
            return Err(UhpCaseError::Reported);
        }
        self.loaded(&answer)
    }

    /// What the engine said, once the case has run.
    pub fn said(mut self) -> Said {
        self.said.sent = self.sent();
        self.said
    }

    /// Notes the lines sent up to `line` (just sent), the first time it is.
    fn note_sent(&mut self, line: &str) {
        if !self.said.sent_to.contains_key(line) {
            let sent = self.sent();
            self.said.sent_to.insert(line.to_string(), sent);
        }
    }

    /// The lines sent so far for this case, exactly as they were sent (the
    /// case's GameString as written, never a canonical one, and every
    /// earlier line), the last one included: the lines that set the case's
    /// rules options (sent in this unit, or earlier on this process), then
    /// the unit's transcript.
    fn sent(&self) -> Vec<String> {
        let transcript = &self.worker.session.transcript;
        let mut lines = Vec::new();
        if !transcript.starts_with(&self.prefix) {
            lines.extend(self.prefix.iter().cloned());
        }
        lines.extend(transcript.iter().cloned());
        lines
    }

    /// The case's position reached by its moves ([`Worker::reach_by_moves`]).
    fn reach(&mut self, game: &ReferenceEngine) -> Result<Option<Response>, UhpCaseError> {
        self.worker
            .reach_by_moves(game)
            .map_err(|e| UhpCaseError::Client(e, self.sent()))
    }

    /// The case's position is loaded (`answer` printed its GameString):
    /// that GameString checked, and the state it says kept for the case's
    /// `state` question.
    fn loaded(&mut self, answer: &Response) -> Result<(), UhpCaseError> {
        let sent = self.sent();
        let reference = self.game.clone();
        self.worker
            .compare_game_string(&reference, answer, || sent.clone())
            .map_err(|Stop| UhpCaseError::Reported)?;
        self.state = state_and_turn(answer.last_line().unwrap_or("")).map(|(state, _)| state);
        Ok(())
    }

    fn command(&mut self, line: &str) -> Result<Response, UhpCaseError> {
        let result = self.worker.session.command(line);
        self.note_sent(line);
        match result {
            Ok(answer) => {
                self.said
                    .answers
                    .insert(line.to_string(), answer.lines.clone());
                Ok(answer)
            }
            Err(e) => Err(UhpCaseError::Client(e, self.sent())),
        }
    }
}

impl CaseEngine for UhpCase<'_, '_> {
    type Error = UhpCaseError;

    fn load(&mut self, game: &str, _: RulesOptions) -> Result<Result<(), Refused>, UhpCaseError> {
        let line = format!("newgame {game}");
        let previous = self.worker.session.printed().map(str::to_string);
        let answer = match self.command(&line) {
            Ok(answer) => answer,
            Err(e) => return self.recover(e).map(Ok),
        };
        let sent = self.sent();
        let printed = answer.last_line().unwrap_or("").to_string();
        let game = self.game.clone();
        let mut another = another_game(&game, &printed);
        let mut reached = None;
        if !answer.is_error()
            && another.is_none()
            && printed_again(&game, &printed, previous.as_deref())
        {
            // the answer is what the engine printed before: its position
            // reached by its moves tells a kept game from a misspelled one
            let last = self.reach(&game)?;
            if last
                .as_ref()
                .is_some_and(|l| l.last_line() != Some(printed.as_str()))
            {
                another = Some(ANOTHER_GAME_PRINTED_AGAIN.to_string());
            }
            reached = Some(last);
        }
        if !answer.is_error() && another.is_none() {
            return self.loaded(&answer).map(Ok);
        }
        // Not loaded: one finding (made by the case unit), and the case's
        // position reached by its moves, so that every question of the case
        // is still asked of a position the engine did accept.
        let reason = another.clone().unwrap_or_else(|| answer.lines.join(" / "));
        let reached = match reached {
            Some(reached) => reached,
            None => self.reach(&game)?,
        };
        self.said.not_loaded = Some(NotLoaded {
            sent,
            answer,
            another,
            reached: reached.is_some(),
        });
        match reached {
            Some(last) => self.loaded(&last).map(Ok),
            None => Ok(Err(Refused(reason))),
        }
    }

    fn valid_moves(&mut self) -> Result<Vec<String>, UhpCaseError> {
        let game = self.game.clone();
        let texts = self
            .worker
            .session
            .validmoves(self.worker.ctx.state_of(&game).is_over());
        self.note_sent("validmoves");
        let texts = match texts {
            Ok(texts) => texts,
            Err(e) => {
                let error = UhpCaseError::Client(e, self.sent());
                self.recover(error)?;
                // the failure is the question's verdict: no list to judge
                return Ok(game.valid_move_strings());
            }
        };
        if self.said.listed.is_empty() {
            self.said.listed = texts.clone();
            self.said.duplicates = self.worker.compare_moves(&game, &texts).duplicates;
        }
        Ok(texts)
    }

    fn play(&mut self, text: &str) -> Result<Result<(), Refused>, UhpCaseError> {
        let line = play_line_as_written(text);
        let answer = match self.command(&line) {
            Ok(answer) => answer,
            Err(e) => {
                self.recover(e)?;
                // the failure is the question's verdict: a legal move is
                // taken as played (the engine is at the case's position, so
                // its undo is not sent), an illegal one as refused
                let game = &self.game;
                let legal = game
                    .parse_move(text)
                    .is_ok_and(|mv| game.clone().play(mv).is_ok());
                self.skip_undo = legal;
                return Ok(if legal {
                    Ok(())
                } else {
                    Err(Refused(RECOVERED.to_string()))
                });
            }
        };
        if answer.is_error() {
            return Ok(Err(Refused(answer.lines.join(" / "))));
        }
        // the GameString printed after an accepted legal move must replay
        if let Ok(mv) = self.game.parse_move(text) {
            if self.game.clone().play(mv).is_ok() {
                let mut after = self.game.clone();
                after.play_unchecked(mv);
                let sent = self.sent();
                self.worker
                    .compare_game_string(&after, &answer, || sent.clone())
                    .map_err(|Stop| UhpCaseError::Reported)?;
            }
        }
        Ok(Ok(()))
    }

    fn undo(&mut self) -> Result<(), UhpCaseError> {
        if std::mem::take(&mut self.skip_undo) {
            return Ok(());
        }
        self.worker.counts.undo_checks += 1;
        let undone = match self.command("undo 1") {
            Ok(undone) => undone,
            Err(e) => return self.recover(e),
        };
        let sent = self.sent();
        let game = self.game.clone();
        self.worker
            .check_undo(&game, &undone, &sent)
            .map_err(|Stop| UhpCaseError::Reported)
    }

    fn state(&mut self) -> Result<GameState, UhpCaseError> {
        // the state printed by `newgame` (a missing one is a finding already)
        self.state.ok_or(UhpCaseError::Reported)
    }

    /// `perft N`, which is no UHP command but which the established engines
    /// answer (spec/sources/uhp-notes.md section 6): an engine that refuses
    /// it, or whose answer gives no count for the depth, skips the case's
    /// perft assertions with that reason.
    fn perft(&mut self, depth: u32) -> Result<Result<u64, Refused>, UhpCaseError> {
        let line = format!("perft {depth}");
        let answer = match self.command(&line) {
            Ok(answer) => answer,
            Err(e) => {
                self.recover(e)?;
                return Ok(Err(Refused(RECOVERED.to_string())));
            }
        };
        let said = || quote(&answer.lines.join(" / "), MAX_QUOTE_BYTES);
        if answer.is_error() {
            return Ok(Err(Refused(format!(
                "the engine refuses `{line}`: {}; perft is no UHP command",
                said()
            ))));
        }
        Ok(perft_count(&answer.lines, depth).ok_or_else(|| {
            Refused(format!(
                "the engine's answer to `{line}` gives no count for depth {depth}: {}",
                said()
            ))
        }))
    }

    fn cites_clauses(&self) -> bool {
        false
    }
}
