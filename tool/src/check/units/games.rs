//! Seeded random games over UHP: at every ply the engine's `validmoves`,
//! state, turn and printed GameString are compared with the rules; every
//! few plies an illegal move is probed (of the kinds of
//! [`crate::check::units::illegal`]), a `pass` that is not legal, `bestmove depth
//! 1` and `undo`. A disagreement is shrunk ([`crate::check::units::shrink`]) to a
//! short legal game that still shows it, checked with the engine itself,
//! and the game goes on from the reference's position, loaded again.

use std::collections::BTreeSet;
use std::time::Instant;

use rand_chacha::ChaCha8Rng;

use crate::check::client::Response;
use crate::check::findings::finding::{Finding, Kind};
use crate::check::given::lines::play_line;
use crate::check::given::seed::{game_rng, pick};
use crate::check::units::bestmove;
use crate::check::units::illegal::{illegal_candidate, ILLEGAL_KINDS};
use crate::check::units::judge::{another_game, state_and_turn};
use crate::check::units::shrinking::Shrinker;
use crate::check::units::worker::{Stop, Worker};
use hive_oracle_rules::core::{GameType, Move};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// Plays random game `index` of `game_type` on `worker`'s engine. A
/// finding does not end the game: the engine is given the reference's
/// position again with `newgame GameString` and the game goes on
/// ([`RandomGame::reload`]), so that one shallow bug does not hide the rest
/// of the game. The game ends at a crash, a timeout or a flood, or when the
/// engine refuses the position.
pub(crate) fn run(worker: &mut Worker<'_>, index: u64, game_type: GameType) -> Result<(), Stop> {
    let mut game = RandomGame::start(worker, index, game_type)?;
    for ply in 0..game.worker.ctx.config.max_plies {
        if game.worker.ctx.state_of(&game.game).is_over() {
            break;
        }
        if game.ply(ply).is_err() {
            game.reload()?;
        }
    }
    Ok(())
}

/// A random game in progress.
struct RandomGame<'w, 'a> {
    worker: &'w mut Worker<'a>,
    /// The game's generator ([`game_rng`]).
    rng: ChaCha8Rng,
    /// The game so far, on the reference engine.
    game: ReferenceEngine,
    /// The moves played, for the shrinker.
    history: Vec<Move>,
}

impl<'w, 'a> RandomGame<'w, 'a> {
    /// Sets the rules and starts the game with `newgame`.
    fn start(
        worker: &'w mut Worker<'a>,
        index: u64,
        game_type: GameType,
    ) -> Result<RandomGame<'w, 'a>, Stop> {
        let rules = worker.ctx.rules;
        let rng = game_rng(worker.ctx.config.seed, game_type, index);
        let game = ReferenceEngine::new_game(game_type, worker.ctx.reference_rules());
        if worker.ctx.settable && !worker.set_rules(rules) {
            worker.add(
                Finding::new(Kind::Protocol, &worker.test, &game)
                    .clauses(["uhp"])
                    .pattern("options set")
                    .detail("the engine refused to set its rules options")
                    .exchange(worker.said(), Vec::new()),
            );
            return Err(Stop);
        }
        let response = match worker.session.command(&format!("newgame {game_type}")) {
            Ok(r) => r,
            Err(e) => return Err(worker.engine_failure_here(&game, e)),
        };
        let sent = worker.said();
        if response.is_error() {
            worker.add(
                Finding::new(Kind::Protocol, &worker.test, &game)
                    .clauses(["§9.15"])
                    .pattern("newgame")
                    .detail(format!(
                        "the engine refused `newgame {game_type}`: {}",
                        response.lines.join(" / ")
                    ))
                    .exchange(sent, response.lines.clone()),
            );
            return Err(Stop);
        }
        worker.compare_game_string(&game, &response, || sent.clone())?;
        Ok(RandomGame {
            worker,
            rng,
            game,
            history: Vec::new(),
        })
    }

    /// After a finding: gives the engine the reference's position (the
    /// game as it stands once the finding is recorded: before a move the
    /// engine wrongly accepted or refused, after a move whose state or
    /// GameString it printed wrongly) with `newgame GameString`, its rules
    /// set again if it was restarted. `Err` when the game cannot go on: the
    /// engine crashed, timed out or flooded, or refused the position (a
    /// finding).
    fn reload(&mut self) -> Result<(), Stop> {
        let worker = &mut *self.worker;
        if worker.engine_failed || worker.findings.iter().any(|f| f.kind.is_engine_failure()) {
            return Err(Stop);
        }
        let rules = worker.ctx.rules;
        if worker.ctx.settable && !worker.set_rules(rules) {
            return Err(Stop);
        }
        let line = format!("newgame {}", self.game.game_string());
        let response = match worker.session.command(&line) {
            Ok(r) => r,
            Err(e) => return Err(worker.engine_failure_here(&self.game, e)),
        };
        let sent = worker.said();
        let printed = response.last_line().unwrap_or("");
        let another = another_game(&self.game, printed);
        worker.counts.game_reloads += 1;
        if !response.is_error() && another.is_none() {
            return Ok(());
        }
        // not loaded: one finding, and the game goes on from its position
        // reached by its moves, when the engine accepts them
        match worker.go_on_by_moves(&self.game, sent, &response, another.as_deref(), "game")? {
            Some(_) => Ok(()),
            None => Err(Stop),
        }
    }

