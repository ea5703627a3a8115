//! Rule tests for chapter 5 (movement in general) and §6.1 to §6.6.3 (the
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

mod common;

use std::collections::BTreeSet;

use common::*;
use hive_oracle::core::notation::parse_piece;
use hive_oracle::core::{BoardView, Bug, Color, GameType, Move, RulesOptions};
use hive_oracle::reference::ReferenceEngine;
use hive_oracle::rules::Rules;

// ---------------------------------------------------------------------------
// Helpers local to this file
// ---------------------------------------------------------------------------

/// How many entries of the engine's move list (a list, not a set) are the
/// move named by `text`.
fn occurrences(g: &ReferenceEngine, text: &str) -> usize {
    let mv = g
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text:?} does not resolve: {e}"));
    g.legal_moves().into_iter().filter(|&m| m == mv).count()
}

/// Asserts that the engine's move list names no move twice (§5.9).
fn assert_no_duplicate_moves(g: &ReferenceEngine) {
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
fn assert_same_move(g: &ReferenceEngine, spellings: &[&str]) {
    let resolved = moves(g, spellings);
    assert_eq!(
        resolved.len(),
        1,
        "{spellings:?} should all name one move in {}",
        g.game_string()
    );
}

/// Plays `text` (which must be legal) on a copy of the game.
fn after(g: &ReferenceEngine, text: &str) -> ReferenceEngine {
    let mut next = g.clone();
    let mv = g
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text:?} does not resolve: {e}"));
    next.play(mv)
        .unwrap_or_else(|e| panic!("{text} should be legal: {e}"));
    next
}

// ---------------------------------------------------------------------------
// §5.1 What a movement is
// ---------------------------------------------------------------------------

