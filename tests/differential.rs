//! Differential tests: the fast engine is the system under
//! test, the reference engine is the model. Random legal games of all eight
//! game types (§1.4), both openings (§4.2) and with the repetition draw on or
//! off (§8.7.2) are played on both engines at once, to the end of the game or
//! `MAX_PLIES` plies. After every ply the engines must agree on
//!
//! * the set of legal moves, as absolute moves (§5.9), each listed once;
//! * the game state (§8.8), the side to move (§7.1) and the turn (§9.18);
//! * the canonical GameString (§9.31, §9.30);
//!
//! and the fast engine's incremental structures must equal their
//! from-scratch twins (`check_invariants`) after every move and every undo.
//! Random undos of one to four plies must restore the exact earlier position:
//! the same GameString, the same legal moves and the same hash as when that
//! position was first reached; so must every undo when the whole game is
//! taken back at the end. The walk on both engines is
//! `hive_oracle_rules::agreement::LockStep`, shared with the fuzz target
//! `differential` and `hive-oracle selfcheck`; this file chooses the moves.
//!
//! A game is driven by a vector of choices (`choice % legal.len()` over the
//! legal moves in sorted order), so a failure shrinks to the shortest game
//! that shows it, and the failure message carries that game's GameString.
//!
//! Regression seeds: proptest records every failing case in
//! `proptest-regressions/differential.txt` (failure persistence is on, the
//! path is fixed below). That file is committed, so every failure ever found
//! is replayed first by every later run.
//!
//! The fast engine's algebraic identities (a loaded game has the hash of the
//! played one; play then undo is the identity) are quickcheck properties in
//! `tests/identities.rs`: proptest drives the random games whose failures
//! must shrink to the shortest game, quickcheck the identities checked on
//! one random position at a time (one framework per concern, spec/README.md).
//!
//! Sizes: a default run plays [`DEFAULT_RUN_GAMES`] random games of at most
//! [`DEFAULT_RUN_STEPS`] steps (openings and early middle games, seconds in
//! all on the project's 2-core machine); the full size, [`DEFAULT_GAMES`]
//! whole games of up to [`MAX_STEPS`] steps, is the `#[ignore]`d twin
//! `engines_agree_on_random_games_at_full_size`, which `.ci/run` runs.
//! `HIVE_ORACLE_CASES=N` sets the number of random games of the full-size
//! property to N and scales the other properties in proportion, for example
//! `HIVE_ORACLE_CASES=2000 cargo test --release --test integration differential:: -- --include-ignored`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use hive_oracle_rules::agreement::{compare_engines, LockStep, LockStepError};
use hive_oracle_rules::core::{GameState, GameType, Move, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, TestCaseError};

use crate::common;
use common::{cases, DEFAULT_GAMES};

/// Games stop after this many plies if they have not ended.
const MAX_PLIES: usize = 150;

/// At most this many steps per walk: long enough that most walks reach the
/// end of the game or `MAX_PLIES`, while shrinking can cut them down to one.
const MAX_STEPS: usize = 500;

/// At most this many steps per walk of a default run: a step costs more as
/// the hive grows (a whole game of Base+MLP takes seconds on the
/// reference engine), so a default run checks the first plies of more games.
const DEFAULT_RUN_STEPS: usize = 100;

/// Random games of the main property in a default run (the full size is
/// [`DEFAULT_GAMES`]).
const DEFAULT_RUN_GAMES: u32 = 32;

// ---------------------------------------------------------------------------
// The main property: a random game on both engines
// ---------------------------------------------------------------------------

/// One random game: the game type, the options and the steps. A step is a
/// move choice and an action byte: 208..240 prefers the move that takes back
/// the side's previous movement (to provoke repetitions, §8.7.2); 240 and up
/// plays, then undoes 1 to 4 plies and goes on from there; anything else just
/// plays the chosen move. Shrinking moves actions towards 0, i.e. towards
/// plain play. Steps left over when the game ends are not used.
#[derive(Clone, Debug)]
struct Walk {
    game_type: GameType,
    options: RulesOptions,
    steps: Vec<(u16, u8)>,
}

