//! Running a check: the protocol unit first (it learns what the engine
//! supports), then the corpus cases and the random games on `--jobs`
//! engine processes (`jobs`), merged in unit order into a
//! [`Report`], graded against the baseline.

use std::time::{Duration, Instant};

use crate::check::client::{Capabilities, ClientError};
use crate::check::findings::baseline::{Baseline, STALE_BASELINE_NOTE};
use crate::check::findings::finding::Finding;
use crate::check::findings::group::{group, FindingGroup};
use crate::check::findings::reproduce::name_files;
use crate::check::findings::summary::{
    count_causes, incompleteness, passes, CorpusInfo, EngineInfo, Report, RulesInfo, RunInfo,
    ShardInfo, Skip, Summary, TestCase, Timings, REPORT_FORMAT_VERSION,
};
use crate::check::given::config::{Config, DeclaredRules};
use crate::check::jobs::{run_units, Unit, UnitResults, MAX_CONSECUTIVE_FAILURES};
use crate::check::proof::prove_all;
use crate::check::units::probes::protocol_unit;
use crate::check::units::worker::{Context, UnitResult, Worker};
use hive_oracle_rules::core::{GameType, RulesOptions};

/// Runs the whole check. An `Err` means the check could not run (exit 2):
/// the engine cannot be started.
pub fn run(config: &Config) -> Result<Report, ClientError> {
    let started = Instant::now();
    let jobs = config.jobs.max(1);
    // The protocol unit first, alone: it learns what the engine supports.
    let probe_ctx = Context {
        config,
        rules: RulesOptions::default(),
        house: None,
        settable: false,
        engine_rules: RulesOptions::default(),
        supported: vec![GameType::BASE],
        types: Vec::new(),
    };
    let mut first = Worker::new(&probe_ctx);
    let (protocol, engine, mut notes) = protocol_unit(&mut first)?;
    let engine_time_first = first.session.engine_time;
    first.session.shutdown();
    let (ctx, source) = context(config, &engine, &mut notes);
    let games = if ctx.types.is_empty() {
        0
    } else {
        config.games
    };
    if ctx.types.is_empty() && config.games > 0 {
        notes.push("no supported game type to play random games with".to_string());
    }
    let mut units: Vec<Unit> = (0..config.corpus.cases.len()).map(Unit::Case).collect();
    units.extend((0..games).map(Unit::Game));
    units.extend((0..config.records.units.len()).map(Unit::Record));
    let shard = config.shard.map(|shard| ShardInfo {
        index: shard.index,
        count: shard.count,
        units: unit_names(&ctx, &units),
        tests: Vec::new(),
    });
    // unit 0 is the protocol unit; a shard runs its own slice of the rest
    let keeps_protocol = config.shard.is_none_or(|s| s.holds(0));
    if let Some(slice) = config.shard {
        units = (units.into_iter().enumerate())
            .filter(|&(k, _)| slice.holds(k + 1))
            .map(|(_, unit)| unit)
            .collect();
    }
    let progress = progress_bar(config.progress, units.len() as u64);
    let results = run_units(&ctx, &units, jobs, &progress);
    progress.finish_and_clear();

    let mut merged = Merged::of_protocol(protocol, engine_time_first, keeps_protocol);
    merged.add_units(&ctx, &units, results);
    let mut incomplete = not_done(config, merged.units_given_up, &mut notes);
    let Merged {
        mut summary,
        findings,
        tests,
        skipped,
        mut timings,
        ..
    } = merged;
    summary.findings_seen = findings.len() as u64;
    let mut groups = group(findings);
    prove_all(config, &mut groups);
    let passed = grade(config, &mut groups, &mut summary, &mut notes);
    let run = run_info(config, &ctx, source, jobs);
    incomplete.extend(incompleteness(&run, &summary));
    let passed = passed && incomplete.is_empty();
    if let Some(dir) = &config.reproduce_dir {
        name_files(dir, &config.engine, &mut groups);
    }
    timings.seconds = started.elapsed().as_secs_f64();
    let shard = shard.map(|info| ShardInfo {
        tests: tests.clone(),
        ..info
    });
    Ok(Report {
        format_version: REPORT_FORMAT_VERSION.to_string(),
        run,
        shard,
        engine,
        passed,
        incomplete,
        summary,
        findings: groups,
        skipped,
        notes,
        timings,
        tests,
    })
}

