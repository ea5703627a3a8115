//! The probes of what an engine MUST refuse or MUST do: MoveStrings and
//! GameStrings that every engine must refuse (junk after a piece name, bad
//! game types, an extra `;`, a GameString whose moves would be dropped),
//! each leaving the game as it was, and `exit`, which must end the engine.

use std::ops::ControlFlow;

use crate::check::client::{ClientError, UhpClient};
use crate::check::findings::finding::{Finding, Kind};
use crate::check::units::judge::{read_as_reference, reference_reading_finding};
use hive_oracle_rules::core::{GameType, RulesOptions};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

use super::conversation::{play_to, still_at};
use super::probe::{Go, Probe, Prober};

/// The lines every engine MUST refuse, the moves played before each (from
/// `newgame Base`), and the clause that makes the refusal a MUST. The game
/// before each bad `newgame` holds a move, so that an engine answering
/// with its previous game, or with a game that drops the bad string's
/// moves, is seen.
const MUST_REFUSE: &[(&str, &[&str], &str)] = &[
    // junk after a piece name, where the move without it is legal
    ("play wS1x", &[], "§9.19"),
    ("play bS1 wS1-zzz", &["wS1"], "§9.21"),
    // a game type with a letter twice, or no letter after `+`
    ("newgame Base+MM", &["wS1"], "§9.15"),
    ("newgame Base+", &["wS1"], "§9.15"),
    // a doubled or a trailing `;`: an empty move
    (
        "newgame Base;InProgress;White[2];wS1;;bS1 wS1-",
        &["wS1"],
        "§9.32",
    ),
    (
        "newgame Base;InProgress;White[2];wS1;bS1 wS1-;",
        &["wS1"],
        "§9.32",
    ),
    // no state and turn fields: a reader that takes `wS1` for the state
    // drops the move
    ("newgame Base;wS1", &["wS1", "bS1 wS1-"], "§9.31"),
];

/// Each line of [`MUST_REFUSE`], from its own game: it must be refused
/// (`err` or `invalidmove`), and the game must be as before (its
/// `validmoves`). One accepted line does not stop the others.
pub(super) fn must_refuse(p: &mut Prober<'_, '_>, probe: &Probe) -> Go {
    for &(bad, before, clause) in MUST_REFUSE {
        let worker = &mut *p.worker;
        worker.counts.protocol_checks += 1;
        let mut game = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
        let mut sent = vec!["newgame Base".to_string()];
        for text in before {
            if let Ok(mv) = game.parse_move(text) {
                game.play_unchecked(mv);
            }
            sent.push(format!("play {text}"));
        }
        if let ControlFlow::Break(go) = play_to(worker, &game, &sent) {
            if go == Go::Stop {
                return go;
            }
            continue;
        }
        sent.push(bad.to_string());
        let answer = match worker.session.command(bad) {
            Ok(answer) => answer,
            Err(e) => {
                worker.engine_failure_here(&game, e);
                return Go::Stop;
            }
        };
        if answer.is_error() {
            if !still_at(worker, &game, &sent) {
                return Go::On;
            }
            continue;
        }
        let said = answer.lines.join(" / ");
        let printed = answer.last_line().unwrap_or("");
        let move_text = bad.strip_prefix("play ").unwrap_or("");
        if let Some(reading) = read_as_reference(&game, move_text, printed) {
            // the one severity of Mzinga's readings (leniency's table)
            let finding = reference_reading_finding(&worker.test, &game, move_text, reading)
                .exchange(worker.said(), answer.lines.clone());
            worker.add(finding);
            continue;
        }
        let previous = game.game_string();
        let why = if answer.last_line() == Some(previous.as_str()) {
            " (the game before it: another game than the one asked for)".to_string()
        } else {
            String::new()
        };
        worker.add(
            Finding::new(Kind::AcceptedIllegal, &worker.test, &game)
                .severity(probe.severity)
                .clauses([clause])
                .pattern(format!("{}: `{bad}`", probe.name))
                .detail(format!(
                    "`{bad}` must be refused ({clause}); the engine answered \"{said}\"{why}"
                ))
                .exchange(worker.said(), answer.lines.clone()),
        );
    }
    Go::On
}

