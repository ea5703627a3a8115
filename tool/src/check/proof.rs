//! Proof of the reproduce pipes: before a cause is reported, the pipe of
//! its shortest instance is run as printed (`sh -c PIPE`) on a fresh
//! engine process, with the normal start-up and answer timeouts, and the
//! answer to its last line is compared with the one the finding quotes:
//! `validmoves` lists as sets (an engine may list its moves in another
//! order each run), a printed state by its state and turn, a refusal as a
//! refusal, anything else line by line; a crash, a timeout or a flood must
//! come again on the last line. A pipe that does not reproduce is not
//! printed; the finding says what the fresh engine did instead. One fresh
//! process per cause, so the work is bounded by the number of causes.

use std::collections::BTreeSet;

use crate::check::client::answer::{ClientError, Response};
use crate::check::client::UhpClient;
use crate::check::findings::finding::{Finding, Kind};
use crate::check::findings::group::FindingGroup;
use crate::check::findings::quote::{pipe, quote, shell_quote, MAX_DETAIL_BYTES, MAX_QUOTE_BYTES};
use crate::check::given::config::Config;
use crate::check::units::judge::state_and_turn;

/// What a fresh engine did with a pipe's lines.
struct Replay {
    /// Its answers, one per line, in order (at most one per line sent).
    answers: Vec<Response>,
    /// How it stopped answering before every line was answered, if it did
    /// (a failed start-up included).
    end: Option<ClientError>,
}

/// Runs the reproduce pipe of each cause's shortest instance on a fresh
/// engine and records whether it reproduced ([`Finding::reproduced`]).
pub(crate) fn prove_all(config: &Config, groups: &mut [FindingGroup]) {
    for group in groups {
        prove(config, &mut group.shortest);
    }
}

/// Proves one finding's pipe; a pipe that sends no line (the engine left
/// alone with its input closed) has no answer to compare and is left
/// unproven.
fn prove(config: &Config, finding: &mut Finding) {
    if finding.reproduce.is_empty() || finding.sent.is_empty() {
        return;
    }
    let replay = replay(config, &finding.reproduce, finding.sent.len());
    let (mut reproduced, mut note) = judge(finding, &replay);
    if !reproduced && !finding.sent_from_start.is_empty() {
        // a failure of the process that the lines since the last `newgame`
        // do not show: every line since the process started
        let lines = std::mem::take(&mut finding.sent_from_start);
        let mut from_start = finding
            .clone()
            .exchange_exact(lines, finding.answer.clone());
        from_start.reproduce = pipe(&config.engine, &from_start.sent_bytes);
        let replay = self::replay(config, &from_start.reproduce, from_start.sent.len());
        let (again, again_note) = judge(&from_start, &replay);
        if again {
            note = format!(
                "{again_note}, with every line since the process started (the lines since the last accepted newgame did not show it: {note})"
            );
            *finding = from_start;
            reproduced = true;
        }
    }
    finding.reproduced = Some(reproduced);
    finding.reproduce_note = Some(quote(&note, MAX_DETAIL_BYTES));
    if !reproduced {
        finding.reproduce.clear();
    }
}

/// Runs `pipe` in a shell as a UHP engine: its banner first, then up to
/// `lines` answers.
fn replay(config: &Config, pipe: &str, lines: usize) -> Replay {
    let command = format!("sh -c {}", shell_quote(pipe));
    let mut client = match UhpClient::spawn_with(&command, config.startup_timeout, config.timeout) {
        Ok(client) => client,
        Err(e) => {
            return Replay {
                answers: Vec::new(),
                end: Some(e),
            }
        }
    };
    let mut answers = Vec::new();
    for k in 1..=lines {
        match client.read_answer(&format!("line {k} of the pipe")) {
            Ok(answer) => answers.push(answer),
            Err(e) => {
                return Replay {
                    answers,
                    end: Some(e),
                }
            }
        }
    }
    Replay { answers, end: None }
}

