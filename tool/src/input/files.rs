//! Record files as the user names them: a file read within
//! [`MAX_RECORD_FILE_BYTES`](crate::input::MAX_RECORD_FILE_BYTES), and the
//! files and folders given to `replay`.
//!
//! Only regular files are read, by the tool's one file reader
//! (`regular_file.rs`: the type decided on the opened file, opened without
//! blocking, at most the limit + 1 bytes read whatever size it reports). A
//! folder walk follows no link to a
//! folder (`a -> .` would visit the folder again, and two such links make
//! the walk exponential), skips FIFOs, devices and sockets with a note, and
//! visits each real file once however many names lead to it.

use std::collections::HashSet;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use super::archive;
use super::error::InputError;
use super::formats::is_record_name;
use super::limits::RECORD_FILE_LIMIT;
use super::memory::TooLargeForMemory;
use super::plain::{each_record_of_file, GameRead, RecordFileError};
use super::regular_file::{read_regular_bytes, FileKind, Unreadable};
use hive_oracle_rules::records::RecordError;

/// The bytes of the record file `path`, at most
/// [`MAX_RECORD_FILE_BYTES`](crate::input::MAX_RECORD_FILE_BYTES).
pub fn read_record_file(path: &str) -> Result<Vec<u8>, InputError> {
    let path_given = || path.to_string();
    read_regular_bytes(Path::new(path), RECORD_FILE_LIMIT).map_err(|error| match error.why {
        Unreadable::Io(source) => InputError::CannotRead {
            path: path_given(),
            source,
        },
        Unreadable::NotARegularFile(why) => InputError::NotARegularFile {
            path: path_given(),
            why,
        },
        Unreadable::TooLarge { bytes, .. } => InputError::RecordFileTooLarge {
            path: path_given(),
            bytes,
        },
        Unreadable::OutOfMemory(refused) => InputError::TooLargeForMemory(TooLargeForMemory {
            file: path_given(),
            refused,
        }),
    })
}

/// Every game of the record file `path`, as `replay` reads it, each read
/// or the error of a game that does not read (§10.16): a file that cannot
/// be read (or is over
/// [`MAX_RECORD_FILE_BYTES`](crate::input::MAX_RECORD_FILE_BYTES), or is
/// not a regular file, or is no record) is a [`RecordError`] about the
/// whole file, which the report lists with the files that are not records.
pub fn read_records(path: &Path) -> Result<Vec<GameRead>, RecordError> {
    let mut games = Vec::new();
    each_record(path, &mut |game| games.push(game)).map_err(|error| match error {
        RecordFileError::NotARecord(error) => error,
        RecordFileError::TooLarge(too_large) => {
            RecordError::new(&too_large.file, 0, too_large.to_string())
        }
    })?;
    Ok(games)
}

/// [`read_records`] one game at a time: every game of the record file
/// `path` is given to `sink` as it is read, so that no more than one game
/// is held at once, whatever the size of the archive. The text is read
/// twice: first with the games dropped, to check that the file is a
/// record (a file that is not is one [`RecordError`] and gives no game, as
/// with [`read_records`]), then for the games. Returns the number of games
/// given, read or not.
pub fn each_record(path: &Path, sink: &mut dyn FnMut(GameRead)) -> Result<usize, RecordFileError> {
    let name = path.display().to_string();
    let bytes = read_regular_bytes(path, RECORD_FILE_LIMIT).map_err(|error| match error.why {
        Unreadable::OutOfMemory(refused) => RecordFileError::TooLarge(TooLargeForMemory {
            file: name.clone(),
            refused,
        }),
        why => RecordError::new(&name, 0, format!("cannot read: {why}")).into(),
    })?;
    each_record_in(&name, bytes, sink)
}

/// [`each_record`] for a record already in memory (one read from stdin):
/// `name` stands for the file in messages. A zip archive is read as a
/// folder of records (§10.21).
pub fn each_record_in(
    name: &str,
    bytes: Vec<u8>,
    sink: &mut dyn FnMut(GameRead),
) -> Result<usize, RecordFileError> {
    if archive::is_zip(&bytes) {
        return archive::each_zip_record(name, bytes, sink);
    }
    each_record_of_file(name, bytes, sink)
}

/// A path that a folder walk passed over, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The path as the walk found it.
    pub path: String,
    /// Why it was not read ("a FIFO (named pipe), not a regular file").
    pub why: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "skipped {}: {}", self.path, self.why)
    }
}

/// The record files named by the paths given to `replay`, each real file
/// once, and the paths a folder walk passed over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordFiles {
    /// The files to read, in the order given (a folder's in sorted order).
    pub files: Vec<PathBuf>,
    /// What a walk skipped: links to folders, FIFOs, devices, sockets,
    /// broken links, second names of a file already listed.
    pub skipped: Vec<Skipped>,
}

/// What makes two names the same file: its device and inode on Unix, its
/// canonical path elsewhere.
#[cfg(unix)]
type FileIdentity = (u64, u64);
#[cfg(not(unix))]
type FileIdentity = PathBuf;

