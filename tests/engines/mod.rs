//! The rule tests of `tests/rules_*.rs` run on both engines. A rule fact the case vocabulary can state (spec/cases.md) is a
//! case in `tests/cases/`; what it cannot say (a move listed twice, two
//! spellings of one move, undo, turn numbers and GameStrings, loading
//! errors, piece locations, properties of random games) is a Rust test,
//! written once against the `Rules` trait and run on the reference engine
//! and on the fast engine by [`on_both_engines!`].
//!
//! The helpers mirror those of `tests/common/` for any engine: positions
//! come from GameStrings with a full legal history, and moves are compared
//! as sets of absolute moves, never as strings (§5.9).
#![allow(dead_code, unused_macros)]

use std::any::Any;
use std::collections::BTreeSet;

use hive_oracle_rules::core::notation::parse_piece;
use hive_oracle_rules::core::{GameState, GameType, Move, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::board::Board;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::{IllegalMove, Rules};

use crate::common::Lcg;

/// An engine the rule tests run on.
pub trait Engine: Rules + std::fmt::Debug + 'static {
    /// Whether every refusal cites the clauses that forbid the move. The
    /// reference engine's refusals do. The fast engine cites a clause only
    /// when it refuses a pass (§7.2) or any move after the end (§8.5) and
    /// leaves other explanations to the reference, as in `tests/cases.rs`;
    /// a clause it does cite must still be the expected one.
    const CITES_EVERY_CLAUSE: bool;
}

impl Engine for ReferenceEngine {
    const CITES_EVERY_CLAUSE: bool = true;
}

impl Engine for FastEngine {
    const CITES_EVERY_CLAUSE: bool = false;
}

