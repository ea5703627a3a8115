//! Perft benchmarks of both engines from the start of Base and Base+MLP, in
//! one run so that their ratio is measured on the same machine state.
//! Run: `cargo bench --bench perft`.

use criterion::{criterion_group, criterion_main, Criterion};

use hive_oracle::core::{GameType, RulesOptions};
use hive_oracle::fast::FastEngine;
use hive_oracle::reference::ReferenceEngine;
use hive_oracle::rules::Rules;

/// Counts the leaves of a fresh game of `R` and checks the published count.
fn count<R: Rules>(game_type: GameType, depth: u32, expected: u64) -> u64 {
    let mut game = R::new_game(game_type, RulesOptions::default());
    let nodes = game.count_leaves(depth);
    assert_eq!(nodes, expected);
    nodes
}

fn perft_benches(c: &mut Criterion) {
    let cases = [
        ("Base", GameType::BASE, 4, 21_600),
        ("Base+MLP", GameType::BASE_MLP, 4, 151_686),
        ("Base", GameType::BASE, 5, 516_240),
    ];
    for (name, game_type, depth, expected) in cases {
        c.bench_function(&format!("reference perft {depth} {name}"), |b| {
            b.iter(|| count::<ReferenceEngine>(game_type, depth, expected))
        });
        c.bench_function(&format!("fast perft {depth} {name}"), |b| {
            b.iter(|| count::<FastEngine>(game_type, depth, expected))
        });
    }
    // The issue's own reference perft at depth 3 (issue 2, point 8).
    for (name, game_type, expected) in [
        ("Base", GameType::BASE, 1440),
        ("Base+MLP", GameType::BASE_MLP, 6678),
    ] {
        c.bench_function(&format!("reference perft 3 {name}"), |b| {
            b.iter(|| count::<ReferenceEngine>(game_type, 3, expected))
        });
    }
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
