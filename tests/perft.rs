//! Perft from the initial position: the node counts published by the UHP
//! engines (Mzinga's `Board_*_PerftTest.csv`, nokamute's `test_perft`, quoted
//! in `spec/sources/uhp-notes.md` section 5.5), all assuming the tournament opening (§4.2).
//! They pin the whole move generator at once: placement (§3.3–§3.6), the
//! queen rules (§4.2, §4.3, §4.5) and, from depth 5 on, movement.

use hive_oracle_rules::core::{GameType, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::{divide, perft, perft_threads, perft_until, Rules};

/// A Base+MLP position from a random game, both pillbugs and both
/// mosquitoes on the board.
const MIDGAME: &str = "Base+MLP;InProgress;White[12];wL;bS1 /wL;wS1 wL-;bQ /bS1;wQ \\wS1;bP -bS1;wS2 wS1-;bS2 -bP;wP wS2-;bM bQ\\;wG1 wP\\;bG1 bM-;wM wS1\\;bG2 /bS2;wG1 wP/;bG1 /bQ;wG1 \\wP;bG2 \\bP;wG1 wP/;bS2 /bG1;wG1 \\wP;bM bS1\\";

/// A Base position where the two ants have shuttled back and forth: lines
/// that repeat the position a third time end in a draw under §8.7.2.
const SHUTTLED: &str = "Base;InProgress;White[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-;wA1 \\wQ;bA1 bQ/;wA1 -wQ;bA1 bQ-;wA1 \\wQ;bA1 bQ/";

/// A Base position one ply before White can surround Black's queen (§8.2):
/// some lines below it end the game (a position of tests/search.rs).
const ALMOST_WON: &str = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wQ wS1/;bG1 bQ-;wG1 -wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 /wS1;bA1 bS1\\";

fn counts(game_type: GameType, depth: u32) -> Vec<u64> {
    let mut game = ReferenceEngine::new_game(game_type, RulesOptions::default());
    (0..=depth).map(|d| perft(&mut game, d)).collect()
}

#[test]
fn base_perft_to_depth_4() {
    // §3.3, §3.4, §4.2: published counts, spec/sources/uhp-notes.md section 5.5
    assert_eq!(counts(GameType::BASE, 4), [1, 4, 96, 1440, 21600]);
}

#[test]
fn base_mlp_perft_to_depth_4() {
    // §3.3, §3.4, §4.2: published counts, spec/sources/uhp-notes.md section 5.5
    assert_eq!(counts(GameType::BASE_MLP, 4), [1, 7, 294, 6678, 151686]);
}

#[test]
#[ignore = "slow in debug builds; run with --release --ignored"]
fn base_perft_depth_5() {
    // §4.3, §6.1: the first depth with movements (spec/sources/uhp-notes.md section 5.5)
    let mut game = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
    assert_eq!(perft(&mut game, 5), 516_240);
}

#[test]
#[ignore = "slow in debug builds; run with --release --ignored"]
fn base_mlp_perft_depth_5() {
    // §4.3, §6.8.1: spec/sources/uhp-notes.md section 5.5
    let mut game = ReferenceEngine::new_game(GameType::BASE_MLP, RulesOptions::default());
    assert_eq!(perft(&mut game, 5), 5_427_108);
}

#[test]
#[ignore = "slow; run with --release --ignored"]
fn base_perft_depth_6() {
    // the counts the UHP engines publish
    let mut game = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
    assert_eq!(perft(&mut game, 6), 12_219_480);
}

/// Depth 3 for every game type, derived by hand. The first three plies are
/// placements only: white's first piece at the origin (§3.3), any of the k-1
/// bug kinds but the queen (§4.2); black's first piece, k-1 kinds, on one of
/// the six neighbours (§3.4); then white's second piece on one of the three
/// cells that touch white and not black (§3.5, §3.6), any kind still in the
/// reserve (only the next number of a kind enters, §3.2): k kinds, or k-1 if
/// the first piece was a single expansion bug. So depth 3 =
/// 6(k-1) * 3 * (4k + e(k-1)) with e expansion kinds: Base+ML gives
/// 36 * 3 * (28 + 12) = 4320.
#[test]
fn every_game_type_to_depth_3() {
    let expected = [
        ("Base", [1, 4, 96, 1440]),
        ("Base+M", [1, 5, 150, 2610]),
        ("Base+L", [1, 5, 150, 2610]),
        ("Base+P", [1, 5, 150, 2610]),
        ("Base+ML", [1, 6, 216, 4320]),
        ("Base+MP", [1, 6, 216, 4320]),
        ("Base+LP", [1, 6, 216, 4320]),
        ("Base+MLP", [1, 7, 294, 6678]),
    ];
    for (name, want) in expected {
        let game_type =
            hive_oracle_rules::core::notation::parse_game_type(name).expect("game type");
        assert_eq!(counts(game_type, 3), want, "{name}");
    }
}

#[test]
fn every_game_type_at_depth_4_is_consistent_with_divide() {
    // divide's rows add up to perft (rules.rs)
    for game_type in GameType::ALL {
        let mut game = ReferenceEngine::new_game(game_type, RulesOptions::default());
        let total: u64 = divide(&mut game, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, perft(&mut game, 3), "{game_type}");
    }
}

#[test]
fn standard_opening_allows_the_queen_first() {
    // §4.2: with the option off, the queen is one more first move (5 in Base).
    let options = RulesOptions {
        tournament_opening: false,
        ..RulesOptions::default()
    };
    let mut game = ReferenceEngine::new_game(GameType::BASE, options);
    assert_eq!(perft(&mut game, 1), 5);
    assert_eq!(perft(&mut game, 2), 5 * 6 * 5);
}

// ---------------------------------------------------------------------------
// The fast engine
// ---------------------------------------------------------------------------

/// The fast engine's own perft (`count_leaves` on its own move
/// representation, bulk counting at the last ply) equals the reference
/// engine's perft at every depth up to `depth`.
fn fast_equals_reference(game_type: GameType, options: RulesOptions, depth: u32) {
    let mut fast = FastEngine::new_game(game_type, options);
    let mut reference = ReferenceEngine::new_game(game_type, options);
    for d in 0..=depth {
        assert_eq!(
            fast.count_leaves(d),
            perft(&mut reference, d),
            "{game_type} at depth {d}"
        );
    }
}

#[test]
fn fast_equals_reference_for_every_game_type_to_depth_4() {
    // §1.4, §3.3, §3.4, §4.2: all eight game types, tournament opening
    for game_type in GameType::ALL {
        fast_equals_reference(game_type, RulesOptions::default(), 4);
    }
}

#[test]
fn fast_equals_reference_with_the_standard_opening() {
    // §4.2: with the queen allowed first
    let options = RulesOptions {
        tournament_opening: false,
        ..RulesOptions::default()
    };
    for game_type in GameType::ALL {
        fast_equals_reference(game_type, options, 3);
    }
}

#[test]
fn fast_perft_from_a_midgame_position_equals_reference() {
    // §6.8.2, §6.7.5: a Base+MLP position from a random game, both pillbugs
    // and both mosquitoes on the board, movements and throws in the count
    let text = MIDGAME;
    let mut fast = FastEngine::load(text).expect("loads on the fast engine");
    let mut reference = ReferenceEngine::load(text).expect("loads on the reference");
    for d in 1..=3 {
        assert_eq!(fast.count_leaves(d), perft(&mut reference, d), "depth {d}");
    }
}

/// The fast engine's perft against the reference's along seeded random
/// games of every game type, both openings (§4.2): positions with stacks,
/// throws (§6.8.2), pinned pieces (§5.3) and enclosed empty cells, which the
/// start position does not reach for many plies. Perft 2 exercises what
/// the fast engine does to count the last ply (placement cells recounted
/// only around the move, destinations counted without being listed).
/// Default run: the same games, perft at every fourth ply; every ply in the
/// twin at full size.
#[test]
fn fast_perft_equals_reference_along_random_games() {
    perft_along_random_games(4);
}

/// [`fast_perft_equals_reference_along_random_games`] at full size: perft
/// at every ply of the games.
#[test]
#[ignore = "full size: .ci/run runs it"]
fn fast_perft_equals_reference_along_random_games_at_full_size() {
    perft_along_random_games(1);
}

/// Compares perft 2 of both engines at every `stride`-th ply of sixteen
/// seeded random games (every game type, both openings) of up to 100 plies.
fn perft_along_random_games(stride: usize) {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for game_type in GameType::ALL {
        for tournament_opening in [true, false] {
            let options = RulesOptions {
                tournament_opening,
                ..RulesOptions::default()
            };
            let mut fast = FastEngine::new_game(game_type, options);
            let mut reference = ReferenceEngine::new_game(game_type, options);
            while !reference.state().is_over() && reference.plies() < 100 {
                if reference.plies() % stride == 0 {
                    assert_eq!(
                        fast.count_leaves(2),
                        perft(&mut reference, 2),
                        "{}",
                        reference.game_string()
                    );
                }
                // xorshift64: a fixed sequence of games
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let moves = reference.legal_moves();
                let mv = moves[(seed % moves.len() as u64) as usize];
                reference.play(mv).expect("a legal move");
                fast.play(mv).expect("legal on the fast engine too");
            }
        }
    }
}

/// §8.7.2: with the repetition rule on, perft must find the draws the
/// reference finds. In this Base position (tests/rules_end.rs style) the two
/// ants have shuttled back and forth, so lines that repeat the position a
/// third time end in a draw; the fast engine's perft keeps the coordinates it
/// needs for the rule (it skips them only when the rule is off).
#[test]
fn fast_perft_with_the_repetition_rule_equals_reference() {
    let options = RulesOptions {
        repetition_draw: true,
        ..RulesOptions::default()
    };
    let text = SHUTTLED;
    let mut fast = FastEngine::load_with(text, options).expect("loads on the fast engine");
    let mut reference = ReferenceEngine::load_with(text, options).expect("loads on the reference");
    let mut plain = ReferenceEngine::load(text).expect("loads without the rule");
    for d in 1..=3 {
        assert_eq!(fast.count_leaves(d), perft(&mut reference, d), "depth {d}");
    }
    // the rule changes the count here, so the test can tell the two apart
    assert_ne!(perft(&mut reference, 3), perft(&mut plain, 3));
}

#[test]
fn perft_threads_with_two_threads_equals_one_thread() {
    // rules.rs: splitting the root moves across threads changes no count
    for game_type in [GameType::BASE, GameType::BASE_MLP] {
        let game = FastEngine::new_game(game_type, RulesOptions::default());
        for depth in 0..=4 {
            assert_eq!(
                perft_threads(&game, depth, 2),
                game.clone().count_leaves(depth),
                "{game_type} at depth {depth}"
            );
        }
        let game = ReferenceEngine::new_game(game_type, RulesOptions::default());
        assert_eq!(
            perft_threads(&game, 3, 2),
            perft(&mut game.clone(), 3),
            "{game_type}, reference"
        );
    }
}

/// rules.rs: with fewer root moves than lines wanted, the threads share the
/// lines two or three plies deep; lines that end the game are dropped. In a
/// midgame Base+MLP position (throws, stacks), in Base one ply before White
/// can surround Black's queen (§8.2: some lines end the game; a position
/// of tests/search.rs), and with the repetition rule (§8.7.2), the count is
/// that of one thread for 1, 2, 3 and 7 threads.
#[test]
fn perft_threads_splitting_below_the_root_changes_no_count() {
    let repetition = RulesOptions {
        repetition_draw: true,
        ..RulesOptions::default()
    };
    let cases = [
        (MIDGAME, RulesOptions::default(), 3),
        (ALMOST_WON, RulesOptions::default(), 3),
        (SHUTTLED, repetition, 4),
    ];
    for (text, options, depth) in cases {
        let game = FastEngine::load_with(text, options).expect("loads");
        let one = game.clone().count_leaves(depth);
        for threads in [1, 2, 3, 7] {
            assert_eq!(
                perft_threads(&game, depth, threads),
                one,
                "{text}, {threads} threads"
            );
        }
    }
    // one ply from the end: every line that surrounds the queen is dropped
    let game = FastEngine::load(ALMOST_WON).expect("loads");
    assert_eq!(perft_threads(&game, 2, 2), game.clone().count_leaves(2));
}

/// rules.rs: a count that may be stopped (UHP `perft` when the input ends)
/// is the plain count when nobody stops it, in positions where lines end the
/// game (§8.2) or repeat it (§8.7.2), counted one ply above the subtrees it
/// counts in one go;
/// stopped, it answers nothing and asks no more than once per subtree.
#[test]
fn perft_until_counts_as_count_leaves_and_ends_when_stopped() {
    let repetition = RulesOptions {
        repetition_draw: true,
        ..RulesOptions::default()
    };
    let cases = [
        (ALMOST_WON, RulesOptions::default(), 4),
        (SHUTTLED, repetition, 4),
    ];
    for (text, options, depth) in cases {
        let mut fast = FastEngine::load_with(text, options).expect("loads");
        let expected = fast.clone().count_leaves(depth);
        let mut asked = 0u64;
        let counted = perft_until(&mut fast, depth, &mut || {
            asked += 1;
            false
        });
        assert_eq!(counted, Some(expected), "{text}");
        assert!(asked > 1, "{text}: the count was split into subtrees");
        // stopped at the third look: nothing counted, no look after it
        let mut looks = 0u64;
        let stopped = perft_until(&mut fast, depth, &mut || {
            looks += 1;
            looks >= 3
        });
        assert_eq!(stopped, None, "{text}");
        assert_eq!(looks, 3, "{text}");
        // the game is left as it was
        assert_eq!(
            fast.game_string(),
            FastEngine::load_with(text, options)
                .expect("loads")
                .game_string()
        );
    }
    // on the reference engine too: the published count from the Base start
    let mut reference = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
    assert_eq!(perft_until(&mut reference, 4, &mut || false), Some(21_600));
}

#[test]
fn fast_perft_depth_5() {
    // §4.3, §6.1, §6.8.1: the first depth with movements, published counts
    // (spec/sources/uhp-notes.md section 5.5); the reference's own depth-5
    // tests are ignored as slow
    let mut game = FastEngine::new_game(GameType::BASE, RulesOptions::default());
    assert_eq!(game.count_leaves(5), 516_240);
    let mut game = FastEngine::new_game(GameType::BASE_MLP, RulesOptions::default());
    assert_eq!(game.count_leaves(5), 5_427_108);
}

#[test]
#[ignore = "long; run with --release --ignored"]
fn fast_base_perft_depth_6() {
    // the counts the UHP engines publish (spec/sources/uhp-notes.md section 5.5)
    let mut game = FastEngine::new_game(GameType::BASE, RulesOptions::default());
    assert_eq!(game.count_leaves(6), 12_219_480);
}

#[test]
#[ignore = "long; run with --release --ignored"]
fn fast_base_perft_depth_7() {
    // the counts the UHP engines publish (spec/sources/uhp-notes.md section 5.5)
    let mut game = FastEngine::new_game(GameType::BASE, RulesOptions::default());
    assert_eq!(game.count_leaves(7), 181_641_900);
}

#[test]
#[ignore = "long; run with --release --ignored"]
fn fast_base_mlp_perft_depth_6() {
    // the counts the UHP engines publish (spec/sources/uhp-notes.md section 5.5)
    let mut game = FastEngine::new_game(GameType::BASE_MLP, RulesOptions::default());
    assert_eq!(game.count_leaves(6), 192_353_904);
}
