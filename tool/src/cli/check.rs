//! `hive-oracle check`: the options (checked by the library,
//! [`Config::from_options`]), the reports written, and the exit status (0
//! passes, 1 fails, 2 could not run).

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::ValueEnum;

use crate::check::baseline::Baseline;
use crate::check::config::{CheckOptions, Config};
use crate::check::merge;
use crate::check::report;
use crate::check::reproduce;
use crate::check::summary::Report;
use crate::output_file::{refuse_same_files, NamedInput, PendingFile};

use super::output;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CheckFormat {
    Text,
    Json,
    Junit,
}

/// The options of `check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The engine's command line, in shell syntax (quotes, backslashes);
    /// this executable's `uhp` by default.
    #[arg(long)]
    engine: Option<String>,
    /// How many random games to play (20; 0 with --case or --records).
    #[arg(long)]
    games: Option<u64>,
    /// The seed of the random games: game i of type T draws its moves from
    /// a ChaCha8 generator keyed by (seed, i, T), so two seeds share no game.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The game types of the random games, separated by commas
    /// (e.g. `Base,Base+MLP`); every supported one by default.
    #[arg(long, value_name = "LIST")]
    game_types: Option<String>,
    /// A random game stops after this many plies.
    #[arg(long, default_value_t = 100)]
    max_plies: usize,
    /// A case corpus folder (*.toml, spec/cases.md), or `builtin` for the
    /// corpus built into this binary (the default). Repeat to combine.
    #[arg(long, value_name = "DIR")]
    corpus: Vec<String>,
    /// Run no corpus case (protocol probes and random games only).
    #[arg(long, conflicts_with_all = ["corpus", "cases"])]
    no_corpus: bool,
    /// Run only this corpus case (`file.toml::name`, or the name alone);
    /// repeat for several.
    #[arg(long = "case", value_name = "NAME")]
    cases: Vec<String>,
    /// Game records to replay on the engine: PGN or SGF files, zip archives
    /// of them, and folders searched for .pgn, .sgf and .zip files (in
    /// sorted order). At every
    /// position `validmoves` is compared, the record's move played and the
    /// printed GameString replayed. Alone (without --corpus, --case or
    /// --games), only the records are checked.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    records: Vec<std::path::PathBuf>,
    /// The rules the engine plays, separated by commas: `tournament-opening`
    /// or `standard-opening`, and `repetition-draw` or `no-repetition-draw`
    /// (a word left out takes its standard value). Without it, the engine's
    /// own `TournamentOpening` and `RepetitionDraw` options are read.
    #[arg(long, value_name = "LIST")]
    rules: Option<String>,
    /// Refusing a lenient spelling (spec/notation.md, an advisory finding)
    /// fails the check too.
    #[arg(long)]
    strict_notation: bool,
    /// Findings listed in this file (written by --write-baseline) are known:
    /// shown, but they do not fail the check.
    #[arg(long, value_name = "FILE")]
    baseline: Option<std::path::PathBuf>,
    /// Write this run's findings to a baseline file.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<std::path::PathBuf>,
    /// Engine processes run at once (independent cases and games), 1 to 64;
    /// the report is the same for every value.
    #[arg(long, default_value_t = 1)]
    jobs: u64,
    /// Run only the I-th of N deterministic slices of the units (protocol
    /// probes, corpus cases, random games, record games: unit k is in slice
    /// k mod N + 1); merge the JSON reports of all N with `check-merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// The timeout on every engine command, in milliseconds (at least 1).
    #[arg(long, default_value_t = 5000)]
    timeout_ms: u64,
    /// The timeout on the engine's start-up banner, in milliseconds (at
    /// least 1).
    #[arg(long, default_value_t = 10000)]
    startup_timeout_ms: u64,
    /// The report format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
    /// Also write the report to this file (checked before the run, replaced
    /// whole after it; never an input of the check).
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// Write the input of each reproduce pipe that was proven on a fresh
    /// engine to a file in this folder (created if needed), byte for byte
    /// (`cause-NN-KIND.uhp`, NN the finding's number), to attach to a bug
    /// report; the report gives for each a POSIX shell command (`ENGINE <
    /// FILE`) and a PowerShell one (`Get-Content -Raw FILE | & ENGINE`).
    #[arg(long, value_name = "DIR")]
    reproduce_dir: Option<std::path::PathBuf>,
    /// Print the JSON Schema of the JSON report and exit.
    #[arg(long)]
    print_schema: bool,
}

impl CheckArgs {
    /// The options as the library takes them, with the engine's command
    /// line.
    fn options(&self, engine: String) -> CheckOptions {
        CheckOptions {
            engine,
            games: self.games,
            seed: self.seed,
            game_types: self.game_types.clone(),
            max_plies: self.max_plies,
            corpus: self.corpus.clone(),
            no_corpus: self.no_corpus,
            cases: self.cases.clone(),
            records: self.records.clone(),
            rules: self.rules.clone(),
            strict_notation: self.strict_notation,
            baseline: self.baseline.clone(),
            write_baseline: self.write_baseline.clone(),
            jobs: self.jobs,
            timeout_ms: self.timeout_ms,
            startup_timeout_ms: self.startup_timeout_ms,
            out: self.out.clone(),
            progress: std::io::stderr().is_terminal(),
            shard: self.shard.clone(),
            reproduce_dir: self.reproduce_dir.clone(),
        }
    }
}

