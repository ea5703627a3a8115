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

/// Spec example of §6.7.1: `wM` touches `wG1` and `wQ`.
const MOSQUITO_QUEEN_AND_GRASSHOPPER: &str =
    r"Base+M;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 -wQ;bA1 bQ-;wM wG1/;bA2 bA1-";

/// A line with `wM` at its west end touching only `wQ`.
const MOSQUITO_BY_QUEEN: &str =
    r"Base+M;InProgress;White[4];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM -wQ;bA2 bQ-";

/// A line with `wM` at its west end touching only `wG1`.
const MOSQUITO_BY_GRASSHOPPER: &str =
    r"Base+M;InProgress;White[5];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wG1 -wQ;bA2 bQ-;wM -wG1;bG1 bQ\";

/// A line with `wM` at its west end touching only `wS1`.
const MOSQUITO_BY_SPIDER: &str =
    r"Base+M;InProgress;White[5];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wS1 -wQ;bA2 bQ-;wM -wS1;bG1 bQ\";

/// A line with `wM` at its west end touching only `wA2`.
const MOSQUITO_BY_ANT: &str =
    r"Base+M;InProgress;White[5];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wA2 -wQ;bA2 bQ-;wM -wA2;bG1 bQ\";

/// A line with `wM` at its west end touching only `wL` (all expansions).
const MOSQUITO_BY_LADYBUG: &str =
    r"Base+MLP;InProgress;White[5];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wL -wQ;bA2 bQ-;wM -wL;bG1 bQ\";

/// `wM` has walked (as an ant) to a cell whose only neighbour is `bM`.
const MOSQUITO_BY_MOSQUITO: &str =
    r"Base+M;InProgress;White[5];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM \wA1;bM bQ-;wM bM/;bA2 bQ\";

/// `wM` at the west end touches only the stack `wG1` under `wB1`.
const MOSQUITO_BY_BEETLE_ON_GRASSHOPPER: &str = r"Base+M;InProgress;White[7];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wG1 -wQ;bA2 bQ-;wM -wG1;bG1 bA2-;wB1 \wG1;bG2 bG1-;wB1 wG1;bG3 bG2-";

/// The previous position after `wM` climbed onto `wB1` and then onto `wQ`.
const MOSQUITO_ON_QUEEN: &str = r"Base+M;InProgress;White[9];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wG1 -wQ;bA2 bQ-;wM -wG1;bG1 bA2-;wB1 \wG1;bG2 bG1-;wB1 wG1;bG3 bG2-;wM wB1;bS1 bG3-;wM wQ;bS2 bS1-";

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

/// Position constructed for the §6.8.2 tests.
const SPEC_OWN_QUEEN_BY_PILLBUG: &str =
    r"Base+P;InProgress;White[4];wP;bP wP-;wQ \wP;bQ bP\;wA1 -wP;bA1 bQ-";

/// Position constructed for the §6.8.7 tests: White's `wP`
/// has just thrown `bQ`.
const SPEC_PILLBUG_JUST_THREW: &str = r"Base+P;InProgress;White[4];wP;bP wP-;wQ -wP;bQ bP/;wA1 -wQ;bQ \bP;wA1 wP\;bG1 bP-;wQ /wP;bG2 bG1-;bQ -wP";

/// A line with `wP` at its west end.
const PILLBUG_AT_LINE_END: &str =
    r"Base+P;InProgress;White[4];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP -wQ;bA2 bQ-";

/// `bQ` has just stepped next to `wP`; `wQ` can step or be thrown to (-2,1).
const QUEEN_JUST_STEPPED_TO_PILLBUG: &str =
    r"Base+P;InProgress;White[4];wA1;bA1 wA1-;wQ -wA1;bQ bA1\;wP wQ\;bQ wA1\";

/// The previous position two plies later: `bG1` hangs on `bQ` alone.
const QUEEN_HOLDS_GRASSHOPPER: &str =
    r"Base+P;InProgress;White[5];wA1;bA1 wA1-;wQ -wA1;bQ bA1\;wP wQ\;bQ wA1\;wG1 -wQ;bG1 bQ\";

