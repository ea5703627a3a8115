//! Running a check: the protocol unit first (it learns what the engine
//! supports), then the corpus cases and the random games on `--jobs` engine
//! processes, unit `i` on process `i mod jobs`, merged in unit order into a
//! [`Report`]; and the per-game generators, keyed so that the same seed,
//! game type and index always give the same game.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::check::baseline::Baseline;
use crate::check::checker::{
    rules_from_options, Config, Context, DeclaredRules, UnitResult, Worker,
};
use crate::check::finding::{group, FindingGroup, Severity};
use crate::check::summary::{
    CorpusInfo, Report, RulesInfo, RunInfo, Skip, Summary, TestCase, Timings,
};
use crate::core::{GameType, RulesOptions};

/// The generator of random game `index` of `game_type` under `seed`: a
/// ChaCha8 stream (rand_chacha, whose output is fixed by the algorithm, not
/// by the crate's version) keyed by the 32 bytes `seed` (little-endian u64),
/// `index` (little-endian u64), the FNV-1a 64 hash of the game type's name
/// (`Base+MLP`, little-endian) and `b"hivegame"`. Two seeds share no game.
pub fn game_rng(seed: u64, game_type: GameType, index: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&index.to_le_bytes());
    key[16..24].copy_from_slice(&fnv1a64(game_type.to_string().as_bytes()).to_le_bytes());
    key[24..].copy_from_slice(b"hivegame");
    ChaCha8Rng::from_seed(key)
}

/// An index below `n` (> 0) from the next 64 bits of `rng`, by
/// multiplication (`x * n / 2^64`), so it depends on the generator alone.
pub fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// The FNV-1a 64-bit hash.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// After this many units in a row whose engine failed (crash, timeout, flood
/// of output), the rest is skipped: the engine is unusable.
const MAX_CONSECUTIVE_FAILURES: usize = 3;

/// One unit of work.
#[derive(Clone, Copy, Debug)]
enum Unit {
    Case(usize),
    Game(u64),
}

