//! Zip archives of records, read as folders (§10.21): boardspace keeps its
//! games as `.zip` files of SGF files. Nothing is extracted to disk: each
//! entry named as a record format's file (`.pgn`, `.sgf`) is decompressed
//! in memory and read as a record file named `ARCHIVE/ENTRY`.
//!
//! An archive is a few bytes that may claim gigabytes, so every amount it
//! decides is bounded (docs/limits.md, `archive-entries`, `archive-bomb`,
//! `archive-names`):
//!
//! * at most [`MAX_ZIP_ENTRIES`] entries; one over it is refused whole;
//! * no two entries may share compressed data (the trick of the
//!   "overlapping" zip bombs, where 100,000 entries point at one stream of
//!   64 MiB) and no name may be given twice (a reader that keeps one of the
//!   two would leave the other unread, and a game hidden behind a clean
//!   one's name would pass): either refuses the archive whole;
//! * an entry decompresses to at most [`MAX_RECORD_FILE_BYTES`], the limit
//!   of a record file, and to at most [`MAX_ENTRY_RATIO`] times its
//!   compressed size or [`RATIO_FREE_BYTES`], whichever is more: game records
//!   compress about 3 to 10 times, a bomb of one repeated byte about 1,000;
//! * an archive decompresses to at most [`MAX_ARCHIVE_BYTES`] in all, and
//!   the archives of one command to at most [`MAX_RUN_ARCHIVE_BYTES`]: the
//!   reading stops at the first entry over either, which is refused with the
//!   rest of the archive.
//!
//! Every one of them is counted on the bytes actually decompressed, never
//! on the sizes an entry's header states (a header may lie).

use std::io::{Cursor, Read};
use std::sync::atomic::{AtomicU64, Ordering};

use super::formats::{entry_names, is_record_entry};
use super::limits::{MAX_RECORD_FILE_BYTES, RECORD_FILE_LIMIT};
use super::memory::{try_reserve, TooLargeForMemory};
use super::plain::{each_record_of_file, GameRead, RecordFileError};
use hive_oracle_rules::records::RecordError;

/// The most entries a zip archive may hold, folders and other files
/// included: about twenty times a year of boardspace's Hive games.
pub const MAX_ZIP_ENTRIES: usize = 100_000;

/// The most bytes the record entries of one archive decompress to (256 MiB:
/// four record files of the largest size).
pub const MAX_ARCHIVE_BYTES: u64 = 256 << 20;

/// The most bytes the archives one command reads decompress to, all
/// together (1 GiB).
pub const MAX_RUN_ARCHIVE_BYTES: u64 = 1 << 30;

/// The most an entry may decompress to per byte of its compressed data
/// (or [`RATIO_FREE_BYTES`], when that is more).
pub const MAX_ENTRY_RATIO: u64 = 100;

/// The bytes an entry may decompress to whatever its ratio (1 MiB): a small
/// file of repeated text may compress far better than a game archive does.
pub const RATIO_FREE_BYTES: u64 = 1 << 20;

/// The bytes decompressed from archives so far by this process: one command
/// is one run.
static RUN_BYTES: AtomicU64 = AtomicU64::new(0);

/// The limits of an archive's and a run's decompressed bytes in effect:
/// [`MAX_ARCHIVE_BYTES`] and [`MAX_RUN_ARCHIVE_BYTES`], or, with the
/// `faults` feature, the test hook's: `HIVE_ORACLE_FAULT_ARCHIVE_LIMITS=A,R`
/// in the environment makes them `A` and `R` bytes, so that the tests reach
/// them with small archives. Without the feature there is no hook.
fn archive_limits() -> (u64, u64) {
    #[cfg(feature = "faults")]
    {
        let hook = std::env::var(ARCHIVE_LIMITS_VARIABLE).ok().and_then(|v| {
            let (archive, run) = v.split_once(',')?;
            Some((archive.parse().ok()?, run.parse().ok()?))
        });
        if let Some(limits) = hook {
            return limits;
        }
    }
    (MAX_ARCHIVE_BYTES, MAX_RUN_ARCHIVE_BYTES)
}

/// The environment variable of the test hook ([`archive_limits`]).
#[cfg(feature = "faults")]
pub const ARCHIVE_LIMITS_VARIABLE: &str = "HIVE_ORACLE_FAULT_ARCHIVE_LIMITS";

/// Whether `bytes` start as a zip archive does (the rules' test, which
/// refuses an archive given as a record file).
pub use hive_oracle_rules::records::is_zip;