/// What the units share, from what the protocol unit learnt about the
/// engine (its capabilities and options listing) and the configuration;
/// where the rules come from. Notes the game types asked for that the
/// engine does not support.
fn context<'a>(
    config: &'a Config,
    engine: &EngineInfo,
    notes: &mut Vec<String>,
) -> (Context<'a>, &'static str) {
    let (declared, settable, listed) = rules_from_options(&engine.options);
    let (rules, house, source) = match config.rules {
        DeclaredRules::Given(rules, house) => (rules, house, "--rules"),
        DeclaredRules::FromEngine if listed => (declared, None, "engine options"),
        DeclaredRules::FromEngine => (declared, None, "standard"),
    };
    let supported = Capabilities::parse(&engine.capabilities.join(";")).game_types();
    let types: Vec<GameType> = match &config.game_types {
        None => supported.clone(),
        Some(asked) => {
            let (ok, not): (Vec<GameType>, Vec<GameType>) =
                asked.iter().partition(|t| supported.contains(t));
            for t in not {
                notes.push(format!(
                    "game type {t} is not supported by the engine: no random games of it"
                ));
            }
            ok
        }
    };
    let ctx = Context {
        config,
        rules,
        house,
        settable,
        engine_rules: declared,
        supported,
        types,
    };
    (ctx, source)
}

/// The results of every unit merged in unit order.
struct Merged {
    summary: Summary,
    findings: Vec<Finding>,
    tests: Vec<TestCase>,
    skipped: Vec<Skip>,
    timings: Timings,
    /// The length of the current streak of failed units.
    streak: usize,
    /// Whether a streak of [`MAX_CONSECUTIVE_FAILURES`] was reached: the
    /// rest is skipped.
    unusable: bool,
    /// The units not run because the check gave up on the engine.
    units_given_up: usize,
}

impl Merged {
    /// The merge of the protocol unit, with the engine time of its process;
    /// only its time when its results are not `kept` (a shard whose slice
    /// does not hold it ran it to learn what the engine supports).
    fn of_protocol(protocol: UnitResult, engine_time: Duration, kept: bool) -> Merged {
        if !kept {
            return Merged {
                summary: Summary::default(),
                timings: Timings {
                    engine_seconds: engine_time.as_secs_f64(),
                    ..Timings::default()
                },
                streak: 0,
                findings: Vec::new(),
                tests: Vec::new(),
                skipped: Vec::new(),
                unusable: false,
                units_given_up: 0,
            };
        }
        Merged {
            summary: protocol.counts.clone(),
            timings: Timings {
                engine_seconds: engine_time.as_secs_f64(),
                reference_seconds: protocol.reference_time.as_secs_f64(),
                shrink_seconds: protocol.shrink_time.as_secs_f64(),
                ..Timings::default()
            },
            streak: if protocol.failed { 1 } else { 0 },
            // the probes not run, and why
            skipped: protocol
                .skips
                .iter()
                .map(|reason| Skip {
                    test: protocol.test.name.clone(),
                    reason: reason.clone(),
                })
                .collect(),
            findings: protocol.findings,
            tests: vec![protocol.test],
            unusable: false,
            units_given_up: 0,
        }
    }

    /// Adds the units' results in unit order; after
    /// [`MAX_CONSECUTIVE_FAILURES`] failed units in a row, the rest is
    /// skipped.
    fn add_units(&mut self, ctx: &Context<'_>, units: &[Unit], results: UnitResults) {
        for (unit, result) in units.iter().zip(results.results) {
            match result {
                Some(result) if !self.unusable => self.add(result),
                _ => self.skip(ctx, *unit),
            }
        }
        self.timings.engine_seconds += results.engine_time.as_secs_f64();
    }

    /// A unit not run: the engine was unusable before it.
    fn skip(&mut self, ctx: &Context<'_>, unit: Unit) {
        self.units_given_up += 1;
        let name = unit.name(ctx);
        let reason = "engine unusable after repeated crashes, timeouts or floods of output";
        match unit {
            Unit::Case(_) => self.summary.corpus_cases_skipped += 1,
            Unit::Game(_) => self.summary.games_skipped += 1,
            Unit::Record(_) => self.summary.record_games_skipped += 1,
        }
        self.skipped.push(Skip {
            test: name.clone(),
            reason: reason.to_string(),
        });
        self.tests.push(TestCase {
            class: unit.class().to_string(),
            name,
            seconds: 0.0,
            skipped: Some(reason.to_string()),
        });
    }

    /// A unit's result.
    fn add(&mut self, result: UnitResult) {
        for reason in result.skips.iter().chain(&result.test.skipped) {
            self.skipped.push(Skip {
                test: result.test.name.clone(),
                reason: reason.clone(),
            });
        }
        self.streak = if result.failed { self.streak + 1 } else { 0 };
        if self.streak >= MAX_CONSECUTIVE_FAILURES {
            self.unusable = true;
        }
        self.summary.add(&result.counts);
        self.timings.reference_seconds += result.reference_time.as_secs_f64();
        self.timings.shrink_seconds += result.shrink_time.as_secs_f64();
        self.findings.extend(result.findings);
        self.tests.push(result.test);
    }
}