    /// One ply: the legal moves compared, the probes due, a random move
    /// played and its answer checked, and now and then an `undo`.
    fn ply(&mut self, ply: usize) -> Result<(), Stop> {
        let legal = self.compare_valid_moves()?;
        self.probe(ply, &legal)?;
        let (line, text) = self.play_random(&legal)?;
        // Now and then: undo must bring the earlier position back.
        if ply % 7 == 6 {
            self.undo_and_replay(&line, &text)?;
        }
        Ok(())
    }

    /// The engine's `validmoves` against the rules; the legal moves.
    fn compare_valid_moves(&mut self) -> Result<BTreeSet<Move>, Stop> {
        let texts = match self
            .worker
            .session
            .validmoves(self.worker.ctx.state_of(&self.game).is_over())
        {
            Ok(t) => t,
            Err(e) => {
                let sent = self.worker.said();
                return Err(Shrinker {
                    worker: &mut *self.worker,
                }
                .failure_in_game(&self.game, &self.history, None, e, sent));
            }
        };
        let said = self.worker.said();
        let start = Instant::now();
        let legal = self.game.legal_move_set();
        self.worker.reference_time += start.elapsed();
        let diff = self.worker.compare_moves_with(&self.game, &texts, &legal);
        if !diff.is_empty() {
            let shrunk = Shrinker {
                worker: &mut *self.worker,
            }
            .diff_and_report(&self.game, &diff, &[texts.join(";")], said);
            // the shrinker loaded other positions: the game goes on from
            // this one, with the ply's probes and move. A cause this game
            // has shown already is only counted, and `validmoves` changed
            // nothing, so the engine is still at this position: no reload
            // for every repeat of one bug.
            if shrunk {
                self.reload()?;
            }
        }
        Ok(legal)
    }

    /// The probes due at `ply`: every few plies a move the rules forbid
    /// must be refused, a `pass` that is not legal too, and `bestmove
    /// depth 1` must answer a legal move. After a finding the position is
    /// loaded again and the ply goes on, so the game takes the same course
    /// as on an engine without the bug.
    fn probe(&mut self, ply: usize, legal: &BTreeSet<Move>) -> Result<(), Stop> {
        if ply % 4 == 3 {
            let kind = ILLEGAL_KINDS[(ply / 4) % ILLEGAL_KINDS.len()];
            let start = Instant::now();
            let candidate = illegal_candidate(&self.game, legal, kind, &mut self.rng);
            self.worker.reference_time += start.elapsed();
            if let Some((mv, text)) = candidate {
                self.worker.counts.illegal_probes += 1;
                self.probe_illegal(mv, &text)?;
            }
        }
        if ply % 10 == 5 && !legal.contains(&Move::Pass) {
            self.worker.counts.pass_checks += 1;
            self.probe_illegal(Move::Pass, "pass")?;
        }
        if ply % 16 == 9 && bestmove::depth_one(self.worker, &self.game, legal).is_err() {
            self.reload()?;
        }
        Ok(())
    }

    /// Plays a random legal move and checks the answer: accepted, the state
    /// and turn after it, the GameString printed. The line sent and the
    /// move's text.
    fn play_random(&mut self, legal: &BTreeSet<Move>) -> Result<(String, String), Stop> {
        let all: Vec<Move> = legal.iter().copied().collect();
        let mv = all[pick(&mut self.rng, all.len())];
        let text = self.game.move_string(mv);
        let line = play_line(mv, &text);
        if mv == Move::Pass {
            self.worker.counts.pass_checks += 1;
        }
        let answer = match self.worker.session.command(&line) {
            Ok(a) => a,
            Err(e) => {
                let sent = self.worker.said();
                return Err(Shrinker {
                    worker: &mut *self.worker,
                }
                .failure_in_game(&self.game, &self.history, Some(mv), e, sent));
            }
        };
        if answer.is_error() {
            let played = self.worker.said();
            let focus = Focus {
                kind: Kind::RejectedLegal,
                at: &self.game,
                mv,
                answer: &answer,
            };
            return Err(shrink_focus(self.worker, focus, &self.history, played));
        }
        self.game.play_unchecked(mv);
        self.worker.counts.plies += 1;
        let state = state_and_turn(answer.last_line().unwrap_or(""));
        let expected = (self.worker.ctx.state_of(&self.game), self.game.turn());
        if state.is_some_and(|st| st != expected) {
            let played = self.worker.said();
            let at = undone(&self.game);
            let focus = Focus {
                kind: Kind::State,
                at: &at,
                mv,
                answer: &answer,
            };
            let stop = shrink_focus(self.worker, focus, &self.history, played);
            // the game goes on after the move
            self.history.push(mv);
            return Err(stop);
        }
        self.history.push(mv);
        let sent = self.worker.said();
        self.worker
            .compare_game_string(&self.game, &answer, || sent.clone())?;
        Ok((line, text))
    }

