//! Rule tests for the expansion bugs of spec/rules.md: the Mosquito
//! (§6.7.1 to §6.7.5) and the Pillbug (§6.8.1 to §6.8.8), with the immunity
//! of the piece last moved (§5.8) as it applies to throws.
//!
//! Every position is constructed for its test (with a full legal history)
//! unless a source is named (the sources cited are in `spec/sources/`); a
//! spec example is an example printed under its clause in `spec/rules.md`.
//! Diagrams draw one label per cell, each row shifted half a cell to the
//! right of the row above (pointy-top hexes, §2.2); `.` is an empty cell,
//! `+` an allowed destination, `x` a refused one, `^n` a stack of height n
//! (labelled by its top piece). A "throw" is a use of the pillbug's ability
//! (§6.8.2); `assert_piece_moves` lists the moves of a piece, the throws of it
//! included, so the moves of an enemy piece are exactly its throws.

mod common;

use common::*;
use hive_oracle::rules::Rules;

// ---------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------

/// `wM` has climbed onto `wB1`, next to `bP`.
const MOSQUITO_ON_BEETLE_BY_PILLBUG: &str = r"Base+MP;InProgress;White[6];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wB1 \wA1;bP \bQ;wM -wB1;bP \bA1;wM wB1;bG1 bQ-";

/// `wM` has walked (as an ant) to a cell whose only neighbour is `bP`.
const MOSQUITO_BY_PILLBUG: &str = r"Base+MP;InProgress;White[6];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM \wA1;bP \bQ;wG1 -wQ;bP \bA1;wM bP/;bG1 bA1\";

/// The previous position after `bQ` stepped next to `wM` (and one turn passed).
const MOSQUITO_BY_PILLBUG_AND_QUEEN: &str = r"Base+MP;InProgress;White[8];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM \wA1;bP \bQ;wG1 -wQ;bP \bA1;wM bP/;bG1 bA1\;wG2 -wG1;bQ wM\;wG3 -wG2;bG2 bG1\";

/// From `MOSQUITO_BY_PILLBUG`, Black's `bP` has just thrown `wM`.
const MOSQUITO_JUST_THROWN: &str = r"Base+MP;InProgress;White[7];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM \wA1;bP \bQ;wG1 -wQ;bP \bA1;wM bP/;bG1 bA1\;wG2 -wG1;wM -bP";

/// The previous position one turn later.
const MOSQUITO_THROWN_A_TURN_AGO: &str = r"Base+MP;InProgress;White[8];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM \wA1;bP \bQ;wG1 -wQ;bP \bA1;wM bP/;bG1 bA1\;wG2 -wG1;wM -bP;wG3 -wG2;bG2 bG1\";

/// `bP` has just stepped next to `wM`, which also touches `bA2`.
const MOSQUITO_BY_PILLBUG_JUST_MOVED: &str = r"Base+MP;InProgress;White[7];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM \wA1;bP \bQ;wG1 -wQ;bA2 bQ-;wG2 -wG1;bA2 wM/;wG3 -wG2;bP bA2\";

/// Black's `bP` has just thrown White's `wP` next to `wM`.
const MOSQUITO_BY_PILLBUG_JUST_THROWN: &str = r"Base+MP;InProgress;White[7];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bP \bQ;wP -bP;bG1 bQ\;wG1 -wP;bG2 bG1\;wM \wP;wP \bP";

/// Spec example of §5.8: `bQ` has just moved next to `wP`.
const SPEC_QUEEN_JUST_MOVED: &str =
    r"Base+P;InProgress;White[4];wP;bS1 wP-;wQ -wP;bQ bS1/;wA1 -wQ;bQ \bS1";

/// Position constructed for the §6.8.7 tests: White's `wP`
/// has just thrown `bQ`.
const SPEC_PILLBUG_JUST_THREW: &str = r"Base+P;InProgress;White[4];wP;bP wP-;wQ -wP;bQ bP/;wA1 -wQ;bQ \bP;wA1 wP\;bG1 bP-;wQ /wP;bG2 bG1-;bQ -wP";