/// Runs the whole check. An `Err` means the check could not run (exit 2).
pub fn run(config: &Config) -> Result<Report, String> {
    let started = Instant::now();
    let jobs = config.jobs.max(1);
    // The protocol unit first, alone: it learns what the engine supports.
    let probe_ctx = Context {
        config,
        rules: RulesOptions::default(),
        settable: false,
        engine_rules: RulesOptions::default(),
        supported: vec![GameType::BASE],
        types: Vec::new(),
    };
    let mut first = Worker::new(&probe_ctx);
    let (protocol, engine, mut notes) = first.protocol_unit()?;
    let engine_time_first = first.session.engine_time;
    first.session.shutdown();
    let (declared, settable, listed) = rules_from_options(&engine.options);
    let (rules, source) = match config.rules {
        DeclaredRules::Given(rules) => (rules, "--rules"),
        DeclaredRules::FromEngine if listed => (declared, "engine options"),
        DeclaredRules::FromEngine => (declared, "standard"),
    };
    let supported =
        crate::check::client::Capabilities::parse(&engine.capabilities.join(";")).game_types();
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
    let games = if types.is_empty() { 0 } else { config.games };
    if types.is_empty() && config.games > 0 {
        notes.push("no supported game type to play random games with".to_string());
    }
    let ctx = Context {
        config,
        rules,
        settable,
        engine_rules: declared,
        supported,
        types,
    };
    let mut units: Vec<Unit> = (0..config.corpus.cases.len()).map(Unit::Case).collect();
    units.extend((0..games).map(Unit::Game));
    let progress = progress_bar(config.progress, units.len() as u64);
    let results = run_units(&ctx, &units, jobs, &progress);
    progress.finish_and_clear();

    // Merge in unit order; after MAX_CONSECUTIVE_FAILURES failed units in a
    // row, the rest is skipped.
    let mut summary = protocol.counts.clone();
    let mut findings = protocol.findings;
    let mut tests = vec![protocol.test];
    let mut skipped = Vec::new();
    let mut timings = Timings {
        engine_seconds: engine_time_first.as_secs_f64(),
        reference_seconds: protocol.reference_time.as_secs_f64(),
        shrink_seconds: protocol.shrink_time.as_secs_f64(),
        ..Timings::default()
    };
    let mut streak = if protocol.failed { 1 } else { 0 };
    let mut unusable = false;
    for (unit, result) in units.iter().zip(results.results) {
        let name = unit_name(&ctx, *unit);
        let class = match unit {
            Unit::Case(_) => "corpus",
            Unit::Game(_) => "games",
        };
        let result = match result {
            Some(r) if !unusable => r,
            _ => {
                let reason = "engine unusable after repeated crashes, timeouts or floods of output"
                    .to_string();
                match unit {
                    Unit::Case(_) => summary.corpus_cases_skipped += 1,
                    Unit::Game(_) => summary.games_skipped += 1,
                }
                skipped.push(Skip {
                    test: name.clone(),
                    reason: reason.clone(),
                });
                tests.push(TestCase {
                    class: class.to_string(),
                    name,
                    seconds: 0.0,
                    skipped: Some(reason),
                });
                continue;
            }
        };
        for reason in &result.skips {
            skipped.push(Skip {
                test: result.test.name.clone(),
                reason: reason.clone(),
            });
        }
        if let Some(reason) = &result.test.skipped {
            skipped.push(Skip {
                test: result.test.name.clone(),
                reason: reason.clone(),
            });
        }
        streak = if result.failed { streak + 1 } else { 0 };
        if streak >= MAX_CONSECUTIVE_FAILURES {
            unusable = true;
        }
        summary.add(&result.counts);
        timings.reference_seconds += result.reference_time.as_secs_f64();
        timings.shrink_seconds += result.shrink_time.as_secs_f64();
        findings.extend(result.findings);
        tests.push(result.test);
    }
    if unusable && !skipped.is_empty() {
        notes.push(
            "the engine failed repeatedly (crash, timeout or flood of output): the remaining cases and games were skipped"
                .to_string(),
        );
    }
    timings.engine_seconds += results.engine_time.as_secs_f64();
    summary.findings_seen = findings.len() as u64;
    let mut groups = group(findings);
    let passed = grade(config, &mut groups, &mut summary, &mut notes);
    timings.seconds = started.elapsed().as_secs_f64();
    Ok(Report {
        run: run_info(config, &ctx, rules, source, jobs),
        engine,
        passed,
        summary,
        findings: groups,
        skipped,
        notes,
        timings,
        tests,
    })
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
        g.known = config
            .baseline
            .as_ref()
            .is_some_and(|b| b.contains(&g.fingerprint));
        summary.causes += 1;
        match g.severity {
            Severity::Error => summary.errors += 1,
            Severity::Advisory => summary.advisories += 1,
        }
        if g.known {
            summary.known += 1;
        }
        *summary
            .causes_by_kind
            .entry(g.kind.name().to_string())
            .or_default() += 1;
    }
    if let Some(baseline) = &config.baseline {
        for stale in baseline.unseen(groups.iter().map(|g| g.fingerprint.as_str())) {
            notes.push(format!("baseline entry not seen in this run: {stale}"));
        }
    }
    !groups
        .iter()
        .any(|g| !g.known && (g.severity == Severity::Error || config.strict_notation))
}

/// What was run, with which arguments.
fn run_info(
    config: &Config,
    ctx: &Context<'_>,
    rules: RulesOptions,
    source: &str,
    jobs: usize,
) -> RunInfo {
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
        rules: RulesInfo {
            tournament_opening: rules.tournament_opening,
            repetition_draw: rules.repetition_draw,
            source: source.to_string(),
        },
        timeout_ms: config.timeout.as_millis() as u64,
        startup_timeout_ms: config.startup_timeout.as_millis() as u64,
        strict_notation: config.strict_notation,
        baseline: config.baseline.as_ref().map(Baseline::describe),
        jobs,
    }
}

