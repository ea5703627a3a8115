//! The probes of how an engine reads lines: `info` against the banner, an
//! unknown command, the `options` listing, and the lines an engine meets in
//! the wild (CRLF, a blank line, a very long line, bytes that are not
//! UTF-8, end of input without `exit`).

use crate::check::client::{Response, UhpClient};
use crate::check::findings::finding::{Finding, Kind};
use crate::check::findings::quote::{printf_lines, quote, MAX_QUOTED_LINES, MAX_QUOTE_BYTES};

use super::probe::{Go, Probe, Prober};

/// The length of the very long line probe, in bytes.
const LONG_LINE_BYTES: usize = 1 << 20;

/// `info` must repeat the start-up banner (spec/sources/uhp-notes.md section 5.1).
pub(super) fn info(p: &mut Prober<'_, '_>, probe: &Probe, info: Response) -> Go {
    let banner = p.banner.join(" / ");
    p.require(probe, info.lines == p.banner, info.lines, |said| {
        format!("`info` answers \"{said}\", the start-up banner was \"{banner}\"")
    })
}

/// An unknown command must be answered with `err` (spec/sources/uhp-notes.md section 2.3).
pub(super) fn unknown_command(p: &mut Prober<'_, '_>, probe: &Probe, answer: Response) -> Go {
    let refused = answer.lines.first().is_some_and(|l| l.starts_with("err"));
    p.require(probe, refused, answer.lines, |said| {
        format!("an unknown command (`frobnicate`) must be answered with `err`, got \"{said}\"")
    })
}

/// `options` lists `Name;Type;Value;Default[;...]` lines (spec/sources/uhp-notes.md
/// section 5.8); kept for the report and for the declared rules.
pub(super) fn options(p: &mut Prober<'_, '_>, probe: &Probe, answer: Response) -> Go {
    if answer.is_error() {
        return Go::On; // an engine may have no options command
    }
    let bad = answer.lines.iter().find(|l| !option_line_is_well_formed(l));
    if let Some(line) = bad {
        let detail = format!(
            "`options` lines must read `Name;Type;Value;Default[;...]` with a type of bool, int, double or enum; got \"{line}\""
        );
        p.finding(probe, detail, answer.lines.clone());
    }
    // quoted: the report holds no control character and no listing longer
    // than an answer of MAX_QUOTED_LINES lines
    p.engine.options = answer
        .lines
        .iter()
        .take(MAX_QUOTED_LINES)
        .map(|l| quote(l, MAX_QUOTE_BYTES))
        .collect();
    Go::On
}

/// `info` ending in CRLF must be read as `info` (spec/notation.md, UHP
/// engine conventions, "Reading lines").
pub(super) fn crlf(p: &mut Prober<'_, '_>, probe: &Probe, answer: Response) -> Go {
    let read = answer.lines == p.banner;
    p.require(probe, read, answer.lines, |said| {
        format!("`info` ending in CRLF must be read as `info`; got \"{said}\"")
    })
}

/// A blank line is ignored (MZ) or refused with `err` (MZC, NK); either
/// way the engine must go on (advisory: spec/sources/uhp-notes.md section 7).
pub(super) fn blank_line(p: &mut Prober<'_, '_>, probe: &Probe, first: Response) -> Go {
    let answer = if first.is_error() {
        match p.worker.session.read_answer("info after a blank line") {
            Ok(a) => a,
            Err(e) => return p.failed(probe, e),
        }
    } else {
        first
    };
    let read = answer.lines == p.banner;
    p.require(probe, read, answer.lines, |said| {
        format!("after a blank line, `info` answered \"{said}\"")
    })
}

/// A 1 MiB line must be refused, and the engine must go on (advisory).
pub(super) fn long_line(p: &mut Prober<'_, '_>, probe: &Probe) -> Go {
    p.worker.counts.protocol_checks += 1;
    let mut bytes = b"play ".to_vec();
    bytes.extend(std::iter::repeat_n(b'A', LONG_LINE_BYTES));
    bytes.push(b'\n');
    // the lines before it, then the long line built by the shell rather
    // than quoted
    let earlier = p.worker.exact_lines();
    let reproduce = format!(
        "{{ {}; printf 'play '; head -c {LONG_LINE_BYTES} /dev/zero | tr '\\0' A; printf '\\nexit\\n'; }} | {}",
        printf_lines(&earlier),
        p.worker.ctx.config.engine
    );
    let shown = format!("play AAAA… ({LONG_LINE_BYTES} A's)");
    let before = p.worker.findings.len();
    let go = match p.worker.session.send_raw("a 1 MiB line", &bytes) {
        Ok(answer) if answer.is_error() => Go::On,
        Ok(answer) => {
            let detail = format!(
                "a {LONG_LINE_BYTES}-byte `play` line must be refused; got \"{}\"",
                answer
                    .lines
                    .join(" / ")
                    .chars()
                    .take(200)
                    .collect::<String>()
            );
            p.finding(probe, detail, Vec::new());
            Go::On
        }
        Err(e) => p.failed(probe, e),
    };
    // the long line shown by its length; the pipe and the reproduce file
    // send it whole
    for f in &mut p.worker.findings[before..] {
        if let Some(last) = f.sent.last_mut() {
            last.clone_from(&shown);
        }
        f.reproduce = reproduce.clone();
    }
    go
}

/// A line that is not UTF-8 must be refused, and the engine must go on
/// (advisory: no established engine answers it, one exits).
pub(super) fn non_utf8(p: &mut Prober<'_, '_>, probe: &Probe, answer: Response) -> Go {
    if !answer.is_error() {
        return p.require(probe, false, answer.lines, |said| {
            format!("a line that is not UTF-8 must be refused; got \"{said}\"")
        });
    }
    // still answering?
    match p.worker.session.command("info") {
        Ok(_) => Go::On,
        Err(e) => p.failed(probe, e),
    }
}

/// End of input without `exit`: the engine must leave by itself
/// (advisory: MZC loops forever, spec/sources/uhp-notes.md section 5.9). A
/// fresh process.
pub(super) fn end_of_input(p: &mut Prober<'_, '_>, probe: &Probe) -> Go {
    p.worker.counts.protocol_checks += 1;
    let config = p.worker.ctx.config;
    let Ok(client) = UhpClient::spawn_with(&config.engine, config.startup_timeout, config.timeout)
    else {
        return Go::On; // a failing start-up is reported by the other probes
    };
    if client.close_input(config.timeout).is_none() {
        let detail = format!(
            "after end of input (stdin closed without `exit`) the engine was still running {:?} later; it was killed",
            config.timeout
        );
        let mut finding = Finding::new(Kind::Protocol, &p.worker.test, &p.base)
            .severity(probe.severity)
            .clauses(["uhp"])
            .pattern(probe.name)
            .detail(detail);
        finding.reproduce = format!("printf '' | {}", config.engine);
        p.worker.add(finding);
    }
    Go::On
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
