//! The tool's one reader of a file it is given: record files, corpus files
//! and baselines are all read here, within a size limit, and only when they
//! are regular files.
//!
//! The type is checked on the path first, so that a device or a FIFO is
//! refused without being opened, and again on the opened file, which
//! decides (the path may have changed in between): the file is opened
//! without blocking (a FIFO would otherwise wait for a writer forever), its
//! type taken from the open descriptor, and at most the limit + 1 bytes are
//! read from it, whatever size it reports (a device reports 0). A file's
//! kind is named one way ([`FileKind`]), and so is the refusal of anything
//! but a regular file ([`NotARegularFile`]), in what the tool reads and in
//! what it writes (`output_file`).

use std::fmt;
use std::fs::{self, File, FileType};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::limits::SizeLimit;
use super::memory::{try_reserve, OutOfMemory};

/// What a file system entry is, named for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file: the only kind read or written.
    RegularFile,
    /// A folder.
    Folder,
    /// A symbolic link (seen when links are not followed).
    SymbolicLink,
    /// A FIFO: opening it for reading waits for a writer.
    Fifo,
    /// A character device (`/dev/zero` never ends).
    CharacterDevice,
    /// A block device.
    BlockDevice,
    /// A socket.
    Socket,
    /// Anything else the system has.
    Other,
}

impl FileKind {
    /// The kind of a file type.
    pub fn of(file_type: FileType) -> FileKind {
        if file_type.is_file() {
            return FileKind::RegularFile;
        }
        if file_type.is_dir() {
            return FileKind::Folder;
        }
        if file_type.is_symlink() {
            return FileKind::SymbolicLink;
        }
        special_kind(file_type)
    }

    /// The kind of what `path` names, links followed; `None` when nothing
    /// is found there (or it cannot be looked at).
    pub fn of_path(path: &Path) -> Option<FileKind> {
        fs::metadata(path)
            .ok()
            .map(|meta| FileKind::of(meta.file_type()))
    }

    /// The refusal of a kind other than a regular file.
    pub fn not_regular(self) -> Option<NotARegularFile> {
        (self != FileKind::RegularFile).then_some(NotARegularFile(self))
    }
}

#[cfg(unix)]
fn special_kind(file_type: FileType) -> FileKind {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_fifo() {
        FileKind::Fifo
    } else if file_type.is_char_device() {
        FileKind::CharacterDevice
    } else if file_type.is_block_device() {
        FileKind::BlockDevice
    } else if file_type.is_socket() {
        FileKind::Socket
    } else {
        FileKind::Other
    }
}

#[cfg(not(unix))]
fn special_kind(_: FileType) -> FileKind {
    FileKind::Other
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::RegularFile => "a regular file",
            FileKind::Folder => "a folder",
            FileKind::SymbolicLink => "a symbolic link",
            FileKind::Fifo => "a FIFO (named pipe)",
            FileKind::CharacterDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Socket => "a socket",
            FileKind::Other => "a special file",
        })
    }
}

/// A path that names something else than a regular file: a folder, a FIFO,
/// a device or a socket (read, it would block or never end; written, it is
/// not a report). `a FIFO (named pipe), not a regular file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}, not a regular file")]
pub struct NotARegularFile(pub FileKind);

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum Unreadable {
    /// The file system refused.
    #[error("{0}")]
    Io(io::Error),
    /// Not a regular file.
    #[error("it is {0}")]
    NotARegularFile(NotARegularFile),
    /// The file is over its limit.
    #[error("the file is {}{bytes} bytes long; {limit}", if *.at_least { "more than " } else { "" })]
    TooLarge {
        /// Its size as reported, or the limit when reading stopped there.
        bytes: u64,
        /// Whether `bytes` is only a lower bound (reading stopped at the limit).
        at_least: bool,
        /// The limit.
        limit: SizeLimit,
    },
    /// The allocator refused the memory to hold the file.
    #[error("too large to hold in memory: {0}")]
    OutOfMemory(OutOfMemory),
}

/// A file that was not read, and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {why}", .path.display())]
pub struct ReadError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub why: Unreadable,
}

