//! Helpers shared by the tests: load a position from a GameString, compare
//! moves as sets of absolute moves (never as strings, §5.9), and run the
//! binary.
#![allow(dead_code)]

use std::collections::BTreeSet;

use hive_oracle::core::notation::parse_piece;
use hive_oracle::core::{GameState, GameType, Move, RulesOptions};
use hive_oracle::reference::ReferenceEngine;
use hive_oracle::rules::Rules;

/// Loads a GameString with the default rules options; the test fails with the
/// loader's message if the history is not legal.
pub fn game(game_string: &str) -> ReferenceEngine {
    game_with(game_string, RulesOptions::default())
}

/// Loads a GameString with the given rules options.
pub fn game_with(game_string: &str, options: RulesOptions) -> ReferenceEngine {
    match ReferenceEngine::load_with(game_string, options) {
        Ok(game) => game,
        Err(e) => panic!("test position does not load: {e}\n  {game_string}"),
    }
}

/// Resolves MoveStrings in the position into absolute moves.
pub fn moves(game: &ReferenceEngine, texts: &[&str]) -> BTreeSet<Move> {
    texts
        .iter()
        .map(|text| match game.parse_move(text) {
            Ok(mv) => mv,
            Err(e) => panic!("expected move {text:?} does not resolve: {e}"),
        })
        .collect()
}

/// Every legal move, as a set.
pub fn legal(game: &ReferenceEngine) -> BTreeSet<Move> {
    game.legal_moves().into_iter().collect()
}

/// The legal moves that place or move the named piece (throws of it included).
pub fn legal_for(game: &ReferenceEngine, piece: &str) -> BTreeSet<Move> {
    let piece = parse_piece(piece).expect("piece name in test");
    legal(game)
        .into_iter()
        .filter(|mv| mv.piece() == Some(piece))
        .collect()
}

fn show(game: &ReferenceEngine, set: &BTreeSet<Move>) -> Vec<String> {
    let mut names: Vec<String> = set.iter().map(|&mv| game.move_string(mv)).collect();
    names.sort();
    names
}

fn assert_same(
    game: &ReferenceEngine,
    actual: BTreeSet<Move>,
    expected: BTreeSet<Move>,
    what: &str,
) {
    let missing: BTreeSet<Move> = expected.difference(&actual).copied().collect();
    let extra: BTreeSet<Move> = actual.difference(&expected).copied().collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{what} differ in {}\n  missing: {:?}\n  extra:   {:?}",
        game.game_string(),
        show(game, &missing),
        show(game, &extra)
    );
}

/// Asserts the exact set of legal moves of one piece (`[]` for none).
pub fn assert_piece_moves(game: &ReferenceEngine, piece: &str, expected: &[&str]) {
    let expected = moves(game, expected);
    assert_same(
        game,
        legal_for(game, piece),
        expected,
        &format!("moves of {piece}"),
    );
}

/// Asserts the exact set of all legal moves.
pub fn assert_legal_moves(game: &ReferenceEngine, expected: &[&str]) {
    let expected = moves(game, expected);
    assert_same(game, legal(game), expected, "legal moves");
}

/// Asserts that a move is legal (in the legal set and accepted by `play`).
pub fn assert_legal(game: &ReferenceEngine, text: &str) {
    let mv = moves(game, &[text]).into_iter().next().expect("one move");
    assert!(
        legal(game).contains(&mv),
        "{text} should be legal in {}",
        game.game_string()
    );
    let mut copy = game.clone();
    assert!(copy.play(mv).is_ok(), "play refused {text}");
}

/// Asserts that `play` refuses a move citing `clause`, and that the game is
/// unchanged afterwards.
pub fn assert_illegal(game: &ReferenceEngine, text: &str, clause: &str) {
    let mv = moves(game, &[text]).into_iter().next().expect("one move");
    assert_refused(game, mv, clause);
}

/// Asserts that `play` refuses an absolute move (also one that no MoveString
/// can name) citing `clause`, and that the game is unchanged afterwards.
pub fn assert_refused(game: &ReferenceEngine, mv: Move, clause: &str) {
    assert!(
        !legal(game).contains(&mv),
        "{} should be illegal in {}",
        mv,
        game.game_string()
    );
    let before = game.game_string();
    let mut copy = game.clone();
    match copy.play(mv) {
        Ok(()) => panic!("play accepted the illegal move {mv}"),
        Err(e) => assert!(
            e.clauses.contains(&clause),
            "refusal of {mv} should cite {clause}, got: {e}"
        ),
    }
    assert_eq!(
        copy.game_string(),
        before,
        "a refused move changed the game"
    );
}

/// A small deterministic generator for random legal games (a 64-bit LCG;
/// the games only need to be varied and repeatable).
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Plays a random legal game of at most `plies` plies, calling `visit` with
/// the position after each ply and the move that led to it.
pub fn random_game(
    game_type: GameType,
    options: RulesOptions,
    seed: u64,
    plies: usize,
    mut visit: impl FnMut(&ReferenceEngine, Move),
) {
    let mut rng = Lcg(seed);
    let mut g = ReferenceEngine::new_game(game_type, options);
    for _ in 0..plies {
        let list = g.legal_moves();
        if list.is_empty() {
            break;
        }
        let mv = list[rng.below(list.len())];
        g.play(mv).expect("a listed move is legal");
        visit(&g, mv);
    }
}

/// Asserts the game state.
pub fn assert_state(game: &ReferenceEngine, state: GameState) {
    assert_eq!(game.state(), state, "state of {}", game.game_string());
}

/// Runs the `hive-oracle` binary with `args`.
pub fn run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_hive-oracle"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// What a run printed on stdout.
pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a run printed on stderr.
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
