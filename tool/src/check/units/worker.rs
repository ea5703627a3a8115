//! The engine process of one job of a check, and the record of the unit it
//! is running: [`Worker`] sends through its [`Session`], records findings
//! (with their reproduce pipes and the engine's stderr), counts what was
//! checked, and makes the checks every kind of unit shares: a move list, a
//! printed GameString and an `undo` against the rules. The units
//! themselves are run by `probes`, `case_unit` and `games`.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use crate::check::client::session::Session;
use crate::check::client::{resolve_counted, ClientError, Response};
use crate::check::findings::finding::{Finding, Kind};
use crate::check::findings::quote::pipe;
use crate::check::findings::summary::{Summary, TestCase};
use crate::check::given::config::Config;
use crate::check::given::lines::{as_bytes, play_line, rules_commands};
use crate::check::units::judge::{
    replay_problem, state_and_turn, state_clauses, state_origin, state_pattern, MoveDiff, Shown,
};
use hive_oracle_rules::core::{BoardView, GameState, GameType, Move, RulesOptions};
use hive_oracle_rules::house_rules::HouseRepetition;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// A reason to stop a unit early: the finding was recorded.
pub(crate) struct Stop;

/// What is known of a cause before a finding of it is shrunk
/// ([`Worker::prior`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prior {
    /// Nothing: the finding is shrunk and reported.
    New,
    /// The baseline lists it: reported where seen, not shrunk again.
    Known,
    /// The unit has shown it already: counted, not reported again.
    Repeated,
}

/// What the units share: the configuration and what the protocol unit
/// learnt about the engine.
pub(crate) struct Context<'a> {
    pub config: &'a Config,
    /// The rules the engine is judged by (with the repetition draw on when
    /// it plays a house rule).
    pub rules: RulesOptions,
    /// The house repetition rule the engine plays instead of §8.7.2, when
    /// declared (spec/rulings.md#house-repetition-rules).
    pub house: Option<HouseRepetition>,
    /// Whether the engine lists both rules options, so that cases with other
    /// options can be run on it.
    pub settable: bool,
    /// The rules the engine's `options` listing shows (standard values for
    /// options it does not list).
    pub engine_rules: RulesOptions,
    pub supported: Vec<GameType>,
    /// The game types of the random games.
    pub types: Vec<GameType>,
}

impl Context<'_> {
    /// The rules options the reference plays the engine's games with: the
    /// declared ones, or under a house rule those that rule is judged on
    /// ([`HouseRepetition::reference_options`]).
    pub fn reference_rules(&self) -> RulesOptions {
        self.house
            .map_or(self.rules, |house| house.reference_options(self.rules))
    }

    /// The state of `game` as the engine's rules give it: the reference's,
    /// or under a house rule that rule's ([`HouseRepetition::state`]).
    pub fn state_of(&self, game: &ReferenceEngine) -> GameState {
        self.house
            .map_or_else(|| game.state(), |house| house.state(game))
    }
}

/// The result of one unit.
pub(crate) struct UnitResult {
    pub test: TestCase,
    pub findings: Vec<Finding>,
    pub counts: Summary,
    /// Assertions of the unit that could not run on this engine, and why.
    pub skips: Vec<String>,
    /// Whether the engine crashed or timed out in it.
    pub failed: bool,
    pub reference_time: Duration,
    pub shrink_time: Duration,
}

/// The engine process of one job, and the unit it is running.
pub(crate) struct Worker<'a> {
    pub ctx: &'a Context<'a>,
    pub session: Session,
    /// The unit's name.
    pub test: String,
    pub findings: Vec<Finding>,
    pub counts: Summary,
    /// Assertions of the unit that could not run on this engine, and why.
    pub skips: Vec<String>,
    pub reference_time: Duration,
    pub shrink_time: Duration,
    /// Whether the engine failed in the current unit in a way that counts
    /// toward giving up on it: a crash, a timeout or a flood of output.
    pub engine_failed: bool,
}