/// `bQ` has just stepped next to `wP`; `wQ` can step or be thrown to (-2,1).
const QUEEN_JUST_STEPPED_TO_PILLBUG: &str =
    r"Base+P;InProgress;White[4];wA1;bA1 wA1-;wQ -wA1;bQ bA1\;wP wQ\;bQ wA1\";

/// The previous position two plies later: `bG1` hangs on `bQ` alone.
const QUEEN_HOLDS_GRASSHOPPER: &str =
    r"Base+P;InProgress;White[5];wA1;bA1 wA1-;wQ -wA1;bQ bA1\;wP wQ\;bQ wA1\;wG1 -wQ;bG1 bQ\";

/// `wP` links `wG1` to the hive: it cannot move, `wG1` hangs on it alone.
const PINNED_PILLBUG: &str =
    r"Base+P;InProgress;White[5];wA1;bA1 wA1-;wP -wA1;bQ bA1-;wQ \wA1;bG1 bQ-;wG1 -wP;bG2 bG1-";

/// `wP`'s only empty neighbour is a gate, but `wP` does not link the hive.
const GATED_PILLBUG: &str = r"Base+P;InProgress;White[6];wP;bA1 wP-;wQ -wP;bQ bA1\;wA1 wQ\;bQ wP\;wG1 -wQ;bG1 bQ\;wG2 -wG1;bG1 \wP";

/// `wP` and `bP` side by side; `bA2` has just moved next to `wP`.
const ANT_JUST_MOVED_TO_PILLBUG: &str = r"Base+P;InProgress;White[6];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bP \bQ;wP -bP;bA2 bQ/;wG1 -wQ;bA2 \wP";

/// The previous position after `wP` threw `bA2` next to `bP`.
const ANT_JUST_THROWN: &str = r"Base+P;InProgress;Black[7];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bP \bQ;wP -bP;bA2 bQ/;wG1 -wQ;bA2 \wP;wG2 -wG1;bG1 bQ\;bA2 \bP";

/// The previous position after `bP` threw `wP` to (3,-2).
const PILLBUG_JUST_THROWN: &str = r"Base+P;InProgress;White[8];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bP \bQ;wP -bP;bA2 bQ/;wG1 -wQ;bA2 \wP;wG2 -wG1;bG1 bQ\;bA2 \bP;wP bP/";

/// The previous position one turn later.
const PILLBUG_THROWN_A_TURN_AGO: &str = r"Base+P;InProgress;White[9];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bP \bQ;wP -bP;bA2 bQ/;wG1 -wQ;bA2 \wP;wG2 -wG1;bG1 bQ\;bA2 \bP;wP bP/;wG3 -wG2;bS1 bG1\";

/// `bB1` stands on `wA1`, next to `wP`.
const BEETLE_STACK_BY_PILLBUG: &str = r"Base+P;InProgress;White[7];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bB1 \bQ;wS1 -wP;bB1 \bA1;wG1 /wS1;bB1 wA1;wG2 -wG1;bG1 bQ-";

/// The previous position after `bB1` climbed onto `wP` (and a turn passed).
const PILLBUG_UNDER_BEETLE: &str = r"Base+P;InProgress;White[9];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bB1 \bQ;wS1 -wP;bB1 \bA1;wG1 /wS1;bB1 wA1;wG2 -wG1;bG1 bQ-;wG3 -wG2;bB1 wP;wA2 -wG3;bG2 bG1-";

/// White's third turn: `wP` and `wG1` are on the board, `wQ` is not.
const PILLBUG_BEFORE_QUEEN: &str = r"Base+P;InProgress;White[3];wP;bA1 wP-;wG1 -wP;bQ bA1-";

/// The previous position after White placed `wQ` (and Black replied).
const PILLBUG_AFTER_QUEEN: &str =
    r"Base+P;InProgress;White[4];wP;bA1 wP-;wG1 -wP;bQ bA1-;wQ /wP;bG1 bQ-";

// ---------------------------------------------------------------------------
// Mosquito
// ---------------------------------------------------------------------------

