//! The engine's process: started as the root of a process tree of its own
//! (`process_tree`: a process group, a job object on Windows), its stdin
//! written by a thread (so that a write can have a deadline), its stdout
//! and stderr read by the threads of `reader`, and the whole tree ended
//! together, so that nothing it started (a wrapper script's engine, a
//! background job) is left running. What it says is the client's business
//! ([`crate::check::client`]); this is the process alone.

use std::io::{self, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::check::client::process_tree::{OwnTree, ProcessTree};
use crate::check::client::reader::{
    forward_lines, forward_stderr, Event, StderrTail, CHANNEL_EVENTS,
};

/// How long the engine is given to leave by itself (after `exit`, or once
/// its output has ended), and to finish writing its stderr.
pub const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Why the engine's process could not be started.
pub(crate) enum StartError {
    /// The program could not be run (not found, not executable…), or it
    /// has no pipes.
    Spawn(io::Error),
    /// A thread reading or writing its pipes could not be started; the
    /// process is ended.
    Threads(io::Error),
}

/// A running engine process and the threads on its pipes.
pub(crate) struct EngineProcess {
    child: Child,
    /// Lines to the writer thread, which owns the engine's stdin (dropped:
    /// the stdin is closed).
    stdin: Option<Sender<Vec<u8>>>,
    /// The writer thread's result for each write.
    written: Receiver<io::Result<()>>,
    /// Whether the child has been waited for.
    reaped: bool,
    /// Its exit status, once it was waited for.
    status: Option<ExitStatus>,
    /// The engine and every process it started, killed together.
    tree: ProcessTree,
    /// The last lines of the engine's stderr.
    stderr: Arc<Mutex<StderrTail>>,
}

impl EngineProcess {
    /// Starts `program` with `args` in a process group of its own, with the
    /// threads on its pipes; the events of its stdout arrive on the
    /// receiver returned.
    pub fn start(
        program: &str,
        args: &[String],
    ) -> Result<(EngineProcess, Receiver<Event>), StartError> {
        // A process group of its own (its id is the engine's pid), so that
        // ending the group ends everything the engine started; a signal to
        // the check waits until the group is known (`spawning`).
        let spawning = ProcessTree::spawning();
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .own_tree()
            .spawn()
            .map_err(StartError::Spawn)?;
        let mut tree = ProcessTree::adopt(&child);
        drop(spawning);
        let (Some(stdin_pipe), Some(stdout), Some(stderr_pipe)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            tree.kill();
            let _ = child.kill();
            let _ = child.wait();
            return Err(StartError::Spawn(io::Error::other("no pipe to the engine")));
        };
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        let tail = Arc::clone(&stderr);
        // A failure to start this thread only loses the stderr lines.
        let _ = thread::Builder::new()
            .name("uhp-client-stderr".to_string())
            .spawn(move || forward_stderr(stderr_pipe, tail));
        let (sender, events) = mpsc::sync_channel(CHANNEL_EVENTS);
        let reader = thread::Builder::new()
            .name("uhp-client-reader".to_string())
            .spawn(move || forward_lines(stdout, sender));
        let (stdin, lines) = mpsc::channel::<Vec<u8>>();
        let (done, written) = mpsc::channel();
        let writer = thread::Builder::new()
            .name("uhp-client-writer".to_string())
            .spawn(move || write_lines(stdin_pipe, lines, done));
        let process = EngineProcess {
            child,
            stdin: Some(stdin),
            written,
            reaped: false,
            status: None,
            tree,
            stderr,
        };
        match reader.and(writer) {
            // `process` is dropped here, which kills the engine.
            Err(e) => Err(StartError::Threads(e)),
            Ok(_) => Ok((process, events)),
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Its exit status, once it was seen to exit.
    pub fn status(&self) -> Option<ExitStatus> {
        self.status
    }

    /// Hands `bytes` to the writer thread and waits up to `timeout` for
    /// them to be written (an engine that does not read its input would
    /// otherwise block the check once the pipe is full).
    pub fn write_within(&mut self, bytes: Vec<u8>, timeout: Duration) -> io::Result<()> {
        let closed = || io::Error::new(io::ErrorKind::BrokenPipe, "stdin is closed");
        let stdin = self.stdin.as_ref().ok_or_else(closed)?;
        stdin.send(bytes).map_err(|_| closed())?;
        match self.written.recv_timeout(timeout) {
            Ok(result) => result,
            Err(RecvTimeoutError::Timeout) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the engine does not read its input",
            )),
            Err(RecvTimeoutError::Disconnected) => Err(closed()),
        }
    }

    /// Closes the engine's stdin (the writer thread ends).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Whether the engine's process has exited (it is reaped if it has).
    pub fn has_exited(&mut self) -> bool {
        if self.reaped {
            return true;
        }
        match self.child.try_wait() {
            Ok(Some(status)) => {
                self.reaped = true;
                self.status = Some(status);
                true
            }
            _ => false,
        }
    }

    /// Waits up to `grace` for the engine to exit; its status if it did.
    pub fn wait_for(&mut self, grace: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + grace;
        loop {
            if self.has_exited() {
                return self.status;
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Kills the engine's whole process group (the engine and everything it
    /// started that stayed in it), and reaps the engine if it has not been
    /// reaped yet.
    pub fn kill(&mut self) {
        self.stdin = None;
        self.tree.kill();
        if self.reaped {
            return;
        }
        let _ = self.child.kill();
        if let Ok(status) = self.child.wait() {
            self.status = Some(status);
        }
        self.reaped = true;
    }

    /// The last lines the engine wrote on stderr. When the engine has
    /// exited, waits up to [`EXIT_GRACE`] for its stderr to be read to the
    /// end, so that a crash message is whole.
    pub fn stderr_tail(&mut self) -> Vec<String> {
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
}

impl Drop for EngineProcess {
    /// Kills a still-running engine, so that none is left behind.
    fn drop(&mut self) {
        self.kill();
    }
}

/// The writer thread: writes each request to the engine's stdin and reports
/// the result; ends (closing the stdin) when the client drops its sender.
fn write_lines(mut stdin: ChildStdin, lines: Receiver<Vec<u8>>, done: Sender<io::Result<()>>) {
    for bytes in lines {
        let result = stdin.write_all(&bytes).and_then(|()| stdin.flush());
        if done.send(result).is_err() {
            return;
        }
    }
}