/// The previous position after `bG1` jumped away: `bQ` may be thrown.
const QUEEN_FREE_BY_PILLBUG: &str = r"Base+P;InProgress;White[6];wA1;bA1 wA1-;wQ -wA1;bQ bA1\;wP wQ\;bQ wA1\;wG1 -wQ;bG1 bQ\;wG2 -wG1;bG1 \wA1";

/// The previous position after White threw `bQ` to (-2,2).
const QUEEN_JUST_THROWN: &str = r"Base+P;InProgress;Black[6];wA1;bA1 wA1-;wQ -wA1;bQ bA1\;wP wQ\;bQ wA1\;wG1 -wQ;bG1 bQ\;wG2 -wG1;bG1 \wA1;bQ /wP";

/// The previous position one turn later.
const QUEEN_THROWN_A_TURN_AGO: &str = r"Base+P;InProgress;Black[7];wA1;bA1 wA1-;wQ -wA1;bQ bA1\;wP wQ\;bQ wA1\;wG1 -wQ;bG1 bQ\;wG2 -wG1;bG1 \wA1;bQ /wP;bA2 bA1-;wG3 -wG2";

/// `wP` links `wG1` to the hive: it cannot move, `wG1` hangs on it alone.
const PINNED_PILLBUG: &str =
    r"Base+P;InProgress;White[5];wA1;bA1 wA1-;wP -wA1;bQ bA1-;wQ \wA1;bG1 bQ-;wG1 -wP;bG2 bG1-";

/// `wP`'s only empty neighbour is a gate, but `wP` does not link the hive.
const GATED_PILLBUG: &str = r"Base+P;InProgress;White[6];wP;bA1 wP-;wQ -wP;bQ bA1\;wA1 wQ\;bQ wP\;wG1 -wQ;bG1 bQ\;wG2 -wG1;bG1 \wP";

/// `wP` and `bP` side by side; `bA2` has just moved next to `wP`.
const ANT_JUST_MOVED_TO_PILLBUG: &str = r"Base+P;InProgress;White[6];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bP \bQ;wP -bP;bA2 bQ/;wG1 -wQ;bA2 \wP";

/// The previous position one turn later.
const ANT_BY_PILLBUG: &str = r"Base+P;InProgress;White[7];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bP \bQ;wP -bP;bA2 bQ/;wG1 -wQ;bA2 \wP;wG2 -wG1;bG1 bQ\";

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

/// `bA2` sits between `wP` and two beetle stacks of height 2.
const THROW_CLIMB_GATED: &str = r"Base+P;InProgress;White[11];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP -wQ;bA2 bQ-;wS1 \wP;bG1 bQ\;wS2 /wP;bG2 \bA2;wB1 \wS1;bG3 bG1\;wB1 wS1;bS1 bG3\;wB2 wS2\;bS2 bS1\;wB2 wS2;bA2 /wB1;wG1 \wA1;bB1 bS2\";

/// The previous position after `bA2` walked round to (-2,1).
const THROW_DROP_GATED: &str = r"Base+P;InProgress;White[13];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP -wQ;bA2 bQ-;wS1 \wP;bG1 bQ\;wS2 /wP;bG2 \bA2;wB1 \wS1;bG3 bG1\;wB1 wS1;bS1 bG3\;wB2 wS2\;bS2 bS1\;wB2 wS2;bA2 /wB1;wG1 \wA1;bB1 bS2\;wG2 \wG1;bA2 wP\;wA2 \wG2;bB2 bB1\";

/// White's third turn: `wP` and `wG1` are on the board, `wQ` is not.
const PILLBUG_BEFORE_QUEEN: &str = r"Base+P;InProgress;White[3];wP;bA1 wP-;wG1 -wP;bQ bA1-";

/// The previous position after White placed `wQ` (and Black replied).
const PILLBUG_AFTER_QUEEN: &str =
    r"Base+P;InProgress;White[4];wP;bA1 wP-;wG1 -wP;bQ bA1-;wQ /wP;bG1 bQ-";

// ---------------------------------------------------------------------------
// Mosquito
// ---------------------------------------------------------------------------