/// Every game of every record entry of the zip archive `bytes` (named
/// `name`), in the archive's order, given to `sink`; an entry that cannot
/// be read or is no record is given as its error, naming the entry (an
/// error of the whole entry, `game` `None`, as a file's would be). An
/// archive that does not open, holds too many entries, shares data between
/// entries, names an entry twice or holds no record entry is one error, and
/// so is an entry too large for the memory at hand. An entry over a limit of
/// decompressed bytes is given as its error, and the entries after it are
/// not read. Returns the number of games given, read or not.
pub fn each_zip_record(
    name: &str,
    bytes: Vec<u8>,
    sink: &mut dyn FnMut(GameRead),
) -> Result<usize, RecordFileError> {
    let mut archive = open_archive(name, bytes)?;
    let mut games = 0;
    let mut record_entries = 0;
    let mut archive_bytes = 0u64;
    for index in 0..archive.len() {
        // the name first, from the directory: an entry that is no record is
        // passed over unopened, whatever it holds (an encrypted README)
        let entry_name = match archive.name_for_index(index) {
            Some(Ok(entry_name)) => entry_name.into_owned(),
            Some(Err(e)) => {
                let message = format!("entry {}: its name does not read: {e}", index + 1);
                sink(Err(RecordError::new(name, 0, message)));
                games += 1;
                continue;
            }
            None => continue,
        };
        if entry_name.ends_with('/') || !is_record_entry(&entry_name) {
            continue;
        }
        record_entries += 1;
        let entry_name = format!("{name}/{entry_name}");
        let entry = match archive.by_index(index) {
            Ok(entry) => entry,
            Err(e) => {
                // encrypted, or compressed by a method not read here
                sink(Err(RecordError::new(
                    &entry_name,
                    0,
                    format!("cannot read: {e}"),
                )));
                games += 1;
                continue;
            }
        };
        let limit = EntryLimit::of(entry.compressed_size(), archive_bytes);
        // the room for the entry as its header states it, asked for so that
        // a refusal is an error (the read stops at the limit whatever it says)
        let mut content = Vec::new();
        let stated = entry.size().min(limit.bytes() + 1) as usize;
        try_reserve(&mut content, stated).map_err(|refused| {
            RecordFileError::TooLarge(TooLargeForMemory {
                file: entry_name.clone(),
                refused,
            })
        })?;
        let read = entry.take(limit.bytes() + 1).read_to_end(&mut content);
        let decompressed = content.len() as u64;
        archive_bytes += decompressed;
        RUN_BYTES.fetch_add(decompressed, Ordering::Relaxed);
        let unread = match read {
            Err(e) => Some(format!("cannot read: {e}")),
            Ok(_) if decompressed > limit.bytes() => Some(limit.exceeded()),
            Ok(_) => None,
        };
        if let Some(message) = unread {
            sink(Err(RecordError::new(&entry_name, 0, message)));
            games += 1;
            if decompressed > limit.bytes() && limit.ends_the_archive() {
                break;
            }
            continue;
        }
        // an entry is read as a record file: an archive inside is not opened
        match each_record_of_file(&entry_name, content, sink) {
            Ok(read) => games += read,
            Err(RecordFileError::NotARecord(error)) => {
                sink(Err(error));
                games += 1;
            }
            Err(too_large) => return Err(too_large),
        }
    }
    if record_entries == 0 && games == 0 {
        // as a file with no game, an archive with no record is no record
        let message = format!("a zip archive holding no {} entry", entry_names());
        return Err(RecordError::new(name, 0, message).into());
    }
    Ok(games)
}

/// The zip archive `bytes` (named `name`), opened: refused whole when it
/// does not open, holds more than [`MAX_ZIP_ENTRIES`] entries, names an
/// entry twice or shares compressed data between entries.
fn open_archive(
    name: &str,
    bytes: Vec<u8>,
) -> Result<zip::ZipArchive<Cursor<Vec<u8>>>, RecordFileError> {
    let refused = |message: String| RecordFileError::from(RecordError::new(name, 0, message));
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| refused(format!("a zip archive that does not open: {e}")))?;
    if archive.len() > MAX_ZIP_ENTRIES {
        return Err(refused(format!(
            "the zip archive holds {} entries; the limit is {MAX_ZIP_ENTRIES}",
            archive.len()
        )));
    }
    if archive.has_duplicate_names() {
        return Err(refused(
            "the zip archive names an entry more than once: refused whole, as only one of the entries of a name would be read"
                .to_string(),
        ));
    }
    match archive.has_overlapping_files() {
        Ok(false) => {}
        Ok(true) => {
            return Err(refused(
                "entries of the zip archive share their compressed data (a zip bomb's trick): refused whole"
                    .to_string(),
            ))
        }
        Err(e) => return Err(refused(format!("a zip archive that does not open: {e}"))),
    }
    Ok(archive)
}