/// Opens `path` for reading without waiting: on Unix with `O_NONBLOCK`, so
/// that opening a FIFO returns at once instead of waiting for a writer.
fn open_without_blocking(path: &Path) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// The bytes of the regular file `path` (links followed), at most
/// `limit.bytes`: anything else is refused unopened when the path says so,
/// and by the opened file's type in any case; a larger file is refused
/// unread (at most the limit + 1 bytes are read, should it grow), so that
/// memory stays bounded.
pub fn read_regular_bytes(path: &Path, limit: SizeLimit) -> Result<Vec<u8>, ReadError> {
    read_bytes(path, limit).map_err(|why| ReadError {
        path: path.to_path_buf(),
        why,
    })
}

fn read_bytes(path: &Path, limit: SizeLimit) -> Result<Vec<u8>, Unreadable> {
    let refuse = |kind: FileKind| kind.not_regular().map(Unreadable::NotARegularFile);
    if let Some(refused) = FileKind::of_path(path).and_then(refuse) {
        return Err(refused);
    }
    let file = open_without_blocking(path).map_err(Unreadable::Io)?;
    let metadata = file.metadata().map_err(Unreadable::Io)?;
    if let Some(refused) = refuse(FileKind::of(metadata.file_type())) {
        return Err(refused);
    }
    let size = metadata.len();
    if size > limit.bytes {
        return Err(Unreadable::TooLarge {
            bytes: size,
            at_least: false,
            limit,
        });
    }
    // The size may be stale (a file still growing): the read stops anyway.
    let mut bytes = Vec::new();
    try_reserve(&mut bytes, size as usize).map_err(Unreadable::OutOfMemory)?;
    file.take(limit.bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| match error.kind() {
            // read_to_end asks for more room as it reads, without aborting
            io::ErrorKind::OutOfMemory => Unreadable::OutOfMemory(OutOfMemory {
                bytes: bytes.capacity().saturating_mul(2),
            }),
            _ => Unreadable::Io(error),
        })?;
    if bytes.len() as u64 > limit.bytes {
        return Err(Unreadable::TooLarge {
            bytes: limit.bytes,
            at_least: true,
            limit,
        });
    }
    Ok(bytes)
}

/// The text of the regular file `path` ([`read_regular_bytes`]) of at most
/// `limit` bytes, which must be UTF-8: what corpus files and baselines are.
pub fn read_regular_file(path: &Path, limit: u64) -> Result<String, ReadError> {
    let bytes = read_regular_bytes(path, SizeLimit::bytes(limit))?;
    String::from_utf8(bytes).map_err(|_| ReadError {
        path: path.to_path_buf(),
        why: Unreadable::Io(io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )),
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// The type is judged on the opened file too: a device is refused by
    /// its type, and a FIFO (opened without blocking, if the path check were
    /// passed) is refused without waiting for a writer.
    #[test]
    fn only_regular_files_are_read() {
        let limit = SizeLimit::bytes(16);
        let zero = read_regular_bytes(Path::new("/dev/zero"), limit).unwrap_err();
        assert!(
            zero.to_string()
                .ends_with("it is a character device, not a regular file"),
            "{zero}"
        );
        let fifo = std::env::temp_dir().join(format!("regular-fifo-{}", std::process::id()));
        let _ = fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|status| status.success()), "mkfifo");
        let refused = read_bytes(&fifo, limit).unwrap_err();
        assert!(
            matches!(
                refused,
                Unreadable::NotARegularFile(NotARegularFile(FileKind::Fifo))
            ),
            "{refused}"
        );
        // past the path check, the open does not wait and the descriptor refuses
        let opened = open_without_blocking(&fifo).expect("opens at once");
        let kind = FileKind::of(opened.metadata().expect("fstat").file_type());
        assert_eq!(kind.not_regular(), Some(NotARegularFile(FileKind::Fifo)));
        let _ = fs::remove_file(&fifo);
    }

    /// At most the limit is read: a file one byte over it is refused.
    #[test]
    fn a_file_over_its_limit_is_refused() {
        let path = std::env::temp_dir().join(format!("regular-limit-{}", std::process::id()));
        fs::write(&path, b"12345").expect("a file");
        let over = read_regular_bytes(&path, SizeLimit::bytes(4)).unwrap_err();
        assert!(
            over.to_string()
                .ends_with("the file is 5 bytes long; the limit is 4 bytes"),
            "{over}"
        );
        assert_eq!(read_regular_file(&path, 5).expect("within"), "12345");
        let _ = fs::remove_file(&path);
    }
}
