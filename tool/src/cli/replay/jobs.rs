//! The jobs of `replay`: files replayed in parallel under one memory
//! budget, each file's result reported in the order of the files as soon
//! as the files before it are done.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::input::bytes_once_read;
use crate::reports::replay::FileResult;
use hive_oracle_rules::records::RecordError;

/// Replays `files` with `replay_file` on `jobs` threads, `tick` called
/// after each file, and gives each file's result to `report` (on this
/// thread) in the order of the files, as soon as it and every file before
/// it are replayed; a result is released once reported. The files are started in their order, each once the memory
/// budget ([`MemoryBudget`]) has room for it, and a file keeps its share of
/// the budget until it is reported: a file finished early waits for the
/// ones before it, and what waits is bounded by the budget.
pub(super) fn replay_files(
    files: &[PathBuf],
    replay_file: &(dyn Fn(&Path) -> FileResult + Sync),
    jobs: usize,
    tick: &(dyn Fn() + Sync),
    report: &mut dyn FnMut(FileResult),
) {
    let jobs = jobs.clamp(1, files.len().max(1));
    // a zip archive weighs what its entries decompress to, not its size
    let sizes: Vec<u64> = files.iter().map(|f| bytes_once_read(f)).collect();
    let budget = MemoryBudget::new(sizes);
    let mut in_order = InOrder {
        next: 0,
        waiting: BTreeMap::new(),
        report,
    };
    // The jobs replay; this thread reports (it may hold stdout's lock).
    std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel();
        for _ in 0..jobs {
            let (budget, done) = (&budget, done.clone());
            scope.spawn(move || {
                while let Some((i, held)) = budget.admit() {
                    let result = replay_caught(&files[i], replay_file);
                    tick();
                    if done.send((i, result, held)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        for (i, result, held) in finished {
            in_order.finished(i, result, held);
        }
    });
}

/// Replays one file; a panic (a bug: nothing in a record should cause one)
/// makes the file unreadable with a message, so that the files after it
/// are still reported and the budget it held is given back.
fn replay_caught(path: &Path, replay_file: &(dyn Fn(&Path) -> FileResult + Sync)) -> FileResult {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| replay_file(path))).unwrap_or_else(
        |_| {
            Err(RecordError::new(
                &path.display().to_string(),
                0,
                "not replayed: the replay stopped on an internal error (please report it)",
            )
            .into())
        },
    )
}

/// The files replayed but not yet reported, each with its share of the
/// budget, until every file before it is reported.
struct InOrder<'a, 'r> {
    /// The first file not yet reported.
    next: usize,
    waiting: BTreeMap<usize, (FileResult, Held<'a>)>,
    report: &'r mut dyn FnMut(FileResult),
}

impl<'a> InOrder<'a, '_> {
    /// File `i` is replayed: reports it and every waiting file after it
    /// that now comes next, releasing each one's results and budget.
    fn finished(&mut self, i: usize, result: FileResult, held: Held<'a>) {
        self.waiting.insert(i, (result, held));
        while let Some((result, held)) = self.waiting.remove(&self.next) {
            (self.report)(result);
            drop(held);
            self.next += 1;
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
