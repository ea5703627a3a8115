//! `bestmove` checks (spec/sources/uhp-notes.md section 5.6): in a midgame,
//! `bestmove time` answers a legal move within its budget plus a stated
//! grace and `bestmove depth` a legal move; where only a pass is legal it
//! answers `pass`; once the game is over it is refused (§8.5) — the
//! protocol unit's probe ([`probe`]). Random games also ask `bestmove
//! depth 1` now and then ([`depth_one`]).

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::time::Duration;

use crate::check::client::{ClientError, Response};
use crate::check::findings::finding::{Finding, Kind};
use crate::check::given::seed::{game_rng, pick};
use crate::check::units::judge::another_game;
use crate::check::units::worker::{Stop, Worker};
use hive_oracle_rules::core::{GameType, Move, RulesOptions};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The `bestmove time` budget probed, and the grace allowed beyond it.
pub(crate) const BESTMOVE_BUDGET: Duration = Duration::from_secs(1);
/// See [`BESTMOVE_BUDGET`]: an answer later than budget + grace is a finding.
pub(crate) const BESTMOVE_GRACE: Duration = Duration::from_secs(2);

/// A position where the side to move (White) can only pass (tests/cases/end.toml,
/// `white-stuck-must-pass`; §7.2).
const ONLY_PASS: &str = "Base;InProgress;White[15];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wQ wS1/;bB1 \\bS1;wQ wS1-;bA1 -bQ;wQ wS1/;bA2 bA1\\;wQ wS1-;bA3 -bB1;wQ wS1/;bA1 wS1\\;wQ bA1/;bA2 wQ\\;wQ bA2/;bB1 \\wS1;wQ \\bA2;bB1 wS1;wQ bA2/;bB2 \\bS1;wQ \\bA2;bB2 \\bB1;wQ bA2/;bB2 bB1/;wQ bB2\\;bA3 wQ/";

/// A finished game (White wins; tests/cases/end.toml; §8.2, §8.5).
const FINISHED: &str = "Base;WhiteWins;Black[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wQ -bQ;bG1 bQ-;wG1 -wS1;bG2 \\bG1;wG2 \\wQ;bG3 bQ\\;wA1 wG1\\;bA1 bS1\\;wA1 -bG2";

/// `bestmove depth 1` in `game` of a random game: the answer must be a
/// legal move.
pub(crate) fn depth_one(
    worker: &mut Worker<'_>,
    game: &ReferenceEngine,
    legal: &BTreeSet<Move>,
) -> Result<(), Stop> {
    worker.counts.bestmove_checks += 1;
    let line = "bestmove depth 1";
    let answer = match worker.session.command(line) {
        Ok(a) => a,
        Err(e) => return Err(worker.engine_failure_here(game, e)),
    };
    let shown = worker.said();
    if let Some(problem) = bestmove_problem(game, legal, &answer) {
        worker.add(
            Finding::new(Kind::Bestmove, &worker.test, game)
                .clauses(["uhp"])
                .pattern("bestmove depth")
                .detail(format!("`{line}`: {problem}"))
                .exchange(shown, answer.lines.clone())
                .explain(&game.game_string(), answer.last_line()),
        );
        return Err(Stop);
    }
    Ok(())
}

/// One question of the probe: a position and a `bestmove` line.
struct Question {
    position: String,
    line: String,
    in_progress: bool,
}

/// The protocol unit's probe of `bestmove`: a legal move within its budget
/// in a midgame (time and depth), `pass` where only a pass is legal, a
/// refusal after the end. False when the engine failed.
pub(crate) fn probe(worker: &mut Worker<'_>) -> bool {
    let midgame = midgame().game_string();
    let budget = BESTMOVE_BUDGET.as_secs();
    let question = |position: &str, line: String, in_progress: bool| Question {
        position: position.to_string(),
        line,
        in_progress,
    };
    let questions = [
        question(&midgame, format!("bestmove time 00:00:{budget:02}"), true),
        question(&midgame, "bestmove depth 2".to_string(), true),
        question(ONLY_PASS, "bestmove depth 1".to_string(), true),
        question(FINISHED, "bestmove depth 1".to_string(), false),
    ];
    for question in questions {
        worker.counts.bestmove_checks += 1;
        let Ok(game) = ReferenceEngine::load(&question.position) else {
            continue;
        };
        if let ControlFlow::Break(go_on) = ask(worker, &game, &question) {
            return go_on;
        }
    }
    true
}

