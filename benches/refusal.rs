//! What refusing an illegal move costs, probe by probe (issue 12, point 1):
//! 10,000 random illegal moves in 100 midgame Base+MLP positions, each timed
//! alone, on the command line's path (`hive-oracle play`, which is
//! `explain::play_explained` on the fast engine; and `hive-oracle explain`,
//! the full chain of facts) and on the UHP path (`play …` through
//! `Session::handle_line`). Each is set against listing the legal moves of
//! the same position (`legal_moves` on the fast engine, `validmoves` over
//! UHP). Prints the median, the 99th percentile and the worst case.
//!
//! Run: `cargo bench --bench refusal`. A benchmark, not a test: the figures
//! depend on the machine, and nothing here fails on a slow one.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use hive_oracle_rules::core::notation::parse_game_type;
use hive_oracle_rules::core::{BoardView, Bug, Color, Hex, Move, Piece, RulesOptions};
use hive_oracle_rules::explain::{play_explained, verdict};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;
use hive_oracle_rules::uhp::{EngineChoice, Session};

/// Midgame positions: after this many random plies of Base+MLP.
const PLIES: std::ops::Range<usize> = 30..90;
const POSITIONS: usize = 100;
const PROBES_PER_POSITION: usize = 100;

/// A random Base+MLP position still in progress after a number of plies in
/// [`PLIES`], from the generator's stream.
fn midgame(rng: &mut StdRng) -> FastEngine {
    let game_type = parse_game_type("Base+MLP").expect("a game type");
    loop {
        let target = rng.random_range(PLIES);
        let mut game = FastEngine::new_game(game_type, RulesOptions::default());
        while game.plies() < target && !game.state().is_over() {
            let moves = game.legal_moves();
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if !game.state().is_over() {
            return game;
        }
    }
}

/// A random illegal move in `game`: any piece of the game type, of either
/// colour, to any cell on or next to the hive (a placement for a piece in
/// its reserve, a movement otherwise), drawn until it is not legal.
fn illegal_probe(game: &ReferenceEngine, rng: &mut StdRng) -> Move {
    let board = game.board();
    let mut cells: Vec<Hex> = board.occupied_cells().collect();
    for hex in cells.clone() {
        cells.extend(hex.neighbours());
    }
    cells.sort();
    cells.dedup();
    let pieces: Vec<Piece> = Color::ALL
        .into_iter()
        .flat_map(|color| {
            Bug::ALL.into_iter().flat_map(move |bug| {
                (1..=bug.count()).filter_map(move |n| Piece::new(color, bug, n))
            })
        })
        .filter(|p| game.game_type().has_bug(p.bug))
        .collect();
    let legal = game.legal_move_set();
    loop {
        let piece = pieces[rng.random_range(0..pieces.len())];
        let to = cells[rng.random_range(0..cells.len())];
        let mv = if board.location(piece).is_some() {
            Move::Move { piece, to }
        } else {
            Move::Place { piece, to }
        };
        if !legal.contains(&mv) {
            return mv;
        }
    }
}

/// Times one call.
fn timed<T>(f: impl FnOnce() -> T) -> Duration {
    let start = Instant::now();
    black_box(f());
    start.elapsed()
}

struct Sample {
    name: &'static str,
    times: Vec<Duration>,
}

impl Sample {
    fn new(name: &'static str) -> Sample {
        Sample {
            name,
            times: Vec::new(),
        }
    }

    fn quantile(&self, q: f64) -> Duration {
        let mut sorted = self.times.clone();
        sorted.sort();
        let i = ((sorted.len() - 1) as f64 * q).round() as usize;
        sorted[i]
    }
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing
    // and only wants the program to run: one position is enough then.
    let benching = std::env::args().any(|a| a == "--bench");
    let positions = if benching { POSITIONS } else { 1 };
    let mut rng = StdRng::seed_from_u64(12);
    let mut list = Sample::new("legal_moves (fast engine)");
    let mut validmoves = Sample::new("UHP validmoves (fast)");
    let mut cli_play = Sample::new("CLI play refusal (play_explained, fast)");
    let mut uhp_play = Sample::new("UHP play refusal (fast)");
    let mut cli_explain = Sample::new("CLI explain, illegal move (verdict)");
    for _ in 0..positions {
        let fast = midgame(&mut rng);
        let text = fast.game_string();
        let reference = ReferenceEngine::load(&text).expect("the position loads");
        let mut session = Session::new(EngineChoice::Fast);
        let reply = session.handle_line(format!("newgame {text}").as_bytes());
        assert!(reply.last().is_some_and(|l| l == "ok"), "{reply:?}");
        for _ in 0..PROBES_PER_POSITION {
            let mv = illegal_probe(&reference, &mut rng);
            let line = format!("play {}", reference.move_string(mv));
            list.times.push(timed(|| fast.legal_moves()));
            validmoves
                .times
                .push(timed(|| session.handle_line(b"validmoves")));
            let mut game = fast.clone();
            cli_play.times.push(timed(|| {
                assert!(play_explained(&mut game, mv).is_err(), "{line} is illegal");
            }));
            uhp_play.times.push(timed(|| {
                let reply = session.handle_line(line.as_bytes());
                assert!(reply[0].starts_with("invalidmove "), "{line}: {reply:?}");
            }));
            cli_explain.times.push(timed(|| {
                assert!(!verdict(&reference, mv).legal, "{line} is illegal");
            }));
        }
    }
    let base = list.quantile(0.5);
    let uhp_base = validmoves.quantile(0.5);
    println!(
        "{} illegal probes in {positions} midgame Base+MLP positions (plies {}..{}):",
        positions * PROBES_PER_POSITION,
        PLIES.start,
        PLIES.end
    );
    println!(
        "{:<42} {:>11} {:>11} {:>11}  median vs listing",
        "", "median", "p99", "worst"
    );
    for (sample, against) in [
        (&list, base),
        (&cli_play, base),
        (&cli_explain, base),
        (&validmoves, uhp_base),
        (&uhp_play, uhp_base),
    ] {
        println!(
            "{:<42} {:>11} {:>11} {:>11}  {:.2}×",
            sample.name,
            micros(sample.quantile(0.5)),
            micros(sample.quantile(0.99)),
            micros(sample.quantile(1.0)),
            sample.quantile(0.5).as_secs_f64() / against.as_secs_f64()
        );
    }
}
