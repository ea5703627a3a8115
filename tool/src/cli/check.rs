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
    let files = Files {
        out: config.out.take(),
        also: std::mem::take(&mut config.also),
        write_baseline: config.write_baseline.take(),
    };
    emit(&result, format, files, lost)
}

/// The files a check or a merge writes after its verdict, each checked and
/// reserved before the run.
struct Files {
    /// `--out`: the report in the format of `--format`.
    out: Option<PendingFile>,
    /// `--out-json`, `--out-junit`: the report in another format.
    also: Vec<(ReportFormat, PendingFile)>,
    /// `--write-baseline`.
    write_baseline: Option<PendingFile>,
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
    /// Also write the JSON report to this file, whatever `--format` says.
    #[arg(long, value_name = "FILE")]
    out_json: Option<std::path::PathBuf>,
    /// Also write the JUnit report to this file, whatever `--format` says.
    #[arg(long, value_name = "FILE")]
    out_junit: Option<std::path::PathBuf>,
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
        ("--out-json", &args.out_json),
        ("--out-junit", &args.out_junit),
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
    match merge_files(&args) {
        Ok(files) => emit(&result, args.format, files, Vec::new()),
        Err(e) => fail(e.to_string()),
    }
}

/// The files of `check-merge`, created (empty) and reserved.
fn merge_files(args: &MergeArgs) -> Result<Files, crate::output_file::OutputError> {
    let open = |path: &Option<std::path::PathBuf>, option| {
        path.as_deref()
            .map(|p| PendingFile::create(p, option))
            .transpose()
    };
    let mut also = Vec::new();
    for (format, path, option) in [
        (ReportFormat::Json, &args.out_json, "--out-json"),
        (ReportFormat::Junit, &args.out_junit, "--out-junit"),
    ] {
        if let Some(file) = open(path, option)? {
            also.push((format, file));
        }
    }
    Ok(Files {
        out: open(&args.out, "--out")?,
        also,
        write_baseline: open(&args.write_baseline, "--write-baseline")?,
    })
}

/// The report of `result` in `format`.
fn render(result: &Report, format: ReportFormat) -> String {
    match format {
        ReportFormat::Text => report::text(result),
        ReportFormat::Json => report::json(result),
        ReportFormat::Junit => report::junit(result),
    }
}

/// Writes the report of a check (or of a merge) in `format`, to `--out`
/// too, in the formats of `--out-json` and `--out-junit` to theirs, and its
/// baseline; the exit status: its verdict, or
/// [`OUTPUT_LOST`](super::OUTPUT_LOST) when a file could not be written
/// (`lost` holds the files already lost): then the report, in `format`, is
/// on stdout, and each file lost is named on stderr.
fn emit(result: &Report, format: ReportFormat, files: Files, mut lost: Vec<String>) -> ExitCode {
    let text = render(result, format);
    // the reports replace their files only now, whole, after the verdict
    if let Some(file) = files.write_baseline {
        let baseline = Baseline::of(&result.findings).to_json();
        if let Err(e) = file.commit(baseline.as_bytes()) {
            lost.push(e.to_string());
        }
    }
    for (other, file) in files.also {
        if let Err(e) = file.commit(render(result, other).as_bytes()) {
            lost.push(e.to_string());
        }
    }
    let shown = match files.out {
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
