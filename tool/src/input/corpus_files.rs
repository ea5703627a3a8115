//! Reading a corpus from files: the tool's one reader of corpus folders
//! (`check --corpus DIR`).
//!
//! A folder's `*.toml` entries are read in file-name order, each by the
//! tool's one file reader ([`read_regular_file`]), so only regular files
//! are read: a FIFO would block the reader and a device never end, so any
//! other entry is an error naming it, refused before it is opened (and
//! checked again on the opened file, in case the entry changed in between).
//! Every error names the folder or the file it is about.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::regular_file::{read_regular_file, ReadError};
use hive_oracle_rules::cases::{parse_corpus_file, CorpusFile, LoadedCase, ParseError};

/// Why a corpus folder could not be listed.
#[derive(Debug, Error)]
pub enum FolderError {
    /// The path names something else than a folder.
    #[error("{}: not a folder", .dir.display())]
    NotAFolder {
        /// The path as given.
        dir: PathBuf,
    },
    /// Nothing is found at the path.
    #[error("{}: no such folder ({source})", .dir.display())]
    NoSuchFolder {
        /// The path as given.
        dir: PathBuf,
        /// Why it is not found.
        source: io::Error,
    },
    /// The folder cannot be listed.
    #[error("{}: {source}", .dir.display())]
    Unlisted {
        /// The folder.
        dir: PathBuf,
        /// Why it cannot be listed.
        source: io::Error,
    },
}

/// Why a corpus folder could not be read.
#[derive(Debug, Error)]
pub enum CorpusError {
    /// The folder itself.
    #[error(transparent)]
    Folder(#[from] FolderError),
    /// One of its `*.toml` entries could not be read.
    #[error(transparent)]
    File(#[from] ReadError),
    /// One of its files is not a corpus.
    #[error(transparent)]
    Parse(#[from] ParseError),
}

/// The largest corpus file read, in bytes (4 MiB): the built-in corpus
/// files are a few KiB each, and a larger file is a mistake or an attack
/// whose cases would all be validated before the check.
pub const MAX_CORPUS_FILE_BYTES: u64 = 4 << 20;

/// Loads every `*.toml` file of a folder, in file-name order (see
/// [`read_corpus_files`]): the cases of all of them.
pub fn load_corpus(dir: &Path) -> Result<Vec<LoadedCase>, CorpusError> {
    Ok(read_corpus_files(dir)?
        .into_iter()
        .flat_map(|file| file.cases)
        .collect())
}

/// The `*.toml` files of the folder `dir`, in file-name order, each with
/// its name, text and cases. Only regular files are read
/// ([`read_regular_file`]): any other `*.toml` entry is an error, as is a
/// folder that is not one; errors name the file and, for TOML errors, the
/// line and column; a case name used twice in one file and a case without
/// assertions are errors too.
pub fn read_corpus_files(dir: &Path) -> Result<Vec<CorpusFile>, CorpusError> {
    let folder_error = |source: io::Error| FolderError::Unlisted {
        dir: dir.to_path_buf(),
        source,
    };
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(FolderError::NotAFolder {
                dir: dir.to_path_buf(),
            }
            .into())
        }
        Err(source) => {
            return Err(FolderError::NoSuchFolder {
                dir: dir.to_path_buf(),
                source,
            }
            .into())
        }
    }
    let mut paths: Vec<PathBuf> = Vec::new();
    for entry in fs::read_dir(dir).map_err(folder_error)? {
        let path = entry.map_err(folder_error)?.path();
        if path.extension().is_some_and(|e| e == "toml") {
            paths.push(path);
        }
    }
    paths.sort();
    let mut files = Vec::new();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = read_regular_file(&path, MAX_CORPUS_FILE_BYTES)?;
        let cases = parse_corpus_file(&name, &text, &path.display().to_string())?;
        files.push(CorpusFile { name, text, cases });
    }
    Ok(files)
}