#[cfg(unix)]
fn identity(_: &Path, metadata: &fs::Metadata) -> Option<FileIdentity> {
    use std::os::unix::fs::MetadataExt;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn identity(path: &Path, _: &fs::Metadata) -> Option<FileIdentity> {
    fs::canonicalize(path).ok()
}

/// The state of the walks of one command line.
#[derive(Default)]
struct Walk {
    found: RecordFiles,
    /// The files and folders already listed or entered.
    seen: HashSet<FileIdentity>,
}

impl Walk {
    fn skip(&mut self, path: &Path, why: impl Into<String>) {
        self.found.skipped.push(Skipped {
            path: path.display().to_string(),
            why: why.into(),
        });
    }

    /// Whether `path` (with its followed metadata) is new, marking it seen.
    fn first_visit(&mut self, path: &Path, metadata: &fs::Metadata) -> bool {
        identity(path, metadata).is_none_or(|id| self.seen.insert(id))
    }

    /// Lists the regular file `path`, unless it was listed under another name.
    fn add_file(&mut self, path: &Path, metadata: &fs::Metadata) {
        if self.first_visit(path, metadata) {
            self.found.files.push(path.to_path_buf());
        } else {
            self.skip(path, "the same file as one listed before; read once");
        }
    }

    /// Adds the `.pgn` and `.sgf` files below `dir`, in sorted order.
    fn folder(&mut self, dir: &Path) -> std::io::Result<()> {
        let mut entries: Vec<(PathBuf, fs::FileType)> = fs::read_dir(dir)?
            .filter_map(|e| e.ok().and_then(|e| Some((e.path(), e.file_type().ok()?))))
            .collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, file_type) in entries {
            if file_type.is_dir() {
                match fs::metadata(&path) {
                    Ok(metadata) if !self.first_visit(&path, &metadata) => {
                        self.skip(&path, "a folder already walked")
                    }
                    _ => self.folder(&path)?,
                }
            } else if file_type.is_symlink() {
                self.link(&path);
            } else if is_record_name(&path) {
                match FileKind::of(file_type).not_regular() {
                    Some(why) => self.skip(&path, why.to_string()),
                    None => match fs::metadata(&path) {
                        Ok(metadata) => self.add_file(&path, &metadata),
                        Err(e) => self.skip(&path, format!("cannot read: {e}")),
                    },
                }
            }
        }
        Ok(())
    }

    /// A symbolic link found in a folder: a link to a folder is not
    /// followed; a link to a record file is listed once with the file.
    fn link(&mut self, path: &Path) {
        match fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => {
                self.skip(path, "a link to a folder, not followed")
            }
            _ if !is_record_name(path) => {}
            Ok(metadata) => match FileKind::of(metadata.file_type()).not_regular() {
                Some(why) => self.skip(path, format!("a link to {why}")),
                None => self.add_file(path, &metadata),
            },
            Err(e) => self.skip(path, format!("a broken link ({e})")),
        }
    }
}

/// The record files named by `paths`: a file as named, whatever its
/// extension; a folder searched recursively for `.pgn`, `.sgf` and `.zip` files
/// (any letter case), in sorted order, without following links to folders.
/// Each real file is listed once. A path that does not exist or is not a
/// regular file or a folder, or a folder that holds no record, is an error.
pub fn record_files(paths: &[PathBuf]) -> Result<RecordFiles, InputError> {
    let mut walk = Walk::default();
    for path in paths {
        let shown = || path.display().to_string();
        let metadata = fs::metadata(path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => InputError::NoSuchPath { path: shown() },
            _ => InputError::CannotRead {
                path: shown(),
                source,
            },
        })?;
        if metadata.is_dir() {
            let before = walk.found.files.len();
            if walk.first_visit(path, &metadata) {
                walk.folder(path).map_err(|source| InputError::CannotRead {
                    path: shown(),
                    source,
                })?;
                if walk.found.files.len() == before {
                    return Err(InputError::NoRecordFile { path: shown() });
                }
            }
        } else if let Some(why) = FileKind::of(metadata.file_type()).not_regular() {
            return Err(InputError::NotARegularFile { path: shown(), why });
        } else {
            walk.add_file(path, &metadata);
        }
    }
    Ok(walk.found)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// `read_records` lists no path first: the reader refuses a device by
    /// its type, and a FIFO without waiting for a writer, each named for
    /// what it is in the file's error.
    #[test]
    fn only_regular_files_are_read_whatever_the_path_says() {
        let zero = read_records(Path::new("/dev/zero")).unwrap_err();
        assert!(
            zero.message
                .contains("a character device, not a regular file"),
            "{zero}"
        );
        let folder = tempfile::Builder::new()
            .prefix("hive-oracle-test-")
            .tempdir()
            .expect("a temporary folder");
        let fifo = folder.path().join("records.pgn");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|status| status.success()), "mkfifo");
        let refused = read_records(&fifo).unwrap_err();
        assert!(refused.message.contains("a FIFO (named pipe)"), "{refused}");
    }
}
