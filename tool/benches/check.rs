//! The cost of `hive-oracle check`'s own side of one engine question,
//! apart from the engine's time:
//!
//! * a round trip through the UHP client (write a line, the reader thread,
//!   the channel, `ok`) to our own engine answering `info`, which costs the
//!   engine almost nothing: an upper bound of the client's cost;
//! * comparing a `validmoves` answer with the rules in a midgame: resolving
//!   every MoveString in the reference position and the reference engine's
//!   legal moves;
//! * replaying a GameString the engine printed, after 20 and 100 plies.
//!
//! Run: `cargo bench --bench check`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use hive_oracle::check::client::{resolve_moves, UhpClient};
use hive_oracle::check::given::seed::{game_rng, pick};
use hive_oracle_rules::core::{GameType, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// A Base+MLP game of `plies` plies drawn by check's own generator (seed 0,
/// the first index whose game lasts that long).
fn game_of(plies: usize) -> ReferenceEngine {
    for index in 0.. {
        let mut rng = game_rng(0, GameType::BASE_MLP, index);
        let mut game = ReferenceEngine::new_game(GameType::BASE_MLP, RulesOptions::default());
        while game.plies() < plies && !game.state().is_over() {
            let moves = game.legal_moves();
            game.play_unchecked(moves[pick(&mut rng, moves.len())]);
        }
        if game.plies() == plies {
            return game;
        }
    }
    unreachable!("some game lasts that long")
}

fn check_benches(c: &mut Criterion) {
    let engine = format!("'{}' uhp", env!("CARGO_BIN_EXE_hive-oracle"));
    let mut client = UhpClient::spawn(&engine, Duration::from_secs(10)).expect("our engine starts");
    c.bench_function("check client round trip (info)", |b| {
        b.iter(|| client.command("info").expect("answers"))
    });
    client.exit();

    let midgame = game_of(20);
    let texts: Vec<String> = midgame
        .legal_moves()
        .into_iter()
        .map(|mv| midgame.move_string(mv))
        .collect();
    c.bench_function("check compare validmoves after 20 plies Base+MLP", |b| {
        b.iter(|| {
            let (moves, unreadable) = resolve_moves(&midgame, &texts);
            let legal = midgame.legal_move_set();
            assert!(unreadable.is_empty() && moves == legal);
        })
    });
    for plies in [20, 100] {
        let game = game_of(plies);
        let printed = game.game_string();
        c.bench_function(
            &format!("check replay a printed GameString of {plies} plies Base+MLP"),
            |b| {
                b.iter(|| {
                    let replayed =
                        FastEngine::load_with(&printed, RulesOptions::default()).expect("replays");
                    assert_eq!(replayed.history(), game.history());
                })
            },
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(3));
    targets = check_benches
}
criterion_main!(benches);
