//! A Universal Hive Protocol client: drives an engine process over its stdin
//! and stdout, one command at a time, following the client checklist of
//! `spec/sources/uhp-notes.md` (section 8).
//!
//! Every read has a deadline: the engine's stdout is read on a background
//! thread that forwards whole lines over a channel, so an engine that hangs
//! turns into [`ClientError::Timeout`] instead of blocking the caller, and one
//! that dies turns into [`ClientError::Exited`] with whatever it printed
//! first. Lines are split on `\n` with a trailing `\r` removed (CRLF engines
//! work); bytes that are not UTF-8 are replaced (lossily) and flagged in
//! [`Response::garbled`], never a panic. After a timeout, a crash or a
//! framing error the client is *defunct*: the engine's state is unknown, so
//! every later command fails at once with [`ClientError::Defunct`].
//!
//! The engine process is killed when the client is dropped, so no engine is
//! left running; [`UhpClient::exit`] asks it politely first.
//!
//! ```no_run
//! use std::time::Duration;
//! use hive_oracle::check::client::UhpClient;
//!
//! let mut engine = UhpClient::spawn("target/release/hive-oracle uhp", Duration::from_secs(5))?;
//! println!("{} supports {:?}", engine.id(), engine.capabilities());
//! engine.newgame("Base")?;
//! let moves = engine.validmoves()?;
//! assert_eq!(moves.len(), 4);
//! engine.exit();
//! # Ok::<(), hive_oracle::check::client::ClientError>(())
//! ```

use std::fmt;
use std::io::{self, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub use crate::check::answer::{resolve_moves, Capabilities, ClientError, Response, Shutdown};
use crate::check::reader::{forward_lines, forward_stderr, Event, StderrTail};

/// The name given to the start-up phase (reading the banner) in errors.
pub const STARTUP: &str = "start-up";
/// How long [`UhpClient::exit`] waits for the engine to leave by itself.
pub const EXIT_GRACE: Duration = Duration::from_millis(500);
/// The longest line kept, in bytes; the rest of a longer line is dropped
/// and the line is flagged as garbled.
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// The most output accepted for one command, in bytes, before the engine is
/// declared to be flooding.
pub(crate) const MAX_RESPONSE_BYTES: usize = 64 << 20;

/// A running UHP engine.
pub struct UhpClient {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    timeout: Duration,
    banner: Vec<String>,
    id: String,
    capabilities: Capabilities,
    /// Set by the first failure that leaves the engine's state unknown.
    defunct: Option<String>,
    /// Whether the child has been waited for.
    reaped: bool,
    /// The last lines of the engine's stderr.
    stderr: Arc<Mutex<StderrTail>>,
}

impl fmt::Debug for UhpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UhpClient")
            .field("pid", &self.child.id())
            .field("id", &self.id)
            .field("capabilities", &self.capabilities)
            .field("timeout", &self.timeout)
            .field("defunct", &self.defunct)
            .finish()
    }
}

/// Splits a command line into words as a POSIX shell does (quotes,
/// backslash escapes; no expansions), with the `shell-words` crate, so that
/// the command line given to `check --engine` is the one printed in its
/// reproduce pipes. An unterminated quote is an error.
pub fn split_command_line(command_line: &str) -> Result<Vec<String>, String> {
    shell_words::split(command_line).map_err(|e| format!("{e} in `{command_line}`"))
}

impl UhpClient {
    /// Starts the engine `command_line` (program and arguments, see
    /// [`split_command_line`]) and reads its start-up banner up to the first
    /// `ok` within `timeout`, which also bounds every later command.
    pub fn spawn(command_line: &str, timeout: Duration) -> Result<UhpClient, ClientError> {
        UhpClient::spawn_with(command_line, timeout, timeout)
    }

