//! The protocol unit of `check`: the banner, `info`, an unknown command,
//! the `options` listing, lines an engine meets in the wild (CRLF, a blank
//! line, bytes that are not UTF-8, a very long line, end of input without
//! `exit`), `undo` with bad counts, a refused `newgame` (the game must
//! survive it) and `bestmove` (a legal move, within its time budget, `pass`
//! when it is the only move, a refusal once the game is over).
//!
//! Probes of behaviour the established engines do not share (spec/sources/uhp-notes.md
//! section 7 and section 9: blank lines, non-UTF-8 bytes, a very long line,
//! end of input) give *advisory* findings; the others are errors.

use std::time::Instant;

use crate::check::checker::{UnitResult, Worker};
use crate::check::client::{ClientError, UhpClient};
use crate::check::finding::{quote, Finding, Kind, Severity, MAX_QUOTED_LINES, MAX_QUOTE_BYTES};
use crate::check::summary::EngineInfo;
use crate::core::{GameType, RulesOptions};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// The length of the very long line probe, in bytes.
const LONG_LINE_BYTES: usize = 1 << 20;

impl Worker<'_> {
    /// Runs the protocol unit. `Err` when the engine cannot be started at
    /// all (the check cannot run); also returns what the engine said about
    /// itself, and notes for the report.
    pub(crate) fn protocol_unit(
        &mut self,
    ) -> Result<(UnitResult, EngineInfo, Vec<String>), String> {
        let start = Instant::now();
        self.begin("protocol");
        let mut notes = Vec::new();
        let mut engine = EngineInfo::default();
        let base = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
        self.counts.protocol_checks += 1;
        let client = match self.session.client() {
            Ok(client) => client,
            Err(e @ ClientError::Spawn { .. }) => return Err(e.to_string()),
            Err(e) => {
                self.engine_failure(&base, e, Vec::new());
                let result = self.end_protocol(start.elapsed().as_secs_f64());
                return Ok((result, engine, notes));
            }
        };
        let banner = client.banner().to_vec();
        engine.id = quote(client.id(), MAX_QUOTE_BYTES);
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
        if banner.len() < 2 {
            notes.push("the banner has no capabilities line: only Base is checked".to_string());
        }
        if !caps.unknown.is_empty() {
            notes.push(format!(
                "unknown capabilities ignored: {}",
                quote(&caps.unknown.join(";"), MAX_QUOTE_BYTES)
            ));
        }
        let _ = self.probe_info(&base, &banner)
            && self.probe_unknown_command(&base)
            && self.probe_options(&base, &mut engine)
            && self.probe_crlf(&base, &banner)
            && self.probe_undo_counts()
            && self.probe_refused_newgame()
            && self.probe_bestmove()
            && self.probe_blank_line(&base, &banner)
            && self.probe_long_line(&base)
            && self.probe_non_utf8(&base);
        self.probe_end_of_input(&base);
        let result = self.end_protocol(start.elapsed().as_secs_f64());
        Ok((result, engine, notes))
    }

    /// A protocol finding of the protocol unit.
    fn protocol_finding(
        &mut self,
        game: &ReferenceEngine,
        probe: &str,
        severity: Severity,
        detail: String,
        sent: Vec<Vec<u8>>,
        answer: Vec<String>,
    ) {
        let reproduce = crate::check::finding::pipe(&self.ctx.config.engine, &sent);
        let mut finding = Finding::new(Kind::Protocol, &self.test, game)
            .severity(severity)
            .clauses(["uhp"])
            .pattern(probe)
            .detail(detail)
            .exchange(
                sent.iter()
                    .map(|l| String::from_utf8_lossy(l).into_owned())
                    .collect(),
                answer,
            );
        finding.reproduce = reproduce;
        self.add(finding);
    }

    /// An engine failure during a probe, with the probe's severity; false.
    fn probe_failed(
        &mut self,
        game: &ReferenceEngine,
        probe: &str,
        severity: Severity,
        error: ClientError,
        sent: Vec<Vec<u8>>,
    ) -> bool {
        let lines: Vec<String> = sent
            .iter()
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect();
        let before = self.findings.len();
        self.engine_failure(game, error, lines);
        let reproduce = crate::check::finding::pipe(&self.ctx.config.engine, &sent);
        for f in &mut self.findings[before..] {
            f.severity = severity;
            f.pattern = probe.to_string();
            f.reproduce = reproduce.clone();
        }
        false
    }

    /// `info` must repeat the start-up banner (spec/sources/uhp-notes.md section 5.1).
    fn probe_info(&mut self, base: &ReferenceEngine, banner: &[String]) -> bool {
        self.counts.protocol_checks += 1;
        match self.session.command("info") {
            Ok(info) => {
                if info.lines != banner {
                    self.protocol_finding(
                        base,
                        "info",
                        Severity::Error,
                        format!(
                            "`info` answers \"{}\", the start-up banner was \"{}\"",
                            info.lines.join(" / "),
                            banner.join(" / ")
                        ),
                        vec![b"info".to_vec()],
                        info.lines,
                    );
                }
                true
            }
            Err(e) => self.probe_failed(base, "info", Severity::Error, e, vec![b"info".to_vec()]),
        }
    }

    /// An unknown command must be answered with `err` (spec/sources/uhp-notes.md section 2.3).
    fn probe_unknown_command(&mut self, base: &ReferenceEngine) -> bool {
        self.counts.protocol_checks += 1;
        let sent = vec![b"frobnicate".to_vec()];
        match self.session.command("frobnicate") {
            Ok(answer) => {
                if !answer.lines.first().is_some_and(|l| l.starts_with("err")) {
                    self.protocol_finding(
                        base,
                        "unknown command",
                        Severity::Error,
                        format!(
                            "an unknown command (`frobnicate`) must be answered with `err`, got \"{}\"",
                            answer.lines.join(" / ")
                        ),
                        sent,
                        answer.lines,
                    );
                }
                true
            }
            Err(e) => self.probe_failed(base, "unknown command", Severity::Error, e, sent),
        }
    }

    /// `options` lists `Name;Type;Value;Default[;...]` lines (spec/sources/uhp-notes.md
    /// section 5.8); kept for the report and for the declared rules.
    fn probe_options(&mut self, base: &ReferenceEngine, engine: &mut EngineInfo) -> bool {
        self.counts.protocol_checks += 1;
        let sent = vec![b"options".to_vec()];
        match self.session.command("options") {
            Ok(answer) if answer.is_error() => true, // an engine may have no options command
            Ok(answer) => {
                let bad: Vec<&String> = answer
                    .lines
                    .iter()
                    .filter(|l| !option_line_is_well_formed(l))
                    .collect();
                if let Some(line) = bad.first() {
                    let detail = format!(
                        "`options` lines must read `Name;Type;Value;Default[;...]` with a type of bool, int, double or enum; got \"{line}\""
                    );
                    self.protocol_finding(
                        base,
                        "options",
                        Severity::Error,
                        detail,
                        sent,
                        answer.lines.clone(),
                    );
                }
                // quoted: the report holds no control character and no
                // listing longer than an answer of MAX_QUOTED_LINES lines
                engine.options = answer
                    .lines
                    .iter()
                    .take(MAX_QUOTED_LINES)
                    .map(|l| quote(l, MAX_QUOTE_BYTES))
                    .collect();
                true
            }
            Err(e) => self.probe_failed(base, "options", Severity::Error, e, sent),
        }
    }

    /// `info` ending in CRLF must be read as `info` (spec/notation.md, UHP
    /// engine conventions, "Reading lines").
    fn probe_crlf(&mut self, base: &ReferenceEngine, banner: &[String]) -> bool {
        self.counts.protocol_checks += 1;
        let sent = vec![b"info\r".to_vec()];
        match self.session.send_raw("info (CRLF)", b"info\r\n") {
            Ok(answer) => {
                if answer.lines != banner {
                    self.protocol_finding(
                        base,
                        "CRLF",
                        Severity::Error,
                        format!(
                            "`info` ending in CRLF must be read as `info`; got \"{}\"",
                            answer.lines.join(" / ")
                        ),
                        sent,
                        answer.lines,
                    );
                }
                true
            }
            Err(e) => self.probe_failed(base, "CRLF", Severity::Error, e, sent),
        }
    }

    /// A blank line is ignored (MZ) or refused with `err` (MZC, NK); either
    /// way the engine must go on (advisory: spec/sources/uhp-notes.md section 7).
    fn probe_blank_line(&mut self, base: &ReferenceEngine, banner: &[String]) -> bool {
        self.counts.protocol_checks += 1;
        let sent = vec![Vec::new(), b"info".to_vec()];
        let first = match self
            .session
            .send_raw("a blank line, then info", b"\ninfo\n")
        {
            Ok(a) => a,
            Err(e) => return self.probe_failed(base, "blank line", Severity::Advisory, e, sent),
        };
        let answer = if first.is_error() {
            match self.session.read_answer("info after a blank line") {
                Ok(a) => a,
                Err(e) => {
                    return self.probe_failed(base, "blank line", Severity::Advisory, e, sent)
                }
            }
        } else {
            first
        };
        if answer.lines != banner {
            self.protocol_finding(
                base,
                "blank line",
                Severity::Advisory,
                format!(
                    "after a blank line, `info` answered \"{}\"",
                    answer.lines.join(" / ")
                ),
                sent,
                answer.lines,
            );
        }
        true
    }

    /// A 1 MiB line must be refused, and the engine must go on (advisory).
    fn probe_long_line(&mut self, base: &ReferenceEngine) -> bool {
        self.counts.protocol_checks += 1;
        let mut bytes = b"play ".to_vec();
        bytes.extend(std::iter::repeat_n(b'A', LONG_LINE_BYTES));
        bytes.push(b'\n');
        let shown = vec![format!("play AAAA… ({LONG_LINE_BYTES} A's)").into_bytes()];
        // the exact line, built by the shell rather than quoted
        let reproduce = format!(
            "{{ printf 'play '; head -c {LONG_LINE_BYTES} /dev/zero | tr '\\0' A; printf '\\nexit\\n'; }} | {}",
            self.ctx.config.engine
        );
        let before = self.findings.len();
        let go_on = match self.session.send_raw("a 1 MiB line", &bytes) {
            Ok(answer) if answer.is_error() => true,
            Ok(answer) => {
                self.protocol_finding(
                    base,
                    "long line",
                    Severity::Advisory,
                    format!(
                        "a {LONG_LINE_BYTES}-byte `play` line must be refused; got \"{}\"",
                        answer
                            .lines
                            .join(" / ")
                            .chars()
                            .take(200)
                            .collect::<String>()
                    ),
                    shown,
                    Vec::new(),
                );
                true
            }
            Err(e) => self.probe_failed(base, "long line", Severity::Advisory, e, shown),
        };
        for f in &mut self.findings[before..] {
            f.reproduce = reproduce.clone();
        }
        go_on
    }

    /// A line that is not UTF-8 must be refused, and the engine must go on
    /// (advisory: no established engine answers it, one exits).
    fn probe_non_utf8(&mut self, base: &ReferenceEngine) -> bool {
        self.counts.protocol_checks += 1;
        let line = b"play w\xff\xfeQ".to_vec();
        let sent = vec![line.clone()];
        let mut bytes = line;
        bytes.push(b'\n');
        match self.session.send_raw("a line that is not UTF-8", &bytes) {
            Ok(answer) if answer.is_error() => {}
            Ok(answer) => {
                self.protocol_finding(
                    base,
                    "non-UTF-8",
                    Severity::Advisory,
                    format!(
                        "a line that is not UTF-8 must be refused; got \"{}\"",
                        answer.lines.join(" / ")
                    ),
                    sent,
                    answer.lines,
                );
                return true;
            }
            Err(e) => return self.probe_failed(base, "non-UTF-8", Severity::Advisory, e, sent),
        }
        // still answering?
        match self.session.command("info") {
            Ok(_) => true,
            Err(e) => {
                let mut sent = sent;
                sent.push(b"info".to_vec());
                self.probe_failed(base, "non-UTF-8", Severity::Advisory, e, sent)
            }
        }
    }

    /// End of input without `exit`: the engine must leave by itself
    /// (advisory: MZC loops forever, spec/sources/uhp-notes.md section 5.9). A fresh process.
    fn probe_end_of_input(&mut self, base: &ReferenceEngine) {
        self.counts.protocol_checks += 1;
        let config = self.ctx.config;
        let Ok(client) =
            UhpClient::spawn_with(&config.engine, config.startup_timeout, config.timeout)
        else {
            return; // a failing start-up is reported by the other probes
        };
        let started = Instant::now();
        if client.close_input(config.timeout).is_none() {
            let detail = format!(
                "after end of input (stdin closed without `exit`) the engine was still running {:?} later; it was killed",
                config.timeout
            );
            let _ = started;
            let finding = Finding::new(Kind::Protocol, &self.test, base)
                .severity(Severity::Advisory)
                .clauses(["uhp"])
                .pattern("end of input")
                .detail(detail);
            let mut finding = finding;
            finding.reproduce = format!("printf '' | {}", config.engine);
            self.add(finding);
        }
    }

    /// `undo 0`, `undo` beyond the history, `undo abc` and `undo -1` after
    /// two plies: each may be refused (`undo 0` may also print the
    /// GameString, spec/sources/uhp-notes.md section 5.7), and none may change the game.
    fn probe_undo_counts(&mut self) -> bool {
        let mut game = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
        let mut sent = vec!["newgame Base".to_string()];
        for text in ["wS1", "bS1 wS1-"] {
            if let Ok(mv) = game.parse_move(text) {
                game.play_unchecked(mv);
            }
            sent.push(format!("play {text}"));
        }
        for line in &sent {
            match self.session.command(line) {
                Ok(a) if !a.is_error() => {}
                Ok(_) => return true, // the game checks report a refused legal move
                Err(e) => {
                    self.engine_failure(&game, e, sent.clone());
                    return false;
                }
            }
        }
        for probe in ["undo 0", "undo 3", "undo abc", "undo -1"] {
            self.counts.protocol_checks += 1;
            let mut shown = sent.clone();
            shown.push(probe.to_string());
            let answer = match self.session.command(probe) {
                Ok(a) => a,
                Err(e) => {
                    self.engine_failure(&game, e, shown);
                    return false;
                }
            };
            let may_answer_the_game = probe == "undo 0";
            if !answer.is_error() && !may_answer_the_game {
                self.add(
                    Finding::new(Kind::Undo, &self.test, &game)
                        .clauses(["uhp"])
                        .pattern(probe.to_string())
                        .detail(format!(
                            "`{probe}` after two plies must be refused; got \"{}\"",
                            answer.lines.join(" / ")
                        ))
                        .exchange(shown, answer.lines.clone()),
                );
                return true;
            }
            if !self.still_at(&game, &shown) {
                return true;
            }
        }
        true
    }

    /// A refused `newgame` must keep the game that was being played.
    fn probe_refused_newgame(&mut self) -> bool {
        self.counts.protocol_checks += 1;
        let mut game = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
        if let Ok(mv) = game.parse_move("wS1") {
            game.play_unchecked(mv);
        }
        let bad = "newgame Base;InProgress;White[2];wS1;xyz";
        let mut sent = vec!["newgame Base".to_string(), "play wS1".to_string()];
        for line in &sent {
            match self.session.command(line) {
                Ok(a) if !a.is_error() => {}
                Ok(_) => return true,
                Err(e) => {
                    self.engine_failure(&game, e, sent.clone());
                    return false;
                }
            }
        }
        sent.push(bad.to_string());
        let answer = match self.session.command(bad) {
            Ok(a) => a,
            Err(e) => {
                self.engine_failure(&game, e, sent);
                return false;
            }
        };
        if !answer.is_error() {
            self.add(
                Finding::new(Kind::Protocol, &self.test, &game)
                    .clauses(["§9.31"])
                    .pattern("newgame with a bad move")
                    .detail(format!(
                        "`{bad}` (an unreadable move) must be refused; got \"{}\"",
                        answer.lines.join(" / ")
                    ))
                    .exchange(sent, answer.lines.clone()),
            );
            return true;
        }
        self.still_at(&game, &sent);
        true
    }

    /// Whether the engine's game is still `game` (its `validmoves`); a
    /// finding when it is not.
    fn still_at(&mut self, game: &ReferenceEngine, sent: &[String]) -> bool {
        let mut shown = sent.to_vec();
        shown.push("validmoves".to_string());
        let texts = match self.session.validmoves(game) {
            Ok(t) => t,
            Err(e) => {
                self.engine_failure(game, e, shown);
                return false;
            }
        };
        // the same moves (a move listed twice is its own finding, §9.35)
        let diff = self.compare_moves(game, &texts);
        if diff.missing.is_empty() && diff.extra.is_empty() && diff.unresolvable.is_empty() {
            return true;
        }
        let last = sent.last().cloned().unwrap_or_default();
        self.add(
            Finding::new(Kind::State, &self.test, game)
                .clauses(["uhp"])
                .pattern(format!("game changed by a refused `{}`", last.split(' ').next().unwrap_or("")))
                .detail(format!(
                    "after the refused `{last}`, the engine's valid moves are no longer those of {}",
                    game.game_string()
                ))
                .exchange(shown, vec![texts.join(";")]),
        );
        false
    }
}

/// Whether an `options` line reads `Name;Type;Value;Default[;...]` with a
/// known type (spec/sources/uhp-notes.md section 5.8).
fn option_line_is_well_formed(line: &str) -> bool {
    let fields: Vec<&str> = line.split(';').collect();
    fields.len() >= 4
        && !fields[0].trim().is_empty()
        && ["bool", "int", "double", "enum"]
            .iter()
            .any(|t| fields[1].eq_ignore_ascii_case(t))
}