/// Defines rule tests that run on both engines. Each `fn name(R) { body }`
/// becomes the module `name` with the tests `reference` and `fast`, which
/// run `body` with the type `R` standing for the reference engine and the
/// fast engine (`cargo test --test integration rules_end::NAME` runs both). Doc comments
/// before `fn` document the module.
macro_rules! on_both_engines {
    ($($(#[$attr:meta])* fn $name:ident($engine:ident) $body:block)*) => {$(
        $(#[$attr])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            fn run<$engine: $crate::engines::Engine>() $body

            #[test]
            fn reference() {
                run::<hive_oracle_rules::reference::ReferenceEngine>();
            }

            #[test]
            fn fast() {
                run::<hive_oracle_rules::fast::FastEngine>();
            }
        }
    )*};
}

/// The reference engine, when `R` is the reference engine: for the few
/// assertions about its own state that no other engine exposes.
pub fn as_reference<R: Engine>(game: &R) -> Option<&ReferenceEngine> {
    (game as &dyn Any).downcast_ref::<ReferenceEngine>()
}

/// The board of any engine's position, as the reference engine's `Board`
/// ([`Board::from_view`]): stacks, heights, connectivity.
pub fn board<R: Rules>(game: &R) -> Board {
    Board::from_view(game)
}

/// Loads a GameString with the default rules options; the test fails with
/// the loader's message if the history is not legal.
pub fn game<R: Rules>(game_string: &str) -> R {
    game_with(game_string, RulesOptions::default())
}

/// Loads a GameString with the given rules options.
pub fn game_with<R: Rules>(game_string: &str, options: RulesOptions) -> R {
    match R::load_with(game_string, options) {
        Ok(game) => game,
        Err(e) => panic!("test position does not load: {e}\n  {game_string}"),
    }
}

/// Resolves MoveStrings in the position into absolute moves.
pub fn moves<R: Rules>(game: &R, texts: &[&str]) -> BTreeSet<Move> {
    texts
        .iter()
        .map(|text| match game.parse_move(text) {
            Ok(mv) => mv,
            Err(e) => panic!("expected move {text:?} does not resolve: {e}"),
        })
        .collect()
}

/// Every legal move, as a set.
pub fn legal<R: Rules>(game: &R) -> BTreeSet<Move> {
    game.legal_moves().into_iter().collect()
}

/// The legal moves that place or move the named piece (throws of it included).
pub fn legal_for<R: Rules>(game: &R, piece: &str) -> BTreeSet<Move> {
    let piece = parse_piece(piece).expect("piece name in test");
    legal(game)
        .into_iter()
        .filter(|mv| mv.piece() == Some(piece))
        .collect()
}

fn show<R: Rules>(game: &R, set: &BTreeSet<Move>) -> Vec<String> {
    let mut names: Vec<String> = set.iter().map(|&mv| game.move_string(mv)).collect();
    names.sort();
    names
}

fn assert_same<R: Rules>(game: &R, actual: BTreeSet<Move>, expected: BTreeSet<Move>, what: &str) {
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
pub fn assert_piece_moves<R: Rules>(game: &R, piece: &str, expected: &[&str]) {
    let expected = moves(game, expected);
    assert_same(
        game,
        legal_for(game, piece),
        expected,
        &format!("moves of {piece}"),
    );
}

/// Asserts the exact set of all legal moves.
pub fn assert_legal_moves<R: Rules>(game: &R, expected: &[&str]) {
    let expected = moves(game, expected);
    assert_same(game, legal(game), expected, "legal moves");
}

/// Asserts that a move is legal (in the legal set and accepted by `play`).
pub fn assert_legal<R: Rules>(game: &R, text: &str) {
    let mv = moves(game, &[text]).into_iter().next().expect("one move");
    assert!(
        legal(game).contains(&mv),
        "{text} should be legal in {}",
        game.game_string()
    );
    let mut copy = game.clone();
    assert!(copy.play(mv).is_ok(), "play refused {text}");
}

/// Asserts that a refusal cites `clause`: always on an engine whose
/// refusals cite every clause, otherwise whenever the refusal cites any
/// clause ([`Engine::CITES_EVERY_CLAUSE`]).
pub fn assert_cites<R: Engine>(refusal: &IllegalMove, clause: &str, what: &str) {
    if R::CITES_EVERY_CLAUSE || !refusal.clauses.is_empty() {
        assert!(
            refusal.clauses.contains(&clause),
            "refusal of {what} should cite {clause}, got: {refusal}"
        );
    }
}

/// Asserts that `play` refuses a move citing `clause` (see [`assert_cites`]),
/// and that the game is unchanged afterwards.
pub fn assert_illegal<R: Engine>(game: &R, text: &str, clause: &str) {
    let mv = moves(game, &[text]).into_iter().next().expect("one move");
    assert_refused(game, mv, clause);
}

/// Asserts that `play` refuses an absolute move (also one that no MoveString
/// can name) citing `clause` (see [`assert_cites`]), and that the game is
/// unchanged afterwards.
pub fn assert_refused<R: Engine>(game: &R, mv: Move, clause: &str) {
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
        Err(e) => assert_cites::<R>(&e, clause, &mv.to_string()),
    }
    assert_eq!(
        copy.game_string(),
        before,
        "a refused move changed the game"
    );
}

/// Asserts the game state.
pub fn assert_state<R: Rules>(game: &R, state: GameState) {
    assert_eq!(game.state(), state, "state of {}", game.game_string());
}

/// Plays a random legal game of at most `plies` plies, calling `visit` with
/// the position after each ply and the move that led to it. Each move is
/// drawn by [`Lcg`] from `seed` out of the legal moves in sorted order, so
/// that both engines play the same games.
pub fn random_game<R: Rules>(
    game_type: GameType,
    options: RulesOptions,
    seed: u64,
    plies: usize,
    mut visit: impl FnMut(&R, Move),
) {
    let mut rng = Lcg(seed);
    let mut g = R::new_game(game_type, options);
    for _ in 0..plies {
        let mut list = g.legal_moves();
        list.sort();
        if list.is_empty() {
            break;
        }
        let mv = list[rng.below(list.len())];
        g.play(mv).expect("a listed move is legal");
        visit(&g, mv);
    }
}
