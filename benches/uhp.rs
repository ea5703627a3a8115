//! The UHP command handler, whose cost a client pays on every command:
//! `validmoves` on a midgame Base+MLP position, and the refusal of an
//! illegal move in a long Base+MLP game, through `Session::handle_line` as a
//! client's line would go, on both engines. Run: `cargo bench --bench uhp`.

use criterion::{criterion_group, criterion_main, Criterion};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use hive_oracle_rules::core::notation::parse_game_type;
use hive_oracle_rules::core::RulesOptions;
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::rules::Rules;
use hive_oracle_rules::uhp::{EngineChoice, Session};

/// Twenty plies of Base+MLP with every expansion piece on the board.
const MIDGAME: &str = "newgame Base+MLP;InProgress;White[11];wB1;bS1 -wB1;wA1 wB1\\;bG1 \\bS1;wB2 wA1/;bQ /bG1;wQ wB2-;bM bG1/;wP /wA1;bS2 bQ\\;wG1 wB2\\;bA1 bM-;wL wQ/;bA1 -wL;wL -bA1;bB1 -bQ;wQ bA1-;bP bM/;wS1 wG1\\;bA2 -bB1";

fn session(engine: EngineChoice) -> Session {
    let mut session = Session::new(engine);
    let reply = session.handle_line(MIDGAME.as_bytes());
    assert_eq!(reply.len(), 2, "{reply:?}");
    assert!(
        reply[0].starts_with("Base+MLP;InProgress;White[11];"),
        "{reply:?}"
    );
    session
}

/// The plies of the long game that the refusal is timed in.
const LONG_GAME_PLIES: usize = 150;

/// A Base+MLP game of [`LONG_GAME_PLIES`] seeded random plies that is still
/// in progress: the first seed from 0 whose game lasts that long (seed 1 with
/// rand 0.10's `StdRng`). Returns its GameString.
fn long_game() -> String {
    let game_type = parse_game_type("Base+MLP").expect("a game type");
    for seed in 0.. {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = FastEngine::new_game(game_type, RulesOptions::default());
        while game.plies() < LONG_GAME_PLIES && !game.state().is_over() {
            let moves = game.legal_moves();
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if !game.state().is_over() {
            return game.game_string();
        }
    }
    unreachable!("some seed gives a long game")
}

fn uhp_benches(c: &mut Criterion) {
    for (name, engine) in [
        ("fast", EngineChoice::Fast),
        ("reference", EngineChoice::Reference),
    ] {
        let mut s = session(engine);
        c.bench_function(&format!("uhp validmoves midgame Base+MLP ({name})"), |b| {
            b.iter(|| s.handle_line(b"validmoves"))
        });
    }
    // The refusal of an illegal move: `play wQ wQ` asks the queen to stay
    // where it is (§5.7); `play wM -wB1` asks the mosquito for a cell that
    // neither bug it copies reaches (§6.7.1), which walks its moves. Each is
    // refused with its clause and leaves the game unchanged.
    let newgame = format!("newgame {}", long_game());
    for (name, engine) in [
        ("fast", EngineChoice::Fast),
        ("reference", EngineChoice::Reference),
    ] {
        let mut s = Session::new(engine);
        let reply = s.handle_line(newgame.as_bytes());
        assert!(
            reply[0].starts_with("Base+MLP;InProgress;White[76];"),
            "{reply:?}"
        );
        for line in ["play wQ wQ", "play wM -wB1"] {
            let reply = s.handle_line(line.as_bytes());
            assert!(reply[0].starts_with("invalidmove "), "{line}: {reply:?}");
            c.bench_function(
                &format!("uhp refusal {line:?} after {LONG_GAME_PLIES} plies Base+MLP ({name})"),
                |b| b.iter(|| s.handle_line(line.as_bytes())),
            );
        }
    }
    c.bench_function("uhp start-up and newgame", |b| {
        b.iter(|| {
            let mut s = Session::new(EngineChoice::Fast);
            s.banner();
            s.handle_line(b"newgame Base+MLP")
        })
    });
}

criterion_group!(benches, uhp_benches);
criterion_main!(benches);
