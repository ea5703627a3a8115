//! The UHP command handler (issue 4, "Performance"): `validmoves` on a
//! midgame Base+MLP position, through `Session::handle_line` as a client's
//! line would go, on both engines. Run: `cargo bench --bench uhp`.

use criterion::{criterion_group, criterion_main, Criterion};

use hive_oracle::uhp::{EngineChoice, Session};

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
