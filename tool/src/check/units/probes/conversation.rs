//! The probes that hold a short game: `undo` with bad counts and a refused
//! `newgame`; each may be refused, and neither may change the game.

use std::ops::ControlFlow;

use crate::check::findings::finding::{Finding, Kind};
use crate::check::units::worker::Worker;
use hive_oracle_rules::core::{GameType, RulesOptions};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

use super::probe::{Go, Probe, Prober};

/// `undo 0`, `undo` beyond the history, `undo abc` and `undo -1` after
/// two plies: each may be refused (`undo 0` may also print the
/// GameString, spec/sources/uhp-notes.md section 5.7), and none may change the game.
pub(super) fn undo_counts(p: &mut Prober<'_, '_>, _: &Probe) -> Go {
    let worker = &mut *p.worker;
    let mut game = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
    let mut sent = vec!["newgame Base".to_string()];
    for text in ["wS1", "bS1 wS1-"] {
        if let Ok(mv) = game.parse_move(text) {
            game.play_unchecked(mv);
        }
        sent.push(format!("play {text}"));
    }
    if let ControlFlow::Break(go) = play_to(worker, &game, &sent) {
        return go;
    }
    for probe in ["undo 0", "undo 3", "undo abc", "undo -1"] {
        worker.counts.protocol_checks += 1;
        let mut shown = sent.clone();
        shown.push(probe.to_string());
        let answer = match worker.session.command(probe) {
            Ok(a) => a,
            Err(e) => {
                worker.engine_failure_here(&game, e);
                return Go::Stop;
            }
        };
        let may_answer_the_game = probe == "undo 0";
        if !answer.is_error() && !may_answer_the_game {
            worker.add(
                Finding::new(Kind::Undo, &worker.test, &game)
                    .clauses(["uhp"])
                    .pattern(probe.to_string())
                    .detail(format!(
                        "`{probe}` after two plies must be refused; got \"{}\"",
                        answer.lines.join(" / ")
                    ))
                    .exchange(worker.said(), answer.lines.clone()),
            );
            return Go::On;
        }
        if !still_at(worker, &game, &shown) {
            return Go::On;
        }
    }
    Go::On
}

/// A refused `newgame` must keep the game that was being played.
pub(super) fn refused_newgame(p: &mut Prober<'_, '_>, _: &Probe) -> Go {
    let worker = &mut *p.worker;
    worker.counts.protocol_checks += 1;
    let mut game = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
    if let Ok(mv) = game.parse_move("wS1") {
        game.play_unchecked(mv);
    }
    let bad = "newgame Base;InProgress;White[2];wS1;xyz";
    let mut sent = vec!["newgame Base".to_string(), "play wS1".to_string()];
    if let ControlFlow::Break(go) = play_to(worker, &game, &sent) {
        return go;
    }
    sent.push(bad.to_string());
    let answer = match worker.session.command(bad) {
        Ok(a) => a,
        Err(e) => {
            worker.engine_failure_here(&game, e);
            return Go::Stop;
        }
    };
    if !answer.is_error() {
        // a newgame never answers with another game than the one asked for
        let previous = game.game_string();
        let why = if answer.last_line() == Some(previous.as_str()) {
            " (the game before it: another game than the one asked for)"
        } else {
            ""
        };
        worker.add(
            Finding::new(Kind::Protocol, &worker.test, &game)
                .clauses(["§9.31"])
                .pattern("newgame with a bad move")
                .detail(format!(
                    "`{bad}` (an unreadable move) must be refused; got \"{}\"{why}",
                    answer.lines.join(" / ")
                ))
                .exchange(worker.said(), answer.lines.clone()),
        );
        return Go::On;
    }
    still_at(worker, &game, &sent);
    Go::On
}

/// Sends `lines`, which bring the engine to `game`. `Break` ends the probe:
/// a refused line (the game checks report a refused legal move) lets the
/// later probes run, an engine failure stops them.
pub(super) fn play_to(
    worker: &mut Worker<'_>,
    game: &ReferenceEngine,
    lines: &[String],
) -> ControlFlow<Go> {
    for line in lines {
        match worker.session.command(line) {
            Ok(a) if !a.is_error() => {}
            Ok(_) => return ControlFlow::Break(Go::On),
            Err(e) => {
                worker.engine_failure_here(game, e);
                return ControlFlow::Break(Go::Stop);
            }
        }
    }
    ControlFlow::Continue(())
}

/// Whether the engine's game is still `game` (its `validmoves`); a
/// finding when it is not.
pub(super) fn still_at(worker: &mut Worker<'_>, game: &ReferenceEngine, sent: &[String]) -> bool {
    let mut shown = sent.to_vec();
    shown.push("validmoves".to_string());
    let texts = match worker
        .session
        .validmoves(worker.ctx.state_of(game).is_over())
    {
        Ok(t) => t,
        Err(e) => {
            worker.engine_failure_here(game, e);
            return false;
        }
    };
    // the same moves (a move listed twice is its own finding, §9.35)
    let diff = worker.compare_moves(game, &texts);
    if diff.missing.is_empty() && diff.extra.is_empty() && diff.unresolvable.is_empty() {
        return true;
    }
    let last = sent.last().cloned().unwrap_or_default();
    worker.add(
        Finding::new(Kind::State, &worker.test, game)
            .clauses(["uhp"])
            .pattern(format!(
                "game changed by a refused `{}`",
                last.split(' ').next().unwrap_or("")
            ))
            .detail(format!(
                "after the refused `{last}`, the engine's valid moves are no longer those of {}",
                game.game_string()
            ))
            .exchange(worker.said(), vec![texts.join(";")]),
    );
    false
}
