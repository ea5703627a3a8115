//! The client itself, [`UhpClient`]: one engine process driven one command
//! at a time, every read with a deadline and every answer bounded
//! ([`MAX_ANSWER_BYTES`], [`MAX_ANSWER_LINES`], [`MAX_LISTED_MOVES`]).

use std::fmt;
use std::io;
use std::process::ExitStatus;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::check::client::answer::{Capabilities, ClientError, Response, Shutdown, STARTUP};
use crate::check::client::command_line::split_command_line;
use crate::check::client::process::{EngineProcess, StartError, EXIT_GRACE};
use crate::check::client::reader::{Event, MAX_LINE_BYTES};

/// The most output accepted for one command (its answer, and the lines
/// printed unasked before it), in bytes, counting the dropped part of cut
/// lines: beyond it the engine is flooding ([`ClientError::Flood`]). Twice
/// the longest line kept; the longest answer of a correct engine (a
/// `validmoves` list, a GameString) is a few kilobytes.
pub const MAX_ANSWER_BYTES: usize = 2 * MAX_LINE_BYTES;
/// The most lines accepted for one command (see [`MAX_ANSWER_BYTES`]); a
/// correct engine answers any command in a few lines.
pub const MAX_ANSWER_LINES: usize = 10_000;
/// The most entries accepted in a `validmoves` list: beyond it the engine
/// is flooding ([`ClientError::Flood`]). A correct list names each legal
/// move of a position once (§9.35), a few hundred at most; each entry costs
/// a resolution in every comparison.
pub const MAX_LISTED_MOVES: usize = 10_000;
/// How often a wait for the engine looks whether its process has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// A running UHP engine.
pub struct UhpClient {
    /// The engine's process and the threads on its pipes.
    process: EngineProcess,
    events: Receiver<Event>,
    timeout: Duration,
    banner: Vec<String>,
    id: String,
    capabilities: Capabilities,
    /// Set by the first failure that leaves the engine's state unknown.
    defunct: Option<String>,
}

impl fmt::Debug for UhpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UhpClient")
            .field("pid", &self.process.pid())
            .field("id", &self.id)
            .field("capabilities", &self.capabilities)
            .field("timeout", &self.timeout)
            .field("defunct", &self.defunct)
            .finish()
    }
}

