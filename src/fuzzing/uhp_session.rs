//! The `uhp_session` target: arbitrary command lines fed to the UHP engine in-process.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use arbitrary::Arbitrary;

use super::Verbatim;
use crate::uhp::{EngineChoice, Options, Session};

/// Bytes of a `uhp_session` input beyond this are ignored.
pub const MAX_UHP_BYTES: usize = 4096;
/// Command lines of a `uhp_session` input beyond this are ignored.
pub const MAX_UHP_COMMANDS: usize = 64;
/// `bestmove` is sent only while the `TableSizeMiB` option is at most this
/// (the default), since the first search allocates the table.
const SEARCH_TABLE_LIMIT_MIB: u32 = 16;

/// The input of the `uhp_session` target: UHP command lines separated by
/// `\n`, as raw bytes (a `\r`, a tab, invalid UTF-8 reach the session as
/// they are). A seed file is a plain transcript, one command per line.
#[derive(Arbitrary)]
pub struct UhpInput<'a> {
    /// The command lines, as raw bytes.
    pub transcript: &'a [u8],
}

/// The command lines of a transcript, within the caps: split at `\n`, the
/// empty piece after a final `\n` dropped.
pub(crate) fn command_lines(transcript: &[u8]) -> Vec<&[u8]> {
    let used = &transcript[..transcript.len().min(MAX_UHP_BYTES)];
    let mut lines: Vec<&[u8]> = used.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|line| line.is_empty()) {
        lines.pop();
    }
    lines.truncate(MAX_UHP_COMMANDS);
    lines
}

/// Whether a line is sent to the session. Every line is, except work the
/// input does not bound: `bestmove` is sent only as `bestmove depth 1` or
/// `bestmove depth 2` (in any case and spacing), and only while
/// `TableSizeMiB` is at most its default; `perft` only to depth 2 (the
/// server's own bound, 10 G leaves, is hours of counting). The search is
/// tested in `tests/search.rs`, its refusals in `tests/uhp/bestmove.txt`,
/// perft over UHP in `tests/uhp/perft.txt`.
fn is_sent(line: &[u8], options: &Options) -> bool {
    let Ok(text) = std::str::from_utf8(line.trim_ascii()) else {
        return true;
    };
    let mut tokens = text.split_ascii_whitespace();
    let Some(keyword) = tokens.next() else {
        return true;
    };
    let args: Vec<&str> = tokens.collect();
    if keyword.eq_ignore_ascii_case("perft") {
        return match args.as_slice() {
            [depth] => depth.parse::<u64>().map_or(true, |depth| depth <= 2),
            _ => true,
        };
    }
    if !keyword.eq_ignore_ascii_case("bestmove") {
        return true;
    }
    let shallow = matches!(
        args.as_slice(),
        [kind, depth] if kind.eq_ignore_ascii_case("depth") && matches!(*depth, "1" | "2")
    );
    shallow && options.table_size_mib <= SEARCH_TABLE_LIMIT_MIB
}

/// An input line as a quoted literal: `\\`, `"` and control characters
/// escaped as in Rust, invalid UTF-8 as `\\xNN`.
fn shown(line: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in line.utf8_chunks() {
        out.extend(chunk.valid().chars().flat_map(char::escape_debug));
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

impl fmt::Debug for UhpInput<'_> {
    /// The command lines (those not sent marked so) and the GameString the
    /// session ends with, found by replaying them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines = command_lines(self.transcript);
        let replay = catch_unwind(AssertUnwindSafe(|| {
            let mut session = Session::new(EngineChoice::Fast);
            let mut described = Vec::new();
            for &line in &lines {
                if is_sent(line, session.options()) {
                    session.handle_line(line);
                    described.push(shown(line));
                } else {
                    described.push(format!("{} (not sent: an unbounded search)", shown(line)));
                }
            }
            (described, session.game_string())
        }));
        match replay {
            Ok((described, game)) => f
                .debug_struct("UhpInput")
                .field("lines", &verbatim(&described))
                .field("game", &game.as_deref().map(Verbatim))
                .finish(),
            Err(_) => f
                .debug_struct("UhpInput")
                .field(
                    "lines",
                    &verbatim(&lines.iter().map(|l| shown(l)).collect::<Vec<_>>()),
                )
                .field("game", &Verbatim("(the session panics)"))
                .finish(),
        }
    }
}

