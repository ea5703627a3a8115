//! The board of the reference engine: stacks on an unbounded hex grid (spec chapter 2).
//!
//! Written for the reader: an ordered map from cell to stack, recomputed
//! queries, no caches. Every question about the board is answered by looking
//! at the map.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::core::BoardView;
use crate::core::{Color, Hex, Piece};

/// Stacks of pieces by cell (§2.4). Empty cells are absent from the map.
///
/// A new board is empty: there is no board in Hive, the pieces make the
/// play area (§1.7). No stack height limit is enforced; the pieces bound
/// it at 7 (§2.6).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    stacks: BTreeMap<Hex, Vec<Piece>>,
}

impl Board {
    /// The board of any engine's position, read through its [`BoardView`]:
    /// the stack of every cell that holds a piece of the game type, bottom
    /// to top (§2.4).
    pub fn from_view(view: &impl BoardView) -> Board {
        let cells: BTreeSet<Hex> = view
            .game_type()
            .all_pieces()
            .filter_map(|piece| view.location(piece))
            .collect();
        let mut board = Board::default();
        for hex in cells {
            for piece in view.stack(hex) {
                board.push(hex, piece);
            }
        }
        board
    }

    /// The stack on a cell, bottom to top; empty for an empty cell (§2.4).
    pub fn stack(&self, hex: Hex) -> &[Piece] {
        self.stacks.get(&hex).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The number of pieces on a cell (§2.4).
    pub fn height(&self, hex: Hex) -> usize {
        self.stack(hex).len()
    }

    /// Whether a cell holds at least one piece (§2.4).
    pub fn is_occupied(&self, hex: Hex) -> bool {
        self.height(hex) > 0
    }

    /// The top piece of a cell, if any (§2.4).
    pub fn top(&self, hex: Hex) -> Option<Piece> {
        self.stack(hex).last().copied()
    }

    /// The colour of a stack: the colour of its top piece (§2.5).
    pub(crate) fn stack_color(&self, hex: Hex) -> Option<Color> {
        self.top(hex).map(|piece| piece.color)
    }

    /// The cell of a piece on the board.
    pub fn location(&self, piece: Piece) -> Option<Hex> {
        self.stacks
            .iter()
            .find(|(_, stack)| stack.contains(&piece))
            .map(|(&hex, _)| hex)
    }

    /// Whether a piece is the top piece of its stack, i.e. not covered (§5.2).
    pub fn is_on_top(&self, piece: Piece) -> bool {
        self.location(piece)
            .is_some_and(|hex| self.top(hex) == Some(piece))
    }

    /// Every occupied cell, in cell order (§2.7).
    pub fn occupied_cells(&self) -> impl Iterator<Item = Hex> + '_ {
        self.stacks.keys().copied()
    }

    /// Every piece on the board with its cell, bottom to top in each cell.
    pub fn pieces(&self) -> impl Iterator<Item = (Hex, Piece)> + '_ {
        self.stacks
            .iter()
            .flat_map(|(&hex, stack)| stack.iter().map(move |&piece| (hex, piece)))
    }

    /// Whether the board holds no piece.
    pub fn is_empty(&self) -> bool {
        self.stacks.is_empty()
    }

    /// The occupied cells adjacent to `hex` (§2.8).
    pub(crate) fn occupied_neighbours(&self, hex: Hex) -> impl Iterator<Item = Hex> + '_ {
        hex.neighbours()
            .into_iter()
            .filter(|&n| self.is_occupied(n))
    }

    /// The empty cells adjacent to at least one occupied cell.
    pub fn empty_cells_touching_hive(&self) -> BTreeSet<Hex> {
        self.occupied_cells()
            .flat_map(|hex| hex.neighbours())
            .filter(|&n| !self.is_occupied(n))
            .collect()
    }

    /// Puts a piece on top of the stack at `hex`.
    pub fn push(&mut self, hex: Hex, piece: Piece) {
        self.stacks.entry(hex).or_default().push(piece);
    }

    /// Removes the top piece of the stack at `hex`.
    pub fn pop(&mut self, hex: Hex) -> Option<Piece> {
        let stack = self.stacks.get_mut(&hex)?;
        let piece = stack.pop();
        if stack.is_empty() {
            self.stacks.remove(&hex);
        }
        piece
    }

    /// A copy of the board with the top piece at `hex` lifted off: the board a
    /// moving piece sees while it moves (§5.3–§5.6).
    pub(crate) fn with_top_lifted(&self, hex: Hex) -> Board {
        let mut lifted = self.clone();
        lifted.pop(hex);
        lifted
    }

    /// Whether the occupied cells form one connected group (§2.7).
    /// An empty board counts as connected.
    pub fn is_connected(&self) -> bool {
        let Some(start) = self.occupied_cells().next() else {
            return true;
        };
        let mut seen = BTreeSet::from([start]);
        let mut queue = VecDeque::from([start]);
        while let Some(hex) = queue.pop_front() {
            for next in self.occupied_neighbours(hex) {
                if seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
        seen.len() == self.stacks.len()
    }
}