/// A player moves only pieces of their own colour that are on top of their
/// stack (§5.1). Position: constructed for this test.
/// Black to move: Black may not move the white pieces (`wA1 \wQ`,
/// `wQ \wS1`), and every movement offered moves a black top piece.
///
/// ```text
/// wA1   wQ    wS1   bS1   bQ
/// ```
#[test]
fn movement_only_of_own_top_piece() {
    // §5.1
    let g = game(r"Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ");
    // wA1 was placed on the previous turn (§5.8) as well, but the first rule
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

// ---------------------------------------------------------------------------
// §5.2 Covered pieces are frozen
// ---------------------------------------------------------------------------

/// A beetle may climb onto another beetle; then both pieces below it are
/// frozen, even the queen at the end of the line that would otherwise be free
/// to slide (§5.2, §6.2.1). Constructed for this test: `wB1` climbed onto
/// `wQ`, then `wB2` onto `wB1`. Only `wB2` moves: down to any of the five
/// empty neighbours of the stack or across onto `wS1`.
///
/// ```text
/// wB2^3 wS1   bS1   bQ    bS2   bG1
///                      bA1   bG2
/// ```
#[test]
fn beetle_on_beetle_freezes_the_pieces_below() {
    // §5.2, §6.2.1
    let g = game(
        r"Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \wQ;bS2 bQ-;wB1 wQ;bA1 bQ\;wB2 -wB1;bG1 bS2-;wB2 wB1;bG2 bS2\",
    );
    assert_piece_moves(&g, "wQ", &[]);
    assert_piece_moves(&g, "wB1", &[]);
    assert_illegal(&g, r"wQ /wS1", "§5.2");
    assert_illegal(&g, r"wB1 wS1", "§5.2");
    assert_piece_moves(
        &g,
        "wB2",
        &[
            r"wB2 -wB1",
            r"wB2 /wB1",
            r"wB2 \wB1",
            r"wB2 \wS1",
            r"wB2 wB1\",
            r"wB2 wS1",
        ],
    );
}

// ---------------------------------------------------------------------------
// §5.3 One Hive
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// §5.4 Constant contact
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// §5.5 Freedom to move on the ground
// ---------------------------------------------------------------------------

/// A ground step between two occupied cells is a gate (§5.5): the ant `wA1`
/// cannot enter the pocket `P`, whose only open side `.` leads in between
/// `wS2` and `wB1`. Position: the §5.5 example of spec/rules.md. The
/// refusal names the gate (§5.5) beside the ant's clause (§6.5).
///
/// ```text
///                                              wG3
/// bB1   bA3   bA2   bA1   bG2   bQ    bS1   wS1   wQ    wG1
///                            bG1               wG2   P     wB1
///                                           wA1   wS2
///                                                    .
/// ```
#[test]
fn ground_gate_blocks_slide() {
    // §5.5, §6.5
    let g = game(POCKET);
    assert_illegal(&g, r"wA1 wQ\", "§5.5");
    assert!(legal(&g).contains(&g.parse_move(r"wA1 wS2-").expect("the mouth cell")));
    assert!(!legal_for(&g, "wA1").contains(&g.parse_move(r"wA1 wQ\").expect("the pocket")));
}

/// The §5.5 pocket position of spec/rules.md (see `ground_gate_blocks_slide`).
const POCKET: &str = r"Base;InProgress;White[9];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wG1 wQ-;bG1 /bQ;wG2 wS1\;bG2 -bQ;wB1 wG1\;bA1 -bG2;wS2 wG2\;bA2 -bA1;wG3 wS1/;bA3 -bA2;wA1 -wS2;bB1 -bA3";

/// Freedom to move is judged step by step with the mover lifted (§5.5,
/// §5.4): the pocket `P` has five occupied neighbours, so no piece from
/// outside can slide in (the ant `wA1` cannot reach it), but the queen and
/// the beetle that form its two open ends can, because with the mover
/// lifted the step from its own cell into `P` has one free common neighbour,
/// the mouth `.`. Constructed for this test.
///
/// ```text
///              wA1   *
///                 wS2   wQ
/// bB1^2 bS1   wS1   P     .
///                 wB1   wB2
/// ```
#[test]
fn wall_piece_may_slide_into_the_pocket_it_bounds() {
    // §5.5, §6.1, §6.2.1, §6.5
    let g = game(
        r"Base;InProgress;White[7];wS1;bS1 -wS1;wS2 wS1/;bQ -bS1;wQ wS2-;bB1 -bQ;wB1 wS1\;bB1 bQ;wB2 wB1-;bB1 -bQ;wA1 \wS2;bB1 bQ",
    );
    assert_piece_moves(&g, "wQ", &[r"wQ wS2\", r"wQ wS2/"]);
    assert_piece_moves(&g, "wB2", &[r"wB2 wS2\", r"wB2 wB1", r"wB2 wB1\"]);
    assert_illegal(&g, r"wA1 wS2\", "§6.5");
    assert!(legal_for(&g, "wA1").contains(&g.parse_move(r"wA1 wQ\").expect("the mouth")));
}

// ---------------------------------------------------------------------------
// §5.6 Freedom to move at height
// ---------------------------------------------------------------------------

/// A step is blocked when both common neighbours are higher than both of its
/// ends, min(L, R) > max(h(a), h(b)) (§5.6). Position: the §5.6 example of
/// spec/rules.md, constructed for this test (`wA1` under `bB1` at (1,-1),
/// `bA1` under `wB2` at (0,1)). `wB1` on `wS1` (h(a) = 1) may not step onto
/// `bS1` (h(b) = 1) between the two stacks of height 2, but may climb onto
/// either stack, step onto `wQ` or drop to the cells `*`. With `bB2` on top
/// of `bS1` (h(b) = 2) the same step is allowed (2 > 2 is false).
///
/// ```text
///    *     bB1^2 bB2           then `wG1 -wQ; bB2 bS1`:
/// wQ    wB1^2 bS1   bQ               *     bB1^2
///    *     wB2^2               wG1   wQ    wB1^2 bB2^2 bQ
///                                       *     wB2^2
/// ```
#[test]
fn height_gate_blocks_step_between_taller_stacks() {
    // §5.6
    let before = r"Base;InProgress;White[10];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \wQ;bA1 bQ-;wA1 \bS1;bA1 wS1\;wB1 -wA1;bB1 bQ/;wB1 wS1;bB1 \bQ;wB2 /wQ;bB1 wA1;wB2 wQ\;bB2 bQ/;wB2 bA1;bB2 \bQ";
    let g = game(before);
    assert_illegal(&g, r"wB1 bS1", "§5.6");
    assert_piece_moves(
        &g,
        "wB1",
        &[r"wB1 bB1", r"wB1 wB2", r"wB1 wQ", r"wB1 -bB1", r"wB1 wQ\"],
    );
    let g = game(&format!("{before};wG1 -wQ;bB2 bS1"));
    assert_piece_moves(
        &g,
        "wB1",
        &[
            r"wB1 bB1",
            r"wB1 wB2",
            r"wB1 bB2",
            r"wB1 wQ",
            r"wB1 -bB1",
            r"wB1 wQ\",
        ],
    );
}

/// The height gate also binds a beetle on top of the hive, and a beetle as
/// high as the gate passes over it (§5.6, §6.2.2). Constructed for this
/// test. First `wB1` on `wS1` (h(a) = 1) cannot come down to the empty cell
/// `x` between the stacks `bB1^2` and `bB2^2` (min(2, 2) = 2 > max(1, 0));
/// then `wB2` climbs onto `wB1`, and from height 3 (h(a) = 2) the same drop
/// to `x` is allowed (2 > 2 is false).
///
/// ```text
///                *     bB1^2 bQ
/// wG2   wG1   wQ    wB1^2 x
///                *     bB2^2
/// ```
#[test]
fn beetle_as_high_as_the_gate_passes_over_it() {
    // §5.6, §6.2.2
    let low = r"Base;InProgress;White[8];wS1;bS1 wS1/;wQ -wS1;bQ bS1-;wB1 wQ\;bB1 \bQ;wS2 wS1\;bB2 bQ\;wB1 wS1;bB1 bS1;wG1 -wQ;bB2 bB1\;wG2 -wG1;bB2 wS2";
    let g = game(low);
    assert_illegal(&g, r"wB1 bB1\", "§5.6");
    assert_piece_moves(
        &g,
        "wB1",
        &[r"wB1 -bB1", r"wB1 bB1", r"wB1 bB2", r"wB1 wQ", r"wB1 wQ\"],
    );
    let g = game(&format!(
        r"{low};wB2 wG1\;bA1 bQ-;wB2 wQ\;bA2 \bA1;wB2 wB1;bA3 bA1/"
    ));
    assert_piece_moves(
        &g,
        "wB2",
        &[
            r"wB2 bB1\",
            r"wB2 -bB1",
            r"wB2 bB1",
            r"wB2 bB2",
            r"wB2 wQ",
            r"wB2 wQ\",
        ],
    );
    assert_piece_moves(&g, "wB1", &[]);
}

// ---------------------------------------------------------------------------
// §5.7 A move ends elsewhere
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// §5.8 Immunity of the piece last moved
// ---------------------------------------------------------------------------

/// A thrown piece cannot move on its owner's next turn (§5.8, with §6.8.7:
/// the thrown piece, not the pillbug, is the piece moved). Position: the
/// §5.8 example of spec/rules.md after `bS1 wP\`. `bS1`, now at (0,1),
/// would otherwise slide or be free to move; Black's queen may still move
/// to the cells `*`.
///
/// ```text
///          *     bQ
/// wA1   wQ    wP    *
///                bS1
/// ```
#[test]
fn thrown_piece_is_frozen_next_turn() {
    // §5.8
    let g = game(r"Base+P;InProgress;Black[4];wP;bS1 wP-;wQ -wP;bQ bS1/;wA1 -wQ;bQ \bS1;bS1 wP\");
    assert_piece_moves(&g, "bS1", &[]);
    assert_illegal(&g, r"bS1 /wP", "§5.8");
    assert_piece_moves(&g, "bQ", &[r"bQ \wP", r"bQ bS1/"]);
}

/// Whether a just-placed piece counts as immune is unobservable (§5.8,
/// rulings.md#just-placed-immunity): after every placement, in random legal
/// games of Base+MLP with the tournament opening on and off, no legal move
/// moves or throws the placed piece, and no pillbug or mosquito of the side
/// to move that could act (its queen placed) is on top of a stack next to it,
/// so no throw of it would exist even without immunity. Constructed for this
/// test (fixed seeds).
#[test]
fn immunity_of_placed_piece_is_unobservable() {
    // §5.8
    let mut placements = 0;
    for options in [
        RulesOptions::default(),
        RulesOptions {
            tournament_opening: false,
            ..RulesOptions::default()
        },
    ] {
        for seed in 1..=6 {
            random_game(GameType::BASE_MLP, options, seed, 120, |g, mv| {
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
                            top.color != side || !matches!(top.bug, Bug::Pillbug | Bug::Mosquito),
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

// ---------------------------------------------------------------------------
// §5.9 Move identity
// ---------------------------------------------------------------------------

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
#[test]
fn throw_and_walk_to_same_cell_listed_once() {
    // §5.9
    let g = game(r"Base+P;InProgress;White[4];wP;bS1 wP-;wQ \wP;bQ bS1-;wA1 -wP;bA1 bQ-");
    assert_piece_moves(&g, "wQ", &[r"wQ \bS1", r"wQ \wA1", r"wQ wA1\", r"wQ wP\"]);
    assert_eq!(occurrences(&g, r"wQ \bS1"), 1);
    assert_same_move(&g, &[r"wQ \bS1", r"wQ wQ-", r"wQ wP/"]);
    assert_no_duplicate_moves(&g);
}

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
#[test]
fn spider_paths_to_same_cell_are_one_move() {
    // §5.9, §6.4.1
    let g = game(
        r"Base;InProgress;White[10];wG1;bS1 wG1-;wG2 \wG1;bQ bS1-;wG3 \wG2;bB1 bQ-;wQ -wG3;bB1 bQ;wB1 /wG1;bB1 bQ-;wB2 -wB1;bB1 bQ;wA1 -wB2;bB1 bQ-;wA2 \wA1;bB1 bQ;wS1 -wQ;bB1 bQ-",
    );
    assert_piece_moves(&g, "wS1", &[r"wS1 /wG2", r"wS1 -wA2", r"wS1 wG3/"]);
    assert_eq!(occurrences(&g, r"wS1 /wG2"), 1);
    assert_same_move(&g, &[r"wS1 /wG2", r"wS1 -wG1", r"wS1 \wB1", r"wS1 wB2/"]);
    assert_no_duplicate_moves(&g);
    let mut positions = 0;
    for seed in 11..=16 {
        random_game(
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

// ---------------------------------------------------------------------------
// §6.1 Queen Bee
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// Beetle (§6.2.1 to §6.2.3)
// ---------------------------------------------------------------------------

/// A beetle moves one cell in any direction: up onto a stack, across the top,
/// or down to an empty cell (§6.2.1). Position: constructed
/// for this test (the §2.4 example history one ply early, Black to move). On the ground
/// `bB1` may climb onto `wS1` or `bS1` or slide to the two cells beside them;
/// after `bB1 wS1` and `wG2 bQ-` it may go across onto `wQ` or `bS1` or down to
/// any of the four empty neighbours of its cell, but not two cells away.
///
/// ```text
///                             bB1
/// wG2   wA1   wG1   wQ    wS1   bS1   bQ
/// ```
#[test]
fn beetle_climbs_and_descends() {
    // §6.2.1
    let start = r"Base;InProgress;Black[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 -wQ;bB1 \bQ;wA1 -wG1;bB1 \bS1;wG2 -wA1";
    let g = game(start);
    assert_piece_moves(
        &g,
        "bB1",
        &[r"bB1 wS1", r"bB1 bS1", r"bB1 \wS1", r"bB1 \bQ"],
    );
    let g = game(&format!("{start};bB1 wS1;wG2 bQ-"));
    assert_piece_moves(
        &g,
        "bB1",
        &[
            r"bB1 wQ",
            r"bB1 bS1",
            r"bB1 \wS1",
            r"bB1 \bS1",
            r"bB1 wS1\",
            r"bB1 wQ\",
        ],
    );
    assert_illegal(&g, r"bB1 bQ", "§6.2.1");
    assert_illegal(&g, r"bB1 -wQ", "§6.2.1");
}

/// A beetle obeys the height gate while climbing (§6.2.2, §5.6;
/// rulings.md#beetle-height-gates). Position: the §6.2.2 example of
/// spec/rules.md, constructed for this test. `wB1` on the ground at (0,0)
/// may not climb onto `bS1` between the stacks `bB1^2` and `wB2^2`
/// (min(2, 2) = 2 > max(0, 1)); earlier in the same game, when (1,-1) and
/// (0,1) held the single pieces `wA1` and `bA1`, the climb was legal.
///
/// ```text
/// climb refused             climb allowed
/// wQ    bB1^2               wQ    wA1
///    wB1   bS1   bQ            wB1   bS1   bQ
///       wB2^2                     bA1
/// ```
#[test]
fn beetle_obeys_height_gate() {
    // §6.2.2, §5.6
    let early =
        r"Base;InProgress;White[5];wB1;bS1 wB1-;wQ \wB1;bQ bS1-;wA1 /wQ;bA1 bQ-;wA1 \bS1;bA1 wB1\";
    let g = game(early);
    assert_legal(&g, r"wB1 bS1");
    assert_piece_moves(
        &g,
        "wB1",
        &[
            r"wB1 bS1",
            r"wB1 wA1",
            r"wB1 bA1",
            r"wB1 wQ",
            r"wB1 -bA1",
            r"wB1 /wQ",
        ],
    );
    let g = game(&format!(
        r"{early};wB2 /wQ;bB1 bQ/;wB2 /wB1;bB1 \bQ;wB2 bA1;bB1 wA1"
    ));
    assert_illegal(&g, r"wB1 bS1", "§6.2.2");
    assert_piece_moves(
        &g,
        "wB1",
        &[r"wB1 bB1", r"wB1 wB2", r"wB1 wQ", r"wB1 -wB2", r"wB1 /wQ"],
    );
}

/// On the ground a beetle's step between two ground cells is a ground step: it
/// cannot slide through a gate, though it may climb onto either side of it
/// (§6.2.2, §6.2.1, §5.5). Position: constructed for this
/// test: `wB1` at (0,0) may not step to `x` between `wQ` and `bQ`;
/// its moves are the five climbs.
///
/// ```text
///    wG1   wQ
/// bA1   wB1   x
///    wA1   bQ
/// ```
#[test]
fn beetle_cannot_slide_through_ground_gate() {
    // §6.2.2, §6.2.1, §5.5
    let g = game(
        r"Base;InProgress;White[7];wB1;bA1 -wB1;wG1 wB1\;bQ /bA1;wQ wB1/;bQ bA1\;wG1 -wQ;bQ wB1\;wA1 \wQ;bQ wQ\;wA1 bA1\;bQ wB1\",
    );
    assert_illegal(&g, r"wB1 wQ\", "§6.2.2");
    assert_piece_moves(
        &g,
        "wB1",
        &[r"wB1 wQ", r"wB1 bQ", r"wB1 wG1", r"wB1 bA1", r"wB1 wA1"],
    );
}

/// A beetle on top of the hive may drop into a hole that no ground piece can
/// enter: with single pieces on both sides, min(1, 1) = 1 is not greater than
/// max(h(a), h(b)) = 1 (§6.2.2, §5.6; rulings.md#beetle-height-gates,
/// spec/sources/rule-text-004-illustrated-summary-sheet.txt: "Can drop down
/// into any space"). Position: constructed for this test: `wB1` on `wS1` may
/// drop into the enclosed cell `*`.
///
/// ```text
///    wQ    wA1
/// wB1^2 *     bA1
///    bS1   bQ
/// ```
#[test]
fn beetle_drops_into_pocket_from_height() {
    // §6.2.2, §5.6
    let g = game(
        r"Base;InProgress;White[6];wS1;bS1 wS1\;wQ wS1/;bQ bS1-;wB1 -wS1;bA1 bQ-;wB1 wS1;bA1 bQ\;wA1 wQ-;bA1 wA1\",
    );
    assert_legal(&g, r"wB1 wQ\");
    assert_piece_moves(
        &g,
        "wB1",
        &[
            r"wB1 wQ\",
            r"wB1 wQ",
            r"wB1 bS1",
            r"wB1 -wQ",
            r"wB1 -wS1",
            r"wB1 /wS1",
        ],
    );
}

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
#[test]
fn beetle_climbs_taller_stack() {
    // §6.2.3
    let two = r"Base;InProgress;White[6];wS1;bS1 wS1-;wB1 -wS1;bQ bS1-;wQ \wS1;bB1 \bQ;wG1 wB1\;bB1 \bS1;wB2 -wQ;bB1 wS1";
    let g = game(two);
    assert_legal(&g, r"wB1 bB1");
    let g = game(&format!(r"{two};wB2 wQ;bQ bS1/;wB2 bB1;bQ bS1-"));
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

// ---------------------------------------------------------------------------
// Grasshopper (§6.3.1 to §6.3.3)
// ---------------------------------------------------------------------------

/// A grasshopper must jump over at least one piece: a step to an adjacent
/// empty cell is no move (§6.3.2). Position: the §6.3.2 example of
/// spec/rules.md; none of the five empty neighbours of `wG2` is a move.
#[test]
fn grasshopper_needs_a_piece_to_jump() {
    // §6.3.2
    let g = game(
        r"Base;InProgress;White[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 -wQ;bB1 \bQ;wA1 -wG1;bB1 \bS1;wG2 -wA1;bB1 wS1",
    );
    for text in [
        r"wG2 -wG2",
        r"wG2 \wG2",
        r"wG2 wG2/",
        r"wG2 /wG2",
        r"wG2 wG2\",
    ] {
        assert_illegal(&g, text, "§6.3.2");
    }
}

/// A grasshopper jumps into a hole and out of it again, in all six
/// directions, though every sliding step in or out is a gate (§6.3.3,
/// §6.3.1). Constructed for this test: `wG1` jumps over `wS2` into the hole
/// `*`; from there, surrounded, it jumps over each neighbour (and over the
/// whole line to the east).
///
/// ```text
/// before:
///          wS1   wQ
/// wG1   wS2   *     wA1   bS1   bQ    bB1
///          wB2   wB1
///
/// after `wG1 wS1\` and `bB1 bQ`:
///    *           *
///       wS1   wQ
/// *     wS2   wG1   wA1   bS1   bB1^2 *
///       wB2   wB1
///    *           *
/// ```
#[test]
fn grasshopper_jumps_into_and_out_of_a_hole() {
    // §6.3.3, §6.3.1
    let g = game(
        r"Base;InProgress;White[8];wA1;bS1 wA1-;wB1 /wA1;bQ bS1-;wQ \wA1;bB1 bQ-;wS1 -wQ;bB1 bQ;wS2 /wS1;bB1 bQ-;wB2 wS2\;bB1 bQ;wG1 -wS2;bB1 bQ-",
    );
    assert_piece_moves(&g, "wG1", &[r"wG1 wS1\"]);
    let g = after(&after(&g, r"wG1 wS1\"), "bB1 bQ");
    assert_piece_moves(
        &g,
        "wG1",
        &[
            r"wG1 -wS2",
            r"wG1 /wB2",
            r"wG1 \wS1",
            r"wG1 bB1-",
            r"wG1 wB1\",
            r"wG1 wQ/",
        ],
    );
}

// ---------------------------------------------------------------------------
// Spider (§6.4.1 to §6.4.3)
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// §6.5 Soldier Ant
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// Ladybug (§6.6.1 to §6.6.3)
// ---------------------------------------------------------------------------

/// A ladybug may end in an enclosed hole (§6.6.3;
/// rulings.md#ladybug-into-holes). Position: the §6.6.3 example of
/// spec/rules.md: the hole `H` has six white neighbours; `wL` climbs onto
/// the ring, crosses it and drops into `H`.
///
/// ```text
/// bB1   bA3   bA2   bA1   bG2   bQ    bS1   wS1   wQ    wG2
///                            bG1               wG1   H     wA1
///                                                 wA2   wA3   wL
/// ```
#[test]
fn ladybug_drops_into_enclosed_hole() {
    // §6.6.3
    let g = game(
        r"Base+L;InProgress;White[9];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wG1 wS1\;bG1 /bQ;wG2 wQ-;bG2 -bQ;wA1 wG2\;bA1 -bG2;wA2 wG1\;bA2 -bA1;wA3 wA2-;bA3 -bA2;wL wA1\;bB1 -bA3",
    );
    assert_legal(&g, r"wL wQ\");
    assert_piece_moves(
        &g,
        "wL",
        &[
            r"wL wQ\", r"wL /wA2", r"wL /wG1", r"wL \wG2", r"wL wA1-", r"wL wA1/", r"wL wA2\",
            r"wL wA3\", r"wL wG2/",
        ],
    );
}

/// A ladybug never ends on top of the hive nor on its starting cell
/// (§6.6.3, §5.7). Positions: the §6.6.1 example of spec/rules.md, and one
/// constructed for this test where `wL` touches `wQ` and `wS1`, so that
/// up-across-down could bring it back to its start: its eight moves (`*`)
/// leave out the start and every occupied cell.
///
/// ```text
///    *     *     *     *
/// *     wQ    wS1   bS1   bQ    bS2
///    *     wL    *     *
/// ```
#[test]
fn ladybug_cannot_end_on_top_or_start() {
    // §6.6.3, §5.7
    let g = game(r"Base+L;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wL -wQ;bA1 bQ-");
    let wl = parse_piece("wL").unwrap();
    let start = g.location(wl).unwrap();
    for mv in legal_for(&g, "wL") {
        let Move::Move { to, .. } = mv else {
            panic!("wL is on the board")
        };
        assert!(
            g.stack(to).is_empty() && to != start,
            "{} ends on the hive",
            g.move_string(mv)
        );
    }
    let g = game(r"Base+L;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wL /wS1;bS2 bQ-");
    assert_piece_moves(
        &g,
        "wL",
        &[
            r"wL -wQ", r"wL /wQ", r"wL \wQ", r"wL \wS1", r"wL \bS1", r"wL \bQ", r"wL bS1\",
            r"wL wS1\",
        ],
    );
    assert_illegal(&g, r"wL /wS1", "§5.7");
    assert_illegal(&g, r"wL bS1", "§6.6.3");
}
