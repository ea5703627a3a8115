//! Quoting a record's text in messages and notes: cut after
//! [`QUOTE_LIMIT`] characters, control characters escaped, so that no line
//! of a file, however long or strange, makes an unreadable message.

/// Quotes in messages and notes are cut after this many characters.
const QUOTE_LIMIT: usize = 60;

/// At most [`QUOTE_LIMIT`] characters of `text`, control characters escaped.
pub(super) fn quote(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_LIMIT {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
