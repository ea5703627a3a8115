//! Perft benchmarks of both engines from the start of Base and Base+MLP, in
//! one run so that their ratio is measured on the same machine state, and of
//! the fast engine deeper, on one thread and on two.
//! Run: `cargo bench --bench perft`.
//!
//! To see what a change of the fast engine gains, compare with the commit
//! before it through criterion's baselines (the benchmarks of the same name
//! in both are compared): `cargo bench --bench perft -- --save-baseline
//! before` on the earlier commit, then `cargo bench --bench perft --
//! --baseline before` on the later one. `scripts/perft-compare.sh` does the
//! same for the README's figures: CPU time of alternating runs of both
//! commits at Base depth 7 and Base+MLP depth 6, and instruction counts.

use criterion::{criterion_group, criterion_main, Criterion};

use hive_oracle_rules::core::{GameType, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::{perft_threads, Rules};

/// Counts the leaves of a fresh game of `R` and checks the published count.
fn count<R: Rules>(game_type: GameType, depth: u32, expected: u64) -> u64 {
    let mut game = R::new_game(game_type, RulesOptions::default());
    let nodes = game.count_leaves(depth);
    assert_eq!(nodes, expected);
    nodes
}

/// Counts the leaves of a fresh game of the fast engine on `threads`
/// threads ([`perft_threads`]) and checks the published count.
fn count_threads(game_type: GameType, depth: u32, threads: usize, expected: u64) -> u64 {
    let game = FastEngine::new_game(game_type, RulesOptions::default());
    let nodes = perft_threads(&game, depth, threads);
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
    // The reference engine at depth 3, the depth its own tests check.
    for (name, game_type, expected) in [
        ("Base", GameType::BASE, 1440),
        ("Base+MLP", GameType::BASE_MLP, 6678),
    ] {
        c.bench_function(&format!("reference perft 3 {name}"), |b| {
            b.iter(|| count::<ReferenceEngine>(game_type, 3, expected))
        });
    }
    // The fast engine a ply deeper, on one thread and on two: the work is
    // shared out below the root (rules::perft_threads), so two threads
    // should take about half the time on two free cores.
    let mut deeper = c.benchmark_group("fast perft deeper");
    deeper.sample_size(10);
    for (name, game_type, depth, expected) in [
        ("Base", GameType::BASE, 6, 12_219_480),
        ("Base+MLP", GameType::BASE_MLP, 5, 5_427_108),
    ] {
        deeper.bench_function(format!("fast perft {depth} {name}"), |b| {
            b.iter(|| count::<FastEngine>(game_type, depth, expected))
        });
        deeper.bench_function(format!("fast perft {depth} {name}, 2 threads"), |b| {
            b.iter(|| count_threads(game_type, depth, 2, expected))
        });
    }
    deeper.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
