//! What a UHP engine answers, as the client reads it: a [`Response`] (the
//! lines before `ok`), the [`Capabilities`] of its banner, how it was shut
//! down, and the [`ClientError`]s of talking to it; and [`resolve_moves`],
//! which reads its MoveStrings as absolute moves in the reference position.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::process::ExitStatus;
use std::time::Duration;

use thiserror::Error;

use hive_oracle_rules::core::{GameType, Move};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The name given to the start-up phase (reading the banner) in errors.
pub const STARTUP: &str = "start-up";

/// Why talking to the engine failed. Each variant names the command during
/// which it happened ([`STARTUP`] while reading the banner).
#[derive(Debug, Error)]
pub enum ClientError {
    /// The engine could not be started: empty or badly quoted command line,
    /// program not found, not executable…
    #[error("cannot start engine `{command_line}`: {source}")]
    Spawn {
        /// The command line as given.
        command_line: String,
        #[source]
        /// Why it could not be started.
        source: io::Error,
    },
    /// No `ok` within the timeout: the engine hangs (or is too slow).
    #[error("engine did not finish `{command}` within {after:?}{}", partial(.partial_output))]
    Timeout {
        /// The command sent.
        command: String,
        /// How long the client waited.
        after: Duration,
        /// The lines the engine printed before the timeout.
        partial_output: Vec<String>,
    },
    /// The engine closed its output before `ok`: it crashed or exited early.
    #[error("engine exited during `{command}` before `ok` ({}){}", status_text(.status), partial(.partial_output))]
    Exited {
        /// The command sent.
        command: String,
        /// The engine's exit status, if it has exited.
        status: Option<ExitStatus>,
        /// The lines the engine printed before it exited.
        partial_output: Vec<String>,
    },
    /// The engine's process exited, but its stdout stays open: a process it
    /// started holds it (the whole process group is then killed).
    #[error("engine exited during `{command}` before `ok` ({}), but its stdout stays open: a process it started holds it{}", status_text(.status), partial(.partial_output))]
    OutputHeldOpen {
        /// The command sent.
        command: String,
        /// The engine's exit status.
        status: Option<ExitStatus>,
        /// The lines printed before it exited.
        partial_output: Vec<String>,
    },
    /// The engine printed more than one answer may hold
    /// ([`MAX_ANSWER_BYTES`](crate::check::client::MAX_ANSWER_BYTES),
    /// [`MAX_ANSWER_LINES`](crate::check::client::MAX_ANSWER_LINES)) without
    /// `ok`; it is ended.
    #[error("flood of output during `{command}`: {detail}")]
    Flood {
        /// The command sent.
        command: String,
        /// The bound it went past.
        detail: String,
        /// The first lines it printed.
        partial_output: Vec<String>,
    },
    /// The engine never answered its start-up banner (it exited, hung or
    /// printed something else first): `error` says how, and `stderr` holds
    /// the last lines it wrote there (often why, such as a missing file).
    #[error("the engine never answered its start-up banner: {error}{}", stderr_text(.stderr))]
    StartUp {
        /// How the start-up failed.
        error: Box<ClientError>,
        /// The last lines of its stderr.
        stderr: Vec<String>,
    },
    /// Reading from or writing to the engine failed for another reason.
    #[error("i/o error during `{command}`: {source}")]
    Io {
        /// The command sent.
        command: String,
        #[source]
        /// The error of the pipe.
        source: io::Error,
    },
    /// The engine answered, but not in UHP: no `id` line or garbage in the
    /// banner, a malformed `validmoves` answer…
    #[error("protocol error during `{command}`: {detail}")]
    Protocol {
        /// The command sent.
        command: String,
        /// What is wrong with the answer.
        detail: String,
    },
    /// The engine refused a command the caller needed to succeed (an `err`
    /// or `invalidmove` line); see [`UhpClient::validmoves`](crate::check::client::UhpClient::validmoves).
    #[error("engine refused `{command}`: {}", .lines.join(" / "))]
    Refused {
        /// The command sent.
        command: String,
        /// The engine's answer.
        lines: Vec<String>,
    },
    /// An earlier failure left the engine in an unknown state; nothing more
    /// is sent to it.
    #[error("engine not asked `{command}`: it is unusable since an earlier failure ({cause})")]
    Defunct {
        /// The command that was not sent.
        command: String,
        /// The earlier failure.
        cause: String,
    },
}

fn partial(lines: &[String]) -> String {
    if lines.is_empty() {
        String::new()
    } else {
        format!("; it printed: {}", lines.join(" / "))
    }
}