/// A mosquito on top of the hive has no pillbug ability either: on top of
/// `wB1`, next to `bP`, it cannot throw `bP` (which a mosquito on the ground
/// there could), and it moves only as a beetle (§6.7.4, §6.7.5).
/// Constructed for this test.
///
/// ```text
///   .    wM^2   bP    .     .     .
///      wQ   wA1   bA1    bQ   bG1
/// ```
#[test]
fn mosquito_on_stack_cannot_throw() {
    let g = game(MOSQUITO_ON_BEETLE_BY_PILLBUG);
    assert_piece_moves(&g, "bP", &[]);
    assert_piece_moves(
        &g,
        "wM",
        &[
            r"wM \wB1", r"wM \bP", r"wM -wB1", "wM bP", "wM wQ", "wM wA1",
        ],
    );
}

/// A mosquito next to a pillbug takes the pillbug's step and its ability
/// (§6.7.5, §6.8.1, §6.8.2). Constructed for this test. First `wM` touches
/// only `bP` (which cannot be thrown: it holds `wM` to the hive): its moves
/// are the two pillbug steps `+`. Two turns later `bQ` has stepped next to
/// it: `wM` may throw the black queen, or `bP`, to the cells `t` and `+`
/// (§6.8.8), and still steps to the cells `+`.
///
/// ```text
///      .     .     +     wM    .
///   .     .     .     bP    +     .
///     wG1    wQ   wA1   bA1    bQ
///   .     .     .     .    bG1    .
///
///   .     .     .     .     .     t     t     .
///      .     .     .     .     +     wM    +
///   .     .     .     .     .     bP    bQ    .
///     wG3   wG2   wG1    wQ   wA1   bA1    .
///   .     .     .     .     .     .    bG1    .
///      .     .     .     .     .     .    bG2
/// ```
#[test]
fn mosquito_copies_pillbug_ability() {
    let g = game(MOSQUITO_BY_PILLBUG);
    assert_piece_moves(&g, "wM", &[r"wM \bP", r"wM \bQ"]);
    assert_piece_moves(&g, "bP", &[]);

    let g = game(MOSQUITO_BY_PILLBUG_AND_QUEEN);
    assert_piece_moves(&g, "wM", &[r"wM \bP", "wM bQ/"]);
    assert_piece_moves(&g, "bQ", &[r"bQ \wM", "bQ wM/", "bQ -wM", "bQ wM-"]);
    assert_piece_moves(&g, "bP", &[r"bP \wM", "bP wM/", "bP -wM", "bP bQ/"]);
}

/// A mosquito copies a pillbug that is itself immune: `bP` has just stepped
/// next to `wM` (§5.8: `bP` may not be thrown), yet `wM` has the ability and
/// throws `bA2` to the cells `+` (§6.7.5). Constructed for this test.
///
/// ```text
///      .     .     .     +    bA2    .     .
///   .     .     .     +     wM    bP    .     .
///     wG3   wG2   wG1    wQ   wA1   bA1    bQ
/// ```
#[test]
fn mosquito_throws_even_if_copied_pillbug_immune() {
    let g = game(MOSQUITO_BY_PILLBUG_JUST_MOVED);
    assert_piece_moves(&g, "bA2", &[r"bA2 \wM", "bA2 -wM"]);
    assert_piece_moves(&g, "bP", &[]);
}

/// A mosquito copies a pillbug that was just thrown: Black's `bP` has just
/// thrown White's `wP` next to `wM`; `wP` is frozen (§5.8), but `wM` still
/// has the pillbug's step and ability (§6.7.5). `wG1`'s moves are its
/// grasshopper jumps plus `wM`'s throws to the cells `t`. Constructed for this
/// test.
///
/// ```text
///   .     t     t     .     .     .
///      t     wM    wP    .     .
///   .    wG1    t     bP    .     .
///      wQ   wA1   bA1    bQ    .
///   .     .     .     .    bG1    .
///      .     .     .     .    bG2
/// ```
#[test]
fn mosquito_copies_pillbug_that_was_just_thrown() {
    let g = game(MOSQUITO_BY_PILLBUG_JUST_THROWN);
    assert_piece_moves(&g, "wP", &[]);
    assert_piece_moves(
        &g,
        "wG1",
        &[
            // jumps over wM, wQ and wA1
            r"wG1 \wP",
            r"wG1 /wQ",
            r"wG1 wA1\",
            // throws by wM
            r"wG1 \wM",
            "wG1 -wM",
            r"wG1 wM\",
        ],
    );
    // wM copies the grasshopper (jumps) and the pillbug (steps)
    assert_piece_moves(&g, "wM", &[r"wM \wP", r"wM \wG1", "wM bP/", "wM /wQ"]);
}

