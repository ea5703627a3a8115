//! Shrinking over UHP: a disagreement seen in a random game (on the legal
//! moves, on one move, or a crash or a timeout) is shown to the engine again
//! in shorter legal games built by [`crate::check::units::shrink`], and the
//! shortest that still shows it is reported.

use std::collections::BTreeSet;
use std::time::Instant;

use crate::check::client::{ClientError, Response};
use crate::check::findings::finding::fingerprint_of;
use crate::check::findings::finding::{Finding, Kind};
use crate::check::findings::verdict::move_class;
use crate::check::given::lines::play_line;
use crate::check::units::judge::{
    state_and_turn, state_clauses, state_origin, state_pattern, DiffCause, MoveDiff,
};
use crate::check::units::shrink::{shrink, Budget, Shows, Shrunk};
use crate::check::units::worker::{Prior, Stop, Worker};
use hive_oracle_rules::core::BoardView;
use hive_oracle_rules::core::{GameState, Move, Turn};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// A worker shrinking the findings of a random game.
pub(crate) struct Shrinker<'w, 'a> {
    pub worker: &'w mut Worker<'a>,
}

impl Shrinker<'_, '_> {
    /// The engine's `validmoves` against the rules in the position of
    /// `game`, loaded with `newgame <GameString>`, with the list and the
    /// lines sent ([`Worker::said`]). `Ok(None)` when the engine refuses
    /// the GameString.
    fn diff_at(&mut self, game: &ReferenceEngine) -> Result<Option<Listed>, ClientError> {
        let response = self
            .worker
            .session
            .command(&format!("newgame {}", game.game_string()))?;
        if response.is_error() {
            return Ok(None);
        }
        let texts = self
            .worker
            .session
            .validmoves(self.worker.ctx.state_of(game).is_over())?;
        let sent = self.worker.said();
        Ok(Some((
            self.worker.compare_moves(game, &texts),
            texts.join(";"),
            sent,
        )))
    }

    /// Shrinks each cause of a disagreement on the legal moves of `game`
    /// ([`MoveDiff::causes`]), shown by the lines `sent` and the engine's
    /// `answer`, to the shortest game that still shows the same cause (kind
    /// and reason), and reports it with the lines that showed it. A cause
    /// the baseline lists is reported where it was seen, without shrinking;
    /// one this unit has shown already is only counted ([`Worker::prior`]).
    /// Whether a shrink ran, and so the engine was given other positions.
    pub(crate) fn diff_and_report(
        &mut self,
        game: &ReferenceEngine,
        diff: &MoveDiff,
        answer: &[String],
        sent: Vec<String>,
    ) -> bool {
        let history = game.history().to_vec();
        let found_at = history.len();
        let mut shrunk_any = false;
        for cause in diff.causes(game) {
            let prior = self.worker.prior(&cause.fingerprint());
            if prior == Prior::Repeated {
                continue;
            }
            if prior == Prior::Known {
                let shown = self.worker.shown(game, &[], sent.clone(), answer, None);
                let finding = cause.finding(&shown);
                self.worker.add(finding);
                continue;
            }
            // the move the rebuild search centres on: one that moves a piece
            let disputed = cause
                .diff
                .missing
                .iter()
                .chain(&cause.diff.extra)
                .copied()
                .find(|mv| matches!(mv, Move::Move { .. }));
            shrunk_any = true;
            let mut best: (ReferenceEngine, DiffCause, Vec<String>, Vec<String>) =
                (game.clone(), cause, answer.to_vec(), sent.clone());
            let start = Instant::now();
            let shrunk = shrink(
                game.game_type(),
                game.options(),
                &history,
                None,
                disputed,
                Budget::default(),
                |candidate, _| match self.diff_at(candidate) {
                    Err(_) => {
                        self.worker.session.drop_engine();
                        Shows::Abort
                    }
                    Ok(Some((d, said, lines))) => {
                        let same = d.causes(candidate).into_iter().find(|c| c.same_as(&best.1));
                        match same {
                            Some(c) => {
                                best = (candidate.clone(), c, vec![said], lines);
                                Shows::Yes
                            }
                            None => Shows::No,
                        }
                    }
                    Ok(None) => Shows::No,
                },
            );
            self.note_shrink(&shrunk, start);
            let (g, c, said, sent) = best;
            let shrunk_from = (g.plies() < found_at).then_some(found_at);
            let before = self.worker.findings.len();
            let shown = self.worker.shown(&g, &[], sent, &said, shrunk_from);
            let finding = c.finding(&shown);
            self.worker.add(finding);
            self.mark_capped(before, &shrunk);
        }
        shrunk_any
    }