/// The last lines of an engine's stderr, for a message: control
/// characters escaped, so that nothing it wrote acts on a terminal.
fn stderr_text(lines: &[String]) -> String {
    if lines.is_empty() {
        return "; it wrote nothing on stderr".to_string();
    }
    let shown: Vec<String> = lines
        .iter()
        .map(|line| {
            line.chars()
                .flat_map(|c| {
                    if c.is_control() {
                        c.escape_default().collect::<Vec<_>>()
                    } else {
                        vec![c]
                    }
                })
                .collect()
        })
        .collect();
    format!("; its stderr ends with: {}", shown.join(" / "))
}

fn status_text(status: &Option<ExitStatus>) -> String {
    match status {
        Some(status) => status.to_string(),
        None => "still running".to_string(),
    }
}

/// The expansions an engine says it supports: its capabilities line
/// (spec/sources/uhp-notes.md section 2.1), read case-insensitively.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// Whether the engine lists `Mosquito` (§1.3).
    pub mosquito: bool,
    /// Whether the engine lists `Ladybug` (§1.3).
    pub ladybug: bool,
    /// Whether the engine lists `Pillbug` (§1.3).
    pub pillbug: bool,
    /// Flags that are not one of the three expansions, as written.
    pub unknown: Vec<String>,
}

impl Capabilities {
    /// Parses a capabilities line such as `Mosquito;Ladybug;Pillbug`.
    pub fn parse(line: &str) -> Capabilities {
        let mut caps = Capabilities::default();
        for flag in line.split(';').map(str::trim).filter(|f| !f.is_empty()) {
            match flag.to_ascii_lowercase().as_str() {
                "mosquito" => caps.mosquito = true,
                "ladybug" => caps.ladybug = true,
                "pillbug" => caps.pillbug = true,
                _ => caps.unknown.push(flag.to_string()),
            }
        }
        caps
    }

    /// Whether the engine can play games of this type: every expansion piece
    /// of the type is among its flags.
    pub fn supports(&self, game_type: GameType) -> bool {
        (!game_type.mosquito || self.mosquito)
            && (!game_type.ladybug || self.ladybug)
            && (!game_type.pillbug || self.pillbug)
    }

    /// The supported game types, in the order of [`GameType::ALL`].
    pub fn game_types(&self) -> Vec<GameType> {
        GameType::ALL
            .into_iter()
            .filter(|&t| self.supports(t))
            .collect()
    }
}

/// The lines an engine printed for one command, before its `ok`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Response {
    /// The lines, without line endings and without the final `ok`.
    pub lines: Vec<String>,
    /// Whether some line was not UTF-8 (or was cut at [`MAX_LINE_BYTES`](crate::check::client::MAX_LINE_BYTES));
    /// such lines are in `lines` with replacement characters.
    pub garbled: bool,
    /// Lines printed after the previous `ok` and before this command was
    /// sent: output nobody asked for.
    pub stray: Vec<String>,
}

impl Response {
    /// Whether the command failed: any line starts with `err` or
    /// `invalidmove` (spec/sources/uhp-notes.md section 2.3).
    pub fn is_error(&self) -> bool {
        self.error_line().is_some()
    }

    /// Whether the failure is an `invalidmove` (a refused move).
    pub fn is_invalid_move(&self) -> bool {
        self.error_line()
            .is_some_and(|line| line.starts_with("invalidmove"))
    }

    /// The message of the first `err`/`invalidmove` line: the text after its
    /// first space (empty for a bare `err`).
    pub fn error_text(&self) -> Option<&str> {
        self.error_line()
            .map(|line| line.split_once(' ').map_or("", |(_, rest)| rest.trim()))
    }

    /// The only line of the response, if there is exactly one.
    pub fn single_line(&self) -> Option<&str> {
        match self.lines.as_slice() {
            [line] => Some(line),
            _ => None,
        }
    }

    /// The last line, as `bestmove` is read (spec/sources/uhp-notes.md section 5.6).
    pub(crate) fn last_line(&self) -> Option<&str> {
        self.lines.last().map(String::as_str)
    }

    fn error_line(&self) -> Option<&str> {
        self.lines
            .iter()
            .map(String::as_str)
            .find(|line| line.starts_with("err") || line.starts_with("invalidmove"))
    }
}

/// The leaf count an engine gave for `depth` in its answer to `perft N`.
/// `perft` is not part of UHP; the engines that offer it print one line
/// per depth (spec/sources/uhp-notes.md section 6), and three forms are
/// read: Mzinga's `perft(3) = 1,440 in 2 ms. 720 KN/s` (ours prints
/// `perft(3) = 1440`), a table row whose first two fields are the depth and
/// the count (nokamute; `3\t1440\t...`), and an answer of one line that
/// is a bare count. A count may group its digits with `,`, `.`, `_` or
/// `'`. `None` when no line gives the count for `depth`.
pub(crate) fn perft_count(lines: &[String], depth: u32) -> Option<u64> {
    let labelled = format!("perft({depth})");
    for line in lines {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix(&labelled) {
            let count = rest.trim_start().strip_prefix('=').map(str::trim_start);
            if let Some(count) = count.and_then(|c| c.split_whitespace().next()) {
                return grouped_count(count);
            }
        }
        let mut fields = line.split_whitespace();
        if let (Some(first), Some(second)) = (fields.next(), fields.next()) {
            if first.parse::<u32>().ok() == Some(depth) {
                if let Some(count) = grouped_count(second) {
                    return Some(count);
                }
            }
        }
    }
    match lines {
        [only] => grouped_count(only.trim()),
        _ => None,
    }
}