/// What the check could not do, which fails it whatever it found: the
/// units it gave up on the engine before (noted too), the record files that
/// could not be read at all (a truncated archive, a file of no game), whose
/// games were not checked. (What the counts show is [`incompleteness`].)
fn not_done(config: &Config, units_given_up: usize, notes: &mut Vec<String>) -> Vec<String> {
    let mut incomplete = Vec::new();
    if units_given_up > 0 {
        notes.push(
            "the engine failed repeatedly (crash, timeout or flood of output): the remaining cases and games were skipped"
                .to_string(),
        );
        let units = if units_given_up == 1 {
            "1 unit".to_string()
        } else {
            format!("{units_given_up} units")
        };
        incomplete.push(format!(
            "the check gave up on the engine after {MAX_CONSECUTIVE_FAILURES} failed units in a row (crashes, timeouts or floods of output): {units} not run"
        ));
    }
    for (file, error) in config.records.unreadable_files() {
        incomplete.push(format!("the record file {file} could not be read: {error}"));
    }
    incomplete
}

/// Marks the causes the baseline knows and counts the causes; whether the
/// check passes: no error (and, with `--strict-notation`, no advisory) that
/// the baseline does not list. Stale baseline entries become notes.
fn grade(
    config: &Config,
    groups: &mut [FindingGroup],
    summary: &mut Summary,
    notes: &mut Vec<String>,
) -> bool {
    for g in groups.iter_mut() {
        g.known = config.baseline.as_ref().is_some_and(|b| b.accepts(g));
    }
    count_causes(groups, summary);
    if let Some(baseline) = &config.baseline {
        for stale in baseline.unseen(groups) {
            notes.push(format!("{STALE_BASELINE_NOTE}{stale}"));
        }
    }
    passes(groups, config.strict_notation)
}

/// The name of every unit of the whole check, in unit order (the protocol
/// unit first), as findings write them.
fn unit_names(ctx: &Context<'_>, units: &[Unit]) -> Vec<String> {
    std::iter::once("protocol".to_string())
        .chain(units.iter().map(|u| u.name(ctx)))
        .collect()
}

/// What was run, with which arguments.
fn run_info(config: &Config, ctx: &Context<'_>, source: &str, jobs: usize) -> RunInfo {
    RunInfo {
        tool: "hive-oracle".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        engine: config.engine.clone(),
        seed: config.seed,
        seed_derivation: "game i of type T: ChaCha8 keyed by seed (u64 LE), i (u64 LE), FNV-1a-64 of T (LE), \"hivegame\"".to_string(),
        games: config.games,
        game_types: ctx.types.iter().map(|t| t.to_string()).collect(),
        max_plies: config.max_plies,
        corpus: CorpusInfo {
            name: config.corpus.name.clone(),
            hash: config.corpus.hash.clone(),
            cases: config.corpus.cases.len(),
        },
        records: config
            .records
            .paths
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        rules: RulesInfo {
            tournament_opening: ctx.rules.tournament_opening,
            repetition_draw: ctx.rules.repetition_draw,
            house_repetition: ctx.house.map(|house| house.name()),
            source: source.to_string(),
        },
        timeout_ms: config.timeout.as_millis() as u64,
        startup_timeout_ms: config.startup_timeout.as_millis() as u64,
        strict_notation: config.strict_notation,
        baseline: config.baseline.as_ref().map(Baseline::describe),
        jobs,
    }
}

fn progress_bar(show: bool, total: u64) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} cases and games ({elapsed}, eta {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// The rules declared by the engine's `options` listing: `TournamentOpening`
/// and `RepetitionDraw` as booleans (spec/sources/uhp-notes.md section 5.8), with the standard
/// value for one it does not list. Also whether it lists both.
fn rules_from_options(lines: &[String]) -> (RulesOptions, bool, bool) {
    let value = |name: &str| {
        lines.iter().find_map(|line| {
            let fields: Vec<&str> = line.split(';').collect();
            (fields.len() >= 3
                && fields[0].eq_ignore_ascii_case(name)
                && fields[1].eq_ignore_ascii_case("bool"))
            .then(|| fields[2].eq_ignore_ascii_case("true"))
        })
    };
    let standard = RulesOptions::default();
    let tournament = value("TournamentOpening");
    let repetition = value("RepetitionDraw");
    let listed_any = tournament.is_some() || repetition.is_some();
    (
        RulesOptions {
            tournament_opening: tournament.unwrap_or(standard.tournament_opening),
            repetition_draw: repetition.unwrap_or(standard.repetition_draw),
        },
        tournament.is_some() && repetition.is_some(),
        listed_any,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_read_from_an_options_listing() {
        let lines = vec![
            "TournamentOpening;bool;False;True".to_string(),
            "RepetitionDraw;bool;True;False".to_string(),
        ];
        let (rules, both, any) = rules_from_options(&lines);
        assert!(!rules.tournament_opening && rules.repetition_draw && both && any);
        let (rules, both, any) = rules_from_options(&[]);
        assert_eq!(rules, RulesOptions::default());
        assert!(!both && !any);
    }
}
