//! Rule tests for the expansion bugs of spec/rules.md: the Mosquito
//! (§6.7.1 to §6.7.5) and the Pillbug (§6.8.1 to §6.8.8), with the immunity
//! of the piece last moved (§5.10) as it applies to throws.
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
//!
//! The rules of these bugs are cases in `tests/cases/mosquito.toml` and
//! `tests/cases/pillbug.toml`; here remain a test that `spec/rulings.md`
//! names and what the case vocabulary cannot say (a move listed once),
//! each run on both engines (`tests/engines/`).

use crate::engines;

use engines::*;

// ---------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------

/// Position constructed for the §6.8.7 tests: White's `wP`
/// has just thrown `bQ`.
const SPEC_PILLBUG_JUST_THREW: &str = r"Base+P;InProgress;White[4];wP;bP wP-;wQ -wP;bQ bP/;wA1 -wQ;bQ \bP;wA1 wP\;bG1 bP-;wQ /wP;bG2 bG1-;bQ -wP";

/// `bQ` has just stepped next to `wP`; `wQ` can step or be thrown to (-2,1).
const QUEEN_JUST_STEPPED_TO_PILLBUG: &str =
    r"Base+P;InProgress;White[4];wA1;bA1 wA1-;wQ -wA1;bQ bA1\;wP wQ\;bQ wA1\";

/// The previous position after `wP` threw `bA2` next to `bP`.
const ANT_JUST_THROWN: &str = r"Base+P;InProgress;Black[7];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wP \wA1;bP \bQ;wP -bP;bA2 bQ/;wG1 -wQ;bA2 \wP;wG2 -wG1;bG1 bQ\;bA2 \bP";

// ---------------------------------------------------------------------------
// Pillbug
// ---------------------------------------------------------------------------

on_both_engines! {
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
    fn pillbug_that_threw_can_be_thrown_next_turn(R) {
        let g = game::<R>(SPEC_PILLBUG_JUST_THREW);
        assert_piece_moves(&g, "wP", &[r"wP \bP", r"wP bP\", r"wP \bG1"]);
        assert_piece_moves(&g, "bQ", &[]);

        let g = game::<R>(ANT_JUST_THROWN);
        assert_piece_moves(&g, "wP", &["wP bA2-", "wP bQ/"]);
    }
}

on_both_engines! {
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
    fn throw_and_step_to_same_cell_are_one_move(R) {
        let g = game::<R>(QUEEN_JUST_STEPPED_TO_PILLBUG);
        assert_piece_moves(&g, "wQ", &[r"wQ \wA1", "wQ -wP", "wQ /wP", r"wQ wP\"]);
        let both = moves(&g, &["wQ -wP"]).into_iter().next().expect("one move");
        let listed = g.legal_moves().into_iter().filter(|&mv| mv == both).count();
        assert_eq!(listed, 1, "wQ -wP is listed {listed} times");
    }
}

// ---------------------------------------------------------------------------
// What a refused throw is explained with
// ---------------------------------------------------------------------------

/// §6.7.5: a mosquito that touches no pillbug at all has no ability to
/// throw, and the refusal says so — not that the pillbug it touches is
/// covered (§6.7.3), which would send a reader looking for a stack that is
/// not there. `wM` stepped next to `bG1`; its neighbours are `wG1` and
/// `bG1`. Constructed for this test.
///
/// ```text
///   .    wQ   wG1   bG1    bQ   bA1   bA2
///      .     .    wM     .     .
///   .     .     x
/// ```
#[test]
fn a_mosquito_next_to_no_pillbug_is_refused_as_touching_none() {
    assert_refused(
        r"Base+MP;InProgress;White[5];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wM /wG1;bA1 bQ-;wM wG1\;bA2 bA1-",
        r"bG1 wM\",
        "wM touches no pillbug, so it has no ability to move bG1 (§6.7.5)",
        "§6.7.3",
    );
}

/// §6.8.4, §5.3: of the throwers next to a piece, the refusal reports the
/// attempt that got furthest, whichever comes first around the piece.
/// `wQ` holds `wM` to the hive: pinned for its own movement (§5.3) and for
/// a throw by `wP` (§6.8.4), while `wM`, the first thrower around `wQ`
/// (north-west), fails sooner (§6.7.5, no pillbug to copy). The refusal
/// names both rules of the pin, not the mosquito's. Constructed for this
/// test.
///
/// ```text
///      .    wM     .
///   .     .    wQ   wG1   bG1    bQ   bA1   bA2
///      .     .    wP     .
///   .     x
/// ```
#[test]
fn a_refused_throw_is_explained_by_the_attempt_that_got_furthest() {
    assert_refused(
        r"Base+MP;InProgress;White[5];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wM \wQ;bA1 bQ-;wP /wG1;bA2 bA1-",
        "wQ /wP",
        "wQ cannot move: lifting it splits the hive, so it can neither move nor be thrown (§5.3, §6.8.4)",
        "§6.7.5",
    );
}

/// §6.1, §6.8.8: a throw enters a movement's refusal only when it was
/// within reach (a pillbug, or a mosquito copying one, next to the
/// destination). `wQ` asked to go five cells away is refused by its own
/// rule alone: `wP` beside it could never set it down there, so "it cannot
/// be thrown there either" would answer a question nobody asked.
/// Constructed for this test: `wM` at (0, -1) and `wP` at (-1, 1) both
/// touch `wQ` at (-1, 0).
#[test]
fn a_throw_out_of_reach_stays_out_of_a_refusal() {
    assert_refused(
        r"Base+MP;InProgress;White[5];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wM \wG1;bA1 bQ-;wP /wG1;bA2 bA1-",
        "wQ bA2-",
        "wQ cannot reach (5, 0): a queen moves one cell (§6.1)",
        "§6.8.8",
    );
}

/// Asserts that the reference rules refuse `mv` in `game` with exactly the
/// refusal `refusal`, no fact of it citing `never_cited`.
fn assert_refused(game: &str, mv: &str, refusal: &str, never_cited: &str) {
    let verdict = crate::common::verdict_on(game, mv);
    assert!(!verdict.legal);
    assert_eq!(verdict.refusal.as_deref(), Some(refusal));
    assert!(
        verdict
            .facts
            .iter()
            .all(|fact| !fact.clauses.contains(&never_cited)),
        "{:?}",
        verdict.facts
    );
}
