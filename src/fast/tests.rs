//! Unit tests of the fast engine's own representation (the wrapped grid,
//! the top pieces), which the differential tests reach only through moves.

use super::*;
use crate::rules::Rules;

/// The board as `top_at` sees it (§2.1 hexagonal cells, §2.4 stacks):
/// the fast engine's grid wraps (`grid::cell_of` is `32·r + q` modulo
/// 1024), so hexes 1024 cells apart share a cell and only the hex stored
/// for the top piece tells them apart. An empty hex and a hex that
/// merely shares an occupied hex's cell have no stack. Position: the
/// first two placements of a Base game, made up for this test.
#[test]
fn top_at_answers_for_the_hex_asked_not_for_its_cell() {
    let engine = match FastEngine::load("Base;InProgress;White[2];wS1;bS1 wS1-") {
        Ok(engine) => engine,
        Err(e) => panic!("the game does not load: {e}"),
    };
    let mut occupied = Vec::new();
    for q in -3..=3 {
        for r in -3..=3 {
            if let Some((top, height)) = engine.top_at(Hex::new(q, r)) {
                occupied.push((Hex::new(q, r), top.to_string(), height));
            }
        }
    }
    assert_eq!(occupied.len(), 2, "two stacks: {occupied:?}");
    for (hex, top, height) in &occupied {
        assert_eq!(*height, 1, "{top} alone on {hex:?}");
        // (q, r + 32), (q + 32, r - 1) and (q - 32, r + 1) share hex's cell
        for alias in [
            Hex::new(hex.q, hex.r + 32),
            Hex::new(hex.q + 32, hex.r - 1),
            Hex::new(hex.q - 32, hex.r + 1),
        ] {
            assert_eq!(cell_of(alias), cell_of(*hex));
            assert_eq!(
                engine.top_at(alias),
                None,
                "{alias:?} shares the cell of {top}"
            );
        }
    }
}

/// `location` answers `None` for a piece name the game cannot have (§1.5:
/// numbers from 1 to the bug's count; §1.3: the expansion pieces only in
/// their game types), whatever is on the board: a number 0 or one past the
/// count must not be read as the slot of another piece. Position: a Base+MLP
/// game with a piece of every bug placed, made up for this test.
#[test]
fn location_knows_no_piece_the_game_cannot_have() {
    use crate::core::view::BoardView;
    use crate::core::{Bug, Color, Piece};
    let text = "Base+MLP;InProgress;White[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 /wQ;bA1 bQ\\;wG1 \\wQ;bG1 bQ/;wB1 wA1\\;bB1 bA1/";
    let engine = match FastEngine::load(text) {
        Ok(engine) => engine,
        Err(e) => panic!("the game does not load: {e}"),
    };
    let base = match FastEngine::load("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-") {
        Ok(engine) => engine,
        Err(e) => panic!("the game does not load: {e}"),
    };
    for color in [Color::White, Color::Black] {
        for bug in Bug::ALL {
            for number in [0, bug.count() + 1] {
                let piece = Piece { color, bug, number };
                assert_eq!(engine.location(piece), None, "{color:?} {bug:?} {number}");
                assert_eq!(base.location(piece), None, "{color:?} {bug:?} {number}");
            }
        }
    }
    // the expansion pieces are no pieces of a Base game, and the placed
    // pieces are where the game put them
    for bug in [Bug::Mosquito, Bug::Ladybug, Bug::Pillbug] {
        assert_eq!(
            base.location(Piece {
                color: Color::White,
                bug,
                number: 1
            }),
            None
        );
    }
    assert!(base
        .location(Piece::first(Color::White, Bug::Queen))
        .is_some());
    assert!(engine
        .location(Piece {
            color: Color::Black,
            bug: Bug::Beetle,
            number: 1
        })
        .is_some());
}

/// The Zobrist keys (the piece on a cell, at a level, the immune piece)
/// are all different and none is 0: the incremental hash then tells apart
/// positions that differ in one of these facts, the immune piece of §5.10
/// and §6.8.6 included (a table of equal keys would make a throw's immunity
/// invisible to the hash).
#[test]
fn the_zobrist_keys_are_distinct_and_not_zero() {
    let mut keys: Vec<u64> = zobrist::IMMUNE.to_vec();
    keys.extend(zobrist::LEVEL.iter().flatten());
    keys.extend(zobrist::CELL.iter().flatten());
    keys.push(zobrist::BLACK_TO_MOVE);
    let count = keys.len();
    assert!(!keys.contains(&0));
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), count, "some Zobrist keys are equal");
}

/// §8.7.4: the repetition key of a position tells its stacks apart by
/// colour and bug, not only by where pieces stand: two positions on the
/// same cells whose white spider and grasshopper have swapped places are
/// two positions, as are two where black's spider is a grasshopper. Made-up
/// openings of four placements.
#[test]
fn the_repetition_key_tells_bugs_and_colours_apart() {
    let key = |text: &str| match FastEngine::load(text) {
        Ok(engine) => engine.repetition_key(false),
        Err(e) => panic!("{text} does not load: {e}"),
    };
    let spider_first = key("Base;InProgress;White[3];wS1;bS1 wS1-;wG1 -wS1;bQ bS1-");
    let grasshopper_first = key("Base;InProgress;White[3];wG1;bS1 wG1-;wS1 -wG1;bQ bS1-");
    assert_ne!(spider_first, grasshopper_first);
    // the same position, its stacks the same: the same key
    assert_eq!(
        spider_first,
        key("Base;InProgress;White[3];wS1;bS1 wS1-;wG1 -wS1;bQ bS1-")
    );
    // black's spider a grasshopper
    assert_ne!(
        spider_first,
        key("Base;InProgress;White[3];wS1;bG1 wS1-;wG1 -wS1;bQ bG1-")
    );
}

/// The invariant check that the differential tests run after every ply
/// (`check_invariants`) finds a cell whose top is not the piece standing
/// uncovered on it (§2.4: the top of a stack is its uppermost piece): here
/// the top of wS1's cell is set to bS1, which stands on the next cell.
/// Position: the first two placements of a Base game.
#[test]
fn a_top_that_is_not_the_cells_uncovered_piece_breaks_an_invariant() {
    use crate::core::notation::parse_piece;
    let mut engine = match FastEngine::load("Base;InProgress;White[2];wS1;bS1 wS1-") {
        Ok(engine) => engine,
        Err(e) => panic!("the game does not load: {e}"),
    };
    assert_eq!(engine.check_invariants(), Ok(()));
    let id = |name: &str| match parse_piece(name) {
        Ok(piece) => pieces::id_of(piece),
        Err(e) => panic!("{e}"),
    };
    let (white, black) = (id("wS1"), id("bS1"));
    let cell = engine.pos[white as usize];
    engine.top[cell as usize] = black;
    assert_eq!(
        engine.check_invariants(),
        Err(BrokenInvariant::TopNotUncovered {
            cell: cell as usize,
            top: black,
        })
    );
}