impl UhpClient {
    /// Starts the engine `command_line` (program and arguments, split into
    /// words as a POSIX shell does) and reads its start-up banner up to the
    /// first `ok` within `timeout`, which also bounds every later command.
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
        let (process, events) = EngineProcess::start(program, args).map_err(|e| match e {
            StartError::Spawn(source) => spawn_error(source),
            StartError::Threads(source) => ClientError::Io {
                command: STARTUP.to_string(),
                source,
            },
        })?;
        let mut client = UhpClient {
            process,
            events,
            timeout,
            banner: Vec::new(),
            id: String::new(),
            capabilities: Capabilities::default(),
            defunct: None,
        };
        client.timeout = startup_timeout;
        let banner = client.read_response(STARTUP, Vec::new());
        client.timeout = timeout;
        if let Err(error) = banner.and_then(|banner| client.read_banner(banner)) {
            // its own cause, with what the engine said on stderr
            let stderr = client.stderr_tail();
            return Err(ClientError::StartUp {
                error: Box::new(error),
                stderr,
            });
        }
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
        self.process.pid()
    }

    /// The timeout on every command.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Changes the timeout on later commands (for a long `bestmove`, say).
    pub(crate) fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The last lines (at most
    /// [`STDERR_TAIL_LINES`](crate::check::client::reader::STDERR_TAIL_LINES)) the
    /// engine wrote on stderr. When the engine has exited, waits up to
    /// [`EXIT_GRACE`] for its stderr to be read to the end, so that a crash
    /// message is whole.
    pub(crate) fn stderr_tail(&mut self) -> Vec<String> {
        self.process.stderr_tail()
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
        self.write_or_fail(label, bytes.to_vec(), Vec::new())?;
        self.read_response(label, Vec::new())
    }

    /// Reads one more answer up to `ok` without sending anything (after
    /// [`UhpClient::send_raw`] sent several lines).
    pub(crate) fn read_answer(&mut self, label: &str) -> Result<Response, ClientError> {
        self.read_response(label, Vec::new())
    }

    /// Closes the engine's stdin without `exit` and waits up to `grace` for
    /// it to leave by itself; its exit status if it did (it is killed
    /// otherwise, and whatever it started in either case).
    pub(crate) fn close_input(mut self, grace: Duration) -> Option<ExitStatus> {
        self.process.close_stdin();
        let status = self.process.wait_for(grace);
        self.process.kill();
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
        // Whatever the engine printed since the last `ok` was not asked for;
        // it counts toward the bound on this command's answer.
        let mut stray = Vec::new();
        let mut output = OutputCount::default();
        let mut ended = false;
        while let Ok(event) = self.events.try_recv() {
            match event {
                Event::Line { text, .. } => {
                    output.line(&text);
                    stray.push(text);
                }
                Event::Skipped(bytes) => output.bytes += bytes,
                Event::Eof | Event::Failed(_) => {
                    ended = true;
                    break;
                }
            }
            if output.exceeded() {
                return Err(self.flood(&command, &output, stray));
            }
        }
        if ended {
            return Err(self.exited(&command, stray));
        }
        let mut bytes = command.clone().into_bytes();
        bytes.push(b'\n');
        self.write_or_fail(&command, bytes, stray.clone())?;
        self.read_response_counted(&command, stray, output)
    }

    /// Writes `bytes` to the engine within the timeout. An engine that is
    /// gone shows as an exit; one that does not read its input as a timeout.
    fn write_or_fail(
        &mut self,
        command: &str,
        bytes: Vec<u8>,
        stray: Vec<String>,
    ) -> Result<(), ClientError> {
        match self.process.write_within(bytes, self.timeout) {
            Ok(()) => Ok(()),
            // A dead engine shows as a broken pipe: report it as an exit.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(self.exited(command, stray)),
            Err(e) if e.kind() == io::ErrorKind::TimedOut => {
                self.defunct = Some(format!("`{command}` not read within {:?}", self.timeout));
                self.process.kill();
                Err(ClientError::Timeout {
                    command: command.to_string(),
                    after: self.timeout,
                    partial_output: stray,
                })
            }
            Err(e) => {
                self.defunct = Some(format!("writing `{command}` failed: {e}"));
                Err(ClientError::Io {
                    command: command.to_string(),
                    source: e,
                })
            }
        }
    }

    fn send(&mut self, command: &str) -> io::Result<()> {
        let mut bytes = command.as_bytes().to_vec();
        bytes.push(b'\n');
        self.process.write_within(bytes, self.timeout)
    }

    /// Reads lines up to `ok` within the timeout.
    fn read_response(
        &mut self,
        command: &str,
        stray: Vec<String>,
    ) -> Result<Response, ClientError> {
        self.read_response_counted(command, stray, OutputCount::default())
    }

    /// Reads lines up to `ok` within the timeout, `output` already printed
    /// for this command; ends the engine when it floods, or when its process
    /// has exited and its output stays open.
    fn read_response_counted(
        &mut self,
        command: &str,
        stray: Vec<String>,
        mut output: OutputCount,
    ) -> Result<Response, ClientError> {
        let deadline = Instant::now() + self.timeout;
        let mut response = Response {
            stray,
            ..Response::default()
        };
        // When the engine's process was first seen to have exited.
        let mut exited_at: Option<Instant> = None;
        loop {
            let now = Instant::now();
            let left = deadline.saturating_duration_since(now);
            match self.events.recv_timeout(left.min(EXIT_POLL)) {
                Ok(Event::Line { text, garbled }) => {
                    if text == "ok" && !garbled {
                        return Ok(response);
                    }
                    output.line(&text);
                    response.garbled |= garbled;
                    response.lines.push(text);
                    if output.exceeded() {
                        return Err(self.flood(command, &output, response.lines));
                    }
                }
                Ok(Event::Skipped(bytes)) => {
                    output.bytes += bytes;
                    if output.exceeded() {
                        return Err(self.flood(command, &output, response.lines));
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
                    // The process has exited but its stdout has not ended:
                    // something it started holds it.
                    if exited_at.is_none() && self.process.has_exited() {
                        exited_at = Some(Instant::now());
                    }
                    let held = exited_at.is_some_and(|at| at.elapsed() >= EXIT_GRACE);
                    if held || (Instant::now() >= deadline && exited_at.is_some()) {
                        self.defunct = Some(format!(
                            "the engine exited during `{command}` but its output stays open"
                        ));
                        self.process.kill();
                        return Err(ClientError::OutputHeldOpen {
                            command: command.to_string(),
                            status: self.process.status(),
                            partial_output: response.lines,
                        });
                    }
                    if Instant::now() >= deadline {
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
    }

    /// The error for an engine that printed more than an answer may hold;
    /// the engine (its whole process group) is ended at once.
    fn flood(&mut self, command: &str, output: &OutputCount, lines: Vec<String>) -> ClientError {
        self.defunct = Some(format!("flood of output on `{command}`"));
        self.process.kill();
        let mut partial_output = lines;
        partial_output.truncate(FLOOD_LINES_KEPT);
        ClientError::Flood {
            command: command.to_string(),
            detail: format!(
                "more than {} without `ok` (the bound on one answer: {MAX_ANSWER_BYTES} bytes, {MAX_ANSWER_LINES} lines)",
                if output.lines > MAX_ANSWER_LINES {
                    format!("{MAX_ANSWER_LINES} lines")
                } else {
                    format!("{MAX_ANSWER_BYTES} bytes")
                }
            ),
            partial_output,
        }
    }

    /// The error for an engine whose output has ended: its exit status if it
    /// has one within [`EXIT_GRACE`].
    fn exited(&mut self, command: &str, partial_output: Vec<String>) -> ClientError {
        self.defunct = Some(format!("the engine exited during `{command}`"));
        self.process.close_stdin();
        let status = self.process.wait_for(EXIT_GRACE);
        ClientError::Exited {
            command: command.to_string(),
            status,
            partial_output,
        }
    }

    /// Ends the engine: sends `exit` (which prints nothing), closes its
    /// stdin, waits up to [`EXIT_GRACE`], then kills it; whatever it started
    /// is killed in either case.
    pub fn exit(mut self) -> Shutdown {
        if self.defunct.is_none() {
            // A failure here means the engine is already gone or stuck; the
            // wait and the kill below deal with both. An engine that does
            // not read is not waited for longer than the grace.
            self.timeout = self.timeout.min(EXIT_GRACE);
            let _ = self.send("exit");
        }
        self.process.close_stdin();
        let shutdown = match self.process.wait_for(EXIT_GRACE) {
            Some(status) => Shutdown::Exited(status),
            None => Shutdown::Killed,
        };
        self.process.kill();
        shutdown
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
            [line] => {
                let moves: Vec<String> = line
                    .split(';')
                    .map(str::trim)
                    .filter(|m| !m.is_empty())
                    .map(str::to_string)
                    .collect();
                if moves.len() > MAX_LISTED_MOVES {
                    // each entry costs a resolution in every comparison: a
                    // list longer than any position's is refused unread
                    self.defunct = Some("too many moves in `validmoves`".to_string());
                    self.process.kill();
                    return Err(ClientError::Flood {
                        command: command.to_string(),
                        detail: format!(
                            "{} entries in the list, more than {MAX_LISTED_MOVES} (the bound on a `validmoves` list, far above any position's legal moves)",
                            moves.len()
                        ),
                        partial_output: vec![line.clone()],
                    });
                }
                Ok(moves)
            }
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

/// How many lines of a flood are kept for the finding.
const FLOOD_LINES_KEPT: usize = 20;

/// What an engine printed for one command so far.
#[derive(Default)]
struct OutputCount {
    bytes: usize,
    lines: usize,
}

impl OutputCount {
    fn line(&mut self, text: &str) {
        self.bytes += text.len() + 1;
        self.lines += 1;
    }

    /// Whether it is more than one answer may hold.
    fn exceeded(&self) -> bool {
        self.bytes > MAX_ANSWER_BYTES || self.lines > MAX_ANSWER_LINES
    }
}
