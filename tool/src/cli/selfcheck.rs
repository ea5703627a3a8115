//! `hive-oracle selfcheck`: random games played on the fast engine and the
//! reference engine at once, compared at every ply.
//!
//! Game `i` of a run is played with its own generator (rand's `StdRng`)
//! seeded from the run's seed and `i`, so every game can be replayed alone;
//! the same seed plays the same games as long as Cargo.lock keeps the same
//! rand version (StdRng's stream may change between its releases). The game types cycle
//! through the eight (§1.4) or stay on the one asked for; the opening (§4.2)
//! and the repetition draw (§8.7.2) take every combination in turn. At every
//! ply the engines must agree on the legal moves as absolute moves (§5.9),
//! the state (§8.8), the turn (§9.18) and the GameString (§9.31); the fast
//! engine's incremental structures must equal their from-scratch twins
//! (`check_invariants`, the hash included); every move is undone and redone
//! on the fast engine, which must restore the position and the hash; and now
//! and then both engines take back a few plies, each of which must come back
//! to the position as first reached, and the game goes on from there. The
//! walk and its checks are `hive_oracle_rules::agreement::LockStep`; this
//! file chooses the moves and writes the report.

use std::io::{IsTerminal, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use hive_oracle_rules::agreement::{LockStep, LockStepError};
use hive_oracle_rules::core::splitmix::{mix, GOLDEN_GAMMA};
use hive_oracle_rules::core::{GameType, Move, RulesOptions};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

use super::output;
use super::FAILURE;
use hive_oracle_rules::core::notation::parse_game_type;

/// What to play.
pub struct Config {
    pub games: u64,
    pub seed: u64,
    /// Only this game type, or all eight in turn.
    pub game_type: Option<GameType>,
    /// Games stop after this many plies if they have not ended.
    pub max_plies: usize,
}

/// The first point where the engines part, in one game.
struct Disagreement {
    game: u64,
    game_type: GameType,
    options: RulesOptions,
    /// The moves up to the position that shows the disagreement.
    moves: Vec<Move>,
    /// What differs.
    what: String,
}

impl Disagreement {
    /// The GameString of the position that shows the disagreement, printed by
    /// the reference engine.
    fn game_string(&self) -> String {
        let mut model = ReferenceEngine::new_game(self.game_type, self.options);
        for &mv in &self.moves {
            model.play_unchecked(mv);
        }
        model.game_string()
    }
}

/// The seed of game `index`: the run's seed and the index mixed (SplitMix64),
/// so neighbouring games get unrelated move sequences.
fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed ^ index.wrapping_mul(GOLDEN_GAMMA))
}

/// The game type and options of game `index`: all combinations in turn.
fn setup(config: &Config, index: u64) -> (GameType, RulesOptions) {
    let (game_type, rest) = match config.game_type {
        Some(game_type) => (game_type, index),
        None => (GameType::ALL[(index % 8) as usize], index / 8),
    };
    let options = RulesOptions {
        tournament_opening: rest % 2 == 0,
        repetition_draw: (rest / 2) % 2 == 1,
    };
    (game_type, options)
}

/// Plays game `index` on both engines in lock step ([`LockStep`]); counts
/// the positions compared. `game` is set as soon as the game starts, so
/// that the position of a failure (or a panic) can still be reported. Every
/// move is undone and redone on the fast engine alone (`retake`), and now
/// and then both engines take back one to four plies and the game goes on
/// from the earlier position.
fn play_game(
    config: &Config,
    index: u64,
    game: &mut Option<LockStep>,
    positions: &mut u64,
) -> Result<(), LockStepError> {
    let (game_type, options) = setup(config, index);
    let mut rng = StdRng::seed_from_u64(game_seed(config.seed, index));
    let game = game.insert(LockStep::new(game_type, options)?);
    loop {
        *positions += 1;
        let legal = game.legal();
        if legal.is_empty() || game.plies() >= config.max_plies {
            return Ok(());
        }
        let mut mv = legal[rng.random_range(0..legal.len())];
        // now and then take back the side's previous movement, so that
        // positions repeat (§8.7.2)
        if rng.random_range(0..8) == 0 {
            if let Some(back) = game.taking_back() {
                mv = back;
            }
        }
        game.play(mv, rng.random_bool(0.5))?;
        game.retake()?;
        if rng.random_range(0..16) == 0 {
            game.undo(rng.random_range(1..=4usize))?;
        }
    }
}

