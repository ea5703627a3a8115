//! The files the tool writes (`check --out`, `check --write-baseline`,
//! `render --svg`), every one through this writer, so that no run destroys a
//! file:
//!
//! * **Checked at the start, nothing truncated.** [`PendingFile::create`]
//!   refuses a path that is not a regular file (a FIFO would block, a device
//!   is not a report), opens an existing target for writing without
//!   truncating it (it must be writable) and creates a temporary file in the
//!   target's folder (the folder must be writable). The target is untouched.
//! * **Written whole, after the run.** [`PendingFile::commit`] writes the
//!   contents to the temporary file, flushes it to disk and renames it over
//!   the target: a reader sees the old file or the new one, never a part.
//!   A run that fails drops its pending files, which removes the temporary
//!   files and leaves every target as it was. An existing target keeps its
//!   permissions; a symbolic link is followed (the file it names is
//!   replaced, the link kept).
//! * **Never an input.** [`refuse_same_files`] refuses an output that is the
//!   same file as an input of the run or as another output, before any work:
//!   two paths name the same file when their canonical paths agree or, on
//!   Unix, their device and inode numbers.

use std::fs::{self, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;
use thiserror::Error;

use crate::input::{FileKind, NotARegularFile};

/// Why an output cannot be written, found before the run.
#[derive(Debug, Error)]
pub enum OutputError {
    /// The path names something else than a regular file: opening a FIFO
    /// would block until a reader comes, and a device is not a report.
    #[error("{option} {}: cannot write: it is {why}", .path.display())]
    NotARegularFile {
        /// The option that names it.
        option: &'static str,
        /// The path.
        path: PathBuf,
        /// What it is instead.
        why: NotARegularFile,
    },
    /// The file, or a temporary file beside it, cannot be created or opened.
    #[error("{option} {}: cannot write: {source}", .path.display())]
    Io {
        /// The option that names it.
        option: &'static str,
        /// The path.
        path: PathBuf,
        /// Why it cannot be written.
        source: io::Error,
    },
    /// A `*.toml` output in a corpus folder, which the next check of that
    /// folder would read as a case file.
    #[error("{option} {}: refused: a .toml file in the corpus folder {} (--corpus) would be read as a case file by the next check", .path.display(), .folder.display())]
    CaseFileOfCorpus {
        /// The option that names the output.
        option: &'static str,
        /// The output's path.
        path: PathBuf,
        /// The corpus folder.
        folder: PathBuf,
    },
    /// The output is the same file as an input, or as another output.
    #[error("{option} {}: refused: it is the same file as {input} ({}), which would be overwritten", .path.display(), .input_path.display())]
    SameFile {
        /// The option that names the output.
        option: &'static str,
        /// The output's path.
        path: PathBuf,
        /// What the other file is, in words (`the baseline (--baseline)`).
        input: String,
        /// The other file's path as given.
        input_path: PathBuf,
    },
}

/// Writing an output failed after the run; the target is unchanged.
#[derive(Debug, Error)]
#[error("cannot write {}: {source}", .path.display())]
pub struct WriteError {
    /// The file.
    pub path: PathBuf,
    /// Why writing failed.
    pub source: io::Error,
}

/// An output checked at the start and written at the end: a temporary file
/// in the target's folder, renamed over the target by [`commit`]
/// (`PendingFile::commit`). Dropped without a commit, it removes the
/// temporary file and the target stays as it was.
///
/// [`commit`]: PendingFile::commit
#[derive(Debug)]
pub struct PendingFile {
    /// The path as given.
    path: PathBuf,
    /// The file replaced: the path, or the file a symbolic link names.
    target: PathBuf,
    temp: NamedTempFile,
}

impl PendingFile {
    /// Checks that `path` (named by `option`) can be written, without
    /// touching it: only a regular file (or a new one in an existing folder)
    /// is written, an existing one must open for writing, and a temporary
    /// file is created beside it, with its permissions.
    pub fn create(path: &Path, option: &'static str) -> Result<PendingFile, OutputError> {
        let failed = |source: io::Error| OutputError::Io {
            option,
            path: path.to_path_buf(),
            source,
        };
        let (target, permissions) = match fs::metadata(path) {
            Ok(meta) if !meta.is_file() => {
                return Err(OutputError::NotARegularFile {
                    option,
                    path: path.to_path_buf(),
                    why: NotARegularFile(FileKind::of(meta.file_type())),
                })
            }
            Ok(meta) => {
                // opened for writing, not truncated: it must be writable
                OpenOptions::new().write(true).open(path).map_err(failed)?;
                (
                    fs::canonicalize(path).map_err(failed)?,
                    Some(meta.permissions()),
                )
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => (path.to_path_buf(), None),
            Err(source) => return Err(failed(source)),
        };
        let folder = match target.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        if let Some(permissions) = new_file_permissions() {
            builder.permissions(permissions);
        }
        let temp = builder.tempfile_in(folder).map_err(failed)?;
        if let Some(permissions) = permissions {
            temp.as_file()
                .set_permissions(permissions)
                .map_err(failed)?;
        }
        Ok(PendingFile {
            path: path.to_path_buf(),
            target,
            temp,
        })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `contents` to the temporary file, flushes it to disk and
    /// renames it over the target. On an error the target is unchanged and
    /// the temporary file removed.
    pub fn commit(mut self, contents: &[u8]) -> Result<(), WriteError> {
        let failed = |source: io::Error| WriteError {
            path: self.path.clone(),
            source,
        };
        let file = self.temp.as_file_mut();
        file.write_all(contents).map_err(failed)?;
        file.flush().map_err(failed)?;
        file.sync_all().map_err(failed)?;
        self.temp
            .persist(&self.target)
            .map(drop)
            .map_err(|e| failed(e.error))
    }
}

/// The permissions of a new output: read and write for everyone, less the
/// umask, as `File::create` gives (a temporary file alone would be private).
#[cfg(unix)]
fn new_file_permissions() -> Option<Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(Permissions::from_mode(0o666))
}

/// The permissions of a new output: the platform's default.
#[cfg(not(unix))]
fn new_file_permissions() -> Option<Permissions> {
    None
}

/// An input of a run, for [`refuse_same_files`]: what it is, in words, and
/// its path.
#[derive(Clone, Debug)]
pub struct NamedInput {
    /// What it is (`the baseline (--baseline)`, `a corpus case file`).
    pub what: String,
    /// Its path as given.
    pub path: PathBuf,
}

/// Refuses an output (option, path) that is the same file as one of
/// `inputs` or as an earlier output. An input that does not exist cannot be
/// overwritten and is not compared.
pub fn refuse_same_files(
    outputs: &[(&'static str, &Path)],
    inputs: &[NamedInput],
) -> Result<(), OutputError> {
    let inputs: Vec<(&NamedInput, Identity)> = inputs
        .iter()
        .filter_map(|input| Some((input, Identity::of(&input.path)?)))
        .collect();
    let mut earlier: Vec<(&'static str, &Path, Identity)> = Vec::new();
    for &(option, path) in outputs {
        let Some(identity) = Identity::of(path) else {
            continue;
        };
        let same_input = inputs
            .iter()
            .find(|(_, other)| identity.is(other))
            .map(|(input, _)| (input.what.clone(), input.path.clone()));
        let same_output = earlier
            .iter()
            .find(|(_, _, other)| identity.is(other))
            .map(|(other, path, _)| (format!("the output of {other}"), path.to_path_buf()));
        if let Some((input, input_path)) = same_input.or(same_output) {
            return Err(OutputError::SameFile {
                option,
                path: path.to_path_buf(),
                input,
                input_path,
            });
        }
        earlier.push((option, path, identity));
    }
    Ok(())
}

/// Which file a path names: its canonical path (for a file not yet there,
/// its folder's canonical path and its name) and, on Unix, the device and
/// inode of an existing file.
#[derive(Debug)]
struct Identity {
    canonical: PathBuf,
    inode: Option<(u64, u64)>,
}

impl Identity {
    /// The identity of `path`; `None` when neither it nor its folder exists.
    fn of(path: &Path) -> Option<Identity> {
        match fs::metadata(path) {
            Ok(meta) => Some(Identity {
                canonical: fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
                inode: inode(&meta),
            }),
            Err(_) => {
                let folder = match path.parent() {
                    Some(folder) if !folder.as_os_str().is_empty() => folder,
                    _ => Path::new("."),
                };
                Some(Identity {
                    canonical: fs::canonicalize(folder).ok()?.join(path.file_name()?),
                    inode: None,
                })
            }
        }
    }

    /// Whether two identities name one file.
    fn is(&self, other: &Identity) -> bool {
        match (self.inode, other.inode) {
            (Some(a), Some(b)) => a == b,
            _ => self.canonical == other.canonical,
        }
    }
}

/// The device and inode of a file.
#[cfg(unix)]
fn inode(meta: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

/// No inode numbers off Unix: canonical paths are compared.
#[cfg(not(unix))]
fn inode(_: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of the system's temporary folder, removed when dropped.
    fn folder() -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix("hive-oracle-test-")
            .tempdir()
            .expect("a temporary folder")
    }

    #[test]
    fn a_dropped_pending_file_leaves_the_target_and_no_temporary_file() {
        let folder = folder();
        let dir = folder.path();
        let target = dir.join("report.txt");
        fs::write(&target, b"last night's report").expect("written");
        let pending = PendingFile::create(&target, "--out").expect("writable");
        drop(pending);
        assert_eq!(fs::read(&target).expect("read"), b"last night's report");
        assert_eq!(fs::read_dir(dir).expect("listed").count(), 1);
    }

    #[test]
    fn a_commit_replaces_the_target_and_keeps_its_permissions() {
        let folder = folder();
        let dir = folder.path();
        let target = dir.join("report.txt");
        fs::write(&target, b"old").expect("written");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&target, Permissions::from_mode(0o640)).expect("chmod");
        }
        let pending = PendingFile::create(&target, "--out").expect("writable");
        pending.commit(b"new").expect("committed");
        assert_eq!(fs::read(&target).expect("read"), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&target).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        assert_eq!(fs::read_dir(dir).expect("listed").count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_followed_and_kept() {
        let folder = folder();
        let dir = folder.path();
        let real = dir.join("real.txt");
        let link = dir.join("link.txt");
        fs::write(&real, b"old").expect("written");
        std::os::unix::fs::symlink(&real, &link).expect("a link");
        PendingFile::create(&link, "--out")
            .expect("writable")
            .commit(b"new")
            .expect("committed");
        assert!(fs::symlink_metadata(&link).expect("meta").is_symlink());
        assert_eq!(fs::read(&real).expect("read"), b"new");
    }

    #[test]
    fn an_output_naming_an_input_or_another_output_is_refused() {
        let folder = folder();
        let dir = folder.path();
        let input = dir.join("case.toml");
        fs::write(&input, b"[[case]]").expect("written");
        let inputs = [NamedInput {
            what: "a corpus case file".to_string(),
            path: input.clone(),
        }];
        // the same file by another spelling of its path
        let spelled = dir.join(".").join("case.toml");
        let refused = refuse_same_files(&[("--out", &spelled)], &inputs);
        assert!(
            matches!(refused, Err(OutputError::SameFile { .. })),
            "{refused:?}"
        );
        // two outputs naming one new file
        let new = dir.join("new.json");
        let other = dir
            .join("..")
            .join(dir.file_name().expect("a name"))
            .join("new.json");
        let refused = refuse_same_files(&[("--out", &new), ("--write-baseline", &other)], &inputs);
        assert!(
            refused
                .as_ref()
                .is_err_and(|e| e.to_string().contains("the output of --out")),
            "{refused:?}"
        );
        // distinct files pass
        let fine = refuse_same_files(
            &[
                ("--out", &new),
                ("--write-baseline", &input.with_extension("json")),
            ],
            &inputs,
        );
        assert!(fine.is_ok(), "{fine:?}");
    }
}
