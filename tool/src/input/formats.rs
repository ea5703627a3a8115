//! Which files the tool reads as records, from the rules' table of formats
//! ([`FORMATS`](hive_oracle_rules::records::FORMATS)): a folder walk reads
//! every format's extensions and zip archives of records (§10.21), an
//! archive's entries every format's extensions; the messages that name them
//! are written from the same lists.

use std::path::Path;

use hive_oracle_rules::records::{record_extensions, Format};

/// The extension of a zip archive of records, read as a folder (§10.21).
pub const ARCHIVE_EXTENSION: &str = "zip";

/// Whether a folder walk reads `path`: a record format's extension or an
/// archive's, any case.
pub fn is_record_name(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        Format::of_extension(e).is_some() || e.eq_ignore_ascii_case(ARCHIVE_EXTENSION)
    })
}

/// Whether an archive's entry of this name is read: a record format's
/// extension, any case (an archive inside an archive is not opened).
pub fn is_record_entry(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, extension)| Format::of_extension(extension).is_some())
}

/// The names a folder walk reads, for a message: `.pgn, .sgf or .zip`.
pub fn walked_names() -> String {
    alternatives(record_extensions().chain([ARCHIVE_EXTENSION]))
}

/// The names of an archive's entries that are read, for a message:
/// `.pgn or .sgf`.
pub fn entry_names() -> String {
    alternatives(record_extensions())
}

/// `.a, .b or .c`.
fn alternatives<'a>(extensions: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<String> = extensions.map(|e| format!(".{e}")).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_read_are_the_formats_and_archives() {
        // §10.21: a walk reads .pgn, .sgf and .zip, an archive .pgn and .sgf,
        // in any letter case; the messages list the same
        assert!(is_record_name(Path::new("games/a.PGN")));
        assert!(is_record_name(Path::new("games.Zip")));
        assert!(!is_record_name(Path::new(".pgn")));
        assert!(!is_record_name(Path::new("notes.txt")));
        assert!(is_record_entry("2024/x.SGF"));
        assert!(!is_record_entry("inner.zip"));
        assert_eq!(walked_names(), ".pgn, .sgf or .zip");
        assert_eq!(entry_names(), ".pgn or .sgf");
    }
}