/// A mosquito on the ground moves as every bug it touches: the union of
/// their movements (§6.7.1). Spec example of §6.7.1: `wM` touches `wG1` and
/// `wQ`; as a queen it reaches the cells `q`, as a grasshopper the cells `g`.
///
/// ```text
///      q     wM    q     .     .     .     .     .
///   .    wG1    wQ   wS1   bS1    bQ   bA1   bA2
///      g     .     g     .     .     .     .     .
/// ```
#[test]
fn mosquito_copies_adjacent_bugs() {
    let g = game(MOSQUITO_QUEEN_AND_GRASSHOPPER);
    assert_piece_moves(&g, "wM", &[r"wM \wG1", r"wM \wS1", r"wM /wG1", r"wM wQ\"]);
    // (-3,0), west of wG1, is neither one step away nor at the end of a line
    assert_illegal(&g, r"wM -wG1", "§6.7.1");
}

/// A mosquito touching only the queen moves as a queen: one ground step
/// (§6.7.1, §6.1). Constructed for this test.
///
/// ```text
///   .     +     .     .     .     .     .
///      wM    wQ   wA1   bA1    bQ   bA2
///   .     +     .     .     .     .     .
/// ```
#[test]
fn mosquito_copying_queen_takes_one_step() {
    let g = game(MOSQUITO_BY_QUEEN);
    assert_piece_moves(&g, "wM", &[r"wM \wQ", r"wM /wQ"]);
    assert_illegal(&g, r"wM \wA1", "§6.7.1");
}

/// A mosquito touching only a grasshopper moves as a grasshopper: it jumps
/// the whole line to the first empty cell (§6.7.1, §6.3.1). Constructed for
/// this test.
///
/// ```text
///      wM   wG1    wQ   wA1   bA1    bQ   bA2    +
///   .     .     .     .     .     .    bG1    .     .
/// ```
#[test]
fn mosquito_copying_grasshopper_jumps() {
    let g = game(MOSQUITO_BY_GRASSHOPPER);
    assert_piece_moves(&g, "wM", &["wM bA2-"]);
    // no step: a grasshopper does not walk
    assert_illegal(&g, r"wM \wG1", "§6.7.1");
}

/// A mosquito touching only a spider moves as a spider: exactly three ground
/// steps, along either side of the line (§6.7.1, §6.4.1). Constructed for
/// this test.
///
/// ```text
///   .     .     .     +     .     .     .     .
///      wM   wS1    wQ   wA1   bA1    bQ   bA2
///   .     .     .     +     .     .    bG1    .
/// ```
#[test]
fn mosquito_copying_spider_walks_three_steps() {
    let g = game(MOSQUITO_BY_SPIDER);
    assert_piece_moves(&g, "wM", &[r"wM \wA1", r"wM wQ\"]);
    // two steps is not a spider move
    assert_illegal(&g, r"wM \wQ", "§6.7.1");
}

/// A mosquito touching only an ant moves as an ant: every empty cell around
/// the hive, its own cell excepted (§6.7.1, §6.5). Constructed for this
/// test: the 16 cells are the 7 north of the line, the 6 south of it, the
/// east end and the 2 below `bG1`.
///
/// ```text
///      wM   wA2    wQ   wA1   bA1    bQ   bA2
///   .     .     .     .     .     .    bG1    .
/// ```
#[test]
fn mosquito_copying_ant_reaches_every_cell_around_hive() {
    let g = game(MOSQUITO_BY_ANT);
    assert_piece_moves(
        &g,
        "wM",
        &[
            r"wM \wA2", r"wM \wQ", r"wM \wA1", r"wM \bA1", r"wM \bQ", r"wM \bA2", r"wM bA2/",
            r"wM bA2-", r"wM /wA2", r"wM wA2\", r"wM wQ\", r"wM wA1\", r"wM bA1\", r"wM bA2\",
            r"wM /bG1", r"wM bG1\",
        ],
    );
}

/// A mosquito touching only a ladybug moves as a ladybug: up onto `wL`,
/// across onto `wQ`, down to an empty cell (§6.7.1, §6.6.1). Constructed
/// for this test, in the game type with all three expansions.
///
/// ```text
///   .     .     +     +     .     .     .     .
///      wM    wL    wQ   wA1   bA1    bQ   bA2
///   .     .     +     +     .     .    bG1    .
/// ```
#[test]
fn mosquito_copying_ladybug_moves_over_the_hive() {
    let g = game(MOSQUITO_BY_LADYBUG);
    assert_piece_moves(&g, "wM", &[r"wM \wQ", r"wM \wA1", r"wM wL\", r"wM wQ\"]);
    // a ladybug does not end on top of the hive
    assert_illegal(&g, "wM wQ", "§6.7.1");
}

/// Copying a mosquito gives nothing: a mosquito whose only neighbour is the
/// other mosquito has no move (§6.7.2). Constructed for this test (spec/sources/rules-notes.md
/// "a Mosquito touching only Mosquitoes cannot move"): `wM` walked as an ant
/// to the cell north-east of `bM`.
///
/// ```text
///   .     .     .     .     .     wM
///      wQ   wA1   bA1    bQ    bM    .
///   .     .     .     .    bA2    .
/// ```
#[test]
fn mosquito_next_to_mosquito_only_cannot_move() {
    let g = game(MOSQUITO_BY_MOSQUITO);
    assert_piece_moves(&g, "wM", &[]);
    assert_illegal(&g, "wM bM-", "§6.7.2");
}

/// A mosquito copies the top piece of a stack: next to `wB1` on `wG1` it
/// moves as a beetle (climb, or one step along the stack) and never as the
/// grasshopper underneath, whose jump would reach (7,0) (§6.7.3). Constructed
/// for this test.
///
/// ```text
///   .     +     .     .     .     .     .     .     .     .     .
///      wM  wB1^2   wQ   wA1   bA1    bQ   bA2   bG1   bG2   bG3
///   .     +     .     .     .     .     .     .     .     .     .
/// ```
#[test]
fn mosquito_copies_beetle_not_piece_below() {
    let g = game(MOSQUITO_BY_BEETLE_ON_GRASSHOPPER);
    assert_piece_moves(&g, "wM", &[r"wM \wB1", "wM wB1", r"wM /wB1"]);
    assert_illegal(&g, "wM bG3-", "§6.7.1");
}

/// A mosquito on top of the hive moves only as a beetle, whatever it
/// touches: on top of `wQ`, next to the ant `wA1` and the beetle `wB1`, it
/// has exactly the six one-cell steps and no ant move (§6.7.4). Constructed
/// for this test: `wM` climbed onto `wB1` as a beetle, then onto `wQ`.
///
/// ```text
///   .     +     +     .     .     .     .     .     .     .     .     .
///    wB1^2  wM^2  wA1   bA1    bQ   bA2   bG1   bG2   bG3   bS1   bS2
///   .     +     +     .     .     .     .     .     .     .     .     .
/// ```
#[test]
fn mosquito_on_stack_moves_as_beetle() {
    let g = game(MOSQUITO_ON_QUEEN);
    assert_piece_moves(
        &g,
        "wM",
        &[
            r"wM \wQ", r"wM \wA1", "wM wB1", "wM wA1", r"wM wB1\", r"wM wQ\",
        ],
    );
    // (1,-1) is an ant's destination, two cells away
    assert_illegal(&g, r"wM \bA1", "§6.7.4");
}

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

/// A pillbug moves one ground step, like the queen (§6.8.1). Constructed for
/// this test: at the end of a line it has the queen's two steps; next to
/// `wQ`, `wA1` and `bQ` it has two steps and may not climb.
///
/// ```text
///   .     +     .     .     .     .     .
///      wP    wQ   wA1   bA1    bQ   bA2
///   .     +     .     .     .     .     .
///
///   .     wQ   wA1   bA1
///      +     wP    bQ    .
///   .     .     +     .
/// ```
#[test]
fn pillbug_steps_like_queen() {
    let g = game(PILLBUG_AT_LINE_END);
    assert_piece_moves(&g, "wP", &[r"wP \wQ", "wP /wQ"]);
    assert_illegal(&g, r"wP \wA1", "§6.8.1");

    let g = game(QUEEN_JUST_STEPPED_TO_PILLBUG);
    assert_piece_moves(&g, "wP", &["wP /wQ", "wP /bQ"]);
    assert_illegal(&g, "wP wQ", "§6.8.1");
}

/// A pillbug throws an adjacent piece of either colour, the queen included
/// (§6.8.2). Position constructed for this test: `wP` throws its own queen
/// (steps `s`, throws `t`, both `+`); in the spec example of §5.8 it throws the
/// black `bS1` to the cells 1, 2, 3.
///
/// ```text
///      s     wQ    +     .     .
///   .    wA1    wP    bP    .     .
///      .     t     t     bQ   bA1
///
///   .     .     1     bQ    .
///     wA1    wQ    wP   bS1
///   .     .     2     3     .
/// ```
#[test]
fn pillbug_throws_adjacent_piece_either_colour() {
    let g = game(SPEC_OWN_QUEEN_BY_PILLBUG);
    assert_piece_moves(&g, "wQ", &[r"wQ \wA1", r"wQ \bP", r"wQ wA1\", r"wQ wP\"]);

    let g = game(SPEC_QUEEN_JUST_MOVED);
    assert_piece_moves(&g, "bS1", &["bS1 -bQ", r"bS1 wQ\", r"bS1 wP\"]);
}

/// A pillbug throws one of its own pieces to every empty cell next to it
/// (§6.8.2, §6.8.8): `wG1` may jump (to `j`) or be thrown to the cells `t`.
/// Constructed for this test.
///
/// ```text
///   .     t     wQ    .     .     .     .     .     .
///     wG1    wP   wA1   bA1    bQ   bG1   bG2    j
///   .     t     t     .     .     .     .     .     .
/// ```
#[test]
fn pillbug_throws_own_piece() {
    let g = game(PINNED_PILLBUG);
    assert_piece_moves(&g, "wG1", &["wG1 -wQ", "wG1 bG2-", "wG1 /wP", r"wG1 wP\"]);
}

/// A pillbug throws an opponent's piece (§6.8.2): `bA2`, moved two turns
/// ago, goes to either empty cell next to `wP`. Constructed for this test.
///
/// ```text
///      .     .     .    bA2    +     .     .
///   .     .     .     +     wP    bP    .
///     wG2   wG1    wQ   wA1   bA1    bQ    .
///   .     .     .     .     .     .    bG1
/// ```
#[test]
fn pillbug_throws_opponent_piece() {
    let g = game(ANT_BY_PILLBUG);
    assert_piece_moves(&g, "bA2", &[r"bA2 \bP", "bA2 -wP"]);
}

/// A pillbug throws the opponent's queen (§6.8.2): `bQ` goes to any of the
/// three empty cells next to `wP`. Constructed for this test.
///
/// ```text
///   .     .     .    bG1    .     .
///     wG2   wG1    wQ   wA1   bA1
///   .     .     +     wP    bQ    .
///      .     .     +     +     .
/// ```
#[test]
fn pillbug_throws_opponent_queen() {
    let g = game(QUEEN_FREE_BY_PILLBUG);
    assert_piece_moves(&g, "bQ", &[r"bQ wG1\", "bQ /wP", r"bQ wP\"]);
}

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

/// The thrown piece is the piece moved this turn: on its owner's next turn it
/// cannot move (§5.8, §6.8.7). Constructed for this test: White has just
/// thrown `bQ` to (-2,2); its steps `x` are refused. A turn later they are
/// legal again.
///
/// ```text
///   .     .     .    bG1    .     .
///     wG2   wG1    wQ   wA1   bA1
///   .     .     x     wP    .     .
///      .     .     bQ    x     .
/// ```
#[test]
fn thrown_piece_cannot_move_next_turn() {
    let g = game(QUEEN_JUST_THROWN);
    assert_piece_moves(&g, "bQ", &[]);
    assert_illegal(&g, "bQ -wP", "§5.8");
    assert_illegal(&g, r"bQ wP\", "§5.8");

    let g = game(QUEEN_THROWN_A_TURN_AGO);
    assert_piece_moves(&g, "bQ", &[r"bQ wG1\", r"bQ wP\"]);
}

/// The thrown piece cannot be thrown back by the opponent's pillbug on the
/// next turn (§5.8): `wP` has just thrown `bA2` next to `bP`; `bP` could
/// otherwise throw it (it is alone, and `wP` and `bP` still join the hive),
/// and `bA2` could otherwise walk. Constructed for this test.
///
/// ```text
///      .     .     .     .    bA2    x     .
///   .     .     .     .     wP    bP    x
///     wG2   wG1    wQ   wA1   bA1    bQ    .
///   .     .     .     .     .     .    bG1
/// ```
#[test]
fn thrown_piece_cannot_be_thrown_back() {
    let g = game(ANT_JUST_THROWN);
    assert_piece_moves(&g, "bA2", &[]);
    assert_illegal(&g, "bA2 bP/", "§5.8");
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

/// The refusal of a throw by a pillbug that was just thrown cites the
/// immunity of that pillbug (§5.8), the rule that forbids it. Regression:
/// the engine once said that no pillbug was next to the piece (§5.1,
/// §6.8.2), because it set immune throwers aside before explaining.
/// Constructed for this test; same position as
/// `just_thrown_pillbug_cannot_move_or_throw`.
#[test]
fn throw_by_just_thrown_pillbug_refused_citing_immunity() {
    let g = game(PILLBUG_JUST_THROWN);
    assert_illegal(&g, "bA2 wP/", "§5.8");
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

/// Both halves of a throw obey the height gate (§6.8.5). Constructed for this
/// test: `bA2` sits west of `wP` between two stacks of height 2, so it cannot
/// climb onto `wP` (min(2,2) > max(0,1)). After it walked to (-2,1) it may be
/// thrown to (-1,-1) (`+`; one flank is a single piece) but not dropped into
/// (-3,0) (`x`, between the two stacks).
///
/// ```text
///   .   wB1^2   x    wG1    .     .    bG2    .     .
///     bA2    wP    wQ   wA1   bA1    bQ    .     .     .
///   .   wB2^2   x     .     .     .    bG1    .     .
///      .     .     .     .     .     .    bG3    .     .
///   .     .     .     .     .     .     .    bS1    .
///      .     .     .     .     .     .     .    bS2    .
///   .     .     .     .     .     .     .     .    bB1
///
///   .     .    wA2    .     .     .     .     .     .     .
///      .     .    wG2    .     .     .     .     .     .
///   .   wB1^2   +    wG1    .     .    bG2    .     .     .
///      x     wP    wQ   wA1   bA1    bQ    .     .     .
///   .   wB2^2  bA2    .     .     .    bG1    .     .     .
///      .     .     .     .     .     .    bG3    .     .
///   .     .     .     .     .     .     .    bS1    .     .
///      .     .     .     .     .     .     .    bS2    .
///   .     .     .     .     .     .     .     .    bB1    .
///      .     .     .     .     .     .     .     .    bB2
/// ```
#[test]
fn pillbug_throw_obeys_height_gate() {
    let g = game(THROW_CLIMB_GATED);
    assert_piece_moves(&g, "bA2", &[]);
    assert_illegal(&g, r"bA2 wP\", "§6.8.5");
    assert_illegal(&g, r"bA2 -wG1", "§6.8.5");

    let g = game(THROW_DROP_GATED);
    assert_piece_moves(&g, "bA2", &["bA2 /wG2"]);
    assert_illegal(&g, "bA2 -wP", "§6.8.5");
}

/// A ground-level gate does not block a throw: the piece goes over the
/// pillbug at height 1, and only stacks of height 2 or more block it
/// (§6.8.5). Constructed for this test: `bA1`'s climb onto `wP` passes between
/// `wA1` and `bP`, both single pieces, and is allowed.
///
/// ```text
///      .     .    bA2    +     .
///   .     .     +     wP    bP    .
///     wG1    wQ   wA1   bA1    bQ
/// ```
#[test]
fn throw_passes_ground_level_gate() {
    let g = game(ANT_JUST_MOVED_TO_PILLBUG);
    assert_piece_moves(&g, "bA1", &[r"bA1 \bP", "bA1 /bA2"]);
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

/// A throw lands on an empty cell next to the pillbug, never where the piece
/// came from (§6.8.8). Spec example of §5.8: every throw of `bS1` ends on one
/// of the empty neighbours 1, 2, 3 of `wP`; (2,0) is not next to `wP` and
/// `wQ`'s cell is occupied.
///
/// ```text
///   .     .     1     bQ    .
///     wA1    wQ    wP   bS1
///   .     .     2     3     .
/// ```
#[test]
fn throw_lands_next_to_pillbug_not_origin() {
    let g = game(SPEC_QUEEN_JUST_MOVED);
    assert_piece_moves(&g, "bS1", &["bS1 -bQ", r"bS1 wQ\", r"bS1 wP\"]);
    assert_illegal(&g, "bS1 bS1-", "§6.8.8");
    assert_illegal(&g, "bS1 wQ", "§6.8.8");
    assert_illegal(&g, "bS1 bS1", "§5.7");
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
