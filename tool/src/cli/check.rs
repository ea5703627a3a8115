//! `hive-oracle check` and `check-merge`: the options (declared and checked
//! by the library, [`CheckOptions`] and [`Config::from_options`]), the
//! reports written ([`crate::reports::check`]), and the exit status (0
//! passes, 1 fails, 2 could not run, 3 the verdict reached but an output
//! file lost).

use std::io::IsTerminal;
use std::process::ExitCode;

use crate::check::findings::baseline::Baseline;
use crate::check::findings::reproduce;
use crate::check::findings::summary::Report;
use crate::check::given::options::{CheckOptions, ReportFormat};
use crate::check::given::Config;
use crate::output_file::{refuse_same_files, NamedInput, PendingFile};
use crate::reports::check as report;

use super::output;

/// `check`: exit 0 when it passes, 1 with findings that fail it, 2 when it
/// cannot run.
pub fn run(mut options: CheckOptions) -> ExitCode {
    let fail = |message: String| {
        output::say(&format!("error: {message}"));
        ExitCode::from(2)
    };
    if options.print_schema {
        let written = output::write_stdout(&report::schema());
        return output::status_after_report(written, ExitCode::SUCCESS, 2);
    }
    let format = options.format;
    options.progress = std::io::stderr().is_terminal();
    crate::check::client::end_engines_on_interrupt();
    let mut config = match Config::from_options(options) {
        Ok(config) => config,
        Err(e) => return fail(e.to_string()),
    };
    let result = match crate::check::run(&config) {
        Ok(result) => result,
        Err(e) => return fail(e.to_string()),
    };
    // the files the report names are written before it; one that cannot
    // be written is named, and the verdict stands
    let mut lost = Vec::new();
    if let Some(dir) = &config.reproduce_dir {
        if let Err(e) = reproduce::write_files(dir, &result) {
            lost.push(e.to_string());
        }
    }
    emit(
        &result,
        format,
        config.out.take(),
        config.write_baseline.take(),
        lost,
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
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,
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
        match report::read_report(path) {
            Ok(report) => reports.push((path.display().to_string(), report)),
            Err(e) => return fail(e.to_string()),
        }
    }
    let result = match report::merge(reports) {
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
    emit(&result, args.format, out, write_baseline, Vec::new())
}

/// Writes the report of a check (or of a merge) in `format`, to `out` too,
/// and its baseline; the exit status: its verdict, or
/// [`OUTPUT_LOST`](super::OUTPUT_LOST) when a file could not be written
/// (`lost` holds the files already lost): then the report, in `format`, is
/// on stdout, and each file lost is named on stderr.
fn emit(
    result: &Report,
    format: ReportFormat,
    out: Option<PendingFile>,
    write_baseline: Option<PendingFile>,
    mut lost: Vec<String>,
) -> ExitCode {
    let text = match format {
        ReportFormat::Text => report::text(result),
        ReportFormat::Json => report::json(result),
        ReportFormat::Junit => report::junit(result),
    };
    // the reports replace their files only now, whole, after the verdict
    if let Some(file) = write_baseline {
        let baseline = Baseline::of(&result.findings).to_json();
        if let Err(e) = file.commit(baseline.as_bytes()) {
            lost.push(e.to_string());
        }
    }
    let shown = match out {
        Some(file) => match file.commit(text.as_bytes()) {
            // the report's file is lost: the report itself on stdout
            Err(e) => {
                lost.push(e.to_string());
                text
            }
            Ok(()) if format == ReportFormat::Text => text,
            // the summary on stdout; the full report is in the file
            Ok(()) => report::text(result),
        },
        None => text,
    };
    let verdict = if !lost.is_empty() {
        ExitCode::from(super::OUTPUT_LOST)
    } else if result.clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    for message in &lost {
        output::say(&format!(
            "error: {message}; the check reached its verdict ({}), which the report on stdout gives (exit {})",
            if result.clean() { "PASS" } else { "FAIL" },
            super::OUTPUT_LOST
        ));
    }
    // a closed stdout keeps the verdict; another write error is status 2
    output::status_after_report(output::write_stdout(&shown), verdict, 2)
}
