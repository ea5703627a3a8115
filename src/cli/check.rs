//! `hive-oracle check`: the options, the corpus and files they name, and
//! the exit status (0 passes, 1 fails, 2 could not run).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::ValueEnum;

use hive_oracle::core::notation::parse_game_type;

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
    /// How many random games to play (20; 0 with --case).
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
    /// Also write the report to this file (checked before the run).
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// Print the JSON Schema of the JSON report and exit.
    #[arg(long)]
    print_schema: bool,
}

/// Reads `--rules`.
fn parse_rules(list: &str) -> Result<hive_oracle::core::RulesOptions, String> {
    let mut rules = hive_oracle::core::RulesOptions::default();
    for word in list
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty())
    {
        match word.to_ascii_lowercase().as_str() {
            "tournament-opening" => rules.tournament_opening = true,
            "standard-opening" => rules.tournament_opening = false,
            "repetition-draw" => rules.repetition_draw = true,
            "no-repetition-draw" => rules.repetition_draw = false,
            _ => {
                return Err(format!(
                    "unknown rule `{word}`: expected tournament-opening, standard-opening, repetition-draw or no-repetition-draw"
                ))
            }
        }
    }
    Ok(rules)
}

/// The corpus of `check`: the built-in one and folders, in the order given,
/// read from regular files only; every case run is first validated against
/// the reference engine (a bad case is an error naming it).
fn check_corpus(
    sources: &[String],
    selected: &[String],
) -> Result<hive_oracle::check::checker::Corpus, String> {
    use hive_oracle::cases::BUILTIN_CORPUS;
    use hive_oracle::check::corpus::{read_folder, validate};
    let sources: Vec<String> = if sources.is_empty() {
        vec!["builtin".to_string()]
    } else {
        sources.to_vec()
    };
    let mut names = Vec::new();
    let mut bytes = Vec::new();
    let mut cases = Vec::new();
    for source in &sources {
        let files: Vec<(String, String, Vec<hive_oracle::cases::LoadedCase>)> = if source
            == "builtin"
        {
            let mut out = Vec::new();
            for (file, text) in BUILTIN_CORPUS {
                let parsed =
                    hive_oracle::cases::parse_corpus_file(file, text, &format!("built-in {file}"))?;
                out.push((file.to_string(), text.to_string(), parsed));
            }
            names.push("built-in".to_string());
            out
        } else {
            let files = read_folder(std::path::Path::new(source))?;
            if files.iter().all(|(_, _, c)| c.is_empty()) {
                return Err(format!(
                    "--corpus {source}: the folder holds no case (*.toml)"
                ));
            }
            names.push(source.clone());
            files
        };
        for (file, text, parsed) in files {
            bytes.extend(file.as_bytes());
            bytes.push(0);
            bytes.extend(text.as_bytes());
            bytes.push(0);
            cases.extend(parsed);
        }
    }
    if !selected.is_empty() {
        for name in selected {
            if !cases
                .iter()
                .any(|c| &c.id() == name || &c.case.name == name)
            {
                return Err(format!("--case {name}: no such case in the corpus"));
            }
        }
        cases.retain(|c| selected.iter().any(|n| *n == c.id() || *n == c.case.name));
    }
    for case in &cases {
        validate(case)?;
    }
    Ok(hive_oracle::check::checker::Corpus {
        name: names.join("+"),
        hash: format!("fnv1a64:{:016x}", hive_oracle::check::run::fnv1a64(&bytes)),
        cases,
    })
}

/// Opens a file for writing before the run, so that a path that cannot be
/// written fails at once rather than after the check. Only a regular file
/// (or a new one) is written: opening a FIFO would block until a reader
/// comes, and a device is not a report.
fn writable(path: &std::path::Path, what: &str) -> Result<std::fs::File, String> {
    let shown = path.display();
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(format!(
                "{what} {shown}: cannot write: not a regular file ({})",
                hive_oracle::check::corpus::file_kind(&meta)
            ))
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("{what} {shown}: cannot write: {e}")),
    }
    std::fs::File::create(path).map_err(|e| format!("{what} {shown}: cannot write: {e}"))
}

