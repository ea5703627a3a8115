//! What a check is given, checked: the options of `hive-oracle check`
//! ([`CheckOptions`]) turned into a [`Config`] by [`Config::from_options`];
//! a [`ConfigError`] says what is wrong, in the words of the command line,
//! and the check cannot run (exit 2). The report files are checked here,
//! before the run, so that a path that cannot be written fails at once
//! rather than after the check, and so that no report replaces a file the
//! check reads (a corpus case, the baseline, the engine's program or
//! script); they are written after the run, whole ([`crate::output_file`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

use crate::check::client::{split_command_line, CommandLineError};
use crate::check::findings::baseline::{Baseline, BaselineError};
use crate::check::findings::reproduce::{ReproduceDir, ReproduceError};
use crate::check::given::corpus::{CheckCorpusError, Corpus};
use crate::check::given::options::{CheckOptions, ReportFormat};
use crate::check::given::record_set::RecordSet;
use crate::check::given::shard::{Shard, ShardSyntax};
use crate::input::{record_files, InputError};
use crate::output_file::{refuse_same_files, NamedInput, OutputError, PendingFile};
use hive_oracle_rules::core::notation::{parse_game_type, NotationError};
use hive_oracle_rules::core::{GameType, RulesOptions};
use hive_oracle_rules::house_rules::{HouseRepetition, ImmunePiece, Sameness, Window};

/// Which rules the engine plays, and who said so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclaredRules {
    /// Given with `--rules`, with the house repetition rule it names, if
    /// any (the repetition draw is then on for the engine).
    Given(RulesOptions, Option<HouseRepetition>),
    /// Read from the engine's `options` (`TournamentOpening`,
    /// `RepetitionDraw`), the standard rules (§4.2 tournament opening, no
    /// repetition draw) for an option it does not list.
    FromEngine,
}

/// What to check and how: the options checked, the corpus, the records
/// and the baseline read, the report files checked writable (the command
/// line writes them after the run). Built by [`Config::from_options`], run
/// by [`crate::check::run`].
#[derive(Debug)]
pub struct Config {
    /// The engine's command line, in shell syntax.
    pub(crate) engine: String,
    /// How many random games.
    pub(crate) games: u64,
    /// The seed of the random games; see [`game_rng`](crate::check::given::seed::game_rng).
    pub(crate) seed: u64,
    /// The game types of the random games; `None`: every supported one.
    pub(crate) game_types: Option<Vec<GameType>>,
    /// A random game stops after this many plies.
    pub(crate) max_plies: usize,
    /// The corpus cases to run (already filtered by `--case`).
    pub(crate) corpus: Corpus,
    /// The games of the records to replay on the engine (`--records`).
    pub(crate) records: RecordSet,
    /// The timeout on every command.
    pub(crate) timeout: Duration,
    /// The timeout on the start-up banner.
    pub(crate) startup_timeout: Duration,
    /// The rules the engine plays.
    pub(crate) rules: DeclaredRules,
    /// Advisory findings fail the check too.
    pub(crate) strict_notation: bool,
    /// Known findings, which do not fail the check.
    pub(crate) baseline: Option<Baseline>,
    /// Engine processes run at once.
    pub(crate) jobs: usize,
    /// The slice of the units to run, when the check is sharded.
    pub(crate) shard: Option<Shard>,
    /// Show a progress bar (on stderr).
    pub(crate) progress: bool,
    /// The file the report is also written to (`--out`), checked and
    /// written after the run.
    pub(crate) out: Option<PendingFile>,
    /// The files of `--out-json` and `--out-junit`, each with its format,
    /// checked and written after the run.
    pub(crate) also: Vec<(ReportFormat, PendingFile)>,
    /// The file this run's baseline is written to (`--write-baseline`),
    /// checked and written after the run.
    pub(crate) write_baseline: Option<PendingFile>,
    /// The folder of the reproduce files (`--reproduce-dir`), checked;
    /// they are written after the run ([`crate::check::findings::reproduce::write_files`]).
    pub(crate) reproduce_dir: Option<ReproduceDir>,
}

