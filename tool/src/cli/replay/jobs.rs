//! The jobs of `replay`: files replayed in parallel under one memory
//! budget, each file's games reported in the order of the files as they are
//! replayed: the file next in order streams its games to the report one by
//! one, and the files after it keep at most [`GAMES_AHEAD`] games each until
//! their turn comes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::{Condvar, Mutex};

use crate::input::{bytes_once_read, RecordFileError};
use crate::reports::replay::{FileEnd, GameResult, Piece};
use hive_oracle_rules::records::RecordError;

/// Replays one file, giving each game to the sink as it is replayed; the
/// file's end (every game given, or why the file is not read).
pub(super) type ReplayFile<'f> = dyn Fn(&Path, &mut dyn FnMut(GameResult)) -> FileEnd + Sync + 'f;

/// The games a file replayed ahead of its turn keeps before its job waits
/// for the files before it: what waits to be reported is bounded by the
/// jobs, not by the size of an archive.
const GAMES_AHEAD: usize = 1024;

/// The games a job sends the report at once (a divisor of [`GAMES_AHEAD`]):
/// a batch costs one message and one look at whose turn it is.
const GAMES_SENT: usize = 64;

/// Replays `files` with `replay_file` on `jobs` threads, `tick` called
/// after each file, and gives each file's games and then its end to
/// `report` (on this thread) in the order of the files: the games of the
/// first file not yet reported as they are replayed, those of a file after
/// it once every file before it is reported. A game is released once
/// reported. The files are started in their order, each once the memory
/// budget ([`MemoryBudget`]) has room for it, and a file keeps its share of
/// the budget until its end is reported.
pub(super) fn replay_files(
    files: &[PathBuf],
    replay_file: &ReplayFile<'_>,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
    report: &mut dyn FnMut(Piece),
) {
    let jobs = jobs.clamp(1, files.len().max(1));
    // a zip archive weighs what its entries decompress to, not its size
    let sizes: Vec<u64> = files.iter().map(|f| bytes_once_read(f)).collect();
    let budget = MemoryBudget::new(sizes);
    let turn = Turn::default();
    let mut in_order = InOrder {
        waiting: BTreeMap::new(),
        turn: &turn,
        report,
    };
    // The jobs replay; this thread reports (it may hold stdout's lock).
    std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel();
        for _ in 0..jobs {
            let (budget, turn, done) = (&budget, &turn, done.clone());
            scope.spawn(move || {
                while let Some((i, held)) = budget.admit() {
                    let mut out = FileOut {
                        file: i,
                        ahead: Vec::new(),
                        turn,
                        done: &done,
                        gone: false,
                    };
                    let end = replay_caught(&files[i], replay_file, &mut |game| out.give(game));
                    tick();
                    out.flush();
                    if out.gone || done.send(Sent::End(i, end, held)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        for sent in finished {
            in_order.received(sent);
        }
    });
}

/// Replays one file; a panic (a bug: nothing in a record should cause one)
/// makes the file unreadable with a message, so that the files after it
/// are still reported and the budget it held is given back.
fn replay_caught(
    path: &Path,
    replay_file: &ReplayFile<'_>,
    sink: &mut dyn FnMut(GameResult),
) -> FileEnd {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| replay_file(path, sink)))
        .unwrap_or_else(|_| {
            Err(RecordFileError::from(RecordError::new(
                &path.display().to_string(),
                0,
                "not replayed: the replay stopped on an internal error (please report it)",
            )))
        })
}

/// What a job sends the reporting thread.
enum Sent<'a> {
    /// Games of file `i`, in its order.
    Games(usize, Vec<GameResult>),
    /// File `i` is done, with its share of the budget.
    End(usize, FileEnd, Held<'a>),
}

/// The first file not yet reported, which the reporting thread advances
/// and a job ahead of its turn waits for.
#[derive(Default)]
struct Turn {
    next: Mutex<usize>,
    advanced: Condvar,
}

impl Turn {
    fn current(&self) -> usize {
        *self.next.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn is(&self, file: usize) -> bool {
        self.current() == file
    }

    /// Waits until `file` is the next to report.
    fn wait_for(&self, file: usize) {
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        while *next < file {
            next = self.advanced.wait(next).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The next file is reported: the one after it comes next.
    fn advance(&self) {
        *self.next.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.advanced.notify_all();
    }
}

/// A job's games of one file on their way to the report: sent at once
/// when the file's turn has come, kept (at most [`GAMES_AHEAD`]) before.
struct FileOut<'t, 's, 'a> {
    file: usize,
    ahead: Vec<GameResult>,
    turn: &'t Turn,
    done: &'s Sender<Sent<'a>>,
    /// The reporting thread is gone (it stopped): nothing more is sent.
    gone: bool,
}

impl FileOut<'_, '_, '_> {
    fn give(&mut self, game: GameResult) {
        self.ahead.push(game);
        // games go in batches: one message and one look at the turn for
        // every GAMES_SENT games rather than for each
        if !self.ahead.len().is_multiple_of(GAMES_SENT) {
            return;
        }
        if self.ahead.len() >= GAMES_AHEAD {
            // a file ahead of its turn waits for it with its games kept
            self.turn.wait_for(self.file);
            self.flush();
        } else if self.turn.is(self.file) {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.ahead.is_empty() || self.gone {
            return;
        }
        let games = std::mem::take(&mut self.ahead);
        if self.done.send(Sent::Games(self.file, games)).is_err() {
            self.gone = true;
        }
    }
}

/// The files replayed but not yet reported (their games, their end and
/// share of the budget) until every file before them is reported.
struct InOrder<'a, 't, 'r> {
    waiting: BTreeMap<usize, Waiting<'a>>,
    turn: &'t Turn,
    report: &'r mut dyn FnMut(Piece),
}

/// What a file after the next one sent before its turn.
#[derive(Default)]
struct Waiting<'a> {
    games: Vec<GameResult>,
    end: Option<(FileEnd, Held<'a>)>,
}

impl<'a> InOrder<'a, '_, '_> {
    /// Reports what a job sent if its file is next, keeps it otherwise;
    /// then every waiting file that now comes next, releasing each one's
    /// games and budget.
    fn received(&mut self, sent: Sent<'a>) {
        let next = self.turn.current();
        match sent {
            Sent::Games(i, games) if i == next => self.games(games),
            Sent::Games(i, games) => self.waiting.entry(i).or_default().games.extend(games),
            Sent::End(i, end, held) => self.waiting.entry(i).or_default().end = Some((end, held)),
        }
        loop {
            let next = self.turn.current();
            let Some(waiting) = self.waiting.get_mut(&next) else {
                break;
            };
            let games = std::mem::take(&mut waiting.games);
            let end = waiting.end.take();
            self.games(games);
            // without its end, its job goes on: its games come straight to
            // the report now
            let Some((end, held)) = end else { break };
            self.waiting.remove(&next);
            (self.report)(Piece::End(end));
            drop(held);
            self.turn.advance();
        }
    }

    fn games(&mut self, games: Vec<GameResult>) {
        for game in games {
            (self.report)(Piece::Game(game));
        }
    }
}
/// The bytes of small files replayed at once beside the largest one.
const SMALL_FILES_BYTES: u64 = 16 << 20;

/// The memory the jobs of `replay` share: the bytes of the files replayed
/// or waiting to be reported, at most the largest file plus
/// [`SMALL_FILES_BYTES`], so that `--jobs 4` on four large files replays
/// and reports them one after the other while small files still go in
/// parallel. A file's memory (its text, one game at a time, its reports
/// until they are written) is a small multiple of its size.
///
/// Files are admitted in their order: the first file not yet reported is
/// always admitted (replaying, or reported as soon as it is replayed), so
/// the files waiting behind it, which hold the rest of the budget, are
/// always reported in the end.
struct MemoryBudget {
    sizes: Vec<u64>,
    admission: Mutex<Admission>,
    freed: std::sync::Condvar,
}

/// The budget's bytes free and the next file to admit.
struct Admission {
    free: u64,
    next: usize,
}

/// A share of the [`MemoryBudget`], given back when dropped.
struct Held<'a> {
    budget: &'a MemoryBudget,
    bytes: u64,
}

impl MemoryBudget {
    /// The budget of files of these sizes (in bytes, in their order).
    fn new(sizes: Vec<u64>) -> MemoryBudget {
        let free = sizes.iter().copied().max().unwrap_or(0) + SMALL_FILES_BYTES;
        MemoryBudget {
            sizes,
            admission: Mutex::new(Admission { free, next: 0 }),
            freed: std::sync::Condvar::new(),
        }
    }

    /// The next file and its share of the budget, once the budget has room
    /// for it; `None` when every file is admitted. No file is over the
    /// budget, so each one's turn comes.
    fn admit(&self) -> Option<(usize, Held<'_>)> {
        let mut admission = self.admission.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let next = admission.next;
            let bytes = *self.sizes.get(next)?;
            if admission.free >= bytes {
                admission.free -= bytes;
                admission.next += 1;
                return Some((
                    next,
                    Held {
                        budget: self,
                        bytes,
                    },
                ));
            }
            admission = self
                .freed
                .wait(admission)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let mut admission = self
            .budget
            .admission
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        admission.free += self.bytes;
        self.budget.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A game of file `file`, numbered: what the report must get in order.
    fn game(file: &str, n: usize) -> GameResult {
        Err(RecordError::new(file, n, "a game"))
    }

    /// docs/limits.md `replay-stream`: a file replayed ahead of its turn
    /// holds at most [`GAMES_AHEAD`] games: its job waits there until the
    /// file before it is reported, and the report still gets every game of
    /// every file in the files' order. File 0 gives its games only once
    /// file 1 has given GAMES_AHEAD of its 3 × GAMES_AHEAD.
    #[test]
    fn a_file_ahead_of_its_turn_waits_with_at_most_its_share_of_games() {
        let files = [
            PathBuf::from("no-such-file-0"),
            PathBuf::from("no-such-file-1"),
        ];
        let given = AtomicUsize::new(0);
        let replay_file = |path: &Path, sink: &mut dyn FnMut(GameResult)| -> FileEnd {
            if path == files[0] {
                while given.load(Ordering::SeqCst) < GAMES_AHEAD {
                    std::thread::yield_now();
                }
                for n in 0..5 {
                    sink(game("f0", n));
                }
            } else {
                for n in 0..3 * GAMES_AHEAD {
                    given.fetch_add(1, Ordering::SeqCst);
                    sink(game("f1", n));
                }
            }
            Ok(())
        };
        let mut got = Vec::new();
        let mut given_at_first_end = None;
        replay_files(&files, &replay_file, 2, &|| {}, &mut |piece| match piece {
            Piece::Game(Err(error)) => got.push((error.file, error.line)),
            Piece::Game(Ok(_)) => panic!("no game replays here"),
            Piece::End(end) => {
                assert!(end.is_ok());
                given_at_first_end.get_or_insert(given.load(Ordering::SeqCst));
                got.push(("end".into(), 0));
            }
        });
        // file 1's job was held at its share until file 0 was reported
        assert_eq!(given_at_first_end, Some(GAMES_AHEAD));
        let mut want: Vec<(String, usize)> = (0..5).map(|n| ("f0".into(), n)).collect();
        want.push(("end".into(), 0));
        want.extend((0..3 * GAMES_AHEAD).map(|n| ("f1".into(), n)));
        want.push(("end".into(), 0));
        assert_eq!(got, want);
    }
}
