//! `hive-oracle replay` (README, "Replay game records"): files and folders
//! of records replayed in parallel, the reports merged in file order, then
//! printed as text or JSON.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use clap::ValueEnum;
use serde_json::{json, Value};

use hive_oracle::fast::FastEngine;
use hive_oracle::input::{each_record, record_files, RecordFiles, Skipped, MAX_RECORD_FILE_BYTES};
use hive_oracle::records::replay::{
    replay, Counts, GameReport, IllegalPly, Outcome, ReplayReport, ResultCheck,
};
use hive_oracle::records::RecordError;
use hive_oracle::reference::ReferenceEngine;

use super::output;
use super::stdin;
use super::{EngineChoice, COULD_NOT_RUN};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ReplayFormat {
    Text,
    Json,
}

/// The options of `replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// Record files, or folders searched recursively for .pgn and .sgf
    /// files; `-` reads records from stdin (at most 64 MiB).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<std::path::PathBuf>,
    /// The engine that replays the moves (a refusal is always explained
    /// by the reference engine).
    #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
    engine: EngineChoice,
    /// The report: text (problems and a summary table) or JSON (every game).
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    format: ReplayFormat,
    /// Files replayed at once; the report's order does not depend on it.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: u64,
}

/// `hive-oracle replay`: exit 0 when every game is legal and ends as
/// declared, 1 otherwise, 2 when there is nothing to replay.
pub fn run(args: ReplayArgs) -> ExitCode {
    let ReplayArgs {
        paths,
        engine,
        format,
        jobs,
    } = args;
    // `-`: the records on stdin, replayed first
    let (dashes, paths): (Vec<PathBuf>, Vec<PathBuf>) = paths
        .into_iter()
        .partition(|path| path.as_os_str() == stdin::DASH);
    let found = if paths.is_empty() {
        Ok(RecordFiles::default())
    } else {
        record_files(&paths)
    };
    let RecordFiles { mut files, skipped } = match found {
        Ok(found) => found,
        Err(error) => {
            output::say(&format!("error: {error}"));
            return ExitCode::from(COULD_NOT_RUN);
        }
    };
    if !dashes.is_empty() {
        files.insert(0, PathBuf::from(stdin::DASH));
    }
    for skip in &skipped {
        output::say(&format!("note: {skip}"));
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(files.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} files ({elapsed}, eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let started = Instant::now();
    let report = replay_files(&files, engine, jobs as usize, &|| bar.inc(1));
    bar.finish_and_clear();
    let written = match format {
        // the last line says the verdict the exit status gives
        ReplayFormat::Text => output::write_stdout(&format!(
            "{}{}\n",
            report.text(),
            if report.is_clean() { "PASS" } else { "FAIL" }
        )),
        ReplayFormat::Json => write_json(&report, &skipped),
    };
    if format == ReplayFormat::Text && written.is_ok() {
        let (total, _) = report.counts();
        let seconds = started.elapsed().as_secs_f64();
        output::say(&format!(
            "replayed {} games ({} plies) from {} files in {seconds:.2} s ({:.0} games a minute)",
            total.games,
            total.plies,
            files.len(),
            total.games as f64 * 60.0 / seconds.max(1e-9)
        ));
    }
    let verdict = if report.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    };
    output::status_after_report(written, verdict, COULD_NOT_RUN)
}

/// What one file gave: its games, or why it is not a record.
type FileResult = Result<Vec<GameReport>, RecordError>;

/// Reads and replays one file.
fn replay_file(path: &Path, engine: EngineChoice) -> FileResult {
    // One record at a time, released once replayed.
    let mut reports = Vec::new();
    let sink = &mut |record: hive_oracle::records::Record| {
        reports.push(match engine {
            EngineChoice::Fast => replay::<FastEngine>(&record),
            EngineChoice::Reference => replay::<ReferenceEngine>(&record),
        })
    };
    if path.as_os_str() == stdin::DASH {
        stdin::each_record(sink)?;
    } else {
        each_record(path, sink)?;
    }
    Ok(reports)
}

/// Replays `files` on `jobs` threads; `tick` is called after each file.
/// The report lists the files in the order given, whatever the jobs.
fn replay_files(
    files: &[PathBuf],
    engine: EngineChoice,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
) -> ReplayReport {
    let jobs = jobs.clamp(1, files.len().max(1));
    let results: Mutex<Vec<Option<FileResult>>> = Mutex::new(vec![None; files.len()]);
    let sizes: Vec<u64> = files
        .iter()
        .map(|f| std::fs::metadata(f).map_or(0, |m| m.len().min(MAX_RECORD_FILE_BYTES)))
        .collect();
    let budget = MemoryBudget::new(sizes.iter().copied().max().unwrap_or(0) + SMALL_FILES_BYTES);
    std::thread::scope(|scope| {
        for job in 0..jobs {
            let (results, budget, sizes) = (&results, &budget, &sizes);
            scope.spawn(move || {
                for (i, path) in files.iter().enumerate().skip(job).step_by(jobs) {
                    let result = {
                        let _held = budget.take(sizes[i]);
                        replay_file(path, engine)
                    };
                    if let Ok(mut slots) = results.lock() {
                        slots[i] = Some(result);
                    }
                    tick();
                }
            });
        }
    });
    let mut report = ReplayReport::default();
    let slots = results.into_inner().unwrap_or_else(|e| e.into_inner());
    for (slot, path) in slots.into_iter().zip(files) {
        match slot {
            Some(Ok(games)) => report.games.extend(games),
            Some(Err(e)) => report.unreadable.push(e),
            None => report.unreadable.push(RecordError::new(
                &path.display().to_string(),
                0,
                "not replayed: its worker stopped",
            )),
        }
    }
    report
}

/// Writes the JSON report on stdout one game at a time, so that the whole
/// report is never held as one JSON tree or one text: the same bytes as
/// `serde_json::to_string_pretty` of the whole report (keys in order,
/// "games" after "clean"), each game pretty-printed and indented in place.
fn write_json(report: &ReplayReport, skipped: &[Skipped]) -> std::io::Result<()> {
    let frame = serde_json::to_string_pretty(&json_report(report, skipped))?;
    let (head, tail) = frame
        .split_once(EMPTY_GAMES)
        .unwrap_or((frame.as_str(), ""));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    out.write_all(head.as_bytes())?;
    if report.games.is_empty() {
        out.write_all(EMPTY_GAMES.as_bytes())?;
    } else {
        out.write_all(b"\n  \"games\": [")?;
        for (i, game) in report.games.iter().enumerate() {
            let text = serde_json::to_string_pretty(&game_json(game))?;
            out.write_all(if i == 0 { b"\n    " } else { b",\n    " })?;
            out.write_all(text.replace('\n', "\n    ").as_bytes())?;
        }
        out.write_all(b"\n  ],")?;
    }
    out.write_all(tail.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The "games" entry of the report's frame, where [`write_json`] streams
/// the games.
const EMPTY_GAMES: &str = "\n  \"games\": [],";

/// The report as JSON without its games: the summary, every unreadable
/// file and every path a folder walk skipped.
fn json_report(report: &ReplayReport, skipped: &[Skipped]) -> Value {
    let (total, by_type) = report.counts();
    let counts = |c: &Counts| {
        json!({
            "games": c.games, "legal": c.legal, "illegal": c.illegal,
            "wrong_result": c.wrong_result, "plies": c.plies,
        })
    };
    json!({
        "clean": report.is_clean(),
        "summary": {
            "all": counts(&total),
            "by_game_type": by_type.iter().map(|(t, c)| (t.to_string(), counts(c))).collect::<serde_json::Map<_, _>>(),
            "unreadable": report.unreadable.len(),
        },
        "games": [],
        "unreadable": report.unreadable.iter().map(|e| json!({
            "file": e.file, "line": e.line, "message": e.message,
        })).collect::<Vec<_>>(),
        "skipped": skipped.iter().map(|s| json!({ "path": s.path, "why": s.why })).collect::<Vec<_>>(),
    })
}

fn game_json(game: &GameReport) -> Value {
    let outcome = match &game.outcome {
        Outcome::Legal {
            state,
            game_string,
            result,
        } => json!({
            "legal": true,
            "state": state.to_string(),
            "game_string": game_string,
            "result": match result {
                ResultCheck::Agrees => "agrees",
                ResultCheck::NotOnTheBoard => "not on the board",
                ResultCheck::Disagrees => "disagrees",
            },
        }),
        Outcome::Illegal(ply) => illegal_json(ply),
    };
    json!({
        "file": game.file,
        "format": game.format.name(),
        "game": game.index,
        "line": game.line,
        "game_type": game.game_type.to_string(),
        "white": game.players.0,
        "black": game.players.1,
        "plies": game.plies,
        "standard_opening": game.standard_opening,
        "declared_result": game.declared.0.name(),
        "ending": format!("{:?}", game.declared.1),
        "notes": game.notes,
        "outcome": outcome,
    })
}

fn illegal_json(ply: &IllegalPly) -> Value {
    json!({
        "legal": false,
        "ply": ply.ply,
        "line": ply.line,
        "written": ply.written,
        "move": ply.uhp,
        "position": ply.position,
        "refusal": ply.refusal,
        "clauses": ply.clauses,
        "facts": ply.facts,
    })
}

/// The bytes of small files replayed at once beside the largest one.
const SMALL_FILES_BYTES: u64 = 16 << 20;

/// The memory the jobs of `replay` share: the file bytes being replayed at
/// once, at most the largest file plus [`SMALL_FILES_BYTES`], so that
/// `--jobs 4` on four large files replays them one after the other while
/// small files still go in parallel. A file's memory (its text and one
/// game at a time) is a small multiple of its size.
struct MemoryBudget {
    free: Mutex<u64>,
    freed: std::sync::Condvar,
}

/// A share of the [`MemoryBudget`], given back when dropped.
struct Held<'a> {
    budget: &'a MemoryBudget,
    bytes: u64,
}

impl MemoryBudget {
    fn new(bytes: u64) -> MemoryBudget {
        MemoryBudget {
            free: Mutex::new(bytes),
            freed: std::sync::Condvar::new(),
        }
    }

    /// Waits until `bytes` are free, and holds them. No file is over the
    /// budget, so each one's turn comes.
    fn take(&self, bytes: u64) -> Held<'_> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free < bytes {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= bytes;
        Held {
            budget: self,
            bytes,
        }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let mut free = self.budget.free.lock().unwrap_or_else(|e| e.into_inner());
        *free += self.bytes;
        self.budget.freed.notify_all();
    }
}