/// The game type an engine prints must be one of the eight standard
/// spellings (§9.15) and the game's: `newgame T` for every type `T` the
/// engine's capabilities allow must answer a GameString of type `T`,
/// spelled exactly so.
pub(super) fn game_type(p: &mut Prober<'_, '_>, probe: &Probe) -> Go {
    let supported: Vec<GameType> = GameType::ALL
        .into_iter()
        .filter(|t| {
            let needs = [
                (t.mosquito, "Mosquito"),
                (t.ladybug, "Ladybug"),
                (t.pillbug, "Pillbug"),
            ];
            needs
                .iter()
                .all(|(on, cap)| !on || p.engine.capabilities.iter().any(|c| c == cap))
        })
        .collect();
    for game_type in supported {
        let worker = &mut *p.worker;
        worker.counts.protocol_checks += 1;
        let line = format!("newgame {game_type}");
        let answer = match worker.session.command(&line) {
            Ok(answer) => answer,
            Err(e) => {
                let game = ReferenceEngine::new_game(game_type, RulesOptions::default());
                worker.engine_failure_here(&game, e);
                return Go::Stop;
            }
        };
        let printed = answer
            .last_line()
            .unwrap_or("")
            .split(';')
            .next()
            .unwrap_or("");
        if answer.is_error() || printed == game_type.to_string() {
            continue; // a refused type is the corpus's finding
        }
        let game = ReferenceEngine::new_game(game_type, RulesOptions::default());
        worker.add(
            Finding::new(Kind::GameString, &worker.test, &game)
                .severity(probe.severity)
                .clauses(["§9.15"])
                .pattern(probe.name)
                .detail(format!(
                    "after `{line}` the engine printed the game type \"{printed}\"; it must be \"{game_type}\", one of the eight standard spellings"
                ))
                .exchange(worker.said(), answer.lines.clone()),
        );
    }
    Go::On
}

/// `exit` must end the engine (spec/sources/uhp-notes.md section 5.9): a
/// fresh process is sent `exit` with its input left open, then, unless its
/// output has ended, `info`. An engine that answers `info` after `exit`
/// ignored it. (One that falls silent is not judged: a wrapper pipeline
/// whose engine has left may hold its output open until its input ends.)
pub(super) fn exit_ends(p: &mut Prober<'_, '_>, probe: &Probe) -> Go {
    p.worker.counts.protocol_checks += 1;
    let config = p.worker.ctx.config;
    let client = match UhpClient::spawn_with(&config.engine, config.startup_timeout, config.timeout)
    {
        Ok(client) => client,
        Err(e) => {
            p.worker.skips.push(format!(
                "probe {}: not run, the engine did not start: {e}",
                probe.name
            ));
            return Go::On;
        }
    };
    let Some((after_exit, info)) = answers_after_exit(client) else {
        return Go::On;
    };
    let detail = format!(
        "after `exit` the engine went on: it answered `info` with \"{}\"",
        info.join(" / ")
    );
    let mut answer = after_exit;
    answer.extend(info);
    p.worker.add(
        Finding::new(Kind::Protocol, &p.worker.test, &p.base)
            .severity(probe.severity)
            .clauses(["uhp"])
            .pattern(probe.name)
            .detail(detail)
            .exchange(vec!["exit".to_string(), "info".to_string()], answer),
    );
    Go::On
}

/// What the engine printed after `exit` (its input left open) and its
/// answer to `info` sent next, when it answered that; `None` when its
/// output ended or it fell silent.
fn answers_after_exit(mut client: UhpClient) -> Option<(Vec<String>, Vec<String>)> {
    let after_exit = match client.send_raw("exit", b"exit\n") {
        Ok(answer) => answer.lines,
        Err(ClientError::Timeout { partial_output, .. }) => partial_output,
        Err(_) => return None, // its output ended: it left
    };
    match client.send_raw("info after exit", b"info\n") {
        Ok(info) if !info.lines.is_empty() => Some((after_exit, info.lines)),
        _ => None,
    }
}
