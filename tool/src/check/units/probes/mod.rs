//! The protocol unit of `check`: the banner, then the probes of [`PROBES`]
//! in order: `info`, an unknown command, the `options` listing, lines an
//! engine meets in the wild (CRLF, a blank line, bytes that are not UTF-8,
//! a very long line, end of input without `exit`), `undo` with bad counts,
//! a refused `newgame` (the game must survive it), the game type printed,
//! the MoveStrings and
//! GameStrings every engine must refuse, `bestmove` (a legal
//! move, within its time budget, `pass` when it is the only move, a
//! refusal once the game is over), `perft` from a few positions and `exit`.
//!
//! Probes of behaviour the established engines do not share or that the
//! notes say an engine *should* have (spec/sources/uhp-notes.md sections 1, 7
//! and 9: CRLF, blank lines, non-UTF-8 bytes, a very long line, end of
//! input) give *advisory* findings; the others are errors.
//!
//! A probe is one entry of [`PROBES`] ([`Probe`]: its name, its severity,
//! what it sends, how it judges) and, unless an existing judge fits, one
//! function (`lines` for single lines, `conversation` for probes that
//! hold a game, `perft` for the perft probe, [`crate::check::units::bestmove`]).
//! The probes are independent: each starts from what it sends (a
//! conversation from its own `newgame`), and after an engine failure the
//! engine is started again for the next probe, so one failing probe never
//! hides another; a probe that cannot run is listed with why.

mod conversation;
mod lines;
mod perft;
mod probe;
mod refusals;

use std::time::Instant;

use crate::check::client::ClientError;
use crate::check::findings::finding::Severity;
use crate::check::findings::quote::{quote, MAX_QUOTE_BYTES};
use crate::check::findings::summary::EngineInfo;
use crate::check::units::bestmove;
use crate::check::units::worker::{UnitResult, Worker};
use hive_oracle_rules::core::{GameType, RulesOptions};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

use probe::{Go, Judge, Probe, Prober, Sends};

/// The protocol probes, in the order they run. The long line comes just
/// before a probe that starts a game: a reproduce pipe holds the lines sent
/// since the last `newgame`, and no other probe's should hold a 1 MiB line.
const PROBES: &[Probe] = &[
    Probe {
        name: "info",
        severity: Severity::Error,
        sends: Sends::Command("info"),
        judge: Judge::Answer(lines::info),
    },
    Probe {
        name: "unknown command",
        severity: Severity::Error,
        sends: Sends::Command("frobnicate"),
        judge: Judge::Answer(lines::unknown_command),
    },
    Probe {
        name: "options",
        severity: Severity::Error,
        sends: Sends::Command("options"),
        judge: Judge::Answer(lines::options),
    },
    Probe {
        name: "CRLF",
        // an engine *should* read CRLF (spec/sources/uhp-notes.md section 1)
        severity: Severity::Advisory,
        sends: Sends::Raw {
            label: "info (CRLF)",
            lines: &[b"info\r"],
        },
        judge: Judge::Answer(lines::crlf),
    },
    Probe {
        name: "undo counts",
        severity: Severity::Error,
        sends: Sends::Conversation,
        judge: Judge::Conversation(conversation::undo_counts),
    },
    Probe {
        name: "refused newgame",
        severity: Severity::Error,
        sends: Sends::Conversation,
        judge: Judge::Conversation(conversation::refused_newgame),
    },
    Probe {
        name: "game type",
        severity: Severity::Error,
        sends: Sends::Conversation,
        judge: Judge::Conversation(refusals::game_type),
    },
    Probe {
        name: "must refuse",
        severity: Severity::Error,
        sends: Sends::Conversation,
        judge: Judge::Conversation(refusals::must_refuse),
    },
    Probe {
        name: "bestmove",
        severity: Severity::Error,
        sends: Sends::Conversation,
        judge: Judge::Conversation(|p, _| Go::on(bestmove::probe(p.worker))),
    },
    Probe {
        name: "blank line",
        severity: Severity::Advisory,
        sends: Sends::Raw {
            label: "a blank line, then info",
            lines: &[b"", b"info"],
        },
        judge: Judge::Answer(lines::blank_line),
    },
    Probe {
        name: "non-UTF-8",
        severity: Severity::Advisory,
        sends: Sends::Raw {
            label: "a line that is not UTF-8",
            lines: &[b"play w\xff\xfeQ"],
        },
        judge: Judge::Answer(lines::non_utf8),
    },
    Probe {
        name: "long line",
        severity: Severity::Advisory,
        sends: Sends::Conversation,
        judge: Judge::Conversation(lines::long_line),
    },
    Probe {
        name: "perft",
        severity: Severity::Error,
        sends: Sends::Conversation,
        judge: Judge::Conversation(perft::perft),
    },
    Probe {
        name: "exit",
        severity: Severity::Error,
        sends: Sends::OwnProcess,
        judge: Judge::Conversation(refusals::exit_ends),
    },
    Probe {
        name: "end of input",
        severity: Severity::Advisory,
        sends: Sends::OwnProcess,
        judge: Judge::Conversation(lines::end_of_input),
    },
];

