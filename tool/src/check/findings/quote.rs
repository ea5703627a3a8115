//! Engine output as reports quote it, and the shell commands they print:
//! every control character escaped (no report passes an engine's terminal
//! escapes on, and no JUnit file holds a character XML forbids), every
//! quote bounded, and each reproduce pipe sending the exact bytes.

/// The most bytes of one quoted piece of engine output (a line of an
/// answer or of stderr, a move): the rest is left out, and counted.
pub const MAX_QUOTE_BYTES: usize = 300;
/// The most lines of an answer quoted in a finding.
pub const MAX_QUOTED_LINES: usize = 20;
/// The most disputed moves listed in a finding.
pub const MAX_QUOTED_MOVES: usize = 32;
/// The most bytes of one line sent, as a finding lists it (`sent`): far
/// more than any real GameString, far less than a probe's 1 MiB line; the
/// reproduce pipe and file keep every byte.
pub const MAX_SENT_LINE_BYTES: usize = 64 * 1024;
/// The most bytes of a finding's detail (a sentence that may quote the
/// engine), and of its `explain` command.
pub const MAX_DETAIL_BYTES: usize = 1000;

/// `text` with every control character escaped (`\x1b`, `\u{9b}`), so
/// that no report passes an engine's terminal escapes or stray carriage
/// returns on, and no JUnit file holds a character XML forbids: the one
/// escaping of the whole tool, [`hive_oracle_rules::core::escape_controls`].
pub fn escape_controls(text: &str) -> String {
    hive_oracle_rules::core::escape_controls(text).into_owned()
}

/// Engine output as quoted in reports: at most `limit` bytes of it (cut at
/// a character boundary, with the number of bytes left out), control
/// characters escaped.
pub fn quote(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return escape_controls(text);
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}… ({} more bytes)",
        escape_controls(&text[..end]),
        text.len() - end
    )
}

/// At most `limit` items of `items`, each quoted, with the number left out.
pub(crate) fn quote_all(items: &[String], limit: usize, what: &str) -> Vec<String> {
    let mut out: Vec<String> = items
        .iter()
        .take(limit)
        .map(|item| quote(item, MAX_QUOTE_BYTES))
        .collect();
    if items.len() > limit {
        out.push(format!("… ({} more {what})", items.len() - limit));
    }
    out
}

/// Quotes a word for a POSIX shell.
pub(crate) fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// `hive-oracle explain` for a position and, when given, a move.
pub fn explain_command(game_string: &str, mv: Option<&str>) -> String {
    match mv {
        Some(mv) => format!(
            "hive-oracle explain {} {}",
            shell_quote(game_string),
            shell_quote(mv)
        ),
        None => format!("hive-oracle explain {}", shell_quote(game_string)),
    }
}

/// A shell pipe that sends `lines` and then `exit` to `engine` (a command
/// line in shell syntax, as given to `--engine`): one `printf` whose format
/// holds every line, with `%` and `\` escaped and every byte that is not
/// printable ASCII written as an octal escape, so that CRLF, non-UTF-8
/// bytes and blank lines are sent exactly.
pub fn pipe(engine: &str, lines: &[Vec<u8>]) -> String {
    let mut all = lines.to_vec();
    all.push(b"exit".to_vec());
    format!("{} | {engine}", printf_lines(&all))
}

/// One `printf` that writes `lines`, each ending in `\n`, byte for byte
/// (see [`pipe`]).
pub(crate) fn printf_lines(lines: &[Vec<u8>]) -> String {
    let mut format = String::new();
    for line in lines {
        for &byte in line {
            match byte {
                b'%' => format.push_str("%%"),
                b'\\' => format.push_str("\\\\"),
                b'\'' => format.push_str("'\\''"),
                b' '..=b'~' => format.push(byte as char),
                _ => format.push_str(&format!("\\{byte:03o}")),
            }
        }
        format.push_str("\\n");
    }
    format!("printf '{format}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_cut_and_escaped() {
        // An engine's terminal escapes used to reach the text report, and
        // a 1 GB line was quoted whole in every finding.
        assert_eq!(
            escape_controls("a\x1b[2Jb\r\u{9b}"),
            "a\\x1b[2Jb\\x0d\\u{9b}"
        );
        assert_eq!(quote("wQ \\wS1", 300), "wQ \\wS1");
        let long = "é".repeat(400);
        let quoted = quote(&long, 301);
        assert!(quoted.starts_with(&"é".repeat(150)));
        assert!(quoted.ends_with("… (500 more bytes)"), "{quoted}");
        let items: Vec<String> = (0..40).map(|i| i.to_string()).collect();
        let all = quote_all(&items, 32, "moves");
        assert_eq!(all.len(), 33);
        assert_eq!(all[32], "… (8 more moves)");
    }

    #[test]
    fn pipes_escape_everything_a_shell_or_printf_would_read() {
        let lines = vec![
            b"play wA1 \\wS1".to_vec(),
            b"newgame 100%".to_vec(),
            vec![b'x', 0xff, b'\r'],
            Vec::new(),
            b"it's".to_vec(),
        ];
        assert_eq!(
            pipe("eng --uhp", &lines),
            "printf 'play wA1 \\\\wS1\\nnewgame 100%%\\nx\\377\\015\\n\\nit'\\''s\\nexit\\n' | eng --uhp"
        );
    }
}
