//! `hive-oracle replay` (README, "Replay game records"): files and folders
//! of records replayed in parallel, each file's reports written in file
//! order as soon as the files before it are done, as text or JSON.

use std::io::{IsTerminal, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::ValueEnum;
use serde_json::{json, Value};

use hive_oracle::fast::FastEngine;
use hive_oracle::input::{each_record, record_files, RecordFiles, Skipped};
use hive_oracle::records::replay::{
    replay, Counts, GameReport, IllegalPly, Outcome, ReplaySummary, ResultCheck,
};
use hive_oracle::reference::ReferenceEngine;

use super::output;
use super::stdin;
use super::{EngineChoice, COULD_NOT_RUN};

mod jobs;

use jobs::{replay_files, FileResult};

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
    /// Fail (exit 1) on records skipped as not a UHP game type (Ultimate
    /// Hive), which are otherwise reported and counted only.
    #[arg(long)]
    strict: bool,
}

/// `hive-oracle replay`: exit 0 when every game is legal and ends as
/// declared, 1 otherwise, 2 when there is nothing to replay.
pub fn run(args: ReplayArgs) -> ExitCode {
    let ReplayArgs {
        paths,
        engine,
        format,
        jobs,
        strict,
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
    let files_replayed = files.len();
    let ended = match format {
        ReplayFormat::Text => {
            let mut report = TextReport::new(std::io::stdout().lock());
            replay_files(
                &files,
                &|path| replay_file(path, engine),
                jobs as usize,
                &|| bar.inc(1),
                &mut |file| bar.suspend(|| report.file(file)),
            );
            report.end()
        }
        ReplayFormat::Json => {
            let spool = tempfile::tempfile();
            let mut report = JsonReport::new(spool);
            replay_files(
                &files,
                &|path| replay_file(path, engine),
                jobs as usize,
                &|| bar.inc(1),
                &mut |file| report.file(file),
            );
            report.end(&skipped)
        }
    };
    bar.finish_and_clear();
    let (summary, written) = ended;
    if format == ReplayFormat::Text && written.is_ok() {
        let seconds = started.elapsed().as_secs_f64();
        output::say(&format!(
            "replayed {} games ({} plies) from {files_replayed} files in {seconds:.2} s ({:.0} games a minute)",
            summary.total.games,
            summary.total.plies,
            summary.total.games as f64 * 60.0 / seconds.max(1e-9)
        ));
    }
    // §10.20: records of other games fail the run only under --strict
    let verdict = if summary.is_clean() && (!strict || summary.not_uhp.is_empty()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    };
    output::status_after_report(written, verdict, COULD_NOT_RUN)
}

/// Reads and replays one file.
fn replay_file(path: &Path, engine: EngineChoice) -> FileResult {
    // One record at a time, released once replayed.
    let mut reports = Vec::new();
    let sink = &mut |game: hive_oracle::input::GameRead| {
        reports.push(game.map(|record| match engine {
            EngineChoice::Fast => replay::<FastEngine>(&record),
            EngineChoice::Reference => replay::<ReferenceEngine>(&record),
        }))
    };
    if path.as_os_str() == stdin::DASH {
        stdin::each_record(sink)?;
    } else {
        each_record(path, sink)?;
    }
    Ok(reports)
}

/// The text report written as the files come: the lines of each game that
/// is not clean, then (at the end) the unreadable files and the summary
/// table. After a failed write nothing more is written, but the files are
/// still counted, for the verdict.
struct TextReport<W: Write> {
    out: W,
    summary: ReplaySummary,
    wrote_games: bool,
    written: std::io::Result<()>,
}

impl<W: Write> TextReport<W> {
    fn new(out: W) -> TextReport<W> {
        TextReport {
            out,
            summary: ReplaySummary::default(),
            wrote_games: false,
            written: Ok(()),
        }
    }

    /// Counts and writes one file's games, then flushes them: a reader
    /// sees each file's lines as soon as it is reported.
    fn file(&mut self, file: FileResult) {
        match file {
            Ok(games) => {
                for game in &games {
                    // §10.16: a game that does not read is listed as such
                    let game = match game {
                        Ok(game) => game,
                        Err(error) => {
                            self.summary.add_unreadable(error.clone());
                            continue;
                        }
                    };
                    self.summary.add_game(game);
                    let text = game.text();
                    if !text.is_empty() {
                        self.wrote_games = true;
                        self.write(text.as_bytes());
                    }
                }
                if self.written.is_ok() {
                    self.written = self.out.flush();
                }
            }
            Err(error) => self.summary.add_unreadable(error),
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.written.is_ok() {
            self.written = self.out.write_all(bytes);
        }
    }

    /// Writes the unreadable files and the table; the summary and whether
    /// every write succeeded.
    fn end(mut self) -> (ReplaySummary, std::io::Result<()>) {
        let closing = self.summary.closing_text(self.wrote_games);
        self.write(closing.as_bytes());
        // the last line says the verdict the exit status gives
        let verdict = if self.summary.is_clean() {
            "PASS\n"
        } else {
            "FAIL\n"
        };
        self.write(verdict.as_bytes());
        if self.written.is_ok() {
            self.written = self.out.flush();
        }
        (self.summary, self.written)
    }
}

/// The JSON report: its summary comes before its games, so the games are
/// written, as the files come, to a temporary file (the spool) rather than
/// kept in memory, then copied to stdout inside the frame. The bytes are
/// those of `serde_json::to_string_pretty` of the whole report (keys in
/// order, "games" after "summary"), each game pretty-printed and indented
/// in place.
struct JsonReport {
    spool: std::io::Result<std::io::BufWriter<std::fs::File>>,
    summary: ReplaySummary,
    games: usize,
}

impl JsonReport {
    fn new(spool: std::io::Result<std::fs::File>) -> JsonReport {
        JsonReport {
            spool: spool.map(std::io::BufWriter::new),
            summary: ReplaySummary::default(),
            games: 0,
        }
    }

    /// Counts one file's games and spools them.
    fn file(&mut self, file: FileResult) {
        let games = match file {
            Ok(games) => games,
            Err(error) => return self.summary.add_unreadable(error),
        };
        for game in &games {
            // §10.16: a game that does not read is listed as such
            let game = match game {
                Ok(game) => game,
                Err(error) => {
                    self.summary.add_unreadable(error.clone());
                    continue;
                }
            };
            self.summary.add_game(game);
            let first = self.games == 0;
            self.games += 1;
            if let Ok(spool) = &mut self.spool {
                let written = spool_game(spool, game, first);
                if let Err(error) = written {
                    self.spool = Err(error);
                }
            }
        }
    }

    /// Writes the report on stdout; the summary and whether every write
    /// (to the spool and to stdout) succeeded.
    fn end(self, skipped: &[Skipped]) -> (ReplaySummary, std::io::Result<()>) {
        let written = self
            .spool
            .and_then(|spool| write_json(&self.summary, skipped, self.games, spool));
        (self.summary, written)
    }
}

/// Writes one game to the spool, indented as an element of "games".
fn spool_game(spool: &mut impl Write, game: &GameReport, first: bool) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(&game_json(game))?;
    spool.write_all(if first { b"\n    " } else { b",\n    " })?;
    spool.write_all(text.replace('\n', "\n    ").as_bytes())
}

/// Writes the JSON report on stdout: the frame, with the `games` spooled
/// games copied in place of its empty "games".
fn write_json(
    summary: &ReplaySummary,
    skipped: &[Skipped],
    games: usize,
    spool: std::io::BufWriter<std::fs::File>,
) -> std::io::Result<()> {
    let mut spool = spool.into_inner().map_err(|e| e.into_error())?;
    spool.seek(std::io::SeekFrom::Start(0))?;
    let frame = serde_json::to_string_pretty(&json_report(summary, skipped))?;
    let (head, tail) = frame
        .split_once(EMPTY_GAMES)
        .unwrap_or((frame.as_str(), ""));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    out.write_all(head.as_bytes())?;
    if games == 0 {
        out.write_all(EMPTY_GAMES.as_bytes())?;
    } else {
        out.write_all(b"\n  \"games\": [")?;
        std::io::copy(&mut spool, &mut out)?;
        out.write_all(b"\n  ],")?;
    }
    out.write_all(tail.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The "games" entry of the report's frame, where [`write_json`] puts the
/// games.
const EMPTY_GAMES: &str = "\n  \"games\": [],";

/// The report as JSON without its games: the summary, every unreadable
/// file and every path a folder walk skipped.
fn json_report(summary: &ReplaySummary, skipped: &[Skipped]) -> Value {
    let counts = |c: &Counts| {
        json!({
            "games": c.games, "legal": c.legal, "illegal": c.illegal,
            "wrong_result": c.wrong_result, "plies": c.plies,
        })
    };
    json!({
        "clean": summary.is_clean(),
        "summary": {
            "all": counts(&summary.total),
            "by_game_type": summary.by_type.iter().map(|(t, c)| (t.to_string(), counts(c))).collect::<serde_json::Map<_, _>>(),
            "unreadable": summary.unreadable.len(),
        },
        "games": [],
        "unreadable": summary.unreadable.iter().map(|e| {
            let mut entry = json!({ "file": e.file, "line": e.line, "message": e.message });
            // §10.16: a game that does not read in a file of several
            if let Some(game) = e.game {
                entry["game"] = json!(game);
            }
            entry
        }).collect::<Vec<_>>(),
        "skipped": skipped.iter().map(|s| json!({ "path": s.path, "why": s.why })).collect::<Vec<_>>(),
        // §10.20: records of games that are not UHP's, skipped
        "not_a_uhp_game": summary.not_uhp.iter().map(|e| json!({
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
