//! The client's reader threads: the engine's stdout forwarded line by line
//! over a bounded channel (so that every read can have a deadline, and an
//! engine that prints faster than the client reads waits on its pipe rather
//! than filling memory), and the last lines of its stderr kept for findings.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// The longest line kept, in bytes; the rest of a longer line is dropped
/// and the line is flagged as garbled.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What the reader thread forwards.
pub(crate) enum Event {
    /// A line (at most [`MAX_LINE_BYTES`] of it); `garbled` when it is not
    /// UTF-8 or was cut.
    Line {
        text: String,
        garbled: bool,
    },
    /// More bytes of a line that was cut, dropped unread: they count toward
    /// the bound on an answer, so that a line without end is a flood.
    Skipped(usize),
    Eof,
    Failed(io::Error),
}

/// How many events wait in the channel at most (each line at most
/// [`MAX_LINE_BYTES`]): beyond them the reader stops reading the pipe.
pub(crate) const CHANNEL_EVENTS: usize = 16;

/// The dropped bytes of a cut line are reported in pieces of this size.
const SKIPPED_REPORT_BYTES: usize = 64 << 10;

/// How many of the engine's last stderr lines are kept.
pub(crate) const STDERR_TAIL_LINES: usize = 20;

/// The last lines the engine wrote on stderr, filled by a reader thread.
#[derive(Default)]
pub(crate) struct StderrTail {
    pub lines: VecDeque<String>,
    /// Whether the engine's stderr has ended.
    pub closed: bool,
}

/// Reads the engine's stderr line by line into `tail`, keeping the last
/// [`STDERR_TAIL_LINES`] (each cut at 1,000 bytes).
pub(crate) fn forward_stderr(err: impl Read, tail: Arc<Mutex<StderrTail>>) {
    let mut reader = BufReader::new(err);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = reader.by_ref().take(1000).read_until(b'\n', &mut buf);
        let line = match read {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let ended = buf.last() == Some(&b'\n');
                if ended {
                    buf.pop();
                } else if buf.len() >= 1000 && skip_stderr_line(&mut reader).is_err() {
                    buf.clear();
                }
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                Some(String::from_utf8_lossy(&buf).into_owned())
            }
        };
        let Ok(mut tail) = tail.lock() else { return };
        match line {
            None => {
                tail.closed = true;
                return;
            }
            Some(line) => {
                tail.lines.push_back(line);
                while tail.lines.len() > STDERR_TAIL_LINES {
                    tail.lines.pop_front();
                }
            }
        }
    }
}

/// Reads `\n`-terminated lines from `out` and forwards them until end of
/// output or until the client is gone.
pub(crate) fn forward_lines(out: impl Read, events: mpsc::SyncSender<Event>) {
    let mut reader = BufReader::new(out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // Read at most MAX_LINE_BYTES of a line, then skip the rest of it.
        let read = reader
            .by_ref()
            .take(MAX_LINE_BYTES as u64)
            .read_until(b'\n', &mut buf);
        let event = match read {
            Ok(0) => Event::Eof,
            Ok(_) => {
                let mut garbled = false;
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                } else if buf.len() >= MAX_LINE_BYTES {
                    garbled = true;
                    let text = String::from_utf8_lossy(&buf).into_owned();
                    if events.send(Event::Line { text, garbled }).is_err() {
                        return;
                    }
                    // The rest of the line, reported as dropped bytes.
                    match skip_line(&mut reader, &events) {
                        Ok(true) => continue,
                        Ok(false) => return,
                        Err(e) => {
                            let _ = events.send(Event::Failed(e));
                            return;
                        }
                    }
                }
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                let text = match String::from_utf8(std::mem::take(&mut buf)) {
                    Ok(text) => text,
                    Err(e) => {
                        garbled = true;
                        String::from_utf8_lossy(e.as_bytes()).into_owned()
                    }
                };
                Event::Line { text, garbled }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => Event::Failed(e),
        };
        let last = !matches!(event, Event::Line { .. });
        if events.send(event).is_err() || last {
            return;
        }
    }
}

/// Discards the rest of an over-long line, telling the client how many
/// bytes were dropped; false when the client is gone.
fn skip_line(reader: &mut impl BufRead, events: &mpsc::SyncSender<Event>) -> io::Result<bool> {
    let mut dropped = 0usize;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let (len, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(end) => (end + 1, true),
            None if chunk.is_empty() => (0, true),
            None => (chunk.len(), false),
        };
        reader.consume(len);
        dropped += len;
        if ended || dropped >= SKIPPED_REPORT_BYTES {
            if events.send(Event::Skipped(dropped)).is_err() {
                return Ok(false);
            }
            dropped = 0;
        }
        if ended {
            return Ok(true);
        }
    }
}

/// Discards the rest of an over-long stderr line.
fn skip_stderr_line(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        if let Some(end) = chunk.iter().position(|&b| b == b'\n') {
            reader.consume(end + 1);
            return Ok(());
        }
        let len = chunk.len();
        reader.consume(len);
    }
}
