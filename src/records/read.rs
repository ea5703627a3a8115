//! Reading a record file: its bytes decoded to text (§10.1), then the reader
//! chosen by the text (§10.2) from the table of formats ([`FORMATS`](super::FORMATS)).

use super::format::{is_zip, Format};
use super::{Record, RecordError};

/// Decodes a file's bytes (§10.1): UTF-8 without its byte-order
/// mark, else Latin-1; every `\r\n` and lone `\r` becomes `\n`.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    };
    if !text.contains('\r') {
        return text;
    }
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Reads every game of a record file, choosing the reader by the text (§10.2,
/// [`Format::reading`]): an SGF file starts (after blank space) with `(`,
/// anything else is read as PGN. `file` names the file in errors.
pub fn read(file: &str, bytes: &[u8]) -> Result<Vec<Record>, RecordError> {
    if is_zip(bytes) {
        // §10.21: an archive is read by `replay`, as a folder, not as a record
        let message = "a zip archive, not a record file: `replay` reads the records in it";
        return Err(RecordError::new(file, 0, message));
    }
    read_text(file, &decode(bytes))
}

/// [`read`] for a file already decoded ([`decode`]), so that a caller can
/// release the bytes before the games are read.
pub fn read_text(file: &str, text: &str) -> Result<Vec<Record>, RecordError> {
    (Format::reading(text).entry().read)(file, text)
}

/// [`read_text`] one game at a time (the format's
/// [`read_each`](super::FormatEntry::read_each)): each game is given to
/// `sink` once read, so that a PGN archive is never held whole; a game of
/// several that does not read is given as its error (§10.16), and the
/// reader goes on with the next. An SGF file (one game) is read, then
/// given. The error returned is the whole file's (a file of one game that
/// does not read, or that is no record); games before it have been given
/// already. Returns the number of games read.
pub fn read_each(
    file: &str,
    text: &str,
    sink: &mut dyn FnMut(Result<Record, RecordError>),
) -> Result<usize, RecordError> {
    (Format::reading(text).entry().read_each)(file, text, sink)
}