impl<'a> Worker<'a> {
    pub(crate) fn new(ctx: &'a Context<'a>) -> Worker<'a> {
        let config = ctx.config;
        Worker {
            ctx,
            session: Session::new(&config.engine, config.startup_timeout, config.timeout),
            test: String::new(),
            findings: Vec::new(),
            counts: Summary::default(),
            skips: Vec::new(),
            reference_time: Duration::ZERO,
            shrink_time: Duration::ZERO,
            engine_failed: false,
        }
    }

    /// Starts a unit.
    pub fn begin(&mut self, test: &str) {
        self.test = test.to_string();
        self.session.transcript.clear();
        self.findings.clear();
        self.counts = Summary::default();
        self.skips.clear();
        self.reference_time = Duration::ZERO;
        self.shrink_time = Duration::ZERO;
        self.engine_failed = false;
    }

    /// Ends a unit: its result. A unit that leaves the engine down counts a
    /// restart, and the engine is dropped so the next unit starts afresh.
    pub(crate) fn end(&mut self, class: &str, seconds: f64, skipped: Option<String>) -> UnitResult {
        let failed = self.engine_failed || self.findings.iter().any(|f| f.kind.is_engine_failure());
        if skipped.is_none() && self.session.is_down() {
            self.counts.engine_restarts += 1;
            self.session.drop_engine();
        }
        UnitResult {
            test: TestCase {
                class: class.to_string(),
                name: self.test.clone(),
                seconds,
                skipped,
            },
            findings: std::mem::take(&mut self.findings),
            counts: std::mem::take(&mut self.counts),
            skips: std::mem::take(&mut self.skips),
            failed,
            reference_time: self.reference_time,
            shrink_time: self.shrink_time,
        }
    }

    /// Records a finding: the reproduce pipe is built from what it sent,
    /// and the engine's stderr is attached; what it quotes of the engine is
    /// cut and escaped ([`Finding::bounded`]).
    pub fn add(&mut self, mut finding: Finding) {
        if finding.sent_bytes.is_empty() {
            finding.sent_bytes = as_bytes(&finding.sent);
        }
        if finding.reproduce.is_empty() {
            finding.reproduce = pipe(&self.ctx.config.engine, &finding.sent_bytes);
        }
        if finding.stderr.is_empty() {
            finding.stderr = self.session.stderr_tail();
        }
        finding.raw_answer = finding.answer.clone();
        self.findings.push(finding.bounded());
    }

    /// Records a failure to talk to the engine (crash, timeout, protocol)
    /// after `sent`.
    pub fn engine_failure(
        &mut self,
        game: &ReferenceEngine,
        error: ClientError,
        sent: Vec<String>,
    ) -> Stop {
        self.engine_failure_after(game, error, as_bytes(&sent))
    }

    /// Records a failure to talk to the engine on the last line it was
    /// sent, shown by the lines it was sent exactly
    /// ([`Worker::exact_lines`]).
    pub fn engine_failure_here(&mut self, game: &ReferenceEngine, error: ClientError) -> Stop {
        let sent = self.exact_lines();
        self.engine_failure_after(game, error, sent)
    }

    /// [`Worker::engine_failure`] after the lines `sent`, byte for byte.
    pub fn engine_failure_after(
        &mut self,
        game: &ReferenceEngine,
        error: ClientError,
        sent: Vec<Vec<u8>>,
    ) -> Stop {
        // a failed start-up is judged by how it failed
        let how = match &error {
            ClientError::StartUp { error, .. } => error.as_ref(),
            other => other,
        };
        let (kind, answer) = match how {
            ClientError::Timeout { partial_output, .. } => (Kind::Timeout, partial_output.clone()),
            ClientError::Exited { partial_output, .. }
            | ClientError::OutputHeldOpen { partial_output, .. } => {
                (Kind::Crash, partial_output.clone())
            }
            ClientError::Flood { partial_output, .. } => (Kind::Protocol, partial_output.clone()),
            _ => (Kind::Protocol, Vec::new()),
        };
        if matches!(how, ClientError::Flood { .. }) {
            self.engine_failed = true;
        }
        let stderr = match &error {
            ClientError::StartUp { stderr, .. } => stderr.clone(),
            _ => self.session.stderr_tail(),
        };
        let command = sent
            .last()
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .unwrap_or_default();
        // a failed start-up is its own cause, whatever was to be sent
        let word = match &error {
            ClientError::StartUp { .. } => "start-up",
            _ => command.split_whitespace().next().unwrap_or("start-up"),
        };
        let pattern = match &error {
            ClientError::Flood { .. } => format!("flood on {word}"),
            _ => word.to_string(),
        };
        let from_start = self
            .session
            .lines_since_start()
            .filter(|lines| {
                lines.len() > sent.len() && lines.ends_with(&sent[sent.len().saturating_sub(1)..])
            })
            .unwrap_or_default();
        let mut finding = Finding::new(kind, &self.test, game)
            .clauses(["uhp"])
            .pattern(pattern)
            .detail(error.to_string())
            .exchange_exact(sent, answer);
        finding.stderr = stderr;
        finding.sent_from_start = from_start;
        self.add(finding);
        self.session.drop_engine();
        Stop
    }

    /// The engine's legal moves against the reference's, in `game`.
    pub fn compare_moves(&mut self, game: &ReferenceEngine, texts: &[String]) -> MoveDiff {
        let start = Instant::now();
        // §8.5: no move once the game is over, under a house rule's draw too
        let legal = if self.ctx.state_of(game).is_over() {
            BTreeSet::new()
        } else {
            game.legal_move_set()
        };
        self.reference_time += start.elapsed();
        self.compare_moves_with(game, texts, &legal)
    }

    /// [`Worker::compare_moves`] with the reference's legal moves of `game`
    /// already computed.
    pub fn compare_moves_with(
        &mut self,
        game: &ReferenceEngine,
        texts: &[String],
        legal: &BTreeSet<Move>,
    ) -> MoveDiff {
        let start = Instant::now();
        let (counted, unresolvable) = resolve_counted(game, texts);
        let engine_moves: BTreeSet<Move> = counted.keys().copied().collect();
        self.reference_time += start.elapsed();
        self.counts.validmoves_compared += 1;
        MoveDiff {
            missing: legal.difference(&engine_moves).copied().collect(),
            extra: engine_moves.difference(legal).copied().collect(),
            unresolvable,
            // §9.35 each move once, compared as moves, not as strings
            duplicates: counted.into_iter().filter(|&(_, n)| n > 1).collect(),
        }
    }

    /// Records the findings of a move comparison in `game`, shown by the
    /// lines `sent` (the last one `validmoves`) and the engine's `answer`.
    pub fn report_diff(
        &mut self,
        game: &ReferenceEngine,
        diff: &MoveDiff,
        case_clauses: &[String],
        sent: Vec<String>,
        answer: &[String],
        found_at_ply: Option<usize>,
    ) {
        let shown = self.shown(game, case_clauses, sent, answer, found_at_ply);
        for finding in diff.findings(&shown) {
            self.add(finding);
        }
    }

    /// Where a move comparison in `game` was made, for its findings.
    pub(crate) fn shown<'s>(
        &'s self,
        game: &'s ReferenceEngine,
        case_clauses: &'s [String],
        sent: Vec<String>,
        answer: &'s [String],
        found_at_ply: Option<usize>,
    ) -> Shown<'s> {
        Shown {
            test: &self.test,
            game,
            case_clauses,
            sent,
            answer,
            found_at_ply,
        }
    }

    /// What is known of the cause `fingerprint` before a finding of it
    /// is shrunk: the baseline lists it (counted in
    /// `shrinks_skipped_known`: reported where it was seen, not shrunk), or
    /// this unit has already shown it (counted in `repeated_in_unit`: not
    /// reported again), or nothing.
    pub(crate) fn prior(&mut self, fingerprint: &str) -> Prior {
        if self
            .ctx
            .config
            .baseline
            .as_ref()
            .is_some_and(|b| b.contains(fingerprint))
        {
            self.counts.shrinks_skipped_known += 1;
            return Prior::Known;
        }
        if self.findings.iter().any(|f| f.fingerprint() == fingerprint) {
            self.counts.repeated_in_unit += 1;
            return Prior::Repeated;
        }
        Prior::New
    }

    /// Checks a GameString the engine printed in answer to the last line of
    /// `sent`: the state and turn against the reference, then the whole
    /// string replayed by the oracle (§9.31): it must be the position of
    /// `game`.
    pub fn compare_game_string(
        &mut self,
        game: &ReferenceEngine,
        response: &Response,
        sent: impl Fn() -> Vec<String>,
    ) -> Result<(), Stop> {
        let line = response.last_line().unwrap_or("");
        let after = || sent().last().cloned().unwrap_or_default();
        let expected = self.ctx.state_of(game);
        let finding = match state_and_turn(line) {
            None => Finding::new(Kind::Protocol, &self.test, game)
                .clauses(["§9.31"])
                .pattern("GameString expected")
                .detail(format!(
                    "after {}, expected a GameString, got \"{line}\"",
                    after()
                ))
                .exchange(sent(), response.lines.clone()),
            Some((state, turn)) if state != expected || turn != game.turn() => {
                Finding::new(Kind::State, &self.test, game)
                    .clauses(state_clauses(game, state != expected))
                    .pattern(state_pattern(
                        state_origin(&after()),
                        (state, turn),
                        (expected, game.turn()),
                    ))
                    .detail(format!(
                        "after {}, the engine says {state};{turn}, the rules say {expected};{}",
                        after(),
                        game.turn()
                    ))
                    .exchange(sent(), response.lines.clone())
                    .explain(&game.game_string(), None)
            }
            Some(_) => {
                self.counts.game_strings_replayed += 1;
                let start = Instant::now();
                let problem = replay_problem(game, line);
                self.reference_time += start.elapsed();
                let Some(why) = problem else {
                    return Ok(());
                };
                Finding::new(Kind::GameString, &self.test, game)
                    .clauses(["§9.31", "§9.29"])
                    .pattern("printed GameString")
                    .detail(format!(
                        "after {}, the engine printed \"{line}\": {why}; the position is {}",
                        after(),
                        game.game_string()
                    ))
                    .exchange(sent(), response.lines.clone())
            }
        };
        self.add(finding);
        Err(Stop)
    }

    /// Checks the answer to `undo`: the GameString of `before`.
    pub(crate) fn check_undo(
        &mut self,
        before: &ReferenceEngine,
        undone: &Response,
        sent: &[String],
    ) -> Result<(), Stop> {
        let line = undone.last_line().unwrap_or("").trim();
        let same = !undone.is_error()
            && ReferenceEngine::load_with(line, before.options())
                .is_ok_and(|g| g.history() == before.history());
        if same {
            return Ok(());
        }
        let expected = before.game_string();
        self.add(
            Finding::new(Kind::Undo, &self.test, before)
                .clauses(["uhp"])
                .pattern("undo")
                .detail(format!(
                    "after undo, the engine says \"{line}\", expected \"{expected}\""
                ))
                .exchange(sent.to_vec(), undone.lines.clone()),
        );
        Err(Stop)
    }

    /// Sets the engine's rules options when they differ from the last ones
    /// set (`newgame`, then `options set`); false when the engine refuses.
    pub fn set_rules(&mut self, options: RulesOptions) -> bool {
        if self.session.options == Some(options) {
            return true;
        }
        let commands = rules_commands(options);
        let ok = commands
            .iter()
            .all(|c| matches!(self.session.command(c), Ok(r) if !r.is_error()));
        self.session.options = ok.then_some(options);
        if ok {
            self.session.rules_set();
        }
        ok
    }

    /// The lines the engine was sent that bring it to where it is, exactly
    /// as written ([`Session::exact_lines`]): the lines of a reproduce
    /// pipe, taken right after the line in dispute was answered.
    pub fn exact_lines(&self) -> Vec<Vec<u8>> {
        self.session.exact_lines()
    }

    /// Brings the engine to the position of `game` by its moves, when
    /// `newgame GameString` did not load it: `newgame GameType`, then every
    /// move with `play` in its canonical MoveString (§9.30), so that the
    /// unit goes on from a position the engine did accept. The last answer
    /// (the GameString after the last move) when the engine accepted every
    /// line; `None` when it refused one. The rules options are set already.
    pub(crate) fn reach_by_moves(
        &mut self,
        game: &ReferenceEngine,
    ) -> Result<Option<Response>, ClientError> {
        self.counts.positions_reached_by_moves += 1;
        let mut replay = ReferenceEngine::new_game(game.game_type(), game.options());
        let mut answer = self
            .session
            .command(&format!("newgame {}", game.game_type()))?;
        for &mv in game.history() {
            if answer.is_error() {
                return Ok(None);
            }
            let text = replay.move_string(mv);
            answer = self.session.command(&play_line(mv, &text))?;
            replay.play_unchecked(mv);
        }
        Ok((!answer.is_error()).then_some(answer))
    }

    /// The finding of a `newgame GameString` (the last line of `sent`) that
    /// did not load the position of `game`: refused (`err`), or answered
    /// with another game's GameString ([`another_game`]). One finding for
    /// the unit, with its reproduce pipe; nothing the engine says about the
    /// position it did not load is judged.
    pub(crate) fn not_loaded(
        &self,
        game: &ReferenceEngine,
        sent: Vec<String>,
        answer: &Response,
        another: Option<&str>,
        then: &str,
    ) -> Finding {
        let line = sent.last().cloned().unwrap_or_default();
        let (pattern, what) = match another {
            Some(other) => (
                "newgame GameString answered with another game",
                format!("the engine answered `{line}` with {other}"),
            ),
            None => (
                "newgame GameString",
                format!("the engine refused `{line}`: {}", answer.lines.join(" / ")),
            ),
        };
        Finding::new(Kind::RejectedLegal, &self.test, game)
            .clauses(["§9.31"])
            .pattern(pattern)
            .moves(vec![game.game_string()])
            .detail(format!("{what}{then}"))
            .exchange(sent, answer.lines.clone())
            .explain(&game.game_string(), None)
    }

    /// A `newgame GameString` of `game` (the last line of `sent`) that the
    /// engine answered with `answer` and did not load (`another` says what
    /// it printed instead, when it did not refuse): the one finding of it,
    /// and `game`'s position reached by its moves, so that the unit (`what`:
    /// "game", "replay") goes on from a position the engine did accept. The
    /// engine's answer at that position, `None` when it refused one of the
    /// moves too (the unit ends there); `Err` when the engine failed.
    pub(crate) fn go_on_by_moves(
        &mut self,
        game: &ReferenceEngine,
        sent: Vec<String>,
        answer: &Response,
        another: Option<&str>,
        what: &str,
    ) -> Result<Option<Response>, Stop> {
        let reached = match self.reach_by_moves(game) {
            Ok(reached) => reached,
            Err(e) => return Err(self.engine_failure_here(game, e)),
        };
        let then = match reached {
            Some(_) => format!(
                "; the {what} went on from its position reached by its moves (`newgame GameType`, then `play`)"
            ),
            None => format!(
                "; its position was not reached by its moves either, and the {what} ends here"
            ),
        };
        let finding = self.not_loaded(game, sent, answer, another, &then);
        self.add(finding);
        Ok(reached)
    }

    /// [`Worker::exact_lines`] as text, for the units whose lines are all
    /// text (every line but a protocol probe's).
    pub fn said(&self) -> Vec<String> {
        self.exact_lines()
            .iter()
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect()
    }

    /// The lines that set `options` on the engine, for reproduce pipes; none
    /// when the engine cannot set options or already plays them by default.
    pub fn rules_lines(&self, options: RulesOptions) -> Vec<String> {
        if self.ctx.settable && options != self.ctx.engine_rules {
            rules_commands(options)
        } else {
            Vec::new()
        }
    }
}