/// A mosquito that was just thrown cannot throw (nor move), though it touches
/// a pillbug (§5.8, §6.7.5): Black's `bP` has just thrown `wM` to (0,-1);
/// `bP` could be thrown by a mosquito there, but not now. A turn later it
/// can. Constructed for this test.
///
/// ```text
///   .     .     .     wM    bP    .     .
///     wG2   wG1    wQ   wA1   bA1    bQ
///   .     .     .     .     .    bG1    .
/// ```
#[test]
fn just_thrown_mosquito_cannot_throw() {
    let g = game(MOSQUITO_JUST_THROWN);
    assert_piece_moves(&g, "wM", &[]);
    assert_piece_moves(&g, "bP", &[]);
    assert_illegal(&g, r"wM \wQ", "§5.8");

    let g = game(MOSQUITO_THROWN_A_TURN_AGO);
    assert_piece_moves(&g, "bP", &[r"bP \wM", "bP wM/", "bP -wM"]);
}

// ---------------------------------------------------------------------------
// Pillbug
// ---------------------------------------------------------------------------

/// The piece the opponent moved on the previous turn cannot be thrown
/// (§5.8). Spec example of §5.8 (`bQ` has just moved next to `wP`), and a
/// constructed position where `bA2` has just walked next to `wP`.
///
/// ```text
///   .     .     x     bQ    .
///     wA1    wQ    wP   bS1
///   .     .     x     x     .
///
///      .     .    bA2    x     .
///   .     .     x     wP    bP    .
///     wG1    wQ   wA1   bA1    bQ
/// ```
#[test]
fn piece_just_moved_by_opponent_cannot_be_thrown() {
    let g = game(SPEC_QUEEN_JUST_MOVED);
    assert_piece_moves(&g, "bQ", &[]);
    assert_illegal(&g, "bQ /wP", "§5.8");

    let g = game(ANT_JUST_MOVED_TO_PILLBUG);
    assert_piece_moves(&g, "bA2", &[]);
    assert_illegal(&g, "bA2 -wP", "§5.8");
    // the same throw a turn later: see pillbug_throws_opponent_piece
}

