//! How the command line writes (part of the binary): every write to
//! stdout can fail, and each kind of failure ends a command the way a
//! pipeline expects.
//!
//! * **The reader went away** (`EPIPE`: `perft 8 | head -1`): Rust ignores
//!   `SIGPIPE`, so the write returns `ErrorKind::BrokenPipe`. The command
//!   stops at that write, prints nothing more and exits with the status it
//!   had reached: 0, or the verdict of a command whose verdict is known
//!   before its report is written (`check`, `replay`, `selfcheck`), so that a
//!   closed pipe never turns a failing check into a passing one.
//! * **Any other write error** (`> /dev/full`): one line on stderr and the
//!   command's failure status (2 for `check` and `replay`, whose status 1 is
//!   a verdict; 1 for the others).
//!
//! Messages on stderr go through [`say`], which ignores a failing stderr
//! rather than panicking as `eprintln!` does, and escapes every control
//! character (`hive_oracle_rules::core::escape_controls`): no file name or record
//! reaches the terminal raw.

use std::io::{self, Write};
use std::process::ExitCode;

use hive_oracle_rules::core::escape_controls;

/// Why a command stopped before its end.
pub enum Stop {
    /// Bad input or a refused command: the message goes to stderr.
    Refused(String),
    /// The command could not run: an output that is the same file as an
    /// input or another output (refused before any work), or a record file
    /// too large for the memory at hand. The message goes to stderr, and
    /// the status is 2, as for `check`.
    CouldNotRun(String),
    /// A usage error found by the command rather than by clap: the
    /// message goes to stderr, and the status is 2, as for clap's.
    Usage(String),
    /// stdout's reader went away: nothing more to say.
    ClosedPipe,
    /// Writing stdout failed otherwise (a full disk, a device error).
    WriteFailed(io::Error),
}

impl From<crate::input::InputError> for Stop {
    /// Bad input is refused (status 1); a record file too large for the
    /// memory at hand is a command that could not run (status 2).
    fn from(error: crate::input::InputError) -> Stop {
        match error {
            crate::input::InputError::TooLargeForMemory(_) => Stop::CouldNotRun(error.to_string()),
            error => Stop::Refused(error.to_string()),
        }
    }
}

impl From<String> for Stop {
    fn from(message: String) -> Stop {
        Stop::Refused(message)
    }
}

impl From<io::Error> for Stop {
    fn from(error: io::Error) -> Stop {
        if error.kind() == io::ErrorKind::BrokenPipe {
            Stop::ClosedPipe
        } else {
            Stop::WriteFailed(error)
        }
    }
}

/// Writes one message line on stderr; a failing stderr is ignored. A
/// message is one line: every control character in it (a line feed or an
/// escape sequence from a file name or a record) is escaped.
pub fn say(message: &str) {
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "{}", escape_controls(message));
}

/// Writes `text`, lines written by the tool whose outside text is already
/// escaped, on stderr as it is; a failing stderr is ignored.
pub fn say_lines(text: &str) {
    let mut stderr = io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
}

/// Writes `text` on stdout and flushes it.
pub fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// The exit status of a command that ran to its end or stopped: 0 when it
/// succeeded or its reader went away, `failure` after printing why it failed.
pub fn exit_status(result: Result<(), Stop>, failure: u8) -> ExitCode {
    match result {
        Ok(()) | Err(Stop::ClosedPipe) => ExitCode::SUCCESS,
        Err(Stop::Refused(message)) => {
            say(&format!("error: {message}"));
            ExitCode::from(failure)
        }
        Err(Stop::Usage(message)) => {
            say(&format!("error: {message}"));
            ExitCode::from(super::USAGE_ERROR)
        }
        Err(Stop::CouldNotRun(message)) => {
            say(&format!("error: {message}"));
            ExitCode::from(super::COULD_NOT_RUN)
        }
        Err(Stop::WriteFailed(error)) => {
            say(&format!("error: cannot write the output: {error}"));
            ExitCode::from(failure)
        }
    }
}

/// The exit status of a command whose verdict was known before its report
/// was written: the verdict, unless writing failed otherwise than by a
/// closed pipe, which is `write_failure` after a line on stderr.
pub fn status_after_report(
    written: io::Result<()>,
    verdict: ExitCode,
    write_failure: u8,
) -> ExitCode {
    match written {
        Ok(()) => verdict,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => verdict,
        Err(error) => {
            say(&format!("error: cannot write the output: {error}"));
            ExitCode::from(write_failure)
        }
    }
}
