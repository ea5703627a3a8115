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
