//! Text from outside (file names, record tags, moves, comments, engine
//! output) made safe for a terminal: every control character is written as
//! a visible escape, so that no input can move the cursor, recolour the
//! screen, erase a line (`\r`) or forge a line of a report (`\n`).

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal as it is: a C0 or C1 control
/// character or DEL (Unicode category Cc), or a bidirectional override or
/// isolate, which reorders the text shown after it.
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every control character escaped: below U+0080 as `\xHH`
/// (a line feed is `\x0a`, ESC `\x1b`), C1 controls and bidirectional
/// overrides as `\u{H…}` (`\u{9b}`). Text without one is returned as it
/// is, unallocated. Every human-readable output of the tool (the command
/// line's messages and reports, `check`'s quotes of an engine) passes the
/// text it did not write itself through this one function.
///
/// ```
/// use hive_oracle_rules::core::escape_controls;
///
/// assert_eq!(escape_controls("wS1"), "wS1");
/// assert_eq!(escape_controls("a\nFAKE: 0 problems"), "a\\x0aFAKE: 0 problems");
/// assert_eq!(escape_controls("\u{1b}[31mred\0"), "\\x1b[31mred\\x00");
/// ```
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if is_unsafe(c) && (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_unsafe(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `text`, a report of several lines written by the tool, with every
/// control character escaped except the line feeds that end its lines.
pub fn escape_controls_in_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && is_unsafe(c)) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<'_, str>> = text.split('\n').map(escape_controls).collect();
    Cow::Owned(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_character_is_escaped_and_nothing_else() {
        let all: String = (0u32..0x3000).filter_map(char::from_u32).collect();
        let escaped = escape_controls(&all);
        assert!(!escaped.chars().any(is_unsafe));
        assert!(escaped.contains("\\x00") && escaped.contains("\\x7f"));
        assert!(escaped.contains("\\u{9b}") && escaped.contains("\\u{202e}"));
        // the two forms meet at U+0080, the first control past ASCII
        assert_eq!(escape_controls("\u{7f}\u{80}"), "\\x7f\\u{80}");
        assert!(escaped.contains('é') && escaped.contains('\u{2000}'));
        assert_eq!(escape_controls("plain text, é"), "plain text, é");
        assert!(matches!(escape_controls("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_report_of_one_line_is_escaped_too() {
        // a report without a line feed still has its control characters
        // escaped (the shortcut that returns the text as it is applies only
        // to text with no control character but line feeds)
        assert_eq!(escape_controls_in_lines("bell\u{7}"), "bell\\x07");
        assert!(matches!(
            escape_controls_in_lines("one\ntwo\n"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_report_keeps_its_own_line_feeds() {
        assert_eq!(
            escape_controls_in_lines("one\u{1b}[2K\ntwo\r\n"),
            "one\\x1b[2K\ntwo\\x0d\n"
        );
    }
}