fn verbatim(lines: &[String]) -> Vec<Verbatim<'_>> {
    lines.iter().map(|line| Verbatim(line)).collect()
}

/// The property of the `uhp_session` target: command lines fed to a UHP
/// session (on the fast engine; `options set Engine Reference` switches)
/// never make it panic; every non-blank line before `exit` is answered by
/// lines that end with exactly one `ok` and contain no line break; after
/// `exit`, and for a blank line, nothing is answered; and a refused command
/// (`err` or `invalidmove`, one line) leaves the GameString and the options
/// as they were. Panics with the transcript so far when the property fails.
pub fn check_uhp_session(input: UhpInput<'_>) {
    let mut session = Session::new(EngineChoice::Fast);
    let mut transcript: Vec<String> = Vec::new();
    for line in command_lines(input.transcript) {
        if !is_sent(line, session.options()) {
            continue;
        }
        transcript.push(shown(line));
        let before = (session.game_string(), *session.options());
        let reply = session.handle_line(line);
        if let Err(problem) = reply_problem(line, &reply, &before, &session) {
            panic!(
                "UHP session: {problem}\n  reply: {reply:?}\n  game before: {:?}\n  transcript:\n    {}",
                before.0,
                transcript.join("\n    ")
            );
        }
    }
}

/// Whether a reply refuses its command (`err …` or `invalidmove …`).
pub fn is_refusal(reply: &[String]) -> bool {
    reply
        .iter()
        .any(|l| l.starts_with("err ") || l.starts_with("invalidmove "))
}

/// What is wrong with the reply to one command line (see [`reply_problem`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplyProblem {
    /// A blank line, or a line after `exit`, got an answer.
    #[error("a blank line or a line after exit was answered")]
    AnsweredSilence,
    /// The reply's last line is not `ok`.
    #[error("the reply does not end with ok")]
    NoOk,
    /// The reply holds `ok` more than once.
    #[error("the reply has more than one ok")]
    SeveralOk,
    /// A line of the reply holds a line break.
    #[error("a reply line contains a line break")]
    LineBreak,
    /// A refusal is not exactly one line and `ok`.
    #[error("a refusal is not one line and ok")]
    LongRefusal,
    /// A refused command changed the GameString or the options.
    #[error("a refused command changed the session: now {game:?}, {options:?}")]
    RefusalChangedSession {
        /// The GameString after the refusal.
        game: Option<String>,
        /// The options after the refusal.
        options: Options,
    },
}

/// What is wrong with the reply to one command line, if anything: a blank
/// line or a line after `exit` gets no answer; any other gets lines that end
/// with exactly one `ok` and hold no line break; a refusal is one line and
/// `ok`, and leaves the GameString and the options as they were (`before`).
/// Shared with the seeded hostile-input tests of `tests/uhp.rs`.
pub fn reply_problem(
    line: &[u8],
    reply: &[String],
    before: &(Option<String>, Options),
    session: &Session,
) -> Result<(), ReplyProblem> {
    if line.trim_ascii().is_empty() || session.has_exited() {
        if reply.is_empty() {
            return Ok(());
        }
        return Err(ReplyProblem::AnsweredSilence);
    }
    if reply.last().map(String::as_str) != Some("ok") {
        return Err(ReplyProblem::NoOk);
    }
    if reply.iter().filter(|l| *l == "ok").count() != 1 {
        return Err(ReplyProblem::SeveralOk);
    }
    if reply.iter().any(|l| l.contains('\n') || l.contains('\r')) {
        return Err(ReplyProblem::LineBreak);
    }
    if is_refusal(reply) {
        if reply.len() != 2 {
            return Err(ReplyProblem::LongRefusal);
        }
        let after = (session.game_string(), *session.options());
        if &after != before {
            return Err(ReplyProblem::RefusalChangedSession {
                game: after.0,
                options: after.1,
            });
        }
    }
    Ok(())
}
