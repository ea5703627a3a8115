//! Reference perft at depth 3 from the start of Base and Base+MLP (issue 2).
//! Run: `cargo bench --bench perft`.

use criterion::{criterion_group, criterion_main, Criterion};

use hive_oracle::core::{GameType, RulesOptions};
use hive_oracle::reference::ReferenceEngine;
use hive_oracle::rules::{perft, Rules};

fn reference_perft(c: &mut Criterion) {
    for (name, game_type, expected) in [
        ("reference perft 3 Base", GameType::BASE, 1440),
        ("reference perft 3 Base+MLP", GameType::BASE_MLP, 6678),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| {
                let mut game = ReferenceEngine::new_game(game_type, RulesOptions::default());
                let nodes = perft(&mut game, 3);
                assert_eq!(nodes, expected);
                nodes
            })
        });
    }
}

criterion_group!(benches, reference_perft);
criterion_main!(benches);
