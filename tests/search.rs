//! `bestmove` as a library: `hive_oracle_rules::search::best_move`
//! on the fast engine. Each test says what it pins. Positions are GameStrings
//! with legal histories; the ones of `tests/rules_end.rs` are reused, and the
//! others were checked with `hive-oracle validmoves` and `hive-oracle play`.

use std::time::{Duration, Instant};

use hive_oracle_rules::core::{Color, GameState, GameType, Move, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::rules::Rules;
use hive_oracle_rules::search::{best_move, SearchLimits, SearchResult, TranspositionTable, MATE};

/// Black's queen has five occupied neighbours; `wA1 -bG2` fills the sixth
/// and is White's only winning move (`hive-oracle play` prints WhiteWins;
/// every other move leaves the game in progress). From `tests/rules_end.rs`.
///
/// ```text
///       wG2   .     bG2
///    .     wQ    bQ    bG1
/// wA1   wS1   bS1   bG3
///                bA1
/// ```
const BLACK_QUEEN_ALMOST_SURROUNDED: &str = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;\
     bQ bS1/;wQ wS1/;bG1 bQ-;wG1 -wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 /wS1;bA1 bS1\\";

/// The same position one ply earlier, Black to move: Black's queen already
/// has five occupied neighbours and White's ant threatens to walk into the
/// sixth. 19 of Black's 31 moves (e.g. `bA1 bS1\`) let White surround the
/// queen on the next move; 12 (e.g. `bG1 /wG2`, which moves a neighbour of
/// the queen away) do not.
const BLACK_MUST_DEFEND: &str = "Base;InProgress;Black[6];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;\
     wQ wS1/;bG1 bQ-;wG1 -wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 /wS1";

/// White's queen has five white neighbours; placing wA2 in the sixth
/// (`wA2 wS1\`) is legal and loses at once (§8.4). From `tests/rules_end.rs`.
const WHITE_QUEEN_AMONG_WHITE: &str = "Base;InProgress;White[7];wS1;bS1 -wS1;wQ wS1-;\
     bQ -bS1;wG1 wS1/;bG1 -bQ;wG2 wQ/;bG2 -bG1;wG3 wQ-;bG3 -bG2;wA1 wQ\\;bA1 -bG3";

/// White can neither move nor place: `pass` is the only legal move (§7.2).
/// From `tests/rules_end.rs`.
const FORCED_PASS: &str = "Base;InProgress;White[15];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wQ wS1/;\
     bB1 \\bS1;wQ wS1-;bA1 -bQ;wQ wS1/;bA2 bA1\\;wQ wS1-;bA3 -bB1;wQ wS1/;bA1 wS1\\;\
     wQ bA1/;bA2 wQ\\;wQ bA2/;bB1 \\wS1;wQ \\bA2;bB1 wS1;wQ bA2/;bB2 \\bS1;wQ \\bA2;\
     bB2 \\bB1;wQ bA2/;bB2 bB1/;wQ bB2\\;bA3 wQ/";

/// Black can neither move nor place (§7.2). From `tests/rules_end.rs`.
const BLACK_MUST_PASS: &str = "Base;InProgress;Black[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;\
     wB1 \\wS1;bQ bS1/;wB1 -bQ;bQ bS1-;wB1 bS1;bQ wB1/;wA1 -wQ;bQ wB1-;wA2 -wA1;\
     bQ wB1/;wA3 -wA2;bQ wB1-;wA3 wB1\\;bQ wB1/;wA2 wA3-;bQ \\wA2;wA1 bQ/";

/// A Base+MLP midgame, White to move with 45 legal moves (30 plies of a
/// self-played game): every bug in play, too many moves to search deeply.
const MIDGAME: &str = "Base+MLP;InProgress;White[16];wS1;bP wS1\\;wQ wS1/;bS1 bP-;\
     wA1 \\wQ;bQ bS1\\;wA1 bQ-;bA1 /bP;wS2 -wS1;bA1 \\wQ;wB1 wA1\\;bA2 bA1/;wB1 bQ\\;\
     bA2 wQ-;wB2 wA1\\;bB1 bA1/;wB1 /bQ;bB1 \\bA2;wB2 bQ\\;bG1 \\bB1;wG1 /wB1;bS2 bA2\\;\
     wS2 -bG1;bS2 wA1-;wG1 \\wA1;bA3 bS2/;wG2 wB1\\;bA3 /wG2;wP -wB1;bA2 /bP";

/// The same self-played game 35 plies in, Black to move: 103 of Black's 106
/// moves let White surround Black's queen on the move; the other three
/// (`bA1 \wL`, `bA1 -wL`, `bA1 /wL`) put the loss off to White's move after
/// next (four plies).
const LOST_IN_FOUR: &str = "Base+MLP;InProgress;Black[18];wS1;bP wS1\\;wQ wS1/;bS1 bP-;\
     wA1 \\wQ;bQ bS1\\;wA1 bQ-;bA1 /bP;wS2 -wS1;bA1 \\wQ;wB1 wA1\\;bA2 bA1/;wB1 bQ\\;\
     bA2 wQ-;wB2 wA1\\;bB1 bA1/;wB1 /bQ;bB1 \\bA2;wB2 bQ\\;bG1 \\bB1;wG1 /wB1;bS2 bA2\\;\
     wS2 -bG1;bS2 wA1-;wG1 \\wA1;bA3 bS2/;wG2 wB1\\;bA3 /wG2;wP -wB1;bA2 /bP;wP /bA2;\
     bM bA3\\;wM wP\\;bM /wM;wL -wP";

/// Two plies later (`bA1 -wL;wG3 -wQ`): every one of Black's 108 moves lets
/// White win on the move.
const LOST_IN_TWO: &str = "Base+MLP;InProgress;Black[19];wS1;bP wS1\\;wQ wS1/;bS1 bP-;\
     wA1 \\wQ;bQ bS1\\;wA1 bQ-;bA1 /bP;wS2 -wS1;bA1 \\wQ;wB1 wA1\\;bA2 bA1/;wB1 bQ\\;\
     bA2 wQ-;wB2 wA1\\;bB1 bA1/;wB1 /bQ;bB1 \\bA2;wB2 bQ\\;bG1 \\bB1;wG1 /wB1;bS2 bA2\\;\
     wS2 -bG1;bS2 wA1-;wG1 \\wA1;bA3 bS2/;wG2 wB1\\;bA3 /wG2;wP -wB1;bA2 /bP;wP /bA2;\
     bM bA3\\;wM wP\\;bM /wM;wL -wP;bA1 -wL;wG3 -wQ";

/// A time search that answers later than its budget plus this has ignored
/// its budget: the searches timed here have no depth limit, so one that
/// ignored the clock would run for hours. The bound only a hang reaches:
/// how late a search answers on a loaded machine is not asserted.
const HANG: Duration = Duration::from_secs(60);

fn game(text: &str) -> FastEngine {
    FastEngine::load(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn depth(n: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(n),
        time: None,
    }
}

fn time(ms: u64) -> SearchLimits {
    SearchLimits {
        depth: None,
        time: Some(Duration::from_millis(ms)),
    }
}

fn search(g: &FastEngine, limits: SearchLimits) -> SearchResult {
    let mut table = TranspositionTable::new(16);
    best_move(g, &limits, &mut table).expect("the game is in progress")
}

fn win_for(color: Color) -> GameState {
    match color {
        Color::White => GameState::WhiteWins,
        Color::Black => GameState::BlackWins,
    }
}

/// Whether, after `mv`, the opponent can win on the move (or `mv` itself loses).
fn lets_opponent_win(g: &FastEngine, mv: Move) -> bool {
    let mut after = g.clone();
    after.play_unchecked(mv);
    let theirs = win_for(g.side_to_move().opponent());
    if after.state() == theirs {
        return true;
    }
    after.legal_moves().into_iter().any(|reply| {
        let mut next = after.clone();
        next.play_unchecked(reply);
        next.state() == theirs
    })
}

/// Pins: a surround available on the move is found at every depth (1, 2, 4)
/// and under a time limit, scored as a win on the move (`MATE - 1`), and the
/// search stops at once (depth 1): no deeper search can find a faster win.
#[test]
fn finds_the_win_in_one() {
    let g = game(BLACK_QUEEN_ALMOST_SURROUNDED);
    let winning = g.parse_move("wA1 -bG2").unwrap();
    for limits in [depth(1), depth(2), depth(4), time(200)] {
        let result = search(&g, limits);
        assert_eq!(result.best, winning, "{limits:?}");
        assert_eq!(g.move_string(result.best), "wA1 -bG2");
        assert_eq!(result.score, MATE - 1, "{limits:?}");
        assert_eq!(result.depth, 1, "{limits:?}");
        let mut after = g.clone();
        after.play(result.best).unwrap();
        assert_eq!(after.state(), GameState::WhiteWins);
    }
}

/// Pins: with moves that let the opponent surround the queen next move and
/// moves that do not, the search plays one that does not, at depth 1 (the
/// leaves check for a win on the move), 2 and 3 and under a time limit; and
/// it never surrounds its own queen (§8.4) when it need not.
#[test]
fn avoids_an_immediate_loss() {
    let g = game(BLACK_MUST_DEFEND);
    let moves = g.legal_moves();
    let losing = moves.iter().filter(|&&m| lets_opponent_win(&g, m)).count();
    assert_eq!((moves.len(), losing), (31, 19));
    assert!(lets_opponent_win(&g, g.parse_move("bA1 bS1\\").unwrap()));
    assert!(!lets_opponent_win(&g, g.parse_move("bG1 /wG2").unwrap()));
    for limits in [depth(1), depth(2), depth(3), time(200)] {
        let result = search(&g, limits);
        assert!(
            !lets_opponent_win(&g, result.best),
            "{limits:?}: {} lets White win",
            g.move_string(result.best)
        );
        assert!(result.score > -(MATE - 1000), "{limits:?}: {result:?}");
    }

    let g = game(WHITE_QUEEN_AMONG_WHITE);
    let suicide = g.parse_move("wA2 wS1\\").unwrap();
    assert!(g.legal_moves().contains(&suicide));
    for limits in [depth(1), depth(2), depth(3)] {
        let result = search(&g, limits);
        assert_ne!(result.best, suicide, "{limits:?}");
        assert!(!lets_opponent_win(&g, result.best), "{limits:?}");
    }
}

/// Pins: mate scores carry the distance in plies. Once Black has let White
/// surround its queen, White (to move) scores `MATE - 1` and the search stops
/// after depth 1, the win being proven. In `LOST_IN_TWO` every move loses at
/// once: `-(MATE - 2)` from depth 1 on (the leaves look for a win on the
/// move). In `LOST_IN_FOUR` the search finds one of the three moves that do
/// not lose at once, even at depth 1, and from depth 3 on scores the position
/// as lost in four plies, `-(MATE - 4)` (putting the loss off as long as it can).
#[test]
fn mate_scores_carry_the_distance() {
    let mut g = game(BLACK_MUST_DEFEND);
    g.play(g.parse_move("bA1 bS1\\").unwrap()).unwrap();
    let result = search(&g, depth(3));
    assert_eq!((result.score, result.depth), (MATE - 1, 1));

    let g = game(LOST_IN_TWO);
    assert!(g.legal_moves().iter().all(|&m| lets_opponent_win(&g, m)));
    for n in 1..=3 {
        let result = search(&g, depth(n));
        assert_eq!(result.score, -(MATE - 2), "depth {n}");
        assert!(g.legal_moves().contains(&result.best));
    }

    let g = game(LOST_IN_FOUR);
    let moves = g.legal_moves();
    let safe: Vec<String> = moves
        .iter()
        .filter(|&&m| !lets_opponent_win(&g, m))
        .map(|&m| g.move_string(m))
        .collect();
    assert_eq!((moves.len(), safe.len()), (106, 3), "{safe:?}");
    for n in 1..=4 {
        let result = search(&g, depth(n));
        assert!(
            safe.contains(&g.move_string(result.best)),
            "depth {n}: {}",
            g.move_string(result.best)
        );
        if n >= 3 {
            assert_eq!(result.score, -(MATE - 4), "depth {n}");
        }
    }
    assert_eq!(
        search(&g, depth(10)).depth,
        4,
        "a proven loss stops the deepening"
    );
}

/// Pins: when `pass` is the only legal move, it is returned (at any depth
/// and under a time limit), for White and for Black.
#[test]
fn returns_pass_when_it_is_the_only_move() {
    for text in [FORCED_PASS, BLACK_MUST_PASS] {
        let g = game(text);
        assert_eq!(g.legal_moves(), vec![Move::Pass]);
        for limits in [depth(1), depth(5), time(200), SearchLimits::default()] {
            let result = search(&g, limits);
            assert_eq!(result.best, Move::Pass, "{text} {limits:?}");
        }
    }
}

/// Pins: a finished game (won by either side, or drawn) has no best move:
/// `None`, whatever the limits.
#[test]
fn none_when_the_game_is_over() {
    let mut white_wins = game(BLACK_QUEEN_ALMOST_SURROUNDED);
    white_wins
        .play(white_wins.parse_move("wA1 -bG2").unwrap())
        .unwrap();
    assert_eq!(white_wins.state(), GameState::WhiteWins);

    let mut black_wins = game(FORCED_PASS);
    for text in ["pass", "bG1 bB2/", "pass", "bG1 bA2/"] {
        let mv = black_wins.parse_move(text).unwrap();
        black_wins.play(mv).unwrap();
    }
    assert_eq!(black_wins.state(), GameState::BlackWins);

    // both queens surrounded by one move (§8.3), from tests/rules_end.rs
    let mut draw = game(
        "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wQ wS1/;bG1 bQ-;\
         wG1 \\wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 -wS1;bA1 bS1\\",
    );
    draw.play(draw.parse_move("wA1 wQ/").unwrap()).unwrap();
    assert_eq!(draw.state(), GameState::Draw);

    // a finished game loaded from its GameString
    let loaded = game(&white_wins.game_string());
    assert_eq!(loaded.state(), GameState::WhiteWins);

    let mut table = TranspositionTable::new(1);
    for g in [&white_wins, &black_wins, &draw, &loaded] {
        for limits in [depth(1), depth(u32::MAX), time(0), SearchLimits::default()] {
            assert_eq!(best_move(g, &limits, &mut table), None, "{limits:?}");
        }
    }
}

/// Pins: `depth N` is deterministic: the same position and depth give the
/// same result (move, score and even node count) with a new table, with a
/// table filled by searches of other positions (depth and time limited), and
/// when repeated, for a given table size.
#[test]
fn depth_search_is_deterministic() {
    let g = game(MIDGAME);
    let mut fresh = TranspositionTable::new(4);
    let reference = best_move(&g, &depth(3), &mut fresh).unwrap();
    assert_eq!(reference.depth, 3);
    assert!(g.legal_moves().contains(&reference.best));

    let mut used = TranspositionTable::new(4);
    for other in [BLACK_MUST_DEFEND, WHITE_QUEEN_AMONG_WHITE, MIDGAME] {
        best_move(&game(other), &depth(2), &mut used);
        best_move(&game(other), &time(20), &mut used);
    }
    // the same position searched under a time limit leaves entries of it behind
    assert_eq!(best_move(&g, &depth(3), &mut used), Some(reference));
    assert_eq!(best_move(&g, &depth(3), &mut used), Some(reference));
    used.clear();
    assert_eq!(best_move(&g, &depth(3), &mut used), Some(reference));
}

/// Pins: depth 0 is taken as 1; a huge depth with a time limit is bounded by
/// the time; a search of every game type's first move is legal.
#[test]
fn odd_limits_and_every_game_type() {
    let g = game(MIDGAME);
    assert_eq!(search(&g, depth(0)).depth, 1);
    for game_type in GameType::ALL {
        let g = FastEngine::new_game(game_type, RulesOptions::default());
        let result = search(&g, depth(2));
        assert!(g.legal_moves().contains(&result.best), "{game_type}");
        assert_eq!(result.depth, 2);
    }
}

/// Runs a timed search of `MIDGAME` with an unbounded depth and returns the
/// elapsed time, checking that the budget stopped it and the answer.
fn timed(budget: Duration) -> (Duration, SearchResult) {
    let g = game(MIDGAME);
    let mut table = TranspositionTable::new(32);
    let limits = SearchLimits {
        depth: Some(u32::MAX),
        time: Some(budget),
    };
    let start = Instant::now();
    let result = best_move(&g, &limits, &mut table).unwrap();
    let elapsed = start.elapsed();
    assert!(
        elapsed < budget + HANG,
        "budget {budget:?}, answered after {elapsed:?}"
    );
    assert!(g.legal_moves().contains(&result.best));
    eprintln!(
        "budget {budget:?}: answered after {elapsed:?}, depth {}, {} nodes, {:.0} nodes/s",
        result.depth,
        result.nodes,
        result.nodes as f64 / elapsed.as_secs_f64()
    );
    (elapsed, result)
}

/// Pins: `time` is a budget that stops a search: a 200 ms search of a
/// midgame with no depth limit (`depth u32::MAX`) answers, with two
/// completed iterations (depth 2 takes about a hundredth of the budget: a
/// quiet 2-core machine reaches depth 4 in it); a zero budget answers with
/// a legal move having searched no node.
#[test]
fn time_budget_200ms() {
    let (_, result) = timed(Duration::from_millis(200));
    assert!(result.depth >= 2, "{result:?}");
    let (_, result) = timed(Duration::ZERO);
    assert_eq!((result.depth, result.nodes), (0, 0), "{result:?}");
}

/// Pins the same at 1 s and 5 s (slow; `cargo test --release --test integration search::
/// -- --ignored --nocapture` prints the measured times).
#[test]
#[ignore]
fn time_budget_1s_and_5s() {
    timed(Duration::from_secs(1));
    timed(Duration::from_secs(5));
}
