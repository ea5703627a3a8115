//! Record files as the user names them: a file read within
//! [`MAX_RECORD_FILE_BYTES`], and the files and folders given to `replay`.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use super::error::InputError;
use super::limits::MAX_RECORD_FILE_BYTES;
use crate::cases::file_kind;
use crate::records::{self, Record, RecordError};

/// Why the bytes of a record file were not read.
enum Unread {
    /// The file system refused.
    Io(std::io::Error),
    /// The file is over the limit: its size.
    TooLarge(u64),
}

impl fmt::Display for Unread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unread::Io(error) => write!(f, "{error}"),
            Unread::TooLarge(bytes) => write!(
                f,
                "the file is {bytes} bytes long; the limit for a record file is {MAX_RECORD_FILE_BYTES} bytes (64 MiB)"
            ),
        }
    }
}

/// The bytes of a file, refused unread when it is larger than the limit,
/// so that memory stays bounded.
fn read_within_limit(path: &Path) -> Result<Vec<u8>, Unread> {
    let size = fs::metadata(path).map_err(Unread::Io)?.len();
    if size > MAX_RECORD_FILE_BYTES {
        return Err(Unread::TooLarge(size));
    }
    fs::read(path).map_err(Unread::Io)
}

/// The bytes of the record file `path`, at most [`MAX_RECORD_FILE_BYTES`].
pub fn read_record_file(path: &str) -> Result<Vec<u8>, InputError> {
    read_within_limit(Path::new(path)).map_err(|unread| match unread {
        Unread::Io(source) => InputError::CannotRead {
            path: path.to_string(),
            source,
        },
        Unread::TooLarge(bytes) => InputError::RecordFileTooLarge {
            path: path.to_string(),
            bytes,
        },
    })
}

/// Every game of the record file `path`, as `replay` reads it: a file that
/// cannot be read (or is over [`MAX_RECORD_FILE_BYTES`]) is a
/// [`RecordError`] about the whole file, which the report lists with the
/// files that are not records.
pub fn read_records(path: &Path) -> Result<Vec<Record>, RecordError> {
    let name = path.display().to_string();
    let bytes = read_within_limit(path)
        .map_err(|unread| RecordError::new(&name, 0, format!("cannot read: {unread}")))?;
    records::read(&name, &bytes)
}

/// The record files named by `paths`: a file as named, whatever its
/// extension; a folder searched recursively for `.pgn` and `.sgf` files
/// (any letter case), in sorted order. A path that does not exist, or a
/// folder that holds no record, is an error.
pub fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let mut files = Vec::new();
    for path in paths {
        let shown = || path.display().to_string();
        if path.is_dir() {
            let before = files.len();
            walk(path, &mut files).map_err(|source| InputError::CannotRead {
                path: shown(),
                source,
            })?;
            if files.len() == before {
                return Err(InputError::NoRecordFile { path: shown() });
            }
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            return Err(not_a_file(path));
        }
    }
    Ok(files)
}

/// Why `path`, neither a folder nor a regular file, is not read: what it
/// is (a FIFO, a device), or that nothing is there.
pub(super) fn not_a_file(path: &Path) -> InputError {
    let shown = path.display().to_string();
    match fs::metadata(path) {
        Ok(meta) => InputError::NotARegularFile {
            path: shown,
            kind: file_kind(&meta),
        },
        Err(_) => InputError::NoSuchPath { path: shown },
    }
}

/// Adds the `.pgn` and `.sgf` files below `dir` to `files`, in sorted order.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, files)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn") || e.eq_ignore_ascii_case("sgf"))
        {
            files.push(path);
        }
    }
    Ok(())
}
