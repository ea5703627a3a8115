//! The `replay` command (README, "Replay game records"): files and folders
//! of records replayed in parallel, the reports merged in file order, then
//! printed as text or JSON.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{json, Value};

use super::replay::{replay, GameReport, IllegalPly, Outcome, ReplayReport, ResultCheck};
use super::{read, RecordError};
use crate::fast::FastEngine;
use crate::reference::ReferenceEngine;

/// The engine a replay plays the moves on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayEngine {
    /// The fast engine (refusals are still explained by the reference).
    Fast,
    /// The reference engine.
    Reference,
}

/// The record files named by `paths`: a file as named, whatever its
/// extension; a folder searched recursively for `.pgn` and `.sgf` files
/// (any letter case), in sorted order. A path that does not exist, or a
/// folder that holds no record, is an error.
pub fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let before = files.len();
            walk(path, &mut files).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            if files.len() == before {
                return Err(format!(
                    "{} holds no record file (.pgn or .sgf)",
                    path.display()
                ));
            }
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            return Err(format!("{}: no such file or folder", path.display()));
        }
    }
    Ok(files)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, files)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn") || e.eq_ignore_ascii_case("sgf"))
        {
            files.push(path);
        }
    }
    Ok(())
}

/// What one file gave: its games, or why it is not a record.
type FileResult = Result<Vec<GameReport>, RecordError>;

/// Reads and replays one file.
fn replay_file(path: &Path, engine: ReplayEngine) -> FileResult {
    let name = path.display().to_string();
    let cannot_read = |e: std::io::Error| RecordError::new(&name, 0, format!("cannot read: {e}"));
    // a file larger than the limit is refused unread, so that memory stays bounded
    let size = fs::metadata(path).map_err(cannot_read)?.len();
    if size > crate::explain::MAX_RECORD_FILE_BYTES {
        return Err(RecordError::new(
            &name,
            0,
            format!(
                "cannot read: the file is {size} bytes long; the limit for a record file is {} bytes (64 MiB)",
                crate::explain::MAX_RECORD_FILE_BYTES
            ),
        ));
    }
    let bytes = fs::read(path).map_err(cannot_read)?;
    let records = read(&name, &bytes)?;
    Ok(records
        .iter()
        .map(|record| match engine {
            ReplayEngine::Fast => replay::<FastEngine>(record),
            ReplayEngine::Reference => replay::<ReferenceEngine>(record),
        })
        .collect())
}

/// Replays `files` on `jobs` threads; `tick` is called after each file.
/// The report lists the files in the order given, whatever the jobs.
pub fn replay_files(
    files: &[PathBuf],
    engine: ReplayEngine,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
) -> ReplayReport {
    let jobs = jobs.clamp(1, files.len().max(1));
    let results: Mutex<Vec<Option<FileResult>>> = Mutex::new(vec![None; files.len()]);
    std::thread::scope(|scope| {
        for job in 0..jobs {
            let results = &results;
            scope.spawn(move || {
                for (i, path) in files.iter().enumerate().skip(job).step_by(jobs) {
                    let result = replay_file(path, engine);
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

/// The report as JSON: the summary, then every game and unreadable file.
pub fn json_report(report: &ReplayReport) -> Value {
    let (total, by_type) = report.counts();
    let counts = |c: &super::replay::Counts| {
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
        "games": report.games.iter().map(game_json).collect::<Vec<_>>(),
        "unreadable": report.unreadable.iter().map(|e| json!({
            "file": e.file, "line": e.line, "message": e.message,
        })).collect::<Vec<_>>(),
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
