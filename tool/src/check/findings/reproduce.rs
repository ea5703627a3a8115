//! Reproduce files (`check --reproduce-dir DIR`): the input of each proven
//! reproduce pipe written to a file of its own, byte for byte (each line
//! ends in `\n`, the last is `exit`), a file to attach to a bug report,
//! with a one-line command that feeds it to the engine in a POSIX shell
//! (`ENGINE < 'FILE'`) and in PowerShell (`Get-Content -Raw -LiteralPath
//! 'FILE' | & 'PROGRAM' 'ARG'...`).
//!
//! The folder is checked at the start (created if it does not exist, and it
//! must take a new file); the files are named after the cause's number in
//! the report and its kind (`cause-03-state.uhp`). After the run, the
//! earlier run's files (every `cause-NN-KIND.uhp` of the folder) are
//! removed first, so that none is mistaken for this run's, and each new
//! file is created new: a name taken by a symbolic link planted in the
//! folder is the link removed, never its target written. None is ever one
//! of the check's inputs or another output.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::check::client::command_line::split_command_line;
use crate::check::findings::group::FindingGroup;
use crate::check::findings::quote::shell_quote;
use crate::check::findings::summary::Report;
use crate::output_file::{refuse_same_files, NamedInput, OutputError, WriteError};

/// The option that names the folder, in errors.
const OPTION: &str = "--reproduce-dir";