/// Action bytes from this one up prefer going back (see `Walk`).
const GO_BACK: u8 = 208;
/// Action bytes from this one up undo after the move (see `Walk`).
const UNDO: u8 = 240;

/// Random walks of 1 to `max_steps` steps.
fn walks(max_steps: usize) -> impl Strategy<Value = Walk> {
    (
        0..8usize,
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec((any::<u16>(), any::<u8>()), 1..=max_steps),
    )
        .prop_map(
            |(game_type, standard_opening, repetition_draw, steps)| Walk {
                game_type: GameType::ALL[game_type],
                options: RulesOptions {
                    tournament_opening: !standard_opening,
                    repetition_draw,
                },
                steps,
            },
        )
}

/// Plays a walk on both engines in lock step (`LockStep`: the engines
/// compared at every ply, the fast engine's invariants after every move and
/// undo, every undo back to the position first reached), then undoes the
/// whole game, the fast engine checked at every position on the way back.
/// `game` is set as soon as the game starts, so that the position of a
/// failure (or a panic) can be shown.
fn run_walk(walk: &Walk, game: &mut Option<LockStep>) -> Result<(), LockStepError> {
    let game = game.insert(LockStep::new(walk.game_type, walk.options)?);
    for &(choice, action) in &walk.steps {
        let legal = game.legal();
        if game.plies() >= MAX_PLIES || legal.is_empty() {
            break;
        }
        let mut mv = legal[choice as usize % legal.len()];
        if (GO_BACK..UNDO).contains(&action) {
            if let Some(back) = game.taking_back() {
                mv = back;
            }
        }
        // both ways of playing are exercised: checked and unchecked
        game.play(mv, choice & 0x8000 == 0)?;
        if action >= UNDO {
            game.undo(1 + (action - UNDO) as usize % 4)?;
        }
    }
    game.rewind()
}

/// The GameString of a list of moves, replayed on the model.
fn game_string_of(walk: &Walk, moves: &[Move]) -> String {
    let mut model = ReferenceEngine::new_game(walk.game_type, walk.options);
    for &mv in moves {
        model.play_unchecked(mv);
    }
    model.game_string()
}

fn check_walk(walk: &Walk) -> Result<(), TestCaseError> {
    let mut game = None;
    let outcome = catch_unwind(AssertUnwindSafe(|| run_walk(walk, &mut game)));
    let message = match outcome {
        Ok(Ok(())) => return Ok(()),
        Ok(Err(what)) => what.to_string(),
        Err(panic) => {
            let text = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            format!("an engine panicked: {text}")
        }
    };
    Err(TestCaseError::fail(format!(
        "{message}\n  game ({}):\n  {}\n",
        walk.options,
        game_string_of(walk, game.as_ref().map_or(&[], LockStep::moves))
    )))
}

fn config(default_cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(default_cases),
        // on by default; fixed here so the committed file is found
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/differential.txt",
        ))),
        // enough to delete every unused step and shrink the rest to the
        // shortest game (each try replays a game only up to its failure)
        max_shrink_iters: 20_000,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(DEFAULT_RUN_GAMES))]

    /// §5.9, §8.8, §7.1, §9.18, §9.31: the engines agree at every ply of random
    /// games of every game type (§1.4), both openings (§4.2), with and without
    /// the repetition draw (§8.7.2); undo restores the earlier position and
    /// its hash; the incremental structures equal their twins throughout.
    /// Default run: [`DEFAULT_RUN_GAMES`] games of at most
    /// [`DEFAULT_RUN_STEPS`] steps; whole games in the twin at full size.
    #[test]
    fn engines_agree_on_random_games(walk in walks(DEFAULT_RUN_STEPS)) {
        check_walk(&walk)?;
    }
}

