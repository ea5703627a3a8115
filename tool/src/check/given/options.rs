//! The options of `hive-oracle check`, declared once: [`CheckOptions`] is
//! both the command's arguments (clap reads them, with the help text and
//! the defaults below) and what [`Config::from_options`] checks. A program
//! that runs a check builds them as the command line would
//! ([`CheckOptions::from_args`]).
//!
//! [`Config::from_options`]: crate::check::given::Config::from_options

use std::path::PathBuf;

use clap::{Args, FromArgMatches, ValueEnum};

/// The report formats of `check` and `check-merge`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReportFormat {
    Text,
    Json,
    Junit,
}

/// The options of `check`, as given, before they are checked
/// ([`Config::from_options`](crate::check::given::Config::from_options)).
#[derive(Clone, Debug, Args)]
pub struct CheckOptions {
    /// The engine's command line, in shell syntax (quotes, backslashes);
    /// this executable's `uhp` by default.
    #[arg(long)]
    pub engine: Option<String>,
    /// How many random games to play (20; 0 with --case or --records).
    #[arg(long)]
    pub games: Option<u64>,
    /// The seed of the random games: game i of type T draws its moves from
    /// a ChaCha8 generator keyed by (seed, i, T), so two seeds share no game.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The game types of the random games, separated by commas
    /// (e.g. `Base,Base+MLP`); every supported one by default.
    #[arg(long, value_name = "LIST")]
    pub game_types: Option<String>,
    /// A random game stops after this many plies.
    #[arg(long, default_value_t = 100)]
    pub max_plies: usize,
    /// A case corpus folder (*.toml, spec/cases.md), or `builtin` for the
    /// corpus built into this binary (the default). Repeat to combine.
    #[arg(long, value_name = "DIR")]
    pub corpus: Vec<String>,
    /// Run no corpus case (protocol probes and random games only).
    #[arg(long, conflicts_with_all = ["corpus", "cases"])]
    pub no_corpus: bool,
    /// Run only this corpus case (`file.toml::name`, or the name alone);
    /// repeat for several.
    #[arg(long = "case", value_name = "NAME")]
    pub cases: Vec<String>,
    /// Game records to replay on the engine: PGN or SGF files, zip archives
    /// of them, and folders searched for .pgn, .sgf and .zip files (in
    /// sorted order). At every
    /// position `validmoves` is compared, the record's move played and the
    /// printed GameString replayed. Alone (without --corpus, --case or
    /// --games), the records are checked and no case or random game (the
    /// protocol probes run as in every check).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub records: Vec<PathBuf>,
    /// The rules the engine plays, separated by commas: `tournament-opening`
    /// or `standard-opening`, and `repetition-draw` or `no-repetition-draw`
    /// (a word left out takes its standard value). A house repetition rule,
    /// for an engine whose repetition draw is not the spec's:
    /// `repetition-whole-game`, `repetition-folds-symmetry` (the two
    /// combine), `repetition-hivegame` or `repetition-nokamute`
    /// (spec/rulings.md#house-repetition-rules). Without it, the engine's
    /// own `TournamentOpening` and `RepetitionDraw` options are read.
    #[arg(long, value_name = "LIST")]
    pub rules: Option<String>,
    /// Refusing a lenient spelling (spec/notation.md, an advisory finding)
    /// fails the check too.
    #[arg(long)]
    pub strict_notation: bool,
    /// Findings listed in this file (written by --write-baseline) are known:
    /// shown, but they do not fail the check.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write this run's findings to a baseline file.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Engine processes run at once (independent cases and games), 1 to 64;
    /// the report is the same for every value.
    #[arg(long, default_value_t = 1)]
    pub jobs: u64,
    /// Run only the I-th of N deterministic slices of the units (protocol
    /// probes, corpus cases, random games, record games: unit k is in slice
    /// k mod N + 1); merge the JSON reports of all N with `check-merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// The timeout on every engine command, in milliseconds (at least 1).
    #[arg(long, default_value_t = 5000)]
    pub timeout_ms: u64,
    /// The timeout on the engine's start-up banner, in milliseconds (at
    /// least 1).
    #[arg(long, default_value_t = 10000)]
    pub startup_timeout_ms: u64,
    /// The report format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub(crate) format: ReportFormat,
    /// Also write the report to this file (checked before the run, replaced
    /// whole after it; never an input of the check).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write the JSON report to this file, whatever `--format` says
    /// (checked before the run like --out), so that one run gives the text
    /// on stdout, a JSON report for `check-merge` and a JUnit report
    #[arg(long, value_name = "FILE")]
    pub out_json: Option<PathBuf>,
    /// Also write the JUnit report to this file, whatever `--format` says
    /// (checked before the run like --out)
    #[arg(long, value_name = "FILE")]
    pub out_junit: Option<PathBuf>,
    /// Write the input of each reproduce pipe that was proven on a fresh
    /// engine to a file in this folder (created if needed), byte for byte
    /// (`cause-NN-KIND.uhp`, NN the finding's number), to attach to a bug
    /// report; the report gives for each a POSIX shell command (`ENGINE <
    /// FILE`) and a PowerShell one (`Get-Content -Raw FILE | & ENGINE`).
    #[arg(long, value_name = "DIR")]
    pub reproduce_dir: Option<PathBuf>,
    /// Print the JSON Schema of the JSON report and exit.
    #[arg(long)]
    pub(crate) print_schema: bool,
    /// Show a progress bar on stderr (no option: the command line shows one
    /// when stderr is a terminal).
    #[arg(skip)]
    pub progress: bool,
}

impl CheckOptions {
    /// The options of the command line `hive-oracle check ARGS…`, read by
    /// clap as the command reads them (its defaults, its value checks,
    /// `--no-corpus` refused with `--corpus`); `args` without the command's
    /// name. The error says what is wrong, as the command would.
    ///
    /// ```
    /// use hive_oracle::check::given::CheckOptions;
    ///
    /// let options = CheckOptions::from_args(["--engine", "my-engine --uhp", "--games", "5"])?;
    /// assert_eq!(options.games, Some(5));
    /// assert_eq!(options.max_plies, 100);
    /// assert!(CheckOptions::from_args(["--no-corpus", "--corpus", "cases"]).is_err());
    /// # Ok::<(), clap::Error>(())
    /// ```
    pub fn from_args<I, T>(args: I) -> Result<CheckOptions, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let command = CheckOptions::augment_args(clap::Command::new("check"));
        let words = std::iter::once(std::ffi::OsString::from("check"))
            .chain(args.into_iter().map(Into::into));
        let matches = command.try_get_matches_from(words)?;
        CheckOptions::from_arg_matches(&matches)
    }
}