/// A count written with digits, perhaps grouped by `,`, `.`, `_` or `'`.
fn grouped_count(text: &str) -> Option<u64> {
    if !text.starts_with(|c: char| c.is_ascii_digit())
        || !text
            .chars()
            .all(|c| c.is_ascii_digit() || ",._'".contains(c))
    {
        return None;
    }
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// How [`UhpClient::exit`](crate::check::client::UhpClient::exit) ended the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shutdown {
    /// It left by itself within [`EXIT_GRACE`](crate::check::client::EXIT_GRACE), with this status.
    Exited(ExitStatus),
    /// It was still running after the grace period (or had already failed)
    /// and was killed.
    Killed,
}

/// Resolves an engine's MoveStrings to absolute moves in the reference
/// position `game` (with [`Rules::parse_move`]), so that moves spelled
/// differently compare equal. Returns the moves and the texts that could
/// not be resolved (unparsable, or naming a piece that is not where it
/// must be).
pub fn resolve_moves(game: &ReferenceEngine, texts: &[String]) -> (BTreeSet<Move>, Vec<String>) {
    let (counted, unresolvable) = resolve_counted(game, texts);
    (counted.into_keys().collect(), unresolvable)
}

/// [`resolve_moves`] with the number of texts that name each move, so that
/// a move listed twice, in one spelling or in two, shows (§9.35).
pub fn resolve_counted(
    game: &ReferenceEngine,
    texts: &[String],
) -> (BTreeMap<Move, usize>, Vec<String>) {
    let mut moves: BTreeMap<Move, usize> = BTreeMap::new();
    let mut unresolvable = Vec::new();
    for text in texts {
        match game.parse_move(text) {
            Ok(mv) => *moves.entry(mv).or_default() += 1,
            Err(_) => unresolvable.push(text.clone()),
        }
    }
    (moves, unresolvable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_are_case_insensitive() {
        let caps = Capabilities::parse("mosquito;PILLBUG;Spider");
        assert!(caps.mosquito && caps.pillbug && !caps.ladybug);
        assert_eq!(caps.unknown, ["Spider"]);
        assert!(caps.supports(GameType::from_flags(true, false, true)));
        assert!(!caps.supports(GameType::BASE_MLP));
        assert_eq!(Capabilities::default().game_types(), [GameType::BASE]);
    }

    #[test]
    fn perft_answers_of_the_engines_that_have_one_are_read() {
        // spec/sources/uhp-notes.md section 6: Mzinga's line, nokamute's
        // table, ours, and a bare count
        let lines = |text: &str| text.lines().map(str::to_string).collect::<Vec<_>>();
        let mzinga =
            lines("perft(0)  =  1 in 0 ms.  0 KN/s\nperft(3)  =  1,440 in  2 ms.  720 KN/s");
        assert_eq!(perft_count(&mzinga, 3), Some(1440));
        assert_eq!(perft_count(&mzinga, 0), Some(1));
        assert_eq!(perft_count(&mzinga, 2), None);
        let table = lines("depth\tcount\ttime\n1\t4\t1ms\n2\t96\t2ms");
        assert_eq!(perft_count(&table, 2), Some(96));
        let ours = lines("perft(1) = 4\nperft(2) = 96\nperft(3) = 1440");
        assert_eq!(perft_count(&ours, 3), Some(1440));
        assert_eq!(perft_count(&lines("21600"), 4), Some(21600));
        assert_eq!(perft_count(&lines("perft(2) = many"), 2), None);
        assert_eq!(perft_count(&lines("err unknown command"), 1), None);
    }

    #[test]
    fn response_helpers() {
        let r = Response {
            lines: vec!["x".into(), "invalidmove You can't.".into()],
            ..Response::default()
        };
        assert!(r.is_error() && r.is_invalid_move());
        assert_eq!(r.error_text(), Some("You can't."));
        assert_eq!(r.single_line(), None);
        let r = Response {
            lines: vec!["err".into()],
            ..Response::default()
        };
        assert!(r.is_error() && !r.is_invalid_move());
        assert_eq!(r.error_text(), Some(""));
        let r = Response {
            lines: vec!["wS1".into()],
            ..Response::default()
        };
        assert!(!r.is_error());
        assert_eq!(r.single_line(), Some("wS1"));
    }
}