    /// Like [`UhpClient::spawn`], with its own deadline for the start-up
    /// banner. The last lines of the engine's stderr are kept
    /// ([`UhpClient::stderr_tail`]).
    pub(crate) fn spawn_with(
        command_line: &str,
        startup_timeout: Duration,
        timeout: Duration,
    ) -> Result<UhpClient, ClientError> {
        let spawn_error = |source: io::Error| ClientError::Spawn {
            command_line: command_line.to_string(),
            source,
        };
        let words = split_command_line(command_line)
            .map_err(|e| spawn_error(io::Error::new(io::ErrorKind::InvalidInput, e)))?;
        let Some((program, args)) = words.split_first() else {
            return Err(spawn_error(io::Error::new(
                io::ErrorKind::InvalidInput,
                "empty command line",
            )));
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(spawn_error)?;
        let stdin = child.stdin.take();
        let (Some(stdout), Some(stderr_pipe)) = (child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(io::Error::other("no pipe to the engine")));
        };
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        let tail = Arc::clone(&stderr);
        // A failure to start this thread only loses the stderr lines.
        let _ = thread::Builder::new()
            .name("uhp-client-stderr".to_string())
            .spawn(move || forward_stderr(stderr_pipe, tail));
        let (sender, events) = mpsc::channel();
        let reader = thread::Builder::new()
            .name("uhp-client-reader".to_string())
            .spawn(move || forward_lines(stdout, sender));
        let mut client = UhpClient {
            child,
            stdin,
            events,
            timeout,
            banner: Vec::new(),
            id: String::new(),
            capabilities: Capabilities::default(),
            defunct: None,
            reaped: false,
            stderr,
        };
        if let Err(e) = reader {
            // `client` is dropped here, which kills the engine.
            return Err(ClientError::Io {
                command: STARTUP.to_string(),
                source: e,
            });
        }
        client.timeout = startup_timeout;
        let banner = client.read_response(STARTUP, Vec::new());
        client.timeout = timeout;
        client.read_banner(banner?)?;
        Ok(client)
    }

    /// Checks the banner and takes the id and capabilities from it.
    fn read_banner(&mut self, banner: Response) -> Result<(), ClientError> {
        let protocol = |detail: String| ClientError::Protocol {
            command: STARTUP.to_string(),
            detail,
        };
        let shown = banner.lines.join(" / ");
        if banner.garbled {
            self.defunct = Some("garbage in the start-up banner".to_string());
            return Err(protocol(format!("the banner is not UTF-8 text: {shown}")));
        }
        if banner.is_error() {
            self.defunct = Some("error in the start-up banner".to_string());
            return Err(protocol(format!("the banner is an error: {shown}")));
        }
        let Some(id) = banner.lines.first().and_then(|l| l.strip_prefix("id ")) else {
            self.defunct = Some("no id line in the start-up banner".to_string());
            return Err(protocol(format!(
                "the banner does not start with an `id` line: {}",
                if shown.is_empty() {
                    "(nothing before ok)"
                } else {
                    &shown
                }
            )));
        };
        self.id = id.trim().to_string();
        if let Some(line) = banner.lines.get(1) {
            self.capabilities = Capabilities::parse(line);
        }
        self.banner = banner.lines;
        Ok(())
    }