/// Why a check cannot run with the options given.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// No `--engine`, and the path of this executable, whose `uhp` is the
    /// default engine, cannot be found.
    #[error("cannot find this executable: {0}")]
    ThisExecutable(std::io::Error),
    /// The engine's command line does not split into words.
    #[error("--engine: {0}")]
    EngineCommandLine(CommandLineError),
    /// The engine's command line is blank.
    #[error("--engine: empty command line")]
    EmptyEngine,
    /// `--jobs` out of range.
    #[error("--jobs {0}: expected 1 to 64")]
    Jobs(u64),
    /// `--timeout-ms 0`.
    #[error("--timeout-ms 0: the timeout on a command must be at least 1 ms")]
    ZeroTimeout,
    /// `--shard` does not read.
    #[error(transparent)]
    Shard(#[from] ShardSyntax),
    /// `--startup-timeout-ms 0`.
    #[error("--startup-timeout-ms 0: the timeout on the start-up banner must be at least 1 ms")]
    ZeroStartupTimeout,
    /// A word of `--game-types` is not a GameTypeString.
    #[error("--game-types: {0}")]
    GameTypes(NotationError),
    /// A list option names nothing (`--game-types ,,,`): an empty list is a
    /// mistake, not a request for nothing or for the default.
    #[error("{0}: the list is empty: give at least one word")]
    EmptyList(&'static str),
    /// A word of `--rules` is not a rule.
    #[error("--rules: {0}")]
    Rules(UnknownRule),
    /// The corpus cannot be used.
    #[error(transparent)]
    Corpus(#[from] CheckCorpusError),
    /// A path of `--records` names no record file.
    #[error("--records: {0}")]
    Records(InputError),
    /// The baseline cannot be read.
    #[error(transparent)]
    Baseline(#[from] BaselineError),
    /// A report file cannot be written, or is an input or the other
    /// report file.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The folder of the reproduce files cannot be used.
    #[error(transparent)]
    ReproduceDir(#[from] ReproduceError),
}

/// A word of `--rules` that names no rule.
#[derive(Debug, Error)]
#[error("unknown rule `{0}`: expected tournament-opening, standard-opening, repetition-draw, no-repetition-draw, or a house repetition rule: repetition-whole-game, repetition-folds-symmetry, repetition-hivegame, repetition-nokamute")]
pub struct UnknownRule(pub String);

impl Config {
    /// Checks `options` in the order the command line documents them (the
    /// engine's command line, this executable's `uhp` when none is given,
    /// `--jobs`, the timeouts, `--game-types`, `--rules`, the corpus and
    /// `--case`, the baseline, then the report files, which must not be
    /// inputs and are checked writable without being touched) and builds
    /// the configuration; the first problem is the error. The report
    /// formats and `--print-schema` are the command line's: the check does
    /// not depend on them.
    pub fn from_options(options: CheckOptions) -> Result<Config, ConfigError> {
        let engine = engine_command_line(options.engine.as_deref())?;
        if !(1..=64).contains(&options.jobs) {
            return Err(ConfigError::Jobs(options.jobs));
        }
        if options.timeout_ms == 0 {
            return Err(ConfigError::ZeroTimeout);
        }
        if options.startup_timeout_ms == 0 {
            return Err(ConfigError::ZeroStartupTimeout);
        }
        let shard = options
            .shard
            .as_deref()
            .map(str::parse::<Shard>)
            .transpose()?;
        let game_types = match &options.game_types {
            None => None,
            Some(list) if list_words(list).next().is_none() => {
                return Err(ConfigError::EmptyList("--game-types"))
            }
            Some(list) => Some(parse_game_types(list).map_err(ConfigError::GameTypes)?),
        };
        let rules = match &options.rules {
            None => DeclaredRules::FromEngine,
            Some(list) if list_words(list).next().is_none() => {
                return Err(ConfigError::EmptyList("--rules"))
            }
            Some(list) => {
                let (rules, house) = parse_rules(list).map_err(ConfigError::Rules)?;
                DeclaredRules::Given(rules, house)
            }
        };
        // records alone, unless a corpus or cases are named too
        let records_alone =
            !options.records.is_empty() && options.corpus.is_empty() && options.cases.is_empty();
        let corpus = if options.no_corpus {
            Corpus::none()
        } else if records_alone {
            Corpus::none_with("none (--records)")
        } else {
            Corpus::load(&options.corpus, &options.cases)?
        };
        let records = RecordSet::load(&options.records).map_err(ConfigError::Records)?;
        let baseline = options
            .baseline
            .as_deref()
            .map(Baseline::read)
            .transpose()?
            .map(|b| b.for_corpus(corpus.cases.iter().map(|c| c.id())));
        let (out, also, write_baseline, reproduce_dir) = outputs(&options, &engine)?;
        let games =
            options
                .games
                .unwrap_or(if options.cases.is_empty() && options.records.is_empty() {
                    20
                } else {
                    0
                });
        Ok(Config {
            engine,
            games,
            seed: options.seed,
            game_types,
            max_plies: options.max_plies,
            corpus,
            records,
            timeout: Duration::from_millis(options.timeout_ms),
            startup_timeout: Duration::from_millis(options.startup_timeout_ms),
            rules,
            strict_notation: options.strict_notation,
            baseline,
            jobs: options.jobs as usize,
            shard,
            progress: options.progress,
            out,
            also,
            write_baseline,
            reproduce_dir,
        })
    }
}

/// The engine's command line: `given`, or this executable's `uhp` (its
/// path quoted for a shell), checked to split into words, at least one.
fn engine_command_line(given: Option<&str>) -> Result<String, ConfigError> {
    let engine = match given {
        Some(engine) => engine.to_string(),
        None => {
            let exe = std::env::current_exe().map_err(ConfigError::ThisExecutable)?;
            format!("{} uhp", shell_words::quote(&exe.display().to_string()))
        }
    };
    match split_command_line(&engine) {
        Err(e) => Err(ConfigError::EngineCommandLine(e)),
        Ok(words) if words.is_empty() => Err(ConfigError::EmptyEngine),
        Ok(_) => Ok(engine),
    }
}

/// The files and the folder a check writes (`--out`, `--out-json`,
/// `--out-junit`, `--write-baseline`, `--reproduce-dir`), checked before
/// the run: none of them an input or another output, each writable,
/// nothing touched.
fn outputs(options: &CheckOptions, engine: &str) -> Result<Outputs, ConfigError> {
    let outputs: Vec<(&'static str, &Path)> = [
        ("--out", options.out.as_deref()),
        ("--out-json", options.out_json.as_deref()),
        ("--out-junit", options.out_junit.as_deref()),
        ("--write-baseline", options.write_baseline.as_deref()),
    ]
    .into_iter()
    .filter_map(|(option, path)| Some((option, path?)))
    .collect();
    refuse_same_files(&outputs, &inputs(options, engine))?;
    refuse_cases_in_corpus_folders(&outputs, &options.corpus)?;
    let reproduce_dir = match &options.reproduce_dir {
        None => None,
        Some(dir) => {
            let others = outputs.iter().map(|&(o, p)| (o, p.to_path_buf()));
            Some(ReproduceDir::check(
                dir,
                inputs(options, engine),
                others.collect(),
            )?)
        }
    };
    let out = options
        .out
        .as_deref()
        .map(|path| PendingFile::create(path, "--out"))
        .transpose()?;
    let mut also = Vec::new();
    for (format, path, option) in [
        (ReportFormat::Json, &options.out_json, "--out-json"),
        (ReportFormat::Junit, &options.out_junit, "--out-junit"),
    ] {
        if let Some(path) = path {
            also.push((format, PendingFile::create(path, option)?));
        }
    }
    let write_baseline = options
        .write_baseline
        .as_deref()
        .map(|path| PendingFile::create(path, "--write-baseline"))
        .transpose()?;
    Ok((out, also, write_baseline, reproduce_dir))
}

/// Refuses an output named `*.toml` in a corpus folder (`--corpus DIR`): the
/// next check with that folder would read it as a case file and fail on it.
fn refuse_cases_in_corpus_folders(
    outputs: &[(&'static str, &Path)],
    corpus: &[String],
) -> Result<(), OutputError> {
    for folder in corpus.iter().filter(|dir| *dir != "builtin") {
        let Ok(folder_path) = std::fs::canonicalize(folder) else {
            continue;
        };
        for &(option, path) in outputs {
            let is_toml = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
            let parent = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            if is_toml && std::fs::canonicalize(parent).is_ok_and(|p| p == folder_path) {
                return Err(OutputError::CaseFileOfCorpus {
                    option,
                    path: path.to_path_buf(),
                    folder: folder.into(),
                });
            }
        }
    }
    Ok(())
}

/// The outputs of a check ([`outputs`]).
type Outputs = (
    Option<PendingFile>,
    Vec<(ReportFormat, PendingFile)>,
    Option<PendingFile>,
    Option<ReproduceDir>,
);

/// The files a check reads, which no report may replace: the baseline, the
/// record files named by `--records`, the
/// `*.toml` files of the corpus folders, and every word of the engine's
/// command line that names a file (the program, found on `PATH` when its
/// name has no folder, a script, a `--flag=FILE` value).
fn inputs(options: &CheckOptions, engine: &str) -> Vec<NamedInput> {
    let named = |what: &str, path: PathBuf| NamedInput {
        what: what.to_string(),
        path,
    };
    let mut inputs: Vec<NamedInput> = options
        .baseline
        .iter()
        .map(|path| named("the baseline (--baseline)", path.clone()))
        .collect();
    for path in &options.records {
        inputs.push(named("a game record (--records)", path.clone()));
        // a folder: every record file its walk reads (subfolders and zip
        // archives included), as the check will find them
        if path.is_dir() {
            let found = record_files(std::slice::from_ref(path)).unwrap_or_default();
            inputs.extend(
                found
                    .files
                    .into_iter()
                    .map(|file| named("a game record of a --records folder", file)),
            );
        }
    }
    for folder in options.corpus.iter().filter(|dir| *dir != "builtin") {
        let entries = std::fs::read_dir(folder).into_iter().flatten().flatten();
        inputs.extend(
            entries
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|e| e == "toml"))
                .map(|path| named("a corpus case file (--corpus)", path)),
        );
    }
    let words = split_command_line(engine).unwrap_or_default();
    for (index, word) in words.iter().enumerate() {
        let value = word.split_once('=').map(|(_, value)| value);
        for path in std::iter::once(word.as_str()).chain(value) {
            inputs.push(named(
                "a file of the engine's command line (--engine)",
                path.into(),
            ));
        }
        if index == 0 && !word.contains(std::path::is_separator) {
            let path = std::env::var_os("PATH").unwrap_or_default();
            let found = std::env::split_paths(&path)
                .map(|dir| dir.join(word))
                .find(|path| path.is_file());
            inputs.extend(found.map(|path| named("the engine's program (--engine)", path)));
        }
    }
    inputs
}

/// Reads a list of GameTypeStrings separated by commas or spaces.
fn parse_game_types(list: &str) -> Result<Vec<GameType>, NotationError> {
    list_words(list).map(parse_game_type).collect()
}

/// The words of a list option, separated by commas or spaces.
fn list_words(list: &str) -> impl Iterator<Item = &str> {
    list.split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty())
}

/// Reads `--rules`: `tournament-opening` or `standard-opening`, and
/// `repetition-draw` or `no-repetition-draw`, separated by commas or
/// spaces, in any case; a word left out takes its standard value. The
/// house repetition rules (spec/rulings.md#house-repetition-rules) turn the
/// repetition draw on: `repetition-whole-game` counts over the whole game,
/// `repetition-folds-symmetry` folds rotations and mirror images (the two
/// combine), and `repetition-hivegame` and `repetition-nokamute` name those
/// engines' rules whole; `no-repetition-draw` takes any of them back.
fn parse_rules(list: &str) -> Result<(RulesOptions, Option<HouseRepetition>), UnknownRule> {
    // the spec's rule, which a house word changes one choice of
    const SPEC: HouseRepetition = HouseRepetition {
        window: Window::LastThirtyTwoPlies,
        sameness: Sameness::Translation,
        immune: ImmunePiece::WhenItRemovesAMove,
    };
    let mut rules = RulesOptions::default();
    let mut house: Option<HouseRepetition> = None;
    for word in list_words(list) {
        let base = house.unwrap_or(SPEC);
        match word.to_ascii_lowercase().as_str() {
            "tournament-opening" => rules.tournament_opening = true,
            "standard-opening" => rules.tournament_opening = false,
            "repetition-draw" => rules.repetition_draw = true,
            "no-repetition-draw" => {
                rules.repetition_draw = false;
                house = None;
            }
            "repetition-whole-game" => {
                house = Some(HouseRepetition {
                    window: Window::WholeGame,
                    ..base
                })
            }
            "repetition-folds-symmetry" => {
                house = Some(HouseRepetition {
                    sameness: Sameness::RotationAndReflection,
                    ..base
                })
            }
            "repetition-hivegame" => house = Some(HouseRepetition::HIVEGAME),
            "repetition-nokamute" => house = Some(HouseRepetition::NOKAMUTE),
            _ => return Err(UnknownRule(word.to_string())),
        }
        if house.is_some() {
            rules.repetition_draw = true;
        }
    }
    Ok((rules, house.filter(|h| *h != SPEC)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The house words of `--rules` (spec/rulings.md#house-repetition-rules):
    /// each turns the repetition draw on, the first two combine, a preset
    /// replaces what came before, and `no-repetition-draw` takes any back.
    #[test]
    fn house_repetition_words_combine_and_turn_the_draw_on() {
        let house = |list: &str| {
            let (rules, house) = parse_rules(list).expect("reads");
            (rules.repetition_draw, house.map(|h| h.name()))
        };
        assert_eq!(house("repetition-draw"), (true, None));
        assert_eq!(
            house("repetition-whole-game"),
            (true, Some("repetition-whole-game".to_string()))
        );
        assert_eq!(
            house("Repetition-Folds-Symmetry, repetition-whole-game"),
            (
                true,
                Some("repetition-whole-game,repetition-folds-symmetry".to_string())
            )
        );
        assert_eq!(
            house("repetition-whole-game repetition-nokamute"),
            (true, Some("repetition-nokamute".to_string()))
        );
        assert_eq!(
            house("repetition-hivegame,no-repetition-draw"),
            (false, None)
        );
        assert!(parse_rules("repetition-chess").is_err());
    }
}