    /// Shrinks a disagreement about one move (the focus) played after
    /// `history` in `game`: an illegal move the engine accepted, a legal
    /// move it refused, or a move after which it printed the wrong state;
    /// then reports it. A cause the baseline lists is reported as played,
    /// without shrinking; one this unit has shown already is only counted
    /// ([`Worker::prior`]).
    pub(crate) fn focus_and_report(
        &mut self,
        kind: Kind,
        game: &ReferenceEngine,
        history: &[Move],
        focus: Move,
        answer: &Response,
        played: Vec<String>,
    ) {
        let claimed = state_and_turn(answer.last_line().unwrap_or(""));
        let (pattern, clauses) = focus_cause(kind, game, focus, claimed);
        let prior = self.worker.prior(&fingerprint_of(kind, &clauses, &pattern));
        if prior == Prior::Repeated {
            return;
        }
        let known = prior == Prior::Known;
        let original = if known {
            None
        } else {
            self.focus_disagreement(kind, game, focus, None)
        };
        let Some(original) = original else {
            // known, or the engine no longer shows it from a loaded
            // GameString: report the game as it was played, with the whole
            // conversation
            let text = game.move_string(focus);
            let mut after = game.clone();
            after.play_unchecked(focus);
            let shown = if kind == Kind::State {
                after.game_string()
            } else {
                game.game_string()
            };
            let said = answer.lines.join(" / ");
            let mut detail = focus_detail(kind, game, focus, &text, &said);
            if !known {
                detail.push_str(" (not shown again after `newgame` with the GameString: the pipe replays the lines the game was played with since it was last loaded)");
            }
            let finding = Finding::new(kind, &self.worker.test, game)
                .shown_at(shown)
                .clauses(clauses)
                .pattern(pattern)
                .moves(vec![text.clone()])
                .detail(detail)
                .exchange(played, answer.lines.clone())
                .explain(&game.game_string(), Some(&text))
                .verdicts(game, &BTreeSet::from([focus]));
            self.worker.add(finding);
            return;
        };
        let wanted = original.fingerprint(kind);
        let mut best = original;
        let start = Instant::now();
        let shrunk = shrink(
            game.game_type(),
            game.options(),
            history,
            Some(focus),
            Some(focus),
            Budget::default(),
            |candidate, focus| {
                let Some(focus) = focus else {
                    return Shows::No;
                };
                match self.focus_disagreement(kind, candidate, focus, Some(&wanted)) {
                    Some(found) => {
                        best = found;
                        Shows::Yes
                    }
                    None if self.worker.session.is_down() => Shows::Abort,
                    None => Shows::No,
                }
            },
        );
        self.note_shrink(&shrunk, start);
        let found_at = (best.game.plies() < history.len()).then_some(history.len());
        let mut finding = Finding::new(kind, &self.worker.test, &best.game)
            .shown_at(best.game_string.clone())
            .clauses(&best.clauses)
            .pattern(best.pattern.clone())
            .moves(vec![best.text.clone()])
            .detail(best.detail.clone())
            .exchange(best.sent.clone(), best.answer.clone())
            .explain(&best.game.game_string(), Some(&best.text))
            .verdicts(&best.game, &BTreeSet::from([best.focus]));
        finding.found_at_ply = found_at;
        let before = self.worker.findings.len();
        self.worker.add(finding);
        self.mark_capped(before, &shrunk);
    }

