//! The shrinker against the fault engines of `uhp --fault`, in process:
//! the predicate is "the fault adds a move here", exactly what `check`
//! sees from the faulty engine, without a process in between. Long
//! games come from seeded random play.

use super::split::{interleave, normalize, Split};
use super::*;
use hive_oracle_rules::core::{Bug, Color, Hex, Piece};
use hive_oracle_rules::faults::{extra_moves, Fault};
use hive_oracle_rules::uhp::Game;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeSet;

fn faulty(fault: Fault, game: &ReferenceEngine) -> BTreeSet<Move> {
    extra_moves(fault, &Game::Reference(game.clone()))
}

/// A seeded random game of `game_type` played until the fault first adds
/// a move at ply `min_plies` or later.
fn long_game_showing(fault: Fault, game_type: GameType, min_plies: usize) -> Vec<Move> {
    for seed in 0..200 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = ReferenceEngine::new_game(game_type, RulesOptions::default());
        for _ in 0..150 {
            if game.state().is_over() {
                break;
            }
            if game.plies() >= min_plies && !faulty(fault, &game).is_empty() {
                return game.history().to_vec();
            }
            let legal = game.legal_moves();
            let mv = legal[rng.random_range(0..legal.len())];
            game.play(mv).expect("a legal move");
        }
    }
    panic!("no random game shows {fault} after {min_plies} plies");
}

fn replayed(game_type: GameType, moves: &[Move]) -> ReferenceEngine {
    let mut game = ReferenceEngine::new_game(game_type, RulesOptions::default());
    for &mv in moves {
        game.play(mv).expect("a shrunk game is legal");
    }
    game
}

/// Shrinks a long game showing `fault` and checks the result is a legal
/// game, still shows it, and has at most `max_plies` plies.
fn shrinks_to(fault: Fault, game_type: GameType, focused: bool, max_plies: usize) {
    let long = long_game_showing(fault, game_type, 30);
    let game = replayed(game_type, &long);
    let disputed = faulty(fault, &game)
        .into_iter()
        .find(|mv| matches!(mv, Move::Move { .. }));
    let focus = if focused { disputed } else { None };
    let shrunk = shrink(
        game_type,
        RulesOptions::default(),
        &long,
        focus,
        disputed,
        Budget::default(),
        |g, focus| match focus {
            // an accepted illegal move: the fault allows the focus
            Some(mv) if faulty(fault, g).contains(&mv) => Shows::Yes,
            Some(_) => Shows::No,
            None if !faulty(fault, g).is_empty() => Shows::Yes,
            None => Shows::No,
        },
    );
    let end = replayed(game_type, &shrunk.moves);
    let extra = faulty(fault, &end);
    match shrunk.focus {
        Some(mv) => assert!(extra.contains(&mv), "the shrunk focus still shows"),
        None => assert!(!extra.is_empty(), "the shrunk game still shows"),
    }
    assert_eq!(shrunk.focus.is_some(), focused);
    assert!(
        shrunk.moves.len() <= max_plies,
        "{fault}: {} plies shrunk to {} (at most {max_plies} expected): {}",
        long.len(),
        shrunk.moves.len(),
        end.game_string()
    );
}

#[test]
fn removing_a_piece_renumbers_the_rest_and_moves_the_first_to_the_origin() {
    // §1.5 pieces are numbered in placement order; §3.3 the first piece
    // stands on the origin
    let ant = |color: Color, number: u8, q: i32| Move::Place {
        piece: Piece::new(color, Bug::Ant, number).expect("an ant"),
        to: Hex::new(q, 0),
    };
    let game = [
        ant(Color::White, 1, 0),
        ant(Color::Black, 1, 1),
        ant(Color::White, 2, -1),
        ant(Color::Black, 2, 2),
    ];
    let split = Split::of(&game);
    let (moves, focus) =
        normalize(&split.without(&[0, 1]), Some(ant(Color::White, 3, -2))).expect("normalizes");
    assert_eq!(moves, [ant(Color::White, 1, 0), ant(Color::Black, 1, 3)]);
    assert_eq!(focus, Some(ant(Color::White, 2, -1)));
}

#[test]
fn a_removal_never_moves_a_turn_to_the_other_player() {
    // turn order alternates (§7.1): the interleaving keeps each
    // player's turns in order and the first player first
    let white = [Move::Pass; 3];
    let black = [Move::Place {
        piece: Piece::first(Color::Black, Bug::Ant),
        to: Hex::ORIGIN,
    }; 2];
    let game = interleave(&white, &black);
    assert_eq!(game.len(), 5);
    for (i, mv) in game.iter().enumerate() {
        assert_eq!(*mv == Move::Pass, i % 2 == 0);
    }
}

#[test]
fn a_spider_that_backtracks_shrinks_to_a_few_plies() {
    // §6.4.2 the spider never visits a cell twice
    shrinks_to(Fault::SpiderBacktracks, GameType::BASE, false, 10);
}

#[test]
fn a_mosquito_that_copies_a_mosquito_shrinks_to_a_short_game() {
    // §6.7.2 a mosquito next only to mosquitoes does not move
    shrinks_to(
        Fault::MosquitoCopiesMosquito,
        GameType::from_flags(true, true, false),
        false,
        14,
    );
}

#[test]
fn a_throw_of_the_piece_just_moved_shrinks_with_its_focus() {
    // §5.10 the piece moved last turn cannot be thrown
    shrinks_to(
        Fault::PillbugThrowsLastMoved,
        GameType::from_flags(false, false, true),
        true,
        12,
    );
}

#[test]
fn a_beetle_without_height_gates_shrinks_to_a_short_game() {
    // §6.2.2 beetles obey the height gate rule
    shrinks_to(
        Fault::BeetleIgnoresHeightGates,
        GameType::from_flags(true, false, false),
        false,
        24,
    );
}
