//! The record formats in one table ([`FORMATS`]): each format's name, its
//! file name extensions, how its text is recognised and its reader. Every
//! place that lists the extensions (a folder walk, the entries of an
//! archive, the messages that name them) or tells a record's text apart
//! ([`read`](super::read), a pasted text, standard input) reads this table,
//! so that a new format is one entry here plus its reader (and its name in
//! [`Format`], which [`Format::entry`] maps to the entry: the compiler
//! asks for both).

use super::{pgn, sgf, Record, RecordError};

/// The format of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// PGN-style Hive record (`.pgn`): tags, then one numbered ply per line.
    Pgn,
    /// boardspace.net SGF (`.sgf`): nodes of pick-and-drop actions.
    Sgf,
}

/// A reader of every game of a decoded text (`file` names it in errors):
/// the games, or the first error.
pub type ReadAll = fn(file: &str, text: &str) -> Result<Vec<Record>, RecordError>;

/// A reader giving each game of a decoded text to a sink as it is read, a
/// game of several that does not read as its error (§10.16); the error
/// returned is the whole file's. Returns the number of games given.
pub type ReadEach = fn(
    file: &str,
    text: &str,
    sink: &mut dyn FnMut(Result<Record, RecordError>),
) -> Result<usize, RecordError>;

/// What the table says of one format.
pub struct FormatEntry {
    /// The format.
    pub format: Format,
    /// Its name as the reports print it.
    pub name: &'static str,
    /// The extensions of its files, lower case, without the dot; a file
    /// name matches in any letter case.
    pub extensions: &'static [&'static str],
    /// The character its text opens with, after blank space: how a text of
    /// this format is told apart from a GameString and from the other
    /// formats.
    pub opens_with: char,
    /// Its reader of a whole file.
    pub read: ReadAll,
    /// Its reader of one game at a time.
    pub read_each: ReadEach,
}

/// The record formats: PGN-style records open with a tag (`[`, §10.3),
/// boardspace SGF files with a game tree (`(`, §10.7).
pub const FORMATS: [FormatEntry; 2] = [
    FormatEntry {
        format: Format::Pgn,
        name: "pgn",
        extensions: &["pgn"],
        opens_with: '[',
        read: pgn::read,
        read_each: pgn::read_each,
    },
    FormatEntry {
        format: Format::Sgf,
        name: "sgf",
        extensions: &["sgf"],
        opens_with: '(',
        read: sgf::read,
        read_each: sgf::read_each,
    },
];

/// The format of a text that opens as no format does (§10.2): PGN, whose
/// tags are optional, so that a file may open with its first ply.
pub const DEFAULT_FORMAT: Format = Format::Pgn;

impl Format {
    /// The format's entry of [`FORMATS`].
    pub fn entry(self) -> &'static FormatEntry {
        match self {
            Format::Pgn => &FORMATS[0],
            Format::Sgf => &FORMATS[1],
        }
    }

    /// The format's name as the reports print it.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The format whose text this is, by its opening character after blank
    /// space (`char::is_whitespace`); `None` when it opens as no format does.
    pub fn of_text(text: &str) -> Option<Format> {
        let first = text.trim_start().chars().next()?;
        FORMATS
            .iter()
            .find(|entry| entry.opens_with == first)
            .map(|entry| entry.format)
    }

    /// [`Format::of_text`] on bytes not yet decoded, after ASCII blank space
    /// (a record may be Latin-1, §10.1).
    pub fn of_bytes(bytes: &[u8]) -> Option<Format> {
        let first = *bytes.iter().find(|b| !b.is_ascii_whitespace())?;
        FORMATS
            .iter()
            .find(|entry| entry.opens_with.is_ascii() && entry.opens_with as u8 == first)
            .map(|entry| entry.format)
    }

    /// The reader's format for a decoded text: the one it opens as, else
    /// [`DEFAULT_FORMAT`] (§10.2).
    pub fn reading(text: &str) -> Format {
        Format::of_text(text).unwrap_or(DEFAULT_FORMAT)
    }

    /// The format whose files have this extension (without the dot), in any
    /// letter case.
    pub fn of_extension(extension: &str) -> Option<Format> {
        FORMATS
            .iter()
            .find(|entry| {
                entry
                    .extensions
                    .iter()
                    .any(|known| extension.eq_ignore_ascii_case(known))
            })
            .map(|entry| entry.format)
    }
}

/// The extensions of record files, every format's, in the table's order.
pub fn record_extensions() -> impl Iterator<Item = &'static str> {
    FORMATS
        .iter()
        .flat_map(|entry| entry.extensions.iter().copied())
}

/// Whether `bytes` open as a zip archive does (a local file header, or the
/// end record of an empty archive): an archive of records, which the tool
/// reads as a folder (§10.21), not a record file.
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_is_its_own_entry_of_the_table() {
        // the table is what every list of formats reads: each entry must be
        // the one its format looks up, with a distinct opening and extensions
        for entry in &FORMATS {
            assert_eq!(entry.format.entry().name, entry.name);
        }
        for (i, a) in FORMATS.iter().enumerate() {
            for b in &FORMATS[i + 1..] {
                assert_ne!(a.opens_with, b.opens_with);
                assert!(a.extensions.iter().all(|e| !b.extensions.contains(e)));
            }
        }
    }

    #[test]
    fn a_text_is_told_by_its_opening_character() {
        // §10.2: a tag opens a PGN record, a game tree an SGF file; anything
        // else opens no format and is read as PGN
        assert_eq!(
            Format::of_text("\n  [GameType \"Base\"]"),
            Some(Format::Pgn)
        );
        assert_eq!(Format::of_text(" (;GM[27])"), Some(Format::Sgf));
        assert_eq!(Format::of_text("Base;NotStarted;White[1]"), None);
        assert_eq!(Format::reading("1. wS1"), Format::Pgn);
        assert_eq!(Format::of_bytes(b"\t(;GM[27])"), Some(Format::Sgf));
        assert_eq!(Format::of_bytes(b"\xE9[x]"), None);
        assert_eq!(Format::of_extension("SGF"), Some(Format::Sgf));
        assert_eq!(Format::of_extension("zip"), None);
    }
}