    /// The engine's id: its first banner line without `id `.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The expansions the engine says it supports.
    pub fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }

    /// The start-up banner, without its `ok`.
    pub fn banner(&self) -> &[String] {
        &self.banner
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The timeout on every command.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Changes the timeout on later commands (for a long `bestmove`, say).
    pub(crate) fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The last lines (at most [`STDERR_TAIL_LINES`]) the engine wrote on
    /// stderr. When the engine has exited, waits up to [`EXIT_GRACE`] for
    /// its stderr to be read to the end, so that a crash message is whole.
    pub(crate) fn stderr_tail(&mut self) -> Vec<String> {
        if self.reaped || matches!(self.child.try_wait(), Ok(Some(_))) {
            let deadline = Instant::now() + EXIT_GRACE;
            while Instant::now() < deadline && !self.stderr.lock().map(|t| t.closed).unwrap_or(true)
            {
                thread::sleep(Duration::from_millis(2));
            }
        }
        self.stderr
            .lock()
            .map(|t| t.lines.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Sends raw bytes (which should end with `\n`: one or more lines,
    /// possibly not UTF-8) and reads the answer up to `ok`, under `label` in
    /// errors. For protocol probes; see [`UhpClient::command`].
    pub(crate) fn send_raw(&mut self, label: &str, bytes: &[u8]) -> Result<Response, ClientError> {
        if let Some(cause) = &self.defunct {
            return Err(ClientError::Defunct {
                command: label.to_string(),
                cause: cause.clone(),
            });
        }
        let written = match self.stdin.as_mut() {
            None => Err(io::Error::new(io::ErrorKind::BrokenPipe, "stdin is closed")),
            Some(stdin) => stdin.write_all(bytes).and_then(|()| stdin.flush()),
        };
        if let Err(e) = written {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return Err(self.exited(label, Vec::new()));
            }
            self.defunct = Some(format!("writing `{label}` failed: {e}"));
            return Err(ClientError::Io {
                command: label.to_string(),
                source: e,
            });
        }
        self.read_response(label, Vec::new())
    }

    /// Reads one more answer up to `ok` without sending anything (after
    /// [`UhpClient::send_raw`] sent several lines).
    pub(crate) fn read_answer(&mut self, label: &str) -> Result<Response, ClientError> {
        self.read_response(label, Vec::new())
    }

    /// Closes the engine's stdin without `exit` and waits up to `grace` for
    /// it to leave by itself; its exit status if it did (it is killed
    /// otherwise).
    pub(crate) fn close_input(mut self, grace: Duration) -> Option<ExitStatus> {
        self.stdin = None;
        let status = self.wait_for(grace);
        if status.is_none() {
            self.kill();
        }
        status
    }

    /// Why the client is unusable, if it is.
    pub fn defunct(&self) -> Option<&str> {
        self.defunct.as_deref()
    }

    /// Sends one command line and reads the engine's lines up to `ok`.
    /// A refusal (`err`, `invalidmove`) is a normal [`Response`]; see
    /// [`Response::is_error`].
    pub fn command(&mut self, line: &str) -> Result<Response, ClientError> {
        let command = line.trim().to_string();
        if let Some(cause) = &self.defunct {
            return Err(ClientError::Defunct {
                command,
                cause: cause.clone(),
            });
        }
        if command.contains(['\n', '\r']) {
            return Err(ClientError::Io {
                command,
                source: io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a command must be a single line",
                ),
            });
        }
        // Whatever the engine printed since the last `ok` was not asked for.
        let mut stray = Vec::new();
        let mut ended = false;
        while let Ok(event) = self.events.try_recv() {
            match event {
                Event::Line { text, .. } => stray.push(text),
                Event::Eof | Event::Failed(_) => {
                    ended = true;
                    break;
                }
            }
        }
        if ended {
            return Err(self.exited(&command, stray));
        }
        if let Err(e) = self.send(&command) {
            // A dead engine shows as a broken pipe: report it as an exit.
            if e.kind() == io::ErrorKind::BrokenPipe {
                return Err(self.exited(&command, stray));
            }
            self.defunct = Some(format!("writing `{command}` failed: {e}"));
            return Err(ClientError::Io { command, source: e });
        }
        self.read_response(&command, stray)
    }

    fn send(&mut self, command: &str) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin is closed"))?;
        stdin.write_all(command.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// Reads lines up to `ok` within the timeout.
    fn read_response(
        &mut self,
        command: &str,
        stray: Vec<String>,
    ) -> Result<Response, ClientError> {
        let deadline = Instant::now() + self.timeout;
        let mut response = Response {
            stray,
            ..Response::default()
        };
        let mut bytes = 0usize;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(Event::Line { text, garbled }) => {
                    if text == "ok" && !garbled {
                        return Ok(response);
                    }
                    bytes += text.len() + 1;
                    response.garbled |= garbled;
                    response.lines.push(text);
                    if bytes > MAX_RESPONSE_BYTES {
                        self.defunct = Some(format!("flood of output on `{command}`"));
                        return Err(ClientError::Protocol {
                            command: command.to_string(),
                            detail: format!(
                                "more than {MAX_RESPONSE_BYTES} bytes of output without `ok`"
                            ),
                        });
                    }
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exited(command, response.lines));
                }
                Ok(Event::Failed(source)) => {
                    self.defunct = Some(format!("reading the answer to `{command}` failed"));
                    return Err(ClientError::Io {
                        command: command.to_string(),
                        source,
                    });
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.defunct =
                        Some(format!("no `ok` for `{command}` within {:?}", self.timeout));
                    return Err(ClientError::Timeout {
                        command: command.to_string(),
                        after: self.timeout,
                        partial_output: response.lines,
                    });
                }
            }
        }
    }

    /// The error for an engine whose output has ended: its exit status if it
    /// has one within [`EXIT_GRACE`].
    fn exited(&mut self, command: &str, partial_output: Vec<String>) -> ClientError {
        self.defunct = Some(format!("the engine exited during `{command}`"));
        self.stdin = None;
        let status = self.wait_for(EXIT_GRACE);
        ClientError::Exited {
            command: command.to_string(),
            status,
            partial_output,
        }
    }

    /// Waits up to `grace` for the engine to exit; its status if it did.
    fn wait_for(&mut self, grace: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return Some(status);
                }
                Ok(None) if Instant::now() < deadline => {
                    thread::sleep(Duration::from_millis(5));
                }
                _ => return None,
            }
        }
    }

    /// Ends the engine: sends `exit` (which prints nothing), closes its
    /// stdin, waits up to [`EXIT_GRACE`], then kills it.
    pub fn exit(mut self) -> Shutdown {
        if self.defunct.is_none() {
            // A failure here means the engine is already gone or stuck; the
            // wait and the kill below deal with both.
            let _ = self.send("exit");
        }
        self.stdin = None;
        match self.wait_for(EXIT_GRACE) {
            Some(status) => Shutdown::Exited(status),
            None => {
                self.kill();
                Shutdown::Killed
            }
        }
    }

    /// Kills and reaps the engine if it has not been reaped yet.
    fn kill(&mut self) {
        if self.reaped {
            return;
        }
        self.stdin = None;
        if let Ok(Some(_)) = self.child.try_wait() {
            self.reaped = true;
            return;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped = true;
    }

    /// `newgame` with a GameTypeString or a GameString (nothing: `Base`).
    pub fn newgame(&mut self, game: &str) -> Result<Response, ClientError> {
        let game = game.trim();
        if game.is_empty() {
            self.command("newgame")
        } else {
            self.command(&format!("newgame {game}"))
        }
    }

    /// `play` a MoveString; a refused move is a [`Response`] with
    /// [`Response::is_invalid_move`].
    pub fn play(&mut self, mv: &str) -> Result<Response, ClientError> {
        self.command(&format!("play {}", mv.trim()))
    }

    /// `pass`.
    pub fn pass(&mut self) -> Result<Response, ClientError> {
        self.command("pass")
    }

    /// `undo n`.
    pub fn undo(&mut self, n: usize) -> Result<Response, ClientError> {
        self.command(&format!("undo {n}"))
    }

    /// `validmoves`, split on `;` (blank items dropped). An empty line or no
    /// line means no moves (spec/sources/uhp-notes.md section 5.5); a refusal is
    /// [`ClientError::Refused`]; more than one line is a protocol error.
    pub fn validmoves(&mut self) -> Result<Vec<String>, ClientError> {
        let command = "validmoves";
        let response = self.command(command)?;
        if response.is_error() {
            return Err(ClientError::Refused {
                command: command.to_string(),
                lines: response.lines,
            });
        }
        match response.lines.as_slice() {
            [] => Ok(Vec::new()),
            [line] => Ok(line
                .split(';')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_string)
                .collect()),
            lines => Err(ClientError::Protocol {
                command: command.to_string(),
                detail: format!(
                    "expected one line of moves, got {}: {}",
                    lines.len(),
                    lines.join(" / ")
                ),
            }),
        }
    }
}

impl Drop for UhpClient {
    /// Kills a still-running engine, so that none is left behind.
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_handles_quotes_and_blanks() {
        // shell syntax: double and single quotes group, backslash escapes
        assert_eq!(
            split_command_line("  a  \"b c\" d\"e f\"g ").unwrap(),
            ["a", "b c", "de fg"]
        );
        assert_eq!(
            split_command_line("'my engine' --name 'it''s' x\\ y").unwrap(),
            ["my engine", "--name", "its", "x y"]
        );
        assert_eq!(split_command_line("\"\"").unwrap(), [""]);
        assert!(split_command_line("").unwrap().is_empty());
        assert!(split_command_line("a \"b").is_err());
        assert!(split_command_line("a 'b").is_err());
    }
}
