//! Serving a session: the loop that reads input lines (skipping those
//! longer than [`MAX_LINE_BYTES`]), hands each to the session and writes
//! its response, flushed, until `exit` or the end of the input. [`serve`]
//! runs it on anything that answers lines ([`LineHandler`]); [`run`] and
//! [`run_with_reader`] run it on a [`Session`].

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use super::game::EngineChoice;
use super::session::{Session, MAX_LINE_BYTES};

/// The outcome of reading one line.
enum Read {
    Eof,
    Line,
    TooLong,
}

/// Reads one line, its `\n` included, into `line` (cleared first); a line
/// longer than `max` bytes is skipped to its end and reported as too long.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<Read> {
    line.clear();
    let mut seen = 0usize;
    let mut too_long = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(match (seen, too_long) {
                (0, _) => Read::Eof,
                (_, true) => Read::TooLong,
                _ => Read::Line,
            });
        }
        let (length, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        seen = seen.saturating_add(length);
        if !too_long {
            if line.len() + length > max {
                too_long = true;
                line.clear();
                line.shrink_to_fit();
            } else {
                line.extend_from_slice(&buffer[..length]);
            }
        }
        input.consume(length);
        if done {
            return Ok(if too_long { Read::TooLong } else { Read::Line });
        }
    }
}

/// Writes `lines`, each ended by `\n`, and flushes.
fn write_lines(output: &mut impl Write, lines: &[String]) -> io::Result<()> {
    for line in lines {
        output.write_all(line.as_bytes())?;
        output.write_all(b"\n")?;
    }
    output.flush()
}

/// What [`serve`] drives: a UHP engine that answers one input line at a
/// time. [`Session`] is the real one; a type that wraps a `Session` to
/// change some of its answers runs in the same loop.
pub trait LineHandler {
    /// What the engine prints at start-up: the `info` lines and `ok`.
    fn banner(&self) -> Vec<String>;
    /// The response to one input line (with or without its line ending):
    /// zero or more lines and `ok`, nothing for a blank line or `exit`.
    fn handle_line(&mut self, line: &[u8]) -> Vec<String>;
    /// The response to a line longer than [`MAX_LINE_BYTES`], which is not read.
    fn long_line_reply(&self) -> Vec<String>;
    /// Whether `exit` has been received; nothing more is read then.
    fn has_exited(&self) -> bool;
}

impl LineHandler for Session {
    fn banner(&self) -> Vec<String> {
        Session::banner(self)
    }

    fn handle_line(&mut self, line: &[u8]) -> Vec<String> {
        Session::handle_line(self, line)
    }

    fn long_line_reply(&self) -> Vec<String> {
        Session::long_line_reply(self)
    }

    fn has_exited(&self) -> bool {
        Session::has_exited(self)
    }
}

/// Runs a UHP session: prints the banner, then answers each input line,
/// flushing after every response, until `exit` or the end of the input.
/// Only an I/O error on the streams ends it early.
pub fn run(input: impl BufRead, output: impl Write, engine: EngineChoice) -> io::Result<()> {
    serve(input, output, Session::new(engine))
}

/// One input line as the reader thread of [`run_with_reader`] hands it over.
enum Received {
    Line(Vec<u8>, Instant),
    TooLong,
}

/// Runs a UHP session like [`run`], with the input read on a thread of its
/// own (the `hive-oracle uhp` command). The reader hands over one line at a
/// time and reads the next while the session answers; when the input ends
/// it sets a flag that stops a running `bestmove` search at once, by time
/// or by depth (its best move so far is printed, as when the budget runs
/// out), so an engine whose client has gone does not search on for minutes.
/// A script piped in that ends with `exit` gets the same answers as an
/// interactive client: the reader is at most one line ahead, so it has not
/// reached the end of the input while the search before `exit` runs.
/// `bestmove time` counts its budget from the moment the reader read the
/// line.
pub fn run_with_reader(
    input: impl BufRead + Send + 'static,
    output: impl Write,
    engine: EngineChoice,
) -> io::Result<()> {
    run_session_with_reader(input, output, Session::new(engine))
}

/// [`run_with_reader`] with a session set up beforehand (for example with
/// position strings, [`Session::with_position_strings`]).
pub fn run_session_with_reader(
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
    mut session: Session,
) -> io::Result<()> {
    let closed = Arc::new(AtomicBool::new(false));
    session.stop_searches_on(Arc::clone(&closed));
    // a rendezvous channel: the reader is at most one line ahead
    let (lines, received) = mpsc::sync_channel::<io::Result<Received>>(0);
    // Detached: after `exit` the process ends while the reader may still
    // wait for input; its sends then fail and it stops.
    std::thread::spawn(move || hand_over_lines(input, &lines, &closed));
    write_lines(&mut output, &session.banner())?;
    // the channel closes when the reader stops: the end of the input
    while let Ok(item) = received.recv() {
        let reply = match item? {
            Received::Line(line, read_at) => session.handle_line_read_at(&line, read_at),
            Received::TooLong => session.long_line_reply(),
        };
        if !reply.is_empty() {
            write_lines(&mut output, &reply)?;
        }
        if session.has_exited() {
            return Ok(());
        }
    }
    Ok(())
}

/// The reader thread of [`run_with_reader`]: reads `input` line by line and
/// sends each line (with the moment it was read) to `lines`, until the end
/// of the input or an error (sent too), when it sets `closed`, or until the
/// receiver is gone.
fn hand_over_lines(
    mut input: impl BufRead,
    lines: &mpsc::SyncSender<io::Result<Received>>,
    closed: &AtomicBool,
) {
    let mut line = Vec::new();
    loop {
        let item = match read_line(&mut input, &mut line, MAX_LINE_BYTES) {
            Ok(Read::Line) => Ok(Received::Line(std::mem::take(&mut line), Instant::now())),
            Ok(Read::TooLong) => Ok(Received::TooLong),
            Ok(Read::Eof) => {
                closed.store(true, Ordering::Relaxed);
                return;
            }
            Err(e) => {
                closed.store(true, Ordering::Relaxed);
                Err(e)
            }
        };
        let failed = item.is_err();
        if lines.send(item).is_err() || failed {
            return;
        }
    }
}

/// The loop of [`run`] on any [`LineHandler`]: prints its banner, then
/// reads lines (skipping those longer than [`MAX_LINE_BYTES`]) and writes
/// each response, until `exit` or the end of the input.
pub fn serve(
    mut input: impl BufRead,
    mut output: impl Write,
    mut session: impl LineHandler,
) -> io::Result<()> {
    write_lines(&mut output, &session.banner())?;
    let mut line = Vec::new();
    loop {
        let reply = match read_line(&mut input, &mut line, MAX_LINE_BYTES)? {
            Read::Eof => return Ok(()),
            Read::Line => session.handle_line(&line),
            Read::TooLong => session.long_line_reply(),
        };
        if !reply.is_empty() {
            write_lines(&mut output, &reply)?;
        }
        if session.has_exited() {
            return Ok(());
        }
    }
}
