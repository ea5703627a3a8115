//! `hive-oracle replay` (README, "Replay game records"): files and folders
//! of records replayed in parallel (`jobs`), each file's reports written in
//! file order as soon as the files before it are done, as text or JSON
//! ([`crate::reports::replay`]).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::ValueEnum;

use crate::input::{each_record, record_files, stdin, GameRead, RecordFiles, Skipped};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::records::replay::{replay, ReplayOptions};
use hive_oracle_rules::reference::ReferenceEngine;

use super::output;
use super::{EngineChoice, COULD_NOT_RUN};

mod allocator;
mod jobs;

use crate::reports::replay::json::{self, JsonReport};
use crate::reports::replay::text::TextReport;
use crate::reports::replay::{Ended, FileEnd, GameResult, Piece};
use jobs::replay_files;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ReplayFormat {
    Text,
    Json,
}

/// The options of `replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// Record files, or folders searched recursively for .pgn, .sgf and
    /// .zip files (a zip archive is read as a folder, §10.21); `-` reads
    /// records from stdin (at most 64 MiB).
    #[arg(required_unless_present = "print_schema", value_name = "PATH")]
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
    /// Text report: every note of every game, each on its own line (by
    /// default only the notes of games with a problem, a repeated note
    /// once with its count).
    #[arg(long, short)]
    verbose: bool,
    /// Watch for the third occurrence of a position (§8.7.2), as sites that
    /// end games by repetition do: it is noted, and a record that ends
    /// there declaring a draw agrees; no later ply is refused.
    #[arg(long)]
    repetition_draw: bool,
    /// Fail (exit 1) on records skipped as not a UHP game type (Ultimate
    /// Hive), which are otherwise reported and counted only.
    #[arg(long)]
    strict: bool,
    /// Print the JSON Schema of the JSON report and exit.
    #[arg(long)]
    print_schema: bool,
}

/// `hive-oracle replay`: exit 0 when every game is legal and ends as
/// declared, 1 otherwise, 2 when there is nothing to replay.
pub fn run(args: ReplayArgs) -> ExitCode {
    let ReplayArgs {
        paths,
        engine,
        format,
        jobs,
        verbose,
        repetition_draw,
        strict,
        print_schema,
    } = args;
    allocator::share_one_arena();
    if print_schema {
        let written = output::write_stdout(&json::schema());
        return output::status_after_report(written, ExitCode::SUCCESS, COULD_NOT_RUN);
    }
    let options = ReplayOptions { repetition_draw };
    let Some((files, skipped, stdin_given)) = files_to_replay(paths) else {
        return ExitCode::from(COULD_NOT_RUN);
    };
    let bar = progress_bar(files.len());
    let started = Instant::now();
    let files_replayed = files.len();
    let ended = match format {
        ReplayFormat::Text => {
            let mut report =
                TextReport::new(std::io::stdout().lock(), verbose, stdin_given, strict);
            replay_files(
                &files,
                &|path, sink| replay_file(path, engine, options, sink),
                jobs as usize,
                &|| bar.inc(1),
                &mut |piece| {
                    let end = matches!(piece, Piece::End(_));
                    bar.suspend(|| {
                        if let Err(too_large) = report.piece(piece) {
                            output::say(&format!("error: {too_large}"));
                        }
                    });
                    if end {
                        allocator::give_back_freed();
                    }
                },
            );
            report.end()
        }
        ReplayFormat::Json => {
            let mut report = JsonReport::new(strict);
            replay_files(
                &files,
                &|path, sink| replay_file(path, engine, options, sink),
                jobs as usize,
                &|| bar.inc(1),
                &mut |piece| {
                    let end = matches!(piece, Piece::End(_));
                    if let Err(too_large) = report.piece(piece) {
                        output::say(&format!("error: {too_large}"));
                    }
                    if end {
                        allocator::give_back_freed();
                    }
                },
            );
            report.end(&skipped)
        }
    };
    bar.finish_and_clear();
    let Ended {
        summary,
        too_large,
        written,
    } = ended;
    if format == ReplayFormat::Text && written.is_ok() {
        let seconds = started.elapsed().as_secs_f64();
        output::say(&format!(
            "replayed {} games ({} plies) from {files_replayed} files in {seconds:.2} s ({:.0} games a minute)",
            summary.total.games,
            summary.total.plies,
            summary.total.games as f64 * 60.0 / seconds.max(1e-9)
        ));
    }
    // §10.21: records of other games fail the run only under --strict
    // (ReplaySummary::strict)
    let verdict = if too_large {
        ExitCode::from(COULD_NOT_RUN)
    } else if summary.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    };
    output::status_after_report(written, verdict, COULD_NOT_RUN)
}

/// The files `paths` name, stdin (`-`) first if given, with the paths a
/// folder walk skipped (each said on stderr) and whether stdin was given;
/// `None` (said on stderr) when a path cannot be walked.
fn files_to_replay(paths: Vec<PathBuf>) -> Option<(Vec<PathBuf>, Vec<Skipped>, bool)> {
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
            return None;
        }
    };
    if !dashes.is_empty() {
        files.insert(0, PathBuf::from(stdin::DASH));
    }
    for skip in &skipped {
        output::say(&format!("note: {skip}"));
    }
    Some((files, skipped, !dashes.is_empty()))
}

/// A bar of the files replayed on a terminal's stderr; hidden elsewhere.
fn progress_bar(files: usize) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(files as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} files ({elapsed}, eta {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Reads and replays one file, giving each game to `sink` as it is
/// replayed (and released there): nothing of a file is held but the game
/// being replayed.
fn replay_file(
    path: &Path,
    engine: EngineChoice,
    options: ReplayOptions,
    sink: &mut dyn FnMut(GameResult),
) -> FileEnd {
    let replayed = &mut |game: GameRead| {
        // §10.16: a game that does not read is kept as its error
        sink(game.map(|record| match engine {
            EngineChoice::Fast => replay::<FastEngine>(&record, options),
            EngineChoice::Reference => replay::<ReferenceEngine>(&record, options),
        }))
    };
    if path.as_os_str() == stdin::DASH {
        stdin::each_record(replayed)?;
    } else {
        each_record(path, replayed)?;
    }
    Ok(())
}