/// `check`: exit 0 when it passes, 1 with findings that fail it, 2 when it
/// cannot run.
pub fn run(args: CheckArgs) -> ExitCode {
    use hive_oracle::check::baseline::Baseline;
    use hive_oracle::check::checker::{self, DeclaredRules};
    use hive_oracle::check::report;
    let fail = |message: String| {
        output::say(&format!("error: {message}"));
        ExitCode::from(2)
    };
    if args.print_schema {
        let written = output::write_stdout(&report::schema());
        return output::status_after_report(written, ExitCode::SUCCESS, 2);
    }
    let engine = match args.engine {
        Some(engine) => engine,
        None => match std::env::current_exe() {
            Ok(exe) => format!("{} uhp", shell_words::quote(&exe.display().to_string())),
            Err(e) => return fail(format!("cannot find this executable: {e}")),
        },
    };
    match hive_oracle::check::client::split_command_line(&engine) {
        Err(e) => return fail(format!("--engine: {e}")),
        Ok(words) if words.is_empty() => return fail("--engine: empty command line".to_string()),
        Ok(_) => {}
    }
    if !(1..=64).contains(&args.jobs) {
        return fail(format!("--jobs {}: expected 1 to 64", args.jobs));
    }
    if args.timeout_ms == 0 {
        return fail("--timeout-ms 0: the timeout on a command must be at least 1 ms".to_string());
    }
    if args.startup_timeout_ms == 0 {
        return fail(
            "--startup-timeout-ms 0: the timeout on the start-up banner must be at least 1 ms"
                .to_string(),
        );
    }
    let game_types = match &args.game_types {
        None => None,
        Some(list) => {
            let mut types = Vec::new();
            for word in list
                .split([',', ' '])
                .map(str::trim)
                .filter(|w| !w.is_empty())
            {
                match parse_game_type(word) {
                    Ok(t) => types.push(t),
                    Err(e) => return fail(format!("--game-types: {e}")),
                }
            }
            Some(types)
        }
    };
    let rules = match &args.rules {
        None => DeclaredRules::FromEngine,
        Some(list) => match parse_rules(list) {
            Ok(rules) => DeclaredRules::Given(rules),
            Err(e) => return fail(format!("--rules: {e}")),
        },
    };
    let corpus = if args.no_corpus {
        checker::Corpus {
            name: "none (--no-corpus)".to_string(),
            hash: format!("fnv1a64:{:016x}", hive_oracle::check::run::fnv1a64(b"")),
            cases: Vec::new(),
        }
    } else {
        match check_corpus(&args.corpus, &args.cases) {
            Ok(corpus) => corpus,
            Err(e) => return fail(e),
        }
    };
    let baseline = match &args.baseline {
        None => None,
        Some(path) => match Baseline::read(path) {
            Ok(b) => Some(b),
            Err(e) => return fail(e),
        },
    };
    let mut out_file = match &args.out {
        None => None,
        Some(path) => match writable(path, "--out") {
            Ok(f) => Some(f),
            Err(e) => return fail(e),
        },
    };
    let mut baseline_file = match &args.write_baseline {
        None => None,
        Some(path) => match writable(path, "--write-baseline") {
            Ok(f) => Some(f),
            Err(e) => return fail(e),
        },
    };
    let games = args
        .games
        .unwrap_or(if args.cases.is_empty() { 20 } else { 0 });
    let config = checker::Config {
        engine,
        games,
        seed: args.seed,
        game_types,
        max_plies: args.max_plies,
        corpus,
        timeout: std::time::Duration::from_millis(args.timeout_ms),
        startup_timeout: std::time::Duration::from_millis(args.startup_timeout_ms),
        rules,
        strict_notation: args.strict_notation,
        baseline,
        jobs: args.jobs as usize,
        progress: std::io::stderr().is_terminal(),
    };
    let result = match hive_oracle::check::run::run(&config) {
        Ok(result) => result,
        Err(e) => return fail(e),
    };
    let text = match args.format {
        CheckFormat::Text => report::text(&result),
        CheckFormat::Json => report::json(&result),
        CheckFormat::Junit => report::junit(&result),
    };
    if let (Some(file), Some(path)) = (baseline_file.as_mut(), &args.write_baseline) {
        let written = Baseline::of(&result.findings).to_json();
        if let Err(e) = file.write_all(written.as_bytes()) {
            return fail(format!("cannot write {}: {e}", path.display()));
        }
    }
    let shown = match (out_file.as_mut(), &args.out) {
        (Some(file), Some(path)) => {
            if let Err(e) = file.write_all(text.as_bytes()) {
                return fail(format!("cannot write {}: {e}", path.display()));
            }
            if args.format == CheckFormat::Text {
                text
            } else {
                // The summary on stdout; the full report is in the file.
                report::text(&result)
            }
        }
        _ => text,
    };
    let verdict = if result.clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    // a closed stdout keeps the verdict; another write error is status 2
    output::status_after_report(output::write_stdout(&shown), verdict, 2)
}
