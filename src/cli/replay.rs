//! `hive-oracle replay`: game records replayed move by move, with a report
//! in text or JSON.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

use clap::ValueEnum;

use super::output;
use super::{EngineChoice, COULD_NOT_RUN};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ReplayFormat {
    Text,
    Json,
}

/// The options of `replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// Record files, or folders searched recursively for .pgn and .sgf files.
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
    use hive_oracle::records::command::{json_report, record_files, replay_files, ReplayEngine};
    let files = match record_files(&paths) {
        Ok(files) => files,
        Err(message) => {
            output::say(&format!("error: {message}"));
            return ExitCode::from(COULD_NOT_RUN);
        }
    };
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
    let engine = match engine {
        EngineChoice::Fast => ReplayEngine::Fast,
        EngineChoice::Reference => ReplayEngine::Reference,
    };
    let started = Instant::now();
    let report = replay_files(&files, engine, jobs as usize, &|| bar.inc(1));
    bar.finish_and_clear();
    let text = match format {
        ReplayFormat::Text => report.text(),
        ReplayFormat::Json => {
            let json = json_report(&report);
            match serde_json::to_string_pretty(&json) {
                Ok(text) => text + "\n",
                Err(e) => {
                    output::say(&format!("error: the report cannot be written as JSON: {e}"));
                    return ExitCode::from(COULD_NOT_RUN);
                }
            }
        }
    };
    let written = output::write_stdout(&text);
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