/// A midgame: 16 plies of a seeded random Base game.
fn midgame() -> ReferenceEngine {
    let mut game = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
    let mut rng = game_rng(0, GameType::BASE, u64::MAX);
    for _ in 0..16 {
        let legal = game.legal_moves();
        if game.state().is_over() || legal.is_empty() {
            break;
        }
        game.play_unchecked(legal[pick(&mut rng, legal.len())]);
    }
    game
}

/// Asks one question and judges the answer; `Break` ends the probe (with
/// whether the probes after it may run).
fn ask(worker: &mut Worker<'_>, game: &ReferenceEngine, question: &Question) -> ControlFlow<bool> {
    let line = &question.line;
    match worker
        .session
        .command(&format!("newgame {}", question.position))
    {
        Ok(a) if !a.is_error() => {
            // a position the engine did not load is not asked about (one
            // that it printed its previous game for is asked about, and
            // judged as what it is, if its GameString or its bestmove is
            // wrong)
            if let Some(other) = another_game(game, a.last_line().unwrap_or("")) {
                let sent = worker.said();
                let finding = worker.not_loaded(game, sent, &a, Some(&other), "");
                worker.add(finding);
                return ControlFlow::Continue(());
            }
        }
        Ok(_) => return ControlFlow::Continue(()), // reported by the corpus
        Err(e) => {
            worker.engine_failure_here(game, e);
            return ControlFlow::Break(false);
        }
    }
    let timed = line.starts_with("bestmove time");
    let limit = if timed {
        BESTMOVE_BUDGET + BESTMOVE_GRACE
    } else {
        worker.ctx.config.timeout
    };
    let result = worker.session.command_within(line, limit);
    // the lines that brought the engine here, exactly
    let sent = worker.said();
    let answer = match result {
        Ok(a) => a,
        Err(e @ ClientError::Timeout { .. }) if timed => {
            let detail = format!(
                "`{line}` must answer within its budget of {} s plus a grace of {} s; no answer after {:?} ({e})",
                BESTMOVE_BUDGET.as_secs(),
                BESTMOVE_GRACE.as_secs(),
                limit
            );
            worker.add(
                Finding::new(Kind::Bestmove, &worker.test, game)
                    .clauses(["uhp"])
                    .pattern("bestmove time budget")
                    .detail(detail)
                    .exchange(sent, Vec::new()),
            );
            worker.session.drop_engine();
            return ControlFlow::Break(true);
        }
        Err(e) => {
            worker.engine_failure(game, e, sent);
            return ControlFlow::Break(false);
        }
    };
    let problem = if question.in_progress {
        let legal: BTreeSet<Move> = game.legal_move_set();
        bestmove_problem(game, &legal, &answer)
    } else {
        finished_bestmove_problem(&answer)
    };
    if let Some(problem) = problem {
        let pattern = if !question.in_progress {
            "bestmove after the end"
        } else if question.position == ONLY_PASS {
            "bestmove only pass"
        } else if timed {
            "bestmove time"
        } else {
            "bestmove depth"
        };
        worker.add(
            Finding::new(Kind::Bestmove, &worker.test, game)
                .clauses(if question.in_progress {
                    ["uhp"]
                } else {
                    ["§8.5"]
                })
                .pattern(pattern)
                .detail(format!("`{line}`: {problem}"))
                .exchange(sent, answer.lines.clone())
                .explain(&game.game_string(), answer.last_line()),
        );
    }
    ControlFlow::Continue(())
}

/// What is wrong with a `bestmove` answer in `game`, if anything: it must
/// be one legal move (the last line, spec/sources/uhp-notes.md section 5.6).
pub(crate) fn bestmove_problem(
    game: &ReferenceEngine,
    legal: &BTreeSet<Move>,
    answer: &Response,
) -> Option<String> {
    if answer.is_error() {
        return Some(format!(
            "refused in a game in progress: {}",
            answer.lines.join(" / ")
        ));
    }
    let Some(line) = answer.last_line() else {
        return Some("answered no move".to_string());
    };
    let text = line.split(';').next().unwrap_or("").trim();
    match game.parse_move(text) {
        Err(e) => Some(format!("answered `{line}`, which is not a move here: {e}")),
        Ok(mv) if !legal.contains(&mv) => {
            let why = game
                .clone()
                .play(mv)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            Some(format!("answered `{line}`, which is illegal: {why}"))
        }
        Ok(_) => None,
    }
}

/// After the end of the game no move is legal (§8.5): `bestmove` must be
/// refused.
fn finished_bestmove_problem(answer: &Response) -> Option<String> {
    (!answer.is_error()).then(|| {
        format!(
            "the game is over, so no move is legal and `bestmove` must be refused; got \"{}\"",
            answer.lines.join(" / ")
        )
    })
}
