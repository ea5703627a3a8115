//! Rule tests for chapter 5 (movement in general) and §6.1 to §6.6.6 (the
//! Queen Bee, Beetle, Grasshopper, Spider, Soldier Ant and Ladybug) of
//! spec/rules.md.
//!
//! Every test pins one rule point and says where its position came from: a
//! position quoted in spec/rules.md (named by its clause), a point of
//! `spec/sources/rules-notes.md`, or "constructed for this test" (always with a full
//! legal history, which the loader checks). Expected move sets were derived
//! by hand from the rule text and cross-checked with an independent
//! throw-away implementation of the movement rules, never copied from the
//! engine.
//!
//! Diagrams draw one label per cell, each row shifted half a cell to the
//! right of the row above (pointy-top hexes, §2.2). `X^n` is a stack of
//! height n with X on top; `*` marks a destination of the piece under test,
//! `x` a cell it may not reach, `.` another empty cell of interest; other
//! letters are explained beside the diagram.
//!
//! The movement rules are cases in `tests/cases/movement.toml` and the
//! files of the bugs; here remain the tests that `spec/rulings.md` names
//! and what the case vocabulary cannot say (a move listed once, spellings
//! of one move, properties of whole move lists and of random games, stack
//! heights), each run on both engines (`tests/engines/`).

use crate::engines;

use std::collections::BTreeSet;

use engines::*;
use hive_oracle_rules::core::notation::parse_piece;
use hive_oracle_rules::core::{Bug, Color, GameType, Hex, Move, RulesOptions};
use hive_oracle_rules::rules::Rules;

// ---------------------------------------------------------------------------
// Helpers local to this file
// ---------------------------------------------------------------------------

/// How many entries of the engine's move list (a list, not a set) are the
/// move named by `text`.
fn occurrences<R: Rules>(g: &R, text: &str) -> usize {
    let mv = g
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text:?} does not resolve: {e}"));
    g.legal_moves().into_iter().filter(|&m| m == mv).count()
}

/// Asserts that the engine's move list names no move twice (§5.9).
fn assert_no_duplicate_moves<R: Rules>(g: &R) {
    let list = g.legal_moves();
    let set: BTreeSet<Move> = list.iter().copied().collect();
    assert_eq!(
        list.len(),
        set.len(),
        "a move is listed twice in {}",
        g.game_string()
    );
}

/// Asserts that every spelling names the same move.
fn assert_same_move<R: Rules>(g: &R, spellings: &[&str]) {
    let resolved = moves(g, spellings);
    assert_eq!(
        resolved.len(),
        1,
        "{spellings:?} should all name one move in {}",
        g.game_string()
    );
}

// ---------------------------------------------------------------------------
// §5.1 What a movement is
// ---------------------------------------------------------------------------

