//! The arguments of the commands: the keyword and the words of a command
//! line, the commands that take none, and the limits of `bestmove`
//! (spec/sources/uhp-notes.md section 5.6). Each refusal quotes what it
//! refuses.

use std::time::Duration;

use super::reply::{err, quote, Failure};
use crate::search::SearchLimits;

/// The longest budget of `bestmove time`: 24:00:00.
pub const MAX_SEARCH_TIME: Duration = Duration::from_secs(24 * 3600);

/// The deepest `perft N` read, as the command line's `perft`. The work of a
/// count is bounded by its leaves, not by this depth (`Session`'s perft
/// budget); from the Base start depth 11 would take about a day.
pub const MAX_PERFT_DEPTH: u32 = 11;

/// The keyword of a command line, lower-cased, and its arguments.
pub(crate) fn command_words(text: &str) -> (String, Vec<&str>) {
    let mut tokens = text.split_ascii_whitespace();
    let keyword = tokens.next().unwrap_or_default().to_ascii_lowercase();
    (keyword, tokens.collect())
}

/// The limits of `bestmove depth N` or `bestmove time hh:mm:ss` (spec/sources/uhp-notes.md
/// section 5.6), a depth capped at `max_depth`.
pub(crate) fn search_limits(args: &[&str], max_depth: u32) -> Result<SearchLimits, Failure> {
    let usage = "bestmove takes \"depth N\" or \"time hh:mm:ss\"";
    Ok(match args {
        [kind, value] if kind.eq_ignore_ascii_case("depth") => SearchLimits {
            depth: Some(parse_depth(value, max_depth)?),
            time: None,
        },
        [kind, value] if kind.eq_ignore_ascii_case("time") => SearchLimits {
            depth: None,
            time: Some(parse_time(value)?),
        },
        [] => return err(format!("{usage}; a search without a limit is not offered")),
        _ => return err(format!("{usage}, not {}", quote(&args.join(" ")))),
    })
}

/// The depth of `perft N`: decimal digits from 1 to [`MAX_PERFT_DEPTH`].
pub(crate) fn perft_depth(args: &[&str]) -> Result<u32, Failure> {
    let range = format!("perft takes a depth from 1 to {MAX_PERFT_DEPTH}");
    match args {
        [text] if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
            match text.parse::<u32>() {
                Ok(depth) if (1..=MAX_PERFT_DEPTH).contains(&depth) => Ok(depth),
                _ => err(format!("{range}, not {}", quote(text))),
            }
        }
        [] => err(format!("{range}, such as \"perft 3\"")),
        _ => err(format!("{range}, not {}", quote(&args.join(" ")))),
    }
}

/// `err` when a command that takes no argument gets one.
pub(super) fn no_arguments(command: &str, args: &[&str]) -> Result<(), Failure> {
    if args.is_empty() {
        Ok(())
    } else {
        err(format!(
            "{command} takes no argument, not {}",
            quote(&args.join(" "))
        ))
    }
}

/// A search depth: a positive whole number, capped at `max` (huge values included).
fn parse_depth(text: &str, max: u32) -> Result<u32, Failure> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return err(format!(
            "the depth must be a whole number of plies, not {}",
            quote(text)
        ));
    }
    if text.bytes().all(|b| b == b'0') {
        return err("the depth must be at least 1");
    }
    // Digits only and not zero: anything that does not fit is above the cap.
    Ok(text.parse::<u32>().map_or(max, |depth| depth.min(max)))
}

/// A time budget `hh:mm:ss`: three `:`-separated whole numbers, minutes and
/// seconds below 60, from 00:00:01 to 24:00:00 ([`MAX_SEARCH_TIME`]).
fn parse_time(text: &str) -> Result<Duration, Failure> {
    let problem = || {
        Failure::Err(format!(
            "the time must be hh:mm:ss from 00:00:01 to 24:00:00, minutes and seconds below 60, such as 00:00:05, not {}",
            quote(text)
        ))
    };
    let fields: Vec<&str> = text.split(':').collect();
    let [hours, minutes, seconds] = fields.as_slice() else {
        return Err(problem());
    };
    let mut total: u64 = 0;
    for (field, unit, below) in [(hours, 3600, 25), (minutes, 60, 60), (seconds, 1, 60)] {
        if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
            return Err(problem());
        }
        // digits only: a value that does not fit is out of range too
        let value: u64 = field.parse().map_err(|_| problem())?;
        if value >= below {
            return Err(problem());
        }
        total += value * unit;
    }
    let budget = Duration::from_secs(total);
    if total == 0 || budget > MAX_SEARCH_TIME {
        return Err(problem());
    }
    Ok(budget)
}