    /// Whether the engine, given the position of `game` with `newgame
    /// <GameString>`, still disagrees about `focus` in the way `kind` says,
    /// as the cause `wanted` (a fingerprint, when given). The engine is
    /// dropped (to be restarted) when it fails.
    fn focus_disagreement(
        &mut self,
        kind: Kind,
        game: &ReferenceEngine,
        focus: Move,
        wanted: Option<&str>,
    ) -> Option<FocusFinding> {
        let text = game.move_string(focus);
        if game.parse_move(&text) != Ok(focus) {
            return None; // no text names the move
        }
        let legal = game.clone().play(focus).is_ok();
        let wanted_legal = kind != Kind::AcceptedIllegal;
        if legal != wanted_legal {
            return None;
        }
        // a move's cause is known before asking the engine; a state's only
        // from its answer
        let same_cause = |(pattern, clauses): &(String, Vec<String>)| {
            wanted.is_none_or(|w| fingerprint_of(kind, clauses, pattern) == w)
        };
        if kind != Kind::State && !same_cause(&focus_cause(kind, game, focus, None)) {
            return None;
        }
        let mut after = game.clone();
        if legal {
            after.play_unchecked(focus);
        }
        let loaded = match self
            .worker
            .session
            .command(&format!("newgame {}", game.game_string()))
        {
            Ok(r) => r,
            Err(_) => {
                self.worker.session.drop_engine();
                return None;
            }
        };
        if loaded.is_error() {
            return None;
        }
        let answer = match self.worker.session.command(&play_line(focus, &text)) {
            Ok(a) => a,
            Err(_) => {
                self.worker.session.drop_engine();
                return None;
            }
        };
        let sent = self.worker.said();
        let claimed = state_and_turn(answer.last_line().unwrap_or(""));
        let shows = match kind {
            Kind::AcceptedIllegal => !answer.is_error(),
            Kind::RejectedLegal => answer.is_error(),
            _ => {
                !answer.is_error() && claimed.is_some_and(|st| st != (after.state(), after.turn()))
            }
        };
        let cause = focus_cause(kind, game, focus, claimed);
        if !shows || !same_cause(&cause) {
            return None;
        }
        let said = answer.lines.join(" / ");
        let game_string = if kind == Kind::State {
            after.game_string()
        } else {
            game.game_string()
        };
        let (pattern, clauses) = cause;
        Some(FocusFinding {
            game: game.clone(),
            focus,
            game_string,
            detail: focus_detail(kind, game, focus, &text, &said),
            text,
            pattern,
            clauses,
            answer: answer.lines,
            sent,
        })
    }

    /// A crash or timeout in a random game, after `history` and on `sent`'s
    /// last line (`play` of `focus`, or `validmoves`): recorded, then shrunk
    /// to the shortest game on which the same command fails the same way.
    pub(crate) fn failure_in_game(
        &mut self,
        game: &ReferenceEngine,
        history: &[Move],
        focus: Option<Move>,
        error: ClientError,
        sent: Vec<String>,
    ) -> Stop {
        let kind = match &error {
            ClientError::Timeout { .. } => Kind::Timeout,
            ClientError::Exited { .. } | ClientError::OutputHeldOpen { .. } => Kind::Crash,
            _ => return self.worker.engine_failure(game, error, sent),
        };
        let before = self.worker.findings.len();
        let stop = self.worker.engine_failure(game, error, sent);
        let budget = if kind == Kind::Timeout {
            Budget::for_timeouts()
        } else {
            Budget::default()
        };
        let mut best: Option<(ReferenceEngine, ClientError, Vec<String>)> = None;
        let start = Instant::now();
        let shrunk = shrink(
            game.game_type(),
            game.options(),
            history,
            focus,
            None,
            budget,
            |candidate, focus| {
                let loaded = match self
                    .worker
                    .session
                    .command(&format!("newgame {}", candidate.game_string()))
                {
                    Ok(r) if !r.is_error() => r,
                    Ok(_) => return Shows::No,
                    Err(_) => {
                        self.worker.session.drop_engine();
                        return Shows::No;
                    }
                };
                let _ = loaded;
                let line = match focus {
                    Some(mv) => play_line(mv, &candidate.move_string(mv)),
                    None => "validmoves".to_string(),
                };
                match self.worker.session.command(&line) {
                    Err(e) => {
                        let same = matches!(
                            (&e, kind),
                            (ClientError::Timeout { .. }, Kind::Timeout)
                                | (ClientError::Exited { .. }, Kind::Crash)
                                | (ClientError::OutputHeldOpen { .. }, Kind::Crash)
                        );
                        let shows = if same { Shows::Yes } else { Shows::No };
                        if same {
                            best = Some((candidate.clone(), e, self.worker.said()));
                        }
                        self.worker.session.drop_engine();
                        shows
                    }
                    Ok(_) => Shows::No,
                }
            },
        );
        self.note_shrink(&shrunk, start);
        if let Some((shorter, error, sent)) = best {
            if shorter.plies() < history.len() {
                // replace the finding by the shrunk one
                self.worker.findings.truncate(before);
                let stop = self.worker.engine_failure(&shorter, error, sent);
                if let Some(f) = self.worker.findings.last_mut() {
                    f.found_at_ply = Some(history.len());
                }
                self.mark_capped(before, &shrunk);
                return stop;
            }
        }
        self.mark_capped(before, &shrunk);
        stop
    }