/// What the protocol unit learnt: its result, what the engine said about
/// itself, and notes for the report.
pub(crate) type Learnt = (UnitResult, EngineInfo, Vec<String>);

/// Runs the protocol unit on `worker`. `Err` when the engine cannot be
/// started at all (the check cannot run).
pub(crate) fn protocol_unit(worker: &mut Worker<'_>) -> Result<Learnt, ClientError> {
    let start = Instant::now();
    worker.begin("protocol");
    let base = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
    worker.counts.protocol_checks += 1;
    let client = match worker.session.client() {
        Ok(client) => client,
        // the engine cannot be started, or never answered its banner: the
        // check cannot run (exit 2)
        Err(e @ (ClientError::Spawn { .. } | ClientError::StartUp { .. })) => return Err(e),
        Err(e) => {
            worker.engine_failure(&base, e, Vec::new());
            let result = worker.end("protocol", start.elapsed().as_secs_f64(), None);
            return Ok((result, EngineInfo::default(), Vec::new()));
        }
    };
    let banner = client.banner().to_vec();
    let mut engine = EngineInfo {
        id: quote(client.id(), MAX_QUOTE_BYTES),
        ..EngineInfo::default()
    };
    let caps = client.capabilities().clone();
    engine.capabilities = [
        ("Mosquito", caps.mosquito),
        ("Ladybug", caps.ladybug),
        ("Pillbug", caps.pillbug),
    ]
    .iter()
    .filter(|(_, on)| *on)
    .map(|(n, _)| n.to_string())
    .collect();
    let mut notes = Vec::new();
    if banner.len() < 2 {
        notes.push("the banner has no capabilities line: only Base is checked".to_string());
    }
    if !caps.unknown.is_empty() {
        notes.push(format!(
            "unknown capabilities ignored: {}",
            quote(&caps.unknown.join(";"), MAX_QUOTE_BYTES)
        ));
    }
    let mut prober = Prober {
        worker,
        base,
        banner,
        engine,
    };
    run_probes(&mut prober);
    let engine = prober.engine;
    let result = prober
        .worker
        .end("protocol", start.elapsed().as_secs_f64(), None);
    Ok((result, engine, notes))
}

/// Runs every probe of [`PROBES`] in order, each independent of the
/// others: after an engine failure (recorded by the probe that met it) the
/// engine is started again for the next probe, so that one failure never
/// hides another. A probe that cannot run because the engine does not start
/// again is listed in the report's `skipped` with the reason.
fn run_probes(p: &mut Prober<'_, '_>) {
    for probe in PROBES {
        if probe.needs_the_unit_engine() && p.worker.session.is_down() {
            p.worker.counts.engine_restarts += 1;
            if let Err(e) = p.worker.session.client() {
                p.worker.skips.push(format!(
                    "probe {}: not run, the engine did not start again after an earlier probe's failure: {}",
                    probe.name,
                    quote(&e.to_string(), MAX_QUOTE_BYTES)
                ));
                continue;
            }
        }
        match probe.judge {
            Judge::Conversation(run) => {
                run(p, probe);
            }
            Judge::Answer(judge) => {
                p.worker.counts.protocol_checks += 1;
                match p.send(probe) {
                    Ok(answer) => judge(p, probe, answer),
                    Err(e) => p.failed(probe, e),
                };
            }
        }
    }
}