/// A pillbug that was just thrown can neither move nor throw (§5.8): `bP` has
/// just thrown `wP` to (3,-2); `bA2` next to it stays put. A turn later `wP`
/// steps and throws `bA2` again. Constructed for this test.
///
/// ```text
///      .     .     .     .    bA2    wP    .
///   .     .     .     .     .     bP    .
///     wG2   wG1    wQ   wA1   bA1    bQ    .
///   .     .     .     .     .     .    bG1
/// ```
#[test]
fn just_thrown_pillbug_cannot_move_or_throw() {
    let g = game(PILLBUG_JUST_THROWN);
    assert_piece_moves(&g, "wP", &[]);
    assert_piece_moves(&g, "bA2", &[]);
    assert_illegal(&g, "wP bA2/", "§5.8");

    let g = game(PILLBUG_THROWN_A_TURN_AGO);
    assert_piece_moves(&g, "wP", &["wP bA2/", "wP bQ/"]);
    assert_piece_moves(&g, "bA2", &[r"bA2 \wP", "bA2 wP/", "bA2 wP-", r"bA2 wP\"]);
}

/// Using the ability does not make the pillbug the piece moved: White's `wP`
/// has just thrown `bQ`, and Black's `bP` may throw `wP` at once (§6.8.7).
/// Position constructed for this test; also a constructed one where `wP`
/// has just thrown `bA2` and `bP` may throw `wP` to the cells `+`.
///
/// ```text
///   .     .     +     +     .     .
///      bQ    wP    bP   bG1   bG2
///   .     wQ   wA1    +     .     .
///
///      .     .     .     .    bA2    +     .
///   .     .     .     .     wP    bP    +
///     wG2   wG1    wQ   wA1   bA1    bQ    .
///   .     .     .     .     .     .    bG1
/// ```
#[test]
fn pillbug_that_threw_can_be_thrown_next_turn() {
    let g = game(SPEC_PILLBUG_JUST_THREW);
    assert_piece_moves(&g, "wP", &[r"wP \bP", r"wP bP\", r"wP \bG1"]);
    assert_piece_moves(&g, "bQ", &[]);

    let g = game(ANT_JUST_THROWN);
    assert_piece_moves(&g, "wP", &["wP bA2-", "wP bQ/"]);
}

/// A piece on a stack cannot be thrown, nor the piece under it (§6.8.3,
/// §5.2): `bB1` on `wA1` touches `wP` but stays. `wQ` beside it is thrown
/// normally (cells `t`). Constructed for this test.
///
/// ```text
///      .     .     t     t     .     .     .
///   .     .    wS1    wP    t     .     .     .
///     wG2   wG1    wQ  bB1^2  bA1    bQ   bG1
/// ```
#[test]
fn pillbug_cannot_throw_stacked_piece() {
    let g = game(BEETLE_STACK_BY_PILLBUG);
    assert_piece_moves(&g, "bB1", &[]);
    assert_piece_moves(&g, "wA1", &[]);
    assert_illegal(&g, r"bB1 \bA1", "§6.8.3");
    assert_illegal(&g, r"wA1 \bA1", "§5.2");
    assert_piece_moves(
        &g,
        "wQ",
        &[r"wQ \wP", "wQ wP/", r"wQ \bA1", r"wQ wG1\", "wQ /bB1"],
    );
}

/// A covered pillbug cannot throw (§6.8.3, §5.2): with `bB1` on top of `wP`,
/// `wQ` and `wS1` next to it have only their own moves, where an uncovered
/// `wP` would throw them to (0,-2), (1,-2) and (1,-1). Constructed for this
/// test (the position of `pillbug_cannot_throw_stacked_piece` after `bB1`
/// climbed onto `wP`).
///
/// ```text
///   .     .     .     .    wS1  bB1^2   .     .     .     .     .
///     wA2   wG3   wG2   wG1    wQ   wA1   bA1    bQ   bG1   bG2
/// ```
#[test]
fn covered_pillbug_cannot_throw() {
    let g = game(PILLBUG_UNDER_BEETLE);
    assert_piece_moves(&g, "wQ", &[r"wQ wG1\", "wQ /wA1"]);
    assert_piece_moves(&g, "wS1", &[r"wS1 \wG3", r"wS1 \bA1"]);
    assert_piece_moves(&g, "wP", &[]);
}

/// A throw must not split the hive (§6.8.4). Spec example of §6.8.4: `wQ`
/// touches `wP` but holds `wA1` to the hive. Constructed position: the black
/// queen next to `wP` holds `bG1` to the hive and cannot be thrown.
///
/// ```text
///   .     .     .     bQ    .
///     wA1    wQ    wP   bS1
///
///     wG1    wQ   wA1   bA1
///   .     .     wP    bQ    .
///      .     .     .    bG1
/// ```
#[test]
fn pillbug_cannot_throw_articulation_piece() {
    let g = game(SPEC_QUEEN_JUST_MOVED);
    assert_piece_moves(&g, "wQ", &[]);
    assert_illegal(&g, r"wQ wP\", "§5.3");

    let g = game(QUEEN_HOLDS_GRASSHOPPER);
    assert_piece_moves(&g, "bQ", &[]);
    assert_illegal(&g, "bQ -wP", "§6.8.4");
}

/// A pillbug that cannot move because it holds the hive together may still
/// throw (§6.8.6). Spec example of §6.8.6: `wP` has no step yet throws `bS1`.
/// Constructed position: `wP` holds `wG1` to the hive and throws it.
///
/// ```text
///   .     .     +     bQ    .
///     wA1    wQ    wP   bS1
///   .     .     +     +     .
///
///   .     +     wQ    .     .     .     .     .
///     wG1    wP   wA1   bA1    bQ   bG1   bG2
///   .     +     +     .     .     .     .     .
/// ```
#[test]
fn pinned_pillbug_can_still_throw() {
    let g = game(SPEC_QUEEN_JUST_MOVED);
    assert_piece_moves(&g, "wP", &[]);
    assert_piece_moves(&g, "bS1", &["bS1 -bQ", r"bS1 wQ\", r"bS1 wP\"]);

    let g = game(PINNED_PILLBUG);
    assert_piece_moves(&g, "wP", &[]);
    assert_illegal(&g, "wP -wQ", "§5.3");
    assert_piece_moves(&g, "wG1", &["wG1 -wQ", "wG1 bG2-", "wG1 /wP", r"wG1 wP\"]);
}

/// A pillbug whose every step is gated may still throw (§6.8.6). Constructed
/// for this test: `wP` does not hold the hive together, but its one empty
/// neighbour (1,-1) lies between `bG1` and `bA1`; it throws `bA1` or `bQ`
/// there (over a ground-level gate, for `bQ`).
///
/// ```text
///   .     .     .    bG1    +     .
///     wG2   wG1    wQ    wP   bA1
///   .     .     .    wA1    bQ    .
/// ```
#[test]
fn gated_pillbug_can_still_throw() {
    let g = game(GATED_PILLBUG);
    assert_piece_moves(&g, "wP", &[]);
    assert_illegal(&g, "wP wP/", "§5.5");
    assert_piece_moves(&g, "bA1", &["bA1 wP/"]);
    assert_piece_moves(&g, "bQ", &[r"bQ \bA1"]);
}

/// No ability before one's own queen is placed (§4.3, §6.8.2): on White's
/// third turn, without `wQ`, `wP` throws nothing and `wG1` stays; once `wQ`
/// is placed, `wP` throws `wG1` (cells `t`) besides its jumps (`j`).
/// Constructed for this test.
///
/// ```text
///     wG1    wP   bA1    bQ
///
///   .     t     t     .     .     .     .
///     wG1    wP   bA1    bQ   bG1    j
///   .     wQ    t     .     .     .     .
///      .     j     .     .     .     .
/// ```
#[test]
fn pillbug_cannot_throw_before_own_queen() {
    let g = game(PILLBUG_BEFORE_QUEEN);
    assert_piece_moves(&g, "wG1", &[]);
    assert_piece_moves(&g, "wP", &[]);
    assert_illegal(&g, r"wG1 \wP", "§4.3");

    let g = game(PILLBUG_AFTER_QUEEN);
    assert_piece_moves(
        &g,
        "wG1",
        &[r"wG1 \wP", r"wG1 \bA1", r"wG1 wP\", "wG1 bG1-", r"wG1 wQ\"],
    );
}

/// A throw and an ordinary move of the same piece to the same cell are one
/// move, listed once (§5.9, §6.8.2): `wQ` reaches (-2,1) both by a step and
/// by a throw of `wP`. Constructed for this test.
///
/// ```text
///      .     s     .     .
///   .     wQ   wA1   bA1
///      +     wP    bQ    .
///   .     t     t     .
/// ```
#[test]
fn throw_and_step_to_same_cell_are_one_move() {
    let g = game(QUEEN_JUST_STEPPED_TO_PILLBUG);
    assert_piece_moves(&g, "wQ", &[r"wQ \wA1", "wQ -wP", "wQ /wP", r"wQ wP\"]);
    let both = moves(&g, &["wQ -wP"]).into_iter().next().expect("one move");
    let listed = g.legal_moves().into_iter().filter(|&mv| mv == both).count();
    assert_eq!(listed, 1, "wQ -wP is listed {listed} times");
}