    /// `undo 1` after the move played with `line` (written `text`): it must
    /// bring the earlier position back, and the move must play again.
    fn undo_and_replay(&mut self, line: &str, text: &str) -> Result<(), Stop> {
        let worker = &mut *self.worker;
        worker.counts.undo_checks += 1;
        let before = undone(&self.game);
        let undone = match worker.session.command("undo 1") {
            Ok(a) => a,
            Err(e) => return Err(worker.engine_failure_here(&self.game, e)),
        };
        let shown = worker.said();
        worker.check_undo(&before, &undone, &shown)?;
        let result = worker.session.command(line);
        let shown = worker.said();
        match result {
            Ok(a) if !a.is_error() => Ok(()),
            Ok(a) => {
                worker.add(
                    Finding::new(Kind::Undo, &worker.test, &before)
                        .clauses(["uhp"])
                        .pattern("replay after undo")
                        .moves(vec![text.to_string()])
                        .detail(format!(
                            "after undo, the engine refused to replay {text}: {}",
                            a.lines.join(" / ")
                        ))
                        .exchange(shown, a.lines.clone()),
                );
                Err(Stop)
            }
            Err(e) => Err(worker.engine_failure_here(&self.game, e)),
        }
    }

    /// Sends a move the rules forbid in the game so far; it must be
    /// refused. When it is accepted: the finding, then the position loaded
    /// again ([`RandomGame::reload`]).
    fn probe_illegal(&mut self, mv: Move, text: &str) -> Result<(), Stop> {
        let line = play_line(mv, text);
        let game = &self.game;
        let worker = &mut *self.worker;
        let answer = match worker.session.command(&line) {
            Ok(a) => a,
            Err(e) => return Err(worker.engine_failure_here(game, e)),
        };
        if answer.is_error() {
            return Ok(());
        }
        let shown = worker.said();
        // The engine's game has diverged; the shrinker loads positions with
        // `newgame`, and the game goes on from the position before the
        // move once it is loaded again.
        let played = shown.clone();
        let _ = worker.session.command("undo 1");
        if game.parse_move(text) != Ok(mv) {
            // a text that names no move of this position (a reserve
            // reference): reported as it is, nothing to shrink
            worker.add(
                Finding::new(Kind::AcceptedIllegal, &worker.test, game)
                    .clauses(["§9.23"])
                    .pattern("reference in reserve")
                    .moves(vec![text.to_string()])
                    .detail(format!(
                        "the engine accepted `{text}`, whose reference piece is not on the board (§9.23)"
                    ))
                    .exchange(shown, answer.lines.clone())
                    .explain(&game.game_string(), Some(text)),
            );
            return self.reload();
        }
        let focus = Focus {
            kind: Kind::AcceptedIllegal,
            at: game,
            mv,
            answer: &answer,
        };
        shrink_focus(worker, focus, &self.history, played);
        self.reload()
    }
}

/// A disagreement about one move of a random game: its kind, the position
/// before the move, the move and the engine's answer to it.
struct Focus<'g> {
    kind: Kind,
    at: &'g ReferenceEngine,
    mv: Move,
    answer: &'g Response,
}

/// Shrinks a disagreement about one move, played after `history`, and
/// reports it with the conversation `played` (the game stops).
fn shrink_focus(
    worker: &mut Worker<'_>,
    focus: Focus<'_>,
    history: &[Move],
    played: Vec<String>,
) -> Stop {
    let Focus {
        kind,
        at,
        mv,
        answer,
    } = focus;
    Shrinker { worker }.focus_and_report(kind, at, history, mv, answer, played);
    Stop
}

/// The game before its last move (a copy is taken only when needed: a
/// reference engine costs its whole history to copy).
fn undone(game: &ReferenceEngine) -> ReferenceEngine {
    let mut before = game.clone();
    before.undo();
    before
}
