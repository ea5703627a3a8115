//! Zip archives of records, read as folders (§10.21): boardspace keeps its
//! games as `.zip` files of SGF files. Nothing is extracted to disk: each
//! entry named as a record format's file (`.pgn`, `.sgf`) is decompressed
//! in memory, within the limit of a record file (at most
//! [`MAX_RECORD_FILE_BYTES`] + 1 bytes read), and read as a record file
//! named `ARCHIVE/ENTRY`. An archive may hold at most [`MAX_ZIP_ENTRIES`]
//! entries; one over it is refused whole.

use std::io::{Cursor, Read};

use super::formats::{entry_names, is_record_entry};
use super::limits::{MAX_RECORD_FILE_BYTES, RECORD_FILE_LIMIT};
use super::memory::{try_reserve, TooLargeForMemory};
use super::plain::{each_record_of_file, GameRead, RecordFileError};
use hive_oracle_rules::records::RecordError;

/// The most entries a zip archive may hold, folders and other files
/// included: about twenty times a year of boardspace's Hive games.
pub const MAX_ZIP_ENTRIES: usize = 100_000;

/// Whether `bytes` start as a zip archive does (the rules' test, which
/// refuses an archive given as a record file).
pub use hive_oracle_rules::records::is_zip;

/// Every game of every record entry of the zip archive `bytes` (named
/// `name`), in the archive's order, given to `sink`; an entry that cannot
/// be read or is no record is given as its error, naming the entry. An
/// archive that does not open, holds too many entries or no record entry is
/// one error, and so is an entry too large for the memory at hand. Returns
/// the number of games given, read or not.
pub fn each_zip_record(
    name: &str,
    bytes: Vec<u8>,
    sink: &mut dyn FnMut(GameRead),
) -> Result<usize, RecordFileError> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| RecordError::new(name, 0, format!("a zip archive that does not open: {e}")))?;
    if archive.len() > MAX_ZIP_ENTRIES {
        let message = format!(
            "the zip archive holds {} entries; the limit is {MAX_ZIP_ENTRIES}",
            archive.len()
        );
        return Err(RecordError::new(name, 0, message).into());
    }
    let mut games = 0;
    let mut record_entries = 0;
    for index in 0..archive.len() {
        let entry = match archive.by_index(index) {
            Ok(entry) => entry,
            Err(e) => {
                let message = format!("entry {} does not read: {e}", index + 1);
                sink(Err(RecordError::new(name, 0, message)));
                games += 1;
                continue;
            }
        };
        let entry_name = match entry.name() {
            Ok(entry_name) => entry_name.into_owned(),
            Err(e) => {
                let message = format!("entry {}: its name does not read: {e}", index + 1);
                sink(Err(RecordError::new(name, 0, message)));
                games += 1;
                continue;
            }
        };
        if entry.is_dir() || !is_record_entry(&entry_name) {
            continue;
        }
        record_entries += 1;
        let entry_name = format!("{name}/{entry_name}");
        // the room for the entry as its header states it, asked for so that
        // a refusal is an error (the read stops at the limit whatever it says)
        let mut content = Vec::new();
        let stated = entry.size().min(MAX_RECORD_FILE_BYTES + 1) as usize;
        try_reserve(&mut content, stated).map_err(|refused| {
            RecordFileError::TooLarge(TooLargeForMemory {
                file: entry_name.clone(),
                refused,
            })
        })?;
        let read = entry
            .take(MAX_RECORD_FILE_BYTES + 1)
            .read_to_end(&mut content);
        let unread = match read {
            Err(e) => Some(format!("cannot read: {e}")),
            Ok(_) if content.len() as u64 > MAX_RECORD_FILE_BYTES => Some(format!(
                "cannot read: the entry is more than {MAX_RECORD_FILE_BYTES} bytes long once decompressed; {RECORD_FILE_LIMIT}"
            )),
            Ok(_) => None,
        };
        if let Some(message) = unread {
            sink(Err(RecordError::new(&entry_name, 0, message)));
            games += 1;
            continue;
        }
        // an entry is read as a record file: an archive inside is not opened
        match each_record_of_file(&entry_name, content, sink) {
            Ok(read) => games += read,
            Err(RecordFileError::NotARecord(error)) => {
                sink(Err(error));
                games += 1;
            }
            Err(too_large) => return Err(too_large),
        }
    }
    if record_entries == 0 && games == 0 {
        // as a file with no game, an archive with no record is no record
        let message = format!("a zip archive holding no {} entry", entry_names());
        return Err(RecordError::new(name, 0, message).into());
    }
    Ok(games)
}
