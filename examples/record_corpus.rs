//! Writes a corpus of PGN records for measuring `hive-oracle replay`:
//! `GAMES` seeded random legal games of `PLIES` plies (fewer when a game
//! ends sooner), all eight game types in turn, one PGN file each, into
//! `FOLDER`. The games are random, not played well: they only need to be
//! legal, long and varied.
//!
//! ```sh
//! cargo run --release --example record_corpus -- /tmp/records 10000 60
//! cargo run --release -- replay /tmp/records        # prints games a minute on stderr
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use hive_oracle_rules::core::{GameType, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::records::pgn::write_game;
use hive_oracle_rules::rules::Rules;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(folder), games, plies) = (
        args.first().map(PathBuf::from),
        args.get(1)
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(1000),
        args.get(2)
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(60),
    ) else {
        eprintln!("usage: record_corpus FOLDER [GAMES] [PLIES]");
        return ExitCode::from(2);
    };
    if let Err(e) = std::fs::create_dir_all(&folder) {
        eprintln!("error: cannot create {}: {e}", folder.display());
        return ExitCode::from(2);
    }
    let mut total_plies = 0;
    for i in 0..games {
        let mut rng = StdRng::seed_from_u64(i as u64);
        let game_type = GameType::ALL[i % GameType::ALL.len()];
        let mut game = FastEngine::new_game(game_type, RulesOptions::default());
        let mut moves = Vec::new();
        while moves.len() < plies && !game.state().is_over() {
            let legal = game.legal_moves();
            let mv = legal[rng.random_range(0..legal.len())];
            moves.push(game.move_string(mv));
            game.play_unchecked(mv);
        }
        total_plies += moves.len();
        let tags = vec![
            ("White".to_string(), format!("random-{i}-white")),
            ("Black".to_string(), format!("random-{i}-black")),
            ("Result".to_string(), game.state().to_string()),
        ];
        let path = folder.join(format!("game-{i:05}.pgn"));
        if let Err(e) = std::fs::write(&path, write_game(game_type, &moves, &tags)) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    eprintln!(
        "wrote {games} games ({total_plies} plies, {:.1} a game) to {}",
        total_plies as f64 / games.max(1) as f64,
        folder.display()
    );
    ExitCode::SUCCESS
}