/// The bytes the file `path` holds once read, as `replay --jobs` budgets
/// its memory: its size (at most a record file's limit), and for a zip
/// archive its size and what its record entries decompress to as their
/// headers state it, at most [`MAX_ARCHIVE_BYTES`] (only the archive's
/// directory is read). A header may lie: the reading itself stops at the
/// limits whatever it says. 0 for a file that cannot be read or is not a
/// regular file.
pub fn bytes_once_read(path: &std::path::Path) -> u64 {
    // a regular file only: opening a FIFO would wait for a writer (the
    // reading refuses anything else, by the tool's one file reader)
    let size = match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => meta.len().min(MAX_RECORD_FILE_BYTES),
        _ => return 0,
    };
    let Ok(mut file) = std::fs::File::open(path) else {
        return 0;
    };
    let mut magic = [0u8; 4];
    if file.read_exact(&mut magic).is_err() || !is_zip(&magic) {
        return size;
    }
    let Ok(mut archive) = zip::ZipArchive::new(file) else {
        return size;
    };
    if archive.len() > MAX_ZIP_ENTRIES {
        return size;
    }
    let mut stated = 0u64;
    for index in 0..archive.len() {
        let Ok(entry) = archive.by_index_raw(index) else {
            continue;
        };
        if entry.name().is_ok_and(|name| is_record_entry(&name)) {
            stated = stated.saturating_add(entry.size().min(MAX_RECORD_FILE_BYTES));
        }
    }
    size + stated.min(MAX_ARCHIVE_BYTES)
}

/// Which limit bounds the decompressed bytes of one entry, and how many.
#[derive(Clone, Copy, Debug)]
enum EntryLimit {
    /// The limit of a record file.
    RecordFile,
    /// [`MAX_ENTRY_RATIO`] times the compressed size, or
    /// [`RATIO_FREE_BYTES`] when that is more.
    Ratio { compressed: u64, bytes: u64 },
    /// What is left of [`MAX_ARCHIVE_BYTES`] (the limit in effect, and
    /// what is left of it).
    Archive(u64, u64),
    /// What is left of [`MAX_RUN_ARCHIVE_BYTES`] (the limit in effect, and
    /// what is left of it).
    Run(u64, u64),
}

impl EntryLimit {
    /// The tightest limit of an entry of `compressed` bytes, the archive
    /// having decompressed `archive_bytes` before it.
    fn of(compressed: u64, archive_bytes: u64) -> EntryLimit {
        let ratio = compressed
            .saturating_mul(MAX_ENTRY_RATIO)
            .max(RATIO_FREE_BYTES);
        let (archive_limit, run_limit) = archive_limits();
        let run_left = run_limit.saturating_sub(RUN_BYTES.load(Ordering::Relaxed));
        let archive_left = archive_limit.saturating_sub(archive_bytes);
        [
            EntryLimit::RecordFile,
            EntryLimit::Ratio {
                compressed,
                bytes: ratio,
            },
            EntryLimit::Archive(archive_limit, archive_left),
            EntryLimit::Run(run_limit, run_left),
        ]
        .into_iter()
        .min_by_key(EntryLimit::bytes)
        .unwrap_or(EntryLimit::RecordFile)
    }

    /// The most bytes the entry may decompress to.
    fn bytes(&self) -> u64 {
        match *self {
            EntryLimit::RecordFile => MAX_RECORD_FILE_BYTES,
            EntryLimit::Ratio { bytes, .. } => bytes,
            EntryLimit::Archive(_, left) | EntryLimit::Run(_, left) => left,
        }
    }

    /// Whether the entries after one over this limit are left unread: the
    /// archive's and the run's bytes are spent.
    fn ends_the_archive(&self) -> bool {
        matches!(self, EntryLimit::Archive(..) | EntryLimit::Run(..))
    }

    /// Why an entry over the limit is not read.
    fn exceeded(&self) -> String {
        match *self {
            EntryLimit::RecordFile => format!(
                "cannot read: the entry is more than {MAX_RECORD_FILE_BYTES} bytes long once decompressed; {RECORD_FILE_LIMIT}"
            ),
            EntryLimit::Ratio { compressed, bytes } => format!(
                "cannot read: the entry's {compressed} compressed bytes decompress to more than {bytes}, over {MAX_ENTRY_RATIO} times their size (a zip bomb's ratio; game records compress about 3 to 10 times)"
            ),
            EntryLimit::Archive(limit, _) => format!(
                "cannot read: the archive's entries decompress to more than {limit} bytes ({} MiB), the limit of an archive; this entry and the ones after it are not read",
                limit >> 20
            ),
            EntryLimit::Run(limit, _) => format!(
                "cannot read: the archives of this run decompress to more than {limit} bytes ({} MiB), the limit of a run; this entry and the ones after it are not read",
                limit >> 20
            ),
        }
    }
}
