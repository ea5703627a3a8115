//! How the outcome of a command is written back (spec/sources/uhp-notes.md
//! section 2.3): its lines, or its refusal as one `err` or `invalidmove`
//! line, then `ok`. User input echoed in a message is quoted and cut short,
//! and every control character escaped, so that no answer breaks the line
//! framing.

/// The longest quotation of user input in a message, in characters.
const QUOTE_LIMIT: usize = 60;

/// Why a command failed: `err` or `invalidmove` (spec/sources/uhp-notes.md section 2.3).
pub(crate) enum Failure {
    /// `err`: the command is refused, with the reason.
    Err(String),
    /// `invalidmove`: the move of `play` is refused, with the reason.
    InvalidMove(String),
}

impl Failure {
    /// `err` with the message of an error.
    pub(crate) fn err(error: impl std::fmt::Display) -> Failure {
        Failure::Err(error.to_string())
    }

    /// `invalidmove` with the message of an error.
    pub(crate) fn invalid_move(error: impl std::fmt::Display) -> Failure {
        Failure::InvalidMove(error.to_string())
    }
}

/// The outcome of one command: its lines (without `ok`) or its refusal.
pub(crate) type Reply = Result<Vec<String>, Failure>;

/// The refusal `err message`.
pub(crate) fn err<T>(message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure::Err(message.into()))
}

/// Quotes user input for a message: at most [`QUOTE_LIMIT`] characters,
/// control characters and blanks other than the space escaped.
pub(crate) fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_LIMIT {
            out.push('…');
            break;
        }
        if c.is_control() || (c.is_whitespace() && c != ' ') {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// The response to a command: its lines, or its refusal as one `err` or
/// `invalidmove` line, every control character escaped, then `ok`.
pub(crate) fn response(result: Reply) -> Vec<String> {
    let mut out = match result {
        Ok(lines) => lines,
        Err(Failure::Err(message)) => vec![format!("err {message}")],
        Err(Failure::InvalidMove(message)) => vec![format!("invalidmove {message}")],
    };
    for line in &mut out {
        *line = printable(line);
    }
    out.push("ok".to_string());
    out
}

/// A response line with every control character escaped, so that no input
/// echoed in a message can break the line framing.
fn printable(line: &str) -> String {
    if !line.chars().any(char::is_control) {
        return line.to_string();
    }
    line.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
