//! Record files as the user names them: a file read within
//! [`MAX_RECORD_FILE_BYTES`], and the files and folders given to `replay`.
//!
//! Only regular files are read, and that is decided on the opened file, not
//! on its path: a file is opened without blocking (a FIFO would otherwise
//! wait for a writer forever), its type taken from the open descriptor, and
//! at most [`MAX_RECORD_FILE_BYTES`] + 1 bytes are read from it, whatever
//! size it reports (a device reports 0). A folder walk follows no link to a
//! folder (`a -> .` would visit the folder again, and two such links make
//! the walk exponential), skips FIFOs, devices and sockets with a note, and
//! visits each real file once however many names lead to it.

use std::collections::HashSet;
use std::fmt;
use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

use super::archive;
use super::error::InputError;
use super::limits::MAX_RECORD_FILE_BYTES;
use super::memory::{try_reserve, OutOfMemory, TooLargeForMemory};
use super::plain::{each_record_of_file, GameRead, RecordFileError};
use hive_oracle_rules::records::RecordError;

/// Why the bytes of a record file were not read.
enum Unread {
    /// The file system refused.
    Io(std::io::Error),
    /// Not a regular file: what it is ("a FIFO", "a folder"…).
    NotRegular(&'static str),
    /// The file is over the limit: its size as read or reported, and
    /// whether that is only a lower bound (reading stopped at the limit).
    TooLarge(u64, bool),
    /// The allocator refused the memory to hold the file.
    OutOfMemory(OutOfMemory),
}

impl fmt::Display for Unread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unread::Io(error) => write!(f, "{error}"),
            Unread::NotRegular(kind) => write!(f, "it is {kind}, not a regular file"),
            Unread::TooLarge(bytes, at_least) => write!(
                f,
                "the file is {}{bytes} bytes long; the limit for a record file is {MAX_RECORD_FILE_BYTES} bytes (64 MiB)",
                if *at_least { "more than " } else { "" }
            ),
            Unread::OutOfMemory(refused) => write!(f, "too large to hold in memory: {refused}"),
        }
    }
}

/// What a file type is, in a message: `None` for a regular file.
fn non_regular_kind(file_type: fs::FileType) -> Option<&'static str> {
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a folder");
    }
    if file_type.is_symlink() {
        return Some("a symbolic link");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if file_type.is_char_device() {
            return Some("a character device");
        }
        if file_type.is_block_device() {
            return Some("a block device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Opens `path` for reading without waiting: on Unix with `O_NONBLOCK`, so
/// that opening a FIFO returns at once instead of waiting for a writer.
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// The bytes of a regular file, refused unread when it is larger than the
/// limit, so that memory stays bounded. The file's type is taken from the
/// opened file, and no more than the limit + 1 bytes are ever read.
fn read_within_limit(path: &Path) -> Result<Vec<u8>, Unread> {
    let file = open_without_blocking(path).map_err(Unread::Io)?;
    let metadata = file.metadata().map_err(Unread::Io)?;
    if let Some(kind) = non_regular_kind(metadata.file_type()) {
        return Err(Unread::NotRegular(kind));
    }
    let size = metadata.len();
    if size > MAX_RECORD_FILE_BYTES {
        return Err(Unread::TooLarge(size, false));
    }
    // The size may be stale (a file still growing): the read stops anyway.
    let mut bytes = Vec::new();
    try_reserve(&mut bytes, size as usize).map_err(Unread::OutOfMemory)?;
    file.take(MAX_RECORD_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| match error.kind() {
            // read_to_end asks for more room as it reads, without aborting
            std::io::ErrorKind::OutOfMemory => Unread::OutOfMemory(OutOfMemory {
                bytes: bytes.capacity().saturating_mul(2),
            }),
            _ => Unread::Io(error),
        })?;
    if bytes.len() as u64 > MAX_RECORD_FILE_BYTES {
        return Err(Unread::TooLarge(MAX_RECORD_FILE_BYTES, true));
    }
    Ok(bytes)
}

/// The bytes of the record file `path`, at most [`MAX_RECORD_FILE_BYTES`].
pub fn read_record_file(path: &str) -> Result<Vec<u8>, InputError> {
    read_within_limit(Path::new(path)).map_err(|unread| match unread {
        Unread::Io(source) => InputError::CannotRead {
            path: path.to_string(),
            source,
        },
        Unread::NotRegular(kind) => InputError::NotARegularFile {
            path: path.to_string(),
            kind,
        },
        Unread::TooLarge(bytes, _) => InputError::RecordFileTooLarge {
            path: path.to_string(),
            bytes,
        },
        Unread::OutOfMemory(refused) => InputError::TooLargeForMemory(TooLargeForMemory {
            file: path.to_string(),
            refused,
        }),
    })
}

/// Every game of the record file `path`, as `replay` reads it, each read
/// or the error of a game that does not read (§10.16): a file that cannot
/// be read (or is over [`MAX_RECORD_FILE_BYTES`], or is not a regular
/// file, or is no record) is a [`RecordError`] about the whole file, which
/// the report lists with the files that are not records.
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
    let bytes = read_within_limit(path).map_err(|unread| match unread {
        Unread::OutOfMemory(refused) => RecordFileError::TooLarge(TooLargeForMemory {
            file: name.clone(),
            refused,
        }),
        unread => RecordError::new(&name, 0, format!("cannot read: {unread}")).into(),
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
                match non_regular_kind(file_type) {
                    Some(kind) => self.skip(&path, format!("{kind}, not a regular file")),
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
            Ok(metadata) => match non_regular_kind(metadata.file_type()) {
                Some(kind) => self.skip(path, format!("a link to {kind}, not a regular file")),
                None => self.add_file(path, &metadata),
            },
            Err(e) => self.skip(path, format!("a broken link ({e})")),
        }
    }
}

/// Whether a folder walk reads `path`: a `.pgn`, `.sgf` or `.zip` name (an
/// archive of records, §10.21), any case.
fn is_record_name(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["pgn", "sgf", "zip"]
            .iter()
            .any(|known| e.eq_ignore_ascii_case(known))
    })
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
        } else if let Some(kind) = non_regular_kind(metadata.file_type()) {
            return Err(InputError::NotARegularFile {
                path: shown(),
                kind,
            });
        } else {
            walk.add_file(path, &metadata);
        }
    }
    Ok(walk.found)
}

/// What an existing path that is not a regular file is, for the message of
/// a command given it as a record: `None` when it is a regular file or
/// does not exist.
pub fn non_regular_path(path: &str) -> Option<&'static str> {
    fs::metadata(path)
        .ok()
        .and_then(|metadata| non_regular_kind(metadata.file_type()))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// The type is judged on the opened file: `read_records` checks no path
    /// first, so a device read here is refused by the descriptor's type,
    /// and a FIFO (opened without blocking) is refused without waiting for
    /// a writer.
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
