//! The end of the game (spec chapter 8): surrounded queens, draws, repetition.

use std::collections::BTreeMap;

use super::board::Board;
use super::facts::Fact;
use crate::core::{Bug, Color, GameState, Hex, Piece};

/// Whether the queen of `color` is on the board with all six adjacent cells
/// occupied, by any colour at any height (§8.1).
pub fn queen_is_surrounded(board: &Board, color: Color) -> bool {
    let Some(queen_at) = board.location(Piece::first(color, Bug::Queen)) else {
        return false;
    };
    queen_at
        .neighbours()
        .into_iter()
        .all(|n| board.is_occupied(n))
}

/// The result decided by surrounded queens, if any (§8.2, §8.3, §8.4).
/// Colour-blind: a player who surrounds their own queen loses (§8.4).
pub fn surround_result(board: &Board) -> Option<GameState> {
    let white = queen_is_surrounded(board, Color::White);
    let black = queen_is_surrounded(board, Color::Black);
    match (white, black) {
        (true, true) => Some(GameState::Draw),       // §8.3
        (true, false) => Some(GameState::BlackWins), // §8.2
        (false, true) => Some(GameState::WhiteWins), // §8.2
        (false, false) => None,
    }
}

/// What identifies a position for the repetition rule: every stack as
/// (colour, bug) bottom to top, ignoring piece numbers, up to translation
/// (§8.7.4), not up to rotation or reflection (§8.7.7); the side to move
/// (§8.7.5); and the cell of the immune piece when its immunity removes a
/// move (§8.7.6). Nothing else: not the turn number, not the history (§8.7.8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepetitionKey {
    stacks: BTreeMap<Hex, Vec<(Color, Bug)>>,
    side_to_move: Color,
    immune_cell: Option<Hex>,
}

impl RepetitionKey {
    /// The key of a position (§8.7.4). Cells are translated so that the
    /// smallest occupied cell (in (q, r) order) sits at the origin. `immune`
    /// is the immune piece if it counts (§8.7.6), else `None`.
    pub fn of(board: &Board, side_to_move: Color, immune: Option<Piece>) -> RepetitionKey {
        let anchor = board.occupied_cells().next().unwrap_or(Hex::ORIGIN);
        let translate = |hex: Hex| Hex::new(hex.q - anchor.q, hex.r - anchor.r);
        let mut stacks = BTreeMap::new();
        for hex in board.occupied_cells() {
            let kinds = board.stack(hex).iter().map(|p| (p.color, p.bug)).collect();
            stacks.insert(translate(hex), kinds);
        }
        RepetitionKey {
            stacks,
            side_to_move,
            immune_cell: immune
                .and_then(|piece| board.location(piece))
                .map(translate),
        }
    }

    /// Whether two keys have the same stacks (up to translation) and the
    /// same side to move: the same position but for the immune piece,
    /// which only §8.7.6 adds.
    pub fn same_stacks(&self, other: &RepetitionKey) -> bool {
        self.stacks == other.stacks && self.side_to_move == other.side_to_move
    }

    /// The cell, translated, of the immune piece when it counts (§8.7.6).
    pub fn immune_cell(&self) -> Option<Hex> {
        self.immune_cell
    }
}

/// The plies within the last 32 after which the position after the last
/// ply (the last key) stood before, oldest first (§8.7.2). `keys[k]` is
/// the key after `k` plies.
pub fn earlier_occurrences(keys: &[RepetitionKey]) -> Vec<usize> {
    let Some((current, earlier)) = keys.split_last() else {
        return Vec::new();
    };
    let window_start = earlier.len().saturating_sub(32);
    (window_start..earlier.len())
        .filter(|&ply| earlier[ply] == *current)
        .collect()
}

/// The repetition rule (§8.7.2): the position after the last ply has occurred
/// at least three times among the positions after the last 32 plies and the
/// current one. `keys[k]` is the key after `k` plies.
pub fn repetition_draw(keys: &[RepetitionKey]) -> bool {
    earlier_occurrences(keys).len() + 1 >= 3
}

/// Why a game is over, in facts: the surrounded queens (§8.1) and the
/// result they, or a repetition (§8.7.2), give. Empty for a game in progress.
pub(crate) fn end_facts(board: &Board, state: GameState) -> Vec<Fact> {
    let mut facts = Vec::new();
    for color in Color::ALL {
        let queen = Piece::first(color, Bug::Queen);
        let Some(at) = board.location(queen) else {
            continue;
        };
        if queen_is_surrounded(board, color) {
            facts.push(
                Fact::new(
                    &["§8.1"],
                    format!("{queen} at {at} has all six neighbours occupied: it is surrounded"),
                )
                .with_cells(std::iter::once(at).chain(at.neighbours())),
            );
        }
    }
    let result: Option<(&[&'static str], &str)> = match (state, facts.len()) {
        (GameState::Draw, 2) => Some((&["§8.3"], "both queens are surrounded: a draw")),
        (GameState::Draw, _) => Some((
            &["§8.7.2"],
            "the position has occurred for the third time within 32 plies: a draw",
        )),
        (GameState::WhiteWins, _) => {
            Some((&["§8.2"], "only Black's queen is surrounded: White wins"))
        }
        (GameState::BlackWins, _) => {
            Some((&["§8.2"], "only White's queen is surrounded: Black wins"))
        }
        _ => None,
    };
    if let Some((clauses, text)) = result {
        facts.push(Fact::new(clauses, text));
    }
    facts
}