proptest! {
    #![proptest_config(config(DEFAULT_GAMES))]

    /// The same at full size: [`DEFAULT_GAMES`] games of up to
    /// [`MAX_STEPS`] steps, most of them to the end of the game or
    /// `MAX_PLIES` (minutes; `.ci/run` runs it).
    #[test]
    #[ignore = "full size: .ci/run runs it"]
    fn engines_agree_on_random_games_at_full_size(walk in walks(MAX_STEPS)) {
        check_walk(&walk)?;
    }
}

// ---------------------------------------------------------------------------
// Repetition games: both sides shuffle back and forth (§8.7.4, §8.7.2)
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(32))]

    /// §8.7.4, §8.7.2: games in which both players keep taking back their last
    /// movement, so positions repeat; with the option on they end in a draw,
    /// and the engines must agree on when.
    #[test]
    fn engines_agree_on_repeating_games(
        game_type in 0..8usize,
        standard_opening in any::<bool>(),
        repetition_draw in any::<bool>(),
        opening in prop::collection::vec(any::<u16>(), 1..40),
        shuffles in 8..60usize,
    ) {
        let mut steps: Vec<(u16, u8)> = opening.iter().map(|&c| (c, 0)).collect();
        steps.extend((0..shuffles).map(|i| (i as u16, GO_BACK)));
        let walk = Walk {
            game_type: GameType::ALL[game_type],
            options: RulesOptions { tournament_opening: !standard_opening, repetition_draw },
            steps,
        };
        check_walk(&walk)?;
    }
}

// ---------------------------------------------------------------------------
// Pinned games
// ---------------------------------------------------------------------------

#[test]
fn a_finished_game_has_no_moves_on_either_engine() {
    // §8.5: pinned on a game that ends; both engines list nothing and agree
    // on the winner (tests/rules_end.rs has the same position)
    let text = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wQ wS1/;bG1 bQ-;wG1 -wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 /wS1;bA1 bS1\\";
    let mut fast = FastEngine::load(text).expect("loads on the fast engine");
    let mut model = ReferenceEngine::load(text).expect("loads on the reference");
    let mv = model.parse_move("wA1 -bG2").expect("resolves");
    model.play(mv).expect("legal");
    fast.play(mv).expect("legal on the fast engine");
    compare_engines(&fast, &model, &model.game_string()).expect("the engines agree");
    assert_eq!(fast.state(), GameState::WhiteWins);
    assert!(fast.legal_moves().is_empty());
}

#[test]
fn both_engines_draw_on_the_third_repetition_and_not_before() {
    // §8.7.4, §8.7.2: both queens step back and forth; the position after
    // ply 4 comes back after plies 8 and 12, so with the option on the game
    // is drawn by the twelfth ply and not earlier; with it off it goes on.
    // The engines agree at every ply (LockStep: compared, twins checked)
    // and undo out of the draw.
    let moves = [
        "wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wQ \\wS1", "bQ bS1/", "wQ -wS1", "bQ bS1-",
        "wQ \\wS1", "bQ bS1/", "wQ -wS1", "bQ bS1-",
    ];
    for repetition_draw in [true, false] {
        let options = RulesOptions {
            repetition_draw,
            ..RulesOptions::default()
        };
        let mut game = LockStep::new(GameType::BASE, options).expect("the engines agree");
        for (i, text) in moves.iter().enumerate() {
            let mv = game.model().parse_move(text).expect("resolves");
            game.play(mv, true)
                .expect("legal on both, the engines agree");
            let ended = repetition_draw && i + 1 == moves.len();
            let expected = if ended {
                GameState::Draw
            } else {
                GameState::InProgress
            };
            assert_eq!(
                game.fast().state(),
                expected,
                "after {text} (ply {})",
                i + 1
            );
        }
        game.undo(1).expect("the engines agree after undo");
        assert_eq!(game.fast().state(), GameState::InProgress);
    }
}
