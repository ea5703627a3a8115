//! The units of a check on `--jobs` engine processes: unit `i` on process
//! `i mod jobs`, so that each process sees the same commands in every run;
//! a process stops early once a streak of failed units shows the engine
//! unusable.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::check::given::record_set::RecordUnit;
use crate::check::units::case_unit;
use crate::check::units::games;
use crate::check::units::record_unit;
use crate::check::units::worker::{Context, UnitResult, Worker};

/// After this many units in a row whose engine failed (crash, timeout, flood
/// of output), the rest is skipped: the engine is unusable.
pub(crate) const MAX_CONSECUTIVE_FAILURES: usize = 3;

/// One unit of work after the protocol unit.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Unit {
    /// Corpus case `i`.
    Case(usize),
    /// Random game `i`.
    Game(u64),
    /// Record unit `i` (a game of a record file, or a file that gave none).
    Record(usize),
}

impl Unit {
    /// The unit's name in reports.
    pub fn name(self, ctx: &Context<'_>) -> String {
        match self {
            Unit::Case(i) => ctx.config.corpus.cases[i].id(),
            Unit::Game(i) => {
                let game_type = ctx.types[(i as usize) % ctx.types.len()];
                format!("game {i} ({game_type})")
            }
            Unit::Record(i) => ctx.config.records.units[i].name(),
        }
    }

    /// Its class in JUnit.
    pub fn class(self) -> &'static str {
        match self {
            Unit::Case(_) => "corpus",
            Unit::Game(_) => "games",
            Unit::Record(_) => "records",
        }
    }
}

/// The results of the units, in unit order (`None`: not run because the
/// engine was found unusable before it), and the time spent waiting for
/// the engines.
pub(crate) struct UnitResults {
    pub results: Vec<Option<UnitResult>>,
    pub engine_time: Duration,
}

/// Runs the units on `jobs` engine processes: unit `i` on process
/// `i mod jobs`, so that each process sees the same commands in every run.
/// A process stops early once three consecutive units (in unit order) are
/// known to have failed: everything after them is skipped at the merge.
pub(crate) fn run_units(
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
                    let result = run_unit(&mut worker, unit);
                    progress.inc(1);
                    if let Ok(mut f) = failed.lock() {
                        f[i] = Some(result.failed);
                        note_streak(&f, i, stop_after);
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

/// Lowers `stop_after` to the end of a known streak of failures ending at
/// or after unit `i`.
fn note_streak(failed: &[Option<bool>], i: usize, stop_after: &AtomicUsize) {
    for end in i..failed.len().min(i + MAX_CONSECUTIVE_FAILURES) {
        if end + 1 >= MAX_CONSECUTIVE_FAILURES {
            let start = end + 1 - MAX_CONSECUTIVE_FAILURES;
            if (start..=end).all(|k| failed[k] == Some(true)) {
                stop_after.fetch_min(end, Ordering::SeqCst);
            }
        }
    }
}

/// Runs one unit from a fresh start (`newgame`).
fn run_unit(worker: &mut Worker<'_>, unit: Unit) -> UnitResult {
    let start = Instant::now();
    let ctx = worker.ctx;
    worker.begin(&unit.name(ctx));
    let skipped = match unit {
        Unit::Case(i) => {
            let case = &ctx.config.corpus.cases[i];
            let skipped = case_unit::skip_reason(ctx, case);
            if skipped.is_some() {
                worker.counts.corpus_cases_skipped += 1;
            } else {
                worker.counts.corpus_cases += 1;
                let _ = case_unit::run(worker, case);
            }
            skipped
        }
        Unit::Game(i) => {
            let game_type = ctx.types[(i as usize) % ctx.types.len()];
            worker.counts.games += 1;
            let _ = games::run(worker, i, game_type);
            None
        }
        Unit::Record(i) => {
            let unit = &ctx.config.records.units[i];
            let skipped = record_unit::skip_reason(ctx, unit);
            match unit {
                RecordUnit::Game(record) if skipped.is_none() => {
                    worker.counts.record_games += 1;
                    let _ = record_unit::run(worker, record);
                }
                _ => worker.counts.record_games_skipped += 1,
            }
            skipped
        }
    };
    worker.end(unit.class(), start.elapsed().as_secs_f64(), skipped)
}