/// `check`: exit 0 when it passes, 1 with findings that fail it, 2 when it
/// cannot run.
pub fn run(args: CheckArgs) -> ExitCode {
    let fail = |message: String| {
        output::say(&format!("error: {message}"));
        ExitCode::from(2)
    };
    if args.print_schema {
        let written = output::write_stdout(&report::schema());
        return output::status_after_report(written, ExitCode::SUCCESS, 2);
    }
    let engine = match &args.engine {
        Some(engine) => engine.clone(),
        None => match std::env::current_exe() {
            Ok(exe) => format!("{} uhp", shell_words::quote(&exe.display().to_string())),
            Err(e) => return fail(format!("cannot find this executable: {e}")),
        },
    };
    let mut config = match Config::from_options(args.options(engine)) {
        Ok(config) => config,
        Err(e) => return fail(e.to_string()),
    };
    let result = match crate::check::run::run(&config) {
        Ok(result) => result,
        Err(e) => return fail(e.to_string()),
    };
    // the files the report names are written before it
    if let Some(dir) = &config.reproduce_dir {
        if let Err(e) = reproduce::write_files(dir, &result) {
            return fail(e.to_string());
        }
    }
    emit(
        &result,
        args.format,
        config.out.take(),
        config.write_baseline.take(),
    )
}

/// The options of `check-merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The JSON reports of every shard of one check (`check --shard I/N
    /// --format json --out FILE`), in any order.
    #[arg(value_name = "REPORT", required = true)]
    reports: Vec<std::path::PathBuf>,
    /// The report format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
    /// Also write the report to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// Write the merged findings to a baseline file.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<std::path::PathBuf>,
}

/// `check-merge`: the report of the whole check from its shards' reports;
/// exit 0 when it passes, 1 when it fails, 2 when the reports cannot be
/// merged.
pub fn run_merge(args: MergeArgs) -> ExitCode {
    let fail = |message: String| {
        output::say(&format!("error: {message}"));
        ExitCode::from(2)
    };
    let mut reports = Vec::new();
    for path in &args.reports {
        match merge::read_report(path) {
            Ok(report) => reports.push((path.display().to_string(), report)),
            Err(e) => return fail(e.to_string()),
        }
    }
    let result = match merge::merge(reports) {
        Ok(result) => result,
        Err(e) => return fail(e.to_string()),
    };
    // the files are written only for reports that merge
    let outputs: Vec<(&'static str, &std::path::Path)> = [
        ("--write-baseline", &args.write_baseline),
        ("--out", &args.out),
    ]
    .into_iter()
    .filter_map(|(option, path)| Some((option, path.as_deref()?)))
    .collect();
    let inputs: Vec<NamedInput> = args
        .reports
        .iter()
        .map(|path| NamedInput {
            what: "a shard's report".to_string(),
            path: path.clone(),
        })
        .collect();
    if let Err(e) = refuse_same_files(&outputs, &inputs) {
        return fail(e.to_string());
    }
    let open = |path: &Option<std::path::PathBuf>, option| {
        path.as_deref()
            .map(|p| PendingFile::create(p, option))
            .transpose()
    };
    let (out, write_baseline) = match (
        open(&args.out, "--out"),
        open(&args.write_baseline, "--write-baseline"),
    ) {
        (Ok(out), Ok(baseline)) => (out, baseline),
        (Err(e), _) | (_, Err(e)) => return fail(e.to_string()),
    };
    emit(&result, args.format, out, write_baseline)
}

/// Writes the report of a check (or of a merge) in `format`, to `out` too,
/// and its baseline; the exit status: its verdict, or 2 when a file
/// cannot be written.
fn emit(
    result: &Report,
    format: CheckFormat,
    out: Option<PendingFile>,
    write_baseline: Option<PendingFile>,
) -> ExitCode {
    let fail = |message: String| {
        output::say(&format!("error: {message}"));
        ExitCode::from(2)
    };
    let text = match format {
        CheckFormat::Text => report::text(result),
        CheckFormat::Json => report::json(result),
        CheckFormat::Junit => report::junit(result),
    };
    // the reports replace their files only now, whole, after the verdict
    if let Some(file) = write_baseline {
        let baseline = Baseline::of(&result.findings).to_json();
        if let Err(e) = file.commit(baseline.as_bytes()) {
            return fail(e.to_string());
        }
    }
    let shown = match out {
        Some(file) => {
            if let Err(e) = file.commit(text.as_bytes()) {
                return fail(e.to_string());
            }
            if format == CheckFormat::Text {
                text
            } else {
                // The summary on stdout; the full report is in the file.
                report::text(result)
            }
        }
        None => text,
    };
    let verdict = if result.clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    // a closed stdout keeps the verdict; another write error is status 2
    output::status_after_report(output::write_stdout(&shown), verdict, 2)
}