    /// Counts the work of one shrink.
    fn note_shrink(&mut self, shrunk: &Shrunk, start: Instant) {
        self.worker.counts.shrinks += 1;
        self.worker.counts.shrink_candidates += shrunk.candidates as u64;
        self.worker.counts.shrink_positions += shrunk.positions as u64;
        self.worker.counts.shrink_engine_checks += shrunk.predicate_calls as u64;
        self.worker.shrink_time += start.elapsed();
    }

    /// Notes on the findings added since `before` that the safety cap
    /// stopped their shrink.
    fn mark_capped(&mut self, before: usize, shrunk: &Shrunk) {
        if !shrunk.capped {
            return;
        }
        for f in &mut self.worker.findings[before..] {
            f.shrink_note = Some(
                "the shrink was stopped by its wall-clock safety cap (300 s), not by its work budget: this result may differ between runs".to_string(),
            );
        }
    }
}

/// A `validmoves` comparison in a loaded position: the difference, the
/// list as the engine gave it, and the lines that asked for it.
type Listed = (MoveDiff, String, Vec<String>);

/// A disagreement about one move, in a position the engine was given.
struct FocusFinding {
    game: ReferenceEngine,
    /// The move in dispute, in the names of `game`.
    focus: Move,
    /// The GameString reported: the position before the move, or after it
    /// for a state.
    game_string: String,
    text: String,
    pattern: String,
    clauses: Vec<String>,
    detail: String,
    answer: Vec<String>,
    /// The lines that showed it, exactly as sent.
    sent: Vec<String>,
}

impl FocusFinding {
    /// The fingerprint of its cause.
    fn fingerprint(&self, kind: Kind) -> String {
        fingerprint_of(kind, &self.clauses, &self.pattern)
    }
}

/// The cause of a disagreement about one move, its pattern and clauses:
/// for a state, where it was printed (`play`) and the state `claimed` for
/// the state the rules give, with the clauses that decide it; for a move,
/// its class ([`move_class`]: why the rules refuse it, or what grants it).
fn focus_cause(
    kind: Kind,
    game: &ReferenceEngine,
    focus: Move,
    claimed: Option<(GameState, Turn)>,
) -> (String, Vec<String>) {
    if kind != Kind::State {
        return move_class(game, focus);
    }
    let mut after = game.clone();
    after.play_unchecked(focus);
    let expected = (after.state(), after.turn());
    let claimed = claimed.unwrap_or(expected);
    let pattern = state_pattern(
        state_origin(&play_line(focus, &game.move_string(focus))),
        claimed,
        expected,
    );
    (pattern, state_clauses(&after, claimed.0 != expected.0))
}

/// The sentence of a disagreement about one move.
fn focus_detail(kind: Kind, game: &ReferenceEngine, focus: Move, text: &str, said: &str) -> String {
    match kind {
        Kind::AcceptedIllegal => {
            let refusal = game
                .clone()
                .play(focus)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            format!("the engine accepted {text}, which is illegal: {refusal}")
        }
        Kind::RejectedLegal => format!("the engine refused the legal move {text}: {said}"),
        _ => {
            let mut after = game.clone();
            after.play_unchecked(focus);
            let engine = state_and_turn(said.rsplit(" / ").next().unwrap_or(""))
                .map(|(s, t)| format!("{s};{t}"))
                .unwrap_or_else(|| said.to_string());
            format!(
                "after play {text}, the engine says {engine}, the rules say {};{}",
                after.state(),
                after.turn()
            )
        }
    }
}
