//! Differential-test your own engine against the reference, in process, the
//! way an engine author would: implement `hive_oracle_rules::rules::Rules` for your
//! engine (here the crate's own fast engine stands in for it), play seeded
//! random games on both engines at once, and compare them at every ply with
//! `hive_oracle_rules::agreement::compare_engines` (legal moves as absolute moves,
//! state, turn, history, GameString). On a disagreement it prints what
//! differs and the GameString that shows it, and exits with status 1.
//!
//! ```sh
//! cargo run --release --example differential -- 200 7   # games, seed
//! ```

use std::process::ExitCode;

use hive_oracle_rules::agreement::compare_engines;
use hive_oracle_rules::core::splitmix::SplitMix64;
use hive_oracle_rules::core::{GameType, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// Plays one random game of `game_type` on `Mine` and the reference at once;
/// `Err` with what differs and where.
fn differential<Mine: Rules>(game_type: GameType, rng: &mut SplitMix64) -> Result<usize, String> {
    let options = RulesOptions::default();
    let mut mine = Mine::new_game(game_type, options);
    let mut reference = ReferenceEngine::new_game(game_type, options);
    for ply in 0..200 {
        let agreed =
            compare_engines(&mine, &reference, &reference.game_string()).map_err(|why| {
                format!(
                    "at ply {ply}: {why}\n  position: {}",
                    reference.game_string()
                )
            })?;
        if reference.state().is_over() || agreed.legal.is_empty() {
            return Ok(ply);
        }
        let mv = agreed.legal[rng.below(agreed.legal.len())];
        mine.play(mv)
            .map_err(|e| format!("at ply {ply}: your engine refuses a legal move: {e}"))?;
        reference
            .play(mv)
            .map_err(|e| format!("at ply {ply}: the reference refuses a listed move: {e}"))?;
    }
    Ok(200)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = SplitMix64::new(seed);
    let mut plies = 0;
    for game in 0..games {
        let game_type = GameType::ALL[(game as usize) % GameType::ALL.len()];
        match differential::<FastEngine>(game_type, &mut rng) {
            Ok(n) => plies += n,
            Err(why) => {
                eprintln!("game {game} ({game_type}): {why}");
                return ExitCode::from(1);
            }
        }
    }
    println!("{games} games, {plies} plies: your engine agrees with the reference");
    ExitCode::SUCCESS
}
