//! The client's reader threads: the engine's stdout forwarded line by line
//! over a channel (so that every read can have a deadline), and the last
//! lines of its stderr kept for findings.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use crate::check::client::MAX_LINE_BYTES;

/// What the reader thread forwards.
pub(crate) enum Event {
    Line { text: String, garbled: bool },
    Eof,
    Failed(io::Error),
}

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
                } else if buf.len() >= 1000 && skip_line(&mut reader).is_err() {
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
pub(crate) fn forward_lines(out: impl Read, events: mpsc::Sender<Event>) {
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
                    if let Err(e) = skip_line(&mut reader) {
                        let _ = events.send(Event::Failed(e));
                        return;
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

/// Discards the rest of an over-long line.
fn skip_line(reader: &mut impl BufRead) -> io::Result<()> {
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