/// The message of the last panic, kept by the hook installed during a run.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Runs the self-check and prints its report on stdout. Returns whether the
/// engines agreed everywhere, and whether the report could be written (a
/// failed write does not change the verdict, known before the report).
pub fn run(config: &Config) -> (bool, std::io::Result<()>) {
    let bar = if std::io::stderr().is_terminal() && std::io::stdout().is_terminal() {
        let bar = ProgressBar::with_draw_target(Some(config.games), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {msg} [{elapsed_precise}, eta {eta}]",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };

    // A panic in an engine is a finding, not a crash: keep its message for
    // the report instead of printing it over the progress bar.
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = Some(info.to_string());
        }
    }));

    let start = Instant::now();
    let mut positions = 0u64;
    let mut disagreements: Vec<Disagreement> = Vec::new();
    for index in 0..config.games {
        let mut game = None;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            play_game(config, index, &mut game, &mut positions)
        }));
        let what = match outcome {
            Ok(Ok(())) => None,
            Ok(Err(what)) => Some(what.to_string()),
            Err(_) => {
                let message = LAST_PANIC
                    .lock()
                    .ok()
                    .and_then(|mut last| last.take())
                    .unwrap_or_else(|| "an engine panicked".to_string());
                Some(format!(
                    "an engine panicked in this position or on its next move: {message}"
                ))
            }
        };
        if let Some(what) = what {
            let (game_type, options) = setup(config, index);
            disagreements.push(Disagreement {
                game: index,
                game_type,
                options,
                moves: game
                    .as_ref()
                    .map_or(Vec::new(), |game| game.moves().to_vec()),
                what,
            });
        }
        bar.inc(1);
        bar.set_message(format!("{positions} positions"));
    }
    bar.finish_and_clear();
    std::panic::set_hook(previous_hook);

    let seconds = start.elapsed().as_secs_f64();
    let agreed = disagreements.is_empty();
    let written = report(config, positions, seconds, &disagreements);
    (agreed, written)
}

/// Prints the speed of the run and the shortest disagreement, if any.
fn report(
    config: &Config,
    positions: u64,
    seconds: f64,
    disagreements: &[Disagreement],
) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let per_second = |n: u64| {
        if seconds > 0.0 {
            n as f64 / seconds
        } else {
            0.0
        }
    };
    writeln!(
        out,
        "{} games, {positions} positions in {seconds:.2} s: {:.1} games/s, {:.0} positions/s",
        config.games,
        per_second(config.games),
        per_second(positions)
    )?;
    // The shortest GameString that shows a disagreement, the earliest game first.
    let Some(first) = disagreements.iter().min_by_key(|d| (d.moves.len(), d.game)) else {
        writeln!(out, "no disagreement")?;
        return out.flush();
    };
    writeln!(
        out,
        "{} of {} games disagree; the shortest, game {} ({}, {}), at ply {}:",
        disagreements.len(),
        config.games,
        first.game,
        first.game_type,
        first.options,
        first.moves.len()
    )?;
    writeln!(out, "{}", first.what)?;
    writeln!(out, "GameString:")?;
    writeln!(out, "{}", first.game_string())?;
    out.flush()
}

/// The most games `selfcheck --games` plays: about a day at the default
/// length on the project's 2-core machine.
const SELFCHECK_MAX_GAMES: u64 = 1_000_000;
/// The longest `selfcheck` game, in plies (`--max-plies`).
const SELFCHECK_MAX_PLIES: usize = 10_000;

/// The options of `selfcheck`.
#[derive(clap::Args)]
pub struct SelfcheckArgs {
    /// How many games to play (1 to 1,000,000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=SELFCHECK_MAX_GAMES))]
    games: u64,
    /// The seed of the random games (the same seed plays the same games).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Only this game type (a GameTypeString); all eight in turn by default.
    #[arg(long, value_name = "TYPE", value_parser = parse_game_type)]
    game_type: Option<GameType>,
    /// The spelling of `--game-type` before 0.3.0, accepted with a warning
    /// for one version: `--game N` means the N-th game of a record file in
    /// every other command, and selfcheck reads no record.
    #[arg(long = "game", hide = true, value_parser = parse_game_type, conflicts_with = "game_type")]
    deprecated_game: Option<GameType>,
    /// Stop a game after this many plies if it has not ended (1 to 10,000).
    #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(u64).range(1..=SELFCHECK_MAX_PLIES as u64))]
    max_plies: u64,
}

/// The warning for `selfcheck --game TYPE`.
const DEPRECATED_GAME: &str =
    "warning: `selfcheck --game TYPE` is deprecated and will be removed in 0.4.0: use `--game-type TYPE`";

/// `selfcheck`: 0 when the engines agree, 1 on a disagreement (after its
/// report); its arguments, a bad `--game-type` included, are checked by
/// clap (2).
pub fn run_command(args: SelfcheckArgs) -> ExitCode {
    let SelfcheckArgs {
        games,
        seed,
        game_type,
        deprecated_game,
        max_plies,
    } = args;
    if deprecated_game.is_some() {
        output::say(DEPRECATED_GAME);
    }
    let game = game_type.or(deprecated_game);
    let config = Config {
        games: games.clamp(1, SELFCHECK_MAX_GAMES),
        seed,
        game_type: game,
        max_plies: (max_plies as usize).clamp(1, SELFCHECK_MAX_PLIES),
    };
    let (agreed, written) = run(&config);
    let verdict = if agreed {
        ExitCode::SUCCESS
    } else {
        if written.is_ok() {
            output::say("error: the fast engine disagrees with the reference engine (see above)");
        }
        ExitCode::from(FAILURE)
    };
    output::status_after_report(written, verdict, FAILURE)
}