/// Whether `replay` shows `finding` again, and what the fresh engine did.
fn judge(finding: &Finding, replay: &Replay) -> (bool, String) {
    let n = finding.sent.len();
    let last = quote(finding.sent.last().map_or("", String::as_str), 80);
    let startup = finding.pattern == "start-up";
    if let Some(e @ (ClientError::StartUp { .. } | ClientError::Spawn { .. })) = &replay.end {
        let note = format!(
            "a fresh engine did not start: {}",
            quote(&e.to_string(), MAX_QUOTE_BYTES)
        );
        return (startup, note);
    }
    if startup {
        return (false, "a fresh engine started".to_string());
    }
    // an engine may answer a blank line or not: the last line's answer is
    // the n-th, or the last when every line that is not blank had one
    let blank = finding.sent.iter().filter(|l| l.trim().is_empty()).count();
    let answered = replay.answers.len();
    let failed_on_last = answered + 1 == n || answered + 1 == n - blank;
    let again = |what: &str| (true, format!("a fresh engine {what} again on `{last}`"));
    match (finding.kind, &replay.end) {
        (
            Kind::Crash,
            Some(ClientError::Exited { status, .. } | ClientError::OutputHeldOpen { status, .. }),
        ) if failed_on_last && status.is_none_or(|s| !s.success()) => again("exited"),
        (Kind::Timeout, Some(ClientError::Timeout { .. })) if failed_on_last => again("timed out"),
        (Kind::Protocol, Some(ClientError::Flood { .. }))
            if failed_on_last && finding.pattern.starts_with("flood on") =>
        {
            again("flooded its output")
        }
        (Kind::Crash | Kind::Timeout, _) => (false, stopped(replay, n)),
        (_, Some(_)) if finding.pattern.starts_with("flood on") => (false, stopped(replay, n)),
        _ => {
            let last_answer = match &replay.end {
                None => replay.answers.get(n - 1),
                Some(_) if answered == n - blank => replay.answers.last(),
                Some(_) => None,
            };
            match last_answer {
                Some(answer) => compare(finding, answer),
                None => (false, stopped(replay, n)),
            }
        }
    }
}

/// What a fresh engine did, in words, when it did not answer as the
/// finding says: how many of the `n` lines it answered and how it stopped.
fn stopped(replay: &Replay, n: usize) -> String {
    let answered = replay.answers.len().min(n);
    match &replay.end {
        Some(e) => format!(
            "a fresh engine answered {answered} of the {n} lines, then: {}",
            quote(&e.to_string(), MAX_QUOTE_BYTES)
        ),
        None => format!("a fresh engine answered every line ({n}); it did not fail"),
    }
}

/// Compares a fresh engine's `answer` to the last line with the one the
/// finding quotes.
fn compare(finding: &Finding, answer: &Response) -> (bool, String) {
    let recorded = &finding.raw_answer;
    let n = finding.sent.len();
    let shown = || quote(&answer.lines.join(" / "), MAX_QUOTE_BYTES);
    if recorded.is_empty() {
        return (
            true,
            format!(
                "a fresh engine answered every line ({n}); the finding quotes no answer to compare"
            ),
        );
    }
    if finding
        .sent
        .last()
        .is_some_and(|l| l.trim() == "validmoves")
    {
        let (before, now) = (move_set(recorded), move_set(&answer.lines));
        return if before == now {
            (
                true,
                format!(
                    "a fresh engine listed the same {} moves (compared as sets)",
                    now.len()
                ),
            )
        } else {
            let missing = before.difference(&now).count();
            let extra = now.difference(&before).count();
            (false, format!("a fresh engine listed other moves: {missing} of the finding's not listed, {extra} others listed"))
        };
    }
    let refusal = |lines: &[String]| {
        lines
            .iter()
            .any(|l| l.starts_with("err") || l.starts_with("invalidmove"))
    };
    if refusal(recorded) {
        return if answer.is_error() {
            (
                true,
                format!("a fresh engine refused it again: {}", shown()),
            )
        } else {
            (false, format!("a fresh engine accepted it: {}", shown()))
        };
    }
    let state = |lines: &[String]| lines.last().and_then(|l| state_and_turn(l));
    if finding.kind == Kind::State {
        if let Some(before) = state(recorded) {
            return if state(&answer.lines) == Some(before) {
                (
                    true,
                    format!("a fresh engine printed the same state: {}", shown()),
                )
            } else {
                (
                    false,
                    format!("a fresh engine printed another state: {}", shown()),
                )
            };
        }
    }
    let trimmed =
        |lines: &[String]| -> Vec<String> { lines.iter().map(|l| l.trim().to_string()).collect() };
    if trimmed(recorded) == trimmed(&answer.lines) {
        (true, "a fresh engine gave the same answer".to_string())
    } else {
        (
            false,
            format!("a fresh engine answered otherwise: {}", shown()),
        )
    }
}

/// The moves of a `validmoves` answer, as a set.
fn move_set(lines: &[String]) -> BTreeSet<String> {
    lines
        .iter()
        .flat_map(|l| l.split(';'))
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect()
}