/// The name of a unit in reports.
fn unit_name(ctx: &Context<'_>, unit: Unit) -> String {
    match unit {
        Unit::Case(i) => ctx.config.corpus.cases[i].id(),
        Unit::Game(i) => {
            let game_type = ctx.types[(i as usize) % ctx.types.len()];
            format!("game {i} ({game_type})")
        }
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

/// The results of the units, in unit order (`None`: not run because the
/// engine was found unusable before it), and the time spent waiting for
/// the engines.
struct UnitResults {
    results: Vec<Option<UnitResult>>,
    engine_time: Duration,
}

/// Runs the units on `jobs` engine processes: unit `i` on process
/// `i mod jobs`, so that each process sees the same commands in every run.
/// A process stops early once three consecutive units (in unit order) are
/// known to have failed: everything after them is skipped at the merge.
fn run_units(
    ctx: &Context<'_>,
    units: &[Unit],
    jobs: usize,
    progress: &indicatif::ProgressBar,
) -> UnitResults {
    let slots: Mutex<Vec<Option<UnitResult>>> =
        Mutex::new((0..units.len()).map(|_| None).collect());
    let failed: Mutex<Vec<Option<bool>>> = Mutex::new(vec![None; units.len()]);
    let stop_after = AtomicUsize::new(usize::MAX);
    let engine_time = Mutex::new(Duration::ZERO);
    std::thread::scope(|scope| {
        for job in 0..jobs {
            let (slots, failed, stop_after, engine_time) =
                (&slots, &failed, &stop_after, &engine_time);
            scope.spawn(move || {
                let mut worker = Worker::new(ctx);
                for (i, &unit) in units.iter().enumerate().skip(job).step_by(jobs) {
                    if i > stop_after.load(Ordering::SeqCst) {
                        break;
                    }
                    let result = worker.run_unit(unit);
                    progress.inc(1);
                    if let Ok(mut f) = failed.lock() {
                        f[i] = Some(result.failed);
                        // a known streak of failures ending at or after i
                        for end in i..units.len().min(i + MAX_CONSECUTIVE_FAILURES) {
                            if end + 1 >= MAX_CONSECUTIVE_FAILURES {
                                let start = end + 1 - MAX_CONSECUTIVE_FAILURES;
                                if (start..=end).all(|k| f[k] == Some(true)) {
                                    stop_after.fetch_min(end, Ordering::SeqCst);
                                }
                            }
                        }
                    }
                    if let Ok(mut s) = slots.lock() {
                        s[i] = Some(result);
                    }
                }
                worker.session.shutdown();
                if let Ok(mut t) = engine_time.lock() {
                    *t += worker.session.engine_time;
                }
            });
        }
    });
    UnitResults {
        results: slots.into_inner().unwrap_or_default(),
        engine_time: engine_time.into_inner().unwrap_or_default(),
    }
}

impl Worker<'_> {
    /// Runs one unit from a fresh start (`newgame`).
    fn run_unit(&mut self, unit: Unit) -> UnitResult {
        let start = Instant::now();
        let name = unit_name(self.ctx, unit);
        self.begin(&name);
        match unit {
            Unit::Case(i) => {
                let case = &self.ctx.config.corpus.cases[i];
                let skipped = self.corpus_skip(case);
                match skipped {
                    Some(reason) => {
                        self.counts.corpus_cases_skipped += 1;
                        self.end("corpus", start.elapsed().as_secs_f64(), Some(reason))
                    }
                    None => {
                        self.counts.corpus_cases += 1;
                        let _ = self.corpus_case(case);
                        self.end("corpus", start.elapsed().as_secs_f64(), None)
                    }
                }
            }
            Unit::Game(i) => {
                let game_type = self.ctx.types[(i as usize) % self.ctx.types.len()];
                self.counts.games += 1;
                let _ = self.game(i, game_type);
                self.end("games", start.elapsed().as_secs_f64(), None)
            }
        }
    }

    /// Ends the protocol unit (see `probes.rs`).
    pub(crate) fn end_protocol(&mut self, seconds: f64) -> UnitResult {
        self.end("protocol", seconds, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_do_not_overlap_between_seeds() {
        // Issue 11: with `seed + i`, `--seed 2` replayed 99 of the 100 games
        // of `--seed 1`. Keyed generators share no stream.
        let first = |seed: u64, i: u64| game_rng(seed, GameType::BASE, i).next_u64();
        let one: Vec<u64> = (0..100).map(|i| first(1, i)).collect();
        let two: Vec<u64> = (0..100).map(|i| first(2, i)).collect();
        assert!(one.iter().all(|x| !two.contains(x)));
        // and the type is part of the key
        assert_ne!(
            game_rng(1, GameType::BASE, 0).next_u64(),
            game_rng(1, GameType::BASE_MLP, 0).next_u64()
        );
    }

    #[test]
    fn game_seeds_are_fixed_by_the_algorithm() {
        // The first draw of game 0 of Base under seed 0: pinned, so that a
        // change of generator (or of its crate's output) shows here.
        let mut rng = game_rng(0, GameType::BASE, 0);
        let drawn = (rng.next_u64(), pick(&mut rng, 10));
        insta::assert_debug_snapshot!(drawn);
    }
}