on_both_engines! {
    /// A player moves only pieces of their own colour that are on top of their
    /// stack (§5.1). Position: constructed for this test.
    /// Black to move: Black may not move the white pieces (`wA1 \wQ`,
    /// `wQ \wS1`), and every movement offered moves a black top piece.
    ///
    /// ```text
    /// wA1   wQ    wS1   bS1   bQ
    /// ```
    fn movement_only_of_own_top_piece(R) {
        // §5.1
        let g = game::<R>(r"Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ");
        // wA1 was placed on the previous turn (§5.10) as well, but the first rule
        // it breaks is that it is not Black's piece.
        assert_illegal(&g, r"wA1 \wQ", "§5.1");
        assert_illegal(&g, r"wQ \wS1", "§5.1");
        assert_illegal(&g, r"wS1 \wQ", "§5.1");
        assert_piece_moves(&g, "wA1", &[]);
        assert_piece_moves(&g, "wQ", &[]);
        assert_piece_moves(&g, "bQ", &[r"bQ bS1/", r"bQ bS1\"]);
        let mut movements = 0;
        for mv in legal(&g) {
            if let Move::Move { piece, .. } = mv {
                movements += 1;
                assert_eq!(
                    piece.color,
                    Color::Black,
                    "{} moves a white piece",
                    g.move_string(mv)
                );
                let at = g.location(piece).expect("a moved piece is on the board");
                assert_eq!(
                    g.stack(at).last(),
                    Some(&piece),
                    "{} moves a covered piece",
                    g.move_string(mv)
                );
            }
        }
        assert!(movements > 0, "Black has movements in this position");
    }
}

// ---------------------------------------------------------------------------
// §5.10 Immunity of the piece last moved
// ---------------------------------------------------------------------------

on_both_engines! {
    /// A thrown piece cannot move on its owner's next turn (§5.10, with §6.8.7:
    /// the thrown piece, not the pillbug, is the piece moved). Position: the
    /// §5.10 example of spec/rules.md after `bS1 wP\`. `bS1`, now at (0,1),
    /// would otherwise slide or be free to move; Black's queen may still move
    /// to the cells `*`.
    ///
    /// ```text
    ///          *     bQ
    /// wA1   wQ    wP    *
    ///                bS1
    /// ```
    fn thrown_piece_is_frozen_next_turn(R) {
        // §5.10
        let g = game::<R>(
            r"Base+P;InProgress;Black[4];wP;bS1 wP-;wQ -wP;bQ bS1/;wA1 -wQ;bQ \bS1;bS1 wP\",
        );
        assert_piece_moves(&g, "bS1", &[]);
        assert_illegal(&g, r"bS1 /wP", "§5.10");
        assert_piece_moves(&g, "bQ", &[r"bQ \wP", r"bQ bS1/"]);
    }
}

on_both_engines! {
    /// Whether a just-placed piece counts as immune is unobservable (§5.10,
    /// rulings.md#just-placed-immunity): after every placement, in random legal
    /// games of Base+MLP with the tournament opening on and off, no legal move
    /// moves or throws the placed piece, and no pillbug or mosquito of the side
    /// to move that could act (its queen placed) is on top of a stack next to it,
    /// so no throw of it would exist even without immunity. Constructed for this
    /// test (fixed seeds).
    fn immunity_of_placed_piece_is_unobservable(R) {
        // §5.10
        let mut placements = 0;
        for options in [
            RulesOptions::default(),
            RulesOptions {
                tournament_opening: false,
                ..RulesOptions::default()
            },
        ] {
            for seed in 1..=6 {
                random_game::<R>(GameType::BASE_MLP, options, seed, 120, |g, mv| {
                    let Move::Place { piece, to } = mv else {
                        return;
                    };
                    placements += 1;
                    let side = g.side_to_move();
                    assert!(
                        legal(g).into_iter().all(|m| m.piece() != Some(piece)),
                        "the just-placed {piece} can be moved in {}",
                        g.game_string()
                    );
                    let queen = parse_piece(&format!("{}Q", side.letter())).expect("queen name");
                    if g.location(queen).is_none() {
                        return; // §4.3 the side to move cannot use any ability yet
                    }
                    for n in to.neighbours() {
                        if let Some(top) = g.stack(n).last() {
                            assert!(
                                top.color != side
                                    || !matches!(top.bug, Bug::Pillbug | Bug::Mosquito),
                                "{top} could reach the just-placed {piece} in {}",
                                g.game_string()
                            );
                        }
                    }
                });
            }
        }
        assert!(
            placements > 50,
            "the random games made only {placements} placements"
        );
    }
}

// ---------------------------------------------------------------------------
// §5.9 Move identity
// ---------------------------------------------------------------------------

on_both_engines! {
    /// A throw and an ordinary move of the same piece to the same cell are one
    /// move, listed once (§5.9). Position: constructed for this
    /// test. `wQ` steps to the cells `s`, is thrown by `wP` to the
    /// cells `t` and to (1,-1), which it also reaches by stepping (the `s` right of
    /// it).
    ///
    /// ```text
    /// s     wQ    s
    ///    wA1   wP    bS1   bQ    bA1
    ///       t     t
    /// ```
    fn throw_and_walk_to_same_cell_listed_once(R) {
        // §5.9
        let g = game::<R>(r"Base+P;InProgress;White[4];wP;bS1 wP-;wQ \wP;bQ bS1-;wA1 -wP;bA1 bQ-");
        assert_piece_moves(&g, "wQ", &[r"wQ \bS1", r"wQ \wA1", r"wQ wA1\", r"wQ wP\"]);
        assert_eq!(occurrences(&g, r"wQ \bS1"), 1);
        assert_same_move(&g, &[r"wQ \bS1", r"wQ wQ-", r"wQ wP/"]);
        assert_no_duplicate_moves(&g);
    }
}

on_both_engines! {
    /// Different paths to one cell are one move (§5.9, §6.4.1). Constructed for
    /// this test: the spider `wS1` reaches `D` by two walks, a-b-D and a-c-D, and
    /// `D` is listed once; its moves are exactly `D` and the two cells `*`. Then,
    /// in random legal games of Base+MLP (fixed seeds), no move list names a
    /// (piece, destination) twice.
    ///
    /// ```text
    ///                       *
    ///        wS1   wQ    wG3
    ///           a     b     wG2
    ///  *     wA2   c     D     wG1   bS1   bQ    bB1
    ///           wA1   wB2   wB1
    /// ```
    fn spider_paths_to_same_cell_are_one_move(R) {
        // §5.9, §6.4.1
        let g = game::<R>(
            r"Base;InProgress;White[10];wG1;bS1 wG1-;wG2 \wG1;bQ bS1-;wG3 \wG2;bB1 bQ-;wQ -wG3;bB1 bQ;wB1 /wG1;bB1 bQ-;wB2 -wB1;bB1 bQ;wA1 -wB2;bB1 bQ-;wA2 \wA1;bB1 bQ;wS1 -wQ;bB1 bQ-",
        );
        assert_piece_moves(&g, "wS1", &[r"wS1 /wG2", r"wS1 -wA2", r"wS1 wG3/"]);
        assert_eq!(occurrences(&g, r"wS1 /wG2"), 1);
        assert_same_move(&g, &[r"wS1 /wG2", r"wS1 -wG1", r"wS1 \wB1", r"wS1 wB2/"]);
        assert_no_duplicate_moves(&g);
        let mut positions = 0;
        for seed in 11..=16 {
            random_game::<R>(
                GameType::BASE_MLP,
                RulesOptions::default(),
                seed,
                100,
                |g, _| {
                    positions += 1;
                    assert_no_duplicate_moves(g);
                },
            );
        }
        assert!(positions > 100);
    }
}

// ---------------------------------------------------------------------------
// Beetle (§6.2.1 to §6.2.3)
// ---------------------------------------------------------------------------

on_both_engines! {
    /// A beetle may climb onto a stack of any height, here height 2 and then 3,
    /// higher than the beetle itself (§6.2.3; rulings.md#climbing-taller-stacks,
    /// overruling spec/sources/rule-text-000-stones-summary-with-expansions.txt
    /// "cannot climb onto a stack that is higher than itself"). Position:
    /// constructed for this test:
    /// the stack at (1,0) is `wS1`, `bB1`, `wB2` bottom to top; its
    /// common neighbours with `wB1`'s cell hold the single pieces `wQ` and `wG1`.
    ///
    /// ```text
    ///    wQ
    /// wB1   wB2^3 bS1   bQ
    ///    wG1
    /// ```
    fn beetle_climbs_taller_stack(R) {
        // §6.2.3
        let two = r"Base;InProgress;White[6];wS1;bS1 wS1-;wB1 -wS1;bQ bS1-;wQ \wS1;bB1 \bQ;wG1 wB1\;bB1 \bS1;wB2 -wQ;bB1 wS1";
        let g = game::<R>(two);
        assert_legal(&g, r"wB1 bB1");
        let g = game::<R>(&format!(r"{two};wB2 wQ;bQ bS1/;wB2 bB1;bQ bS1-"));
        assert_eq!(
            g.stack(g.location(parse_piece("wB2").unwrap()).unwrap())
                .len(),
            3
        );
        assert_piece_moves(
            &g,
            "wB1",
            &[r"wB1 wB2", r"wB1 wQ", r"wB1 wG1", r"wB1 -wQ", r"wB1 -wG1"],
        );
    }
}

/// §6.4.1: a spider's refusal lists the walks it has, six of them, and
/// counts the rest ("and 2 more walks") rather than dropping them: a reader
/// told "too far" sees how many walks were weighed. `wS2` stands in a bay of
/// the hive where its three-step walks branch into eight. Position found by
/// a seeded random playout of the reference engine (Base, 38 plies).
#[test]
fn a_spider_with_more_walks_than_shown_says_how_many_more() {
    let verdict = crate::common::verdict_on(
        r"Base;InProgress;White[19];wA1;bS1 \wA1;wQ wA1\;bB1 \bS1;wS1 wQ-;bA1 -bB1;wS2 \wS1;bQ /bA1;wG1 wQ\;bA2 bA1\;wG2 wS1\;bA1 bB1/;wG3 wS2/;bS2 /bQ;wB1 wG3\;bB2 bS2\;wB2 wB1/;bA1 \wB2;wG3 /wQ;bG1 \bB1;wA2 wG1\;bA1 \wS2;wA1 -bG1;bA3 bB2-;wA1 -bQ;bA3 bQ\;wA1 bA1/;bB2 bA3\;wA1 bG1/;bS2 bB2\;wA2 wG2-;bA1 bS2\;wA2 wG3\;bA1 wA1-;wB2 \wB1;bG2 bA1-",
        r"wS2 wG1\",
    );
    assert!(!verdict.legal);
    let shown = verdict
        .facts
        .iter()
        .filter(|fact| fact.text.starts_with("a walk the spider has: "))
        .count();
    assert_eq!(shown, 6, "{:?}", verdict.facts);
    assert!(
        verdict
            .facts
            .iter()
            .any(|fact| fact.text == "and 2 more walks"),
        "{:?}",
        verdict.facts
    );
}

/// §5.5: a gate is shown by its two flanks: the fact that refuses a gated
/// walk marks the two occupied cells the step passes between (what the
/// picture and the web page highlight), not any other cell. The position is
/// the case `spider.toml::spider-cannot-slide-through-a-gate`: `wS2`'s way to
/// (-1, 1) starts between `wS1` at (-3, 2) and `wQ` at (-2, 0).
#[test]
fn a_gated_step_is_shown_by_its_two_flanks() {
    let verdict = crate::common::verdict_on(
        r"Base;InProgress;White[10];wG1;bS1 wG1/;wG2 -wG1;bQ bS1/;wQ -wG2;bB1 bQ/;wG3 wG1\;bB1 bQ;wB1 /wG3;bB1 bQ/;wB2 /wB1;bB1 bQ;wA1 -wB2;bB1 bQ/;wS1 \wA1;bB1 bQ;wS2 /wQ;bB1 bQ/",
        "wS2 /wG1",
    );
    assert!(!verdict.legal);
    let gate = verdict
        .facts
        .iter()
        .find(|fact| fact.clauses.contains(&"§5.5"))
        .expect("the gate's fact");
    let mut cells = gate.cells.clone();
    cells.sort();
    let mut flanks = vec![Hex::new(-3, 2), Hex::new(-2, 0)];
    flanks.sort();
    assert_eq!(cells, flanks, "{gate:?}");
}

// ---------------------------------------------------------------------------
// Ladybug (§6.6.1 to §6.6.6)
// ---------------------------------------------------------------------------

/// §6.3.1: the explanation of a grasshopper's jump carries its path, the
/// jumper's cell, every cell jumped over and the landing, so that a picture
/// (and the web page) draws the whole line. Made-up position: wG1 at the
/// west end of a row of six (wQ, wS1, bS1, bQ, bG1), jumping east over five.
#[test]
fn a_grasshopper_jump_is_explained_with_its_whole_line() {
    use hive_oracle_rules::core::BoardView;
    use hive_oracle_rules::reference::ReferenceEngine;
    let game = ReferenceEngine::load(
        "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 -wQ;bG1 bQ-",
    )
    .expect("the position loads");
    let mv = game.parse_move("wG1 bG1-").expect("the move reads");
    let Move::Move { to, .. } = mv else {
        panic!("a movement: {mv:?}")
    };
    let from = game
        .location(parse_piece("wG1").expect("a piece"))
        .expect("on the board");
    let verdict = hive_oracle_rules::explain::verdict(&game, mv);
    assert!(verdict.legal);
    let jump = verdict
        .facts
        .iter()
        .find(|f| f.clauses.contains(&"§6.3.1"))
        .expect("the jump's fact");
    assert_eq!(jump.path.len(), 7, "{jump:?}");
    assert_eq!(jump.path.first(), Some(&from));
    assert_eq!(jump.path.last(), Some(&to));
    assert!(
        jump.path.windows(2).all(|w| w[0].is_adjacent(w[1])),
        "{jump:?}"
    );
}