/// The folder the reproduce files are written to, checked.
#[derive(Clone, Debug)]
pub struct ReproduceDir {
    /// The folder as given.
    path: PathBuf,
    /// The files the check reads, which no reproduce file may replace.
    inputs: Vec<NamedInput>,
    /// The check's other outputs (`--out`, `--write-baseline`).
    outputs: Vec<(&'static str, PathBuf)>,
}

/// Why the reproduce folder cannot be used, or a file not written.
#[derive(Debug, Error)]
pub enum ReproduceError {
    /// Its name is printed in shell commands, so it must be plain text.
    #[error("--reproduce-dir {}: the folder's name is printed in shell commands, so it must be UTF-8 text without control characters", .0.display())]
    Name(PathBuf),
    /// The path exists and is not a folder.
    #[error("--reproduce-dir {}: not a folder", .0.display())]
    NotAFolder(PathBuf),
    /// The folder cannot be created or written to.
    #[error("--reproduce-dir {}: {source}", .path.display())]
    Io {
        /// The folder.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// A file is an input of the check or another output, or cannot be
    /// opened for writing.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// A file could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
}

impl ReproduceDir {
    /// Checks the folder `path` at the start of a check: it is created if it
    /// does not exist, and must take a new file. `inputs` are the files the
    /// check reads and `outputs` its other outputs, which no reproduce file
    /// may replace.
    pub fn check(
        path: &Path,
        inputs: Vec<NamedInput>,
        outputs: Vec<(&'static str, PathBuf)>,
    ) -> Result<ReproduceDir, ReproduceError> {
        let plain = path
            .to_str()
            .is_some_and(|text| !text.chars().any(char::is_control));
        if !plain {
            return Err(ReproduceError::Name(path.to_path_buf()));
        }
        let failed = |source: io::Error| ReproduceError::Io {
            path: path.to_path_buf(),
            source,
        };
        match fs::metadata(path) {
            Ok(meta) if !meta.is_dir() => {
                return Err(ReproduceError::NotAFolder(path.to_path_buf()))
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(path).map_err(failed)?;
            }
            Err(e) => return Err(failed(e)),
        }
        // it must take a new file (removed at once)
        tempfile::Builder::new()
            .prefix(".hive-oracle-check.")
            .tempfile_in(path)
            .map_err(failed)?;
        let dir = ReproduceDir {
            path: path.to_path_buf(),
            inputs,
            outputs,
        };
        // the earlier run's files are removed after the run: one that is an
        // input of this check (a record named `cause-01-….uhp`) is refused now
        for entry in fs::read_dir(path).map_err(failed)?.flatten() {
            if entry
                .file_name()
                .to_str()
                .is_some_and(is_reproduce_file_name)
            {
                refuse_inputs_and_outputs(&dir, &entry.path())?;
            }
        }
        Ok(dir)
    }

    /// The file of cause `number` (from 1), of kind `kind`.
    fn file(&self, number: usize, kind: &str) -> PathBuf {
        self.path.join(format!("cause-{number:02}-{kind}.uhp"))
    }
}

/// The bytes a reproduce pipe sends: each line of `sent`, then `exit`, each
/// ending in `\n`.
pub(crate) fn input_bytes(sent: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for line in sent.iter().map(Vec::as_slice).chain([b"exit".as_slice()]) {
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
    }
    bytes
}

/// Names the reproduce file of each cause whose pipe was proven, with its
/// commands ([`posix_command`], [`powershell_command`]), in the order of
/// the report (cause `i` is `finding i` of the text report).
pub(crate) fn name_files(dir: &ReproduceDir, engine: &str, groups: &mut [FindingGroup]) {
    for (i, group) in groups.iter_mut().enumerate() {
        let f = &mut group.shortest;
        if f.reproduced != Some(true) || f.sent_bytes.is_empty() {
            continue;
        }
        let file = dir.file(i + 1, f.kind.name()).display().to_string();
        f.reproduce_sh = Some(posix_command(engine, &file));
        // PowerShell re-encodes what is not ASCII: no command that would
        // send other bytes than the file's
        f.reproduce_powershell = input_bytes(&f.sent_bytes)
            .is_ascii()
            .then(|| powershell_command(engine, &file))
            .flatten();
        f.reproduce_file = Some(file);
    }
}

/// Writes the reproduce files named by [`name_files`] in `report`, after
/// removing the earlier run's ([`remove_earlier_files`]), even when this run
/// has none: each checked (never an input of the check or another output)
/// and created new. The number of files written.
pub fn write_files(dir: &ReproduceDir, report: &Report) -> Result<usize, ReproduceError> {
    remove_earlier_files(dir)?;
    let mut written = 0;
    for group in &report.findings {
        let f = &group.shortest;
        let Some(file) = &f.reproduce_file else {
            continue;
        };
        let path = Path::new(file);
        refuse_inputs_and_outputs(dir, path)?;
        write_new(path, &input_bytes(&f.sent_bytes))?;
        written += 1;
    }
    Ok(written)
}

/// Whether `name` is the name of a reproduce file: `cause-`, two or more
/// digits, `-`, a kind (lower-case letters and `-`), `.uhp`.
fn is_reproduce_file_name(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix("cause-")
        .and_then(|r| r.strip_suffix(".uhp"))
    else {
        return false;
    };
    let Some((number, kind)) = rest.split_once('-') else {
        return false;
    };
    number.len() >= 2
        && number.bytes().all(|b| b.is_ascii_digit())
        && !kind.is_empty()
        && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
}

/// Removes the reproduce files of an earlier run from the folder: every
/// entry named as one that is not a folder (a symbolic link is removed, not
/// followed), unless it is an input of the check or another output.
fn remove_earlier_files(dir: &ReproduceDir) -> Result<(), ReproduceError> {
    let failed = |source: io::Error| ReproduceError::Io {
        path: dir.path.clone(),
        source,
    };
    for entry in fs::read_dir(&dir.path).map_err(failed)? {
        let entry = entry.map_err(failed)?;
        let named = entry
            .file_name()
            .to_str()
            .is_some_and(is_reproduce_file_name);
        if !named || entry.file_type().map_err(failed)?.is_dir() {
            continue;
        }
        let path = entry.path();
        refuse_inputs_and_outputs(dir, &path)?;
        fs::remove_file(&path).map_err(failed)?;
    }
    Ok(())
}

/// Refuses `path` in the folder when it is an input of the check or one of
/// its other outputs: no reproduce file replaces or removes one.
fn refuse_inputs_and_outputs(dir: &ReproduceDir, path: &Path) -> Result<(), ReproduceError> {
    let outputs: Vec<(&'static str, &Path)> = dir
        .outputs
        .iter()
        .map(|(option, path)| (*option, path.as_path()))
        .chain([(OPTION, path)])
        .collect();
    Ok(refuse_same_files(&outputs, &dir.inputs)?)
}

/// Writes `contents` to a file created new at `path`: an existing name (a
/// file or a symbolic link put there since the earlier files were removed)
/// is an error, never followed or replaced; a write that fails removes the
/// part written.
fn write_new(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    let failed = |source: io::Error| WriteError {
        path: path.to_path_buf(),
        source,
    };
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(failed)?;
    let written = file.write_all(contents).and_then(|()| file.sync_all());
    if let Err(source) = written {
        // no part of a file is left to be taken for a whole one
        drop(file);
        let _ = fs::remove_file(path);
        return Err(failed(source));
    }
    Ok(())
}

/// The POSIX shell command that feeds `file` to the engine: `ENGINE <
/// 'FILE'`, the engine's command line as given (it is in shell syntax).
pub fn posix_command(engine: &str, file: &str) -> String {
    format!("{engine} < {}", shell_quote(file))
}

/// The PowerShell command that feeds `file` to the engine:
/// `Get-Content -Raw -LiteralPath 'FILE' | & 'PROGRAM' 'ARG'...`, every word
/// of the engine's command line quoted for PowerShell
/// ([`powershell_quote`]). `-Raw` sends the file as one string, so its
/// lines keep their `\n` ends (PowerShell adds one line end after the last
/// line, `exit`); `-LiteralPath` reads `[` and `*` in the name as
/// themselves. `None` when the command line does not split into words.
pub fn powershell_command(engine: &str, file: &str) -> Option<String> {
    let words = split_command_line(engine).ok()?;
    let (program, args) = words.split_first()?;
    let mut command = format!(
        "Get-Content -Raw -LiteralPath {} | & {}",
        powershell_quote(file),
        powershell_quote(program)
    );
    for arg in args {
        command.push(' ');
        command.push_str(&powershell_quote(arg));
    }
    Some(command)
}

/// A word in a PowerShell single-quoted string, read literally (no `$`,
/// no backtick): every single quote doubled, the typographic single quotes
/// too, which PowerShell also reads as quotes.
pub fn powershell_quote(word: &str) -> String {
    let mut quoted = String::from("'");
    for c in word.chars() {
        if matches!(c, '\'' | '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}') {
            quoted.push(c);
        }
        quoted.push(c);
    }
    quoted.push('\'');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powershell_reads_awkward_paths_literally() {
        // a single quote ends a single-quoted string unless doubled; `$`
        // and the backtick are literal inside one; PowerShell also takes
        // the typographic quotes for quotes
        assert_eq!(powershell_quote("C:\\a b\\x.exe"), "'C:\\a b\\x.exe'");
        assert_eq!(powershell_quote("it's"), "'it''s'");
        assert_eq!(powershell_quote("$HOME `n"), "'$HOME `n'");
        assert_eq!(powershell_quote("a\u{2019}b"), "'a\u{2019}\u{2019}b'");
        assert_eq!(
            powershell_command("'/opt/my engine/it'\\''s' --uhp '$x'", "out/cause-01-crash.uhp")
                .as_deref(),
            Some("Get-Content -Raw -LiteralPath 'out/cause-01-crash.uhp' | & '/opt/my engine/it''s' '--uhp' '$x'")
        );
        assert_eq!(powershell_command("'unterminated", "f"), None);
    }

    #[test]
    fn posix_commands_quote_the_file() {
        assert_eq!(
            posix_command("eng --uhp", "my dir/it's $x.uhp"),
            "eng --uhp < 'my dir/it'\\''s $x.uhp'"
        );
    }

    #[test]
    fn the_input_is_each_line_then_exit() {
        let sent = vec![
            b"newgame Base".to_vec(),
            vec![b'x', 0xff, b'\r'],
            Vec::new(),
        ];
        assert_eq!(input_bytes(&sent), b"newgame Base\nx\xff\r\n\nexit\n");
    }
}
