//! The board the SGF reader follows a game on, to write each ply as a
//! standard UHP MoveString and to cross-check the relative suffix a drop is
//! written with (spec/sources/records-notes.md section 3.7, section 4.3).
//!
//! The pieces are kept on the reference engine's board
//! ([`crate::reference::board::Board`]: stacks by cell, nothing of the
//! rules), not in a reference game: a record may hold moves the rules refuse
//! (a prototype pillbug's, a covered piece moved, a placement out of turn),
//! and the reader must still follow them so that every later ply is read;
//! the replay judges every ply. What the reader adds is the frame that
//! anchors boardspace's cells ([`Frame`]) and where a lifted piece came from.

use crate::core::view::{self, BoardView};
use crate::core::{Color, Direction, GameType, Hex, Move, Piece};
use crate::reference::board::Board as Stacks;
use crate::reference::end::surround_result;

use super::cell::{Cell, Frame};
use super::token::{NotAPiece, Token};

/// Where a lifted piece came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Source {
    /// Its rack: the move is a placement.
    Rack,
    /// A cell of the board: the move is a movement.
    Board(Hex),
}

/// Why the relative suffix written with a drop disagrees with its
/// coordinates; the cells in boardspace's writing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum SuffixDisagrees {
    /// The suffix names no piece.
    #[error(transparent)]
    NotAPiece(#[from] NotAPiece),
    /// The suffix names a piece that is not on the board.
    #[error("it names {0}, which is not on the board")]
    NotOnTheBoard(Piece),
    /// The suffix names another cell than the coordinates.
    #[error("it says {says}, not {to}")]
    OtherCell {
        /// What the suffix says: a cell beside a piece, or a climb.
        says: String,
        /// The cell of the coordinates.
        to: String,
    },
    /// `.` where the destination has a neighbour other than the mover's cell.
    #[error("\".\" says the first piece, a climb or no neighbour but the mover's own cell, and {to} is empty beside {beside}")]
    NotAlone {
        /// The cell of the coordinates.
        to: String,
        /// A neighbour of it that holds a piece.
        beside: String,
    },
}

/// The board: the reference engine's stacks, the game type, and the frame
/// the first piece's cell anchors (section 4.2).
#[derive(Clone, Debug)]
pub(super) struct Board {
    game_type: GameType,
    frame: Frame,
    stacks: Stacks,
}

impl Board {
    pub(super) fn new(game_type: GameType) -> Board {
        Board {
            game_type,
            frame: Frame::default(),
            stacks: Stacks::default(),
        }
    }

    /// The axial cell of a boardspace cell (section 4.2).
    pub(super) fn hex(&self, cell: Cell) -> Hex {
        self.frame.hex(cell)
    }

    /// Whether two written cells are the same cell.
    pub(super) fn same_cell(&self, a: Cell, b: Cell) -> bool {
        self.frame.same_cell(a, b)
    }

    /// The top piece on a cell.
    pub(super) fn top(&self, hex: Hex) -> Option<Piece> {
        self.stacks.top(hex)
    }

    /// Where a piece stands.
    pub(super) fn cell_of(&self, piece: Piece) -> Option<Hex> {
        self.stacks.location(piece)
    }

    /// Whether no piece is on the board.
    pub(super) fn is_empty(&self) -> bool {
        self.stacks.is_empty()
    }

    /// The absolute move of `piece` from `from` to `to` (which anchors the
    /// coordinates when it is the first piece).
    pub(super) fn absolute(&mut self, piece: Piece, from: Source, to: Cell) -> Move {
        if self.is_empty() {
            self.frame.anchor(to);
        }
        let to = self.hex(to);
        match from {
            Source::Rack => Move::Place { piece, to },
            Source::Board(_) => Move::Move { piece, to },
        }
    }

    /// The standard UHP MoveString of a move in this position (§10.11; section 4.3).
    pub(super) fn move_string(&self, mv: Move) -> String {
        view::move_string(self, mv)
    }

    /// Plays a move on the board, whatever the rules say: the piece leaves
    /// its cell, even from under others, and goes on top of `to`.
    pub(super) fn apply(&mut self, mv: Move) {
        let (piece, to) = match mv {
            Move::Pass => return,
            Move::Place { piece, to } | Move::Move { piece, to } => (piece, to),
        };
        if let Some(from) = self.cell_of(piece) {
            // the pieces above it stay, in their order
            let mut above = Vec::new();
            while let Some(top) = self.stacks.pop(from) {
                if top == piece {
                    break;
                }
                above.push(top);
            }
            for covering in above.into_iter().rev() {
                self.stacks.push(from, covering);
            }
        }
        self.stacks.push(to, piece);
    }

    /// Whether a queen on the board has all six neighbours occupied (§8.1),
    /// which ends the game: later actions are debris (section 3.8).
    pub(super) fn queen_surrounded(&self) -> bool {
        surround_result(&self.stacks).is_some()
    }

    /// Checks the written relative suffix of a drop (§10.11; section 3.7, section 4.3) against
    /// the move of `piece` from `from` to `to`, in the position before the
    /// move (a reference to the mover itself is read at its origin); `swap`:
    /// the record's colours are swapped. The error says what the suffix
    /// says instead.
    pub(super) fn check_suffix(
        &self,
        piece: Piece,
        from: Source,
        to: Hex,
        suffix: &str,
        swap: bool,
    ) -> Result<(), SuffixDisagrees> {
        let suffix = suffix.trim();
        if suffix.is_empty() {
            return Ok(());
        }
        if suffix == "." {
            return self.check_dot(piece, from, to);
        }
        let before = |c: char| match c {
            '-' => Some(Direction::West),
            '/' => Some(Direction::SouthWest),
            '\\' => Some(Direction::NorthWest),
            _ => None,
        };
        let after = |c: char| match c {
            '-' => Some(Direction::East),
            '/' => Some(Direction::NorthEast),
            '\\' => Some(Direction::SouthEast),
            _ => None,
        };
        let mut chars = suffix.chars();
        let first = chars.next();
        let last = chars.next_back();
        let (name, direction) = if let Some(dir) = first.and_then(before) {
            (&suffix[1..], Some(dir))
        } else if let Some(dir) = last.and_then(after) {
            (&suffix[..suffix.len() - 1], Some(dir))
        } else if last == Some('.') {
            (&suffix[..suffix.len() - 1], None)
        } else {
            (suffix, None)
        };
        let mut token = Token::parse(name)?;
        if swap {
            token.color = token.color.map(Color::opponent);
        }
        let candidates: Vec<Piece> = match token.color {
            Some(_) => vec![token.piece(Color::White)],
            None => Color::ALL.iter().map(|&c| token.piece(c)).collect(),
        };
        let placed: Vec<(Piece, Hex)> = candidates
            .iter()
            .filter_map(|&p| self.cell_of(p).map(|at| (p, at)))
            .collect();
        let Some(&(reference, at)) = placed.first() else {
            return Err(SuffixDisagrees::NotOnTheBoard(token.piece(Color::White)));
        };
        let says = |at: Hex| direction.map_or(at, |dir| at.neighbour(dir));
        if placed.iter().any(|&(_, at)| says(at) == to) {
            return Ok(());
        }
        let says = match direction {
            Some(_) => format!(
                "the cell {} beside {reference}",
                self.frame.written(says(at))
            ),
            None => format!("a climb onto {reference} at {}", self.frame.written(at)),
        };
        Err(SuffixDisagrees::OtherCell {
            says,
            to: self.frame.written(to),
        })
    }

    /// `.`: the first piece of the game, a climb, or a move next to
    /// nothing but the mover's own cell ("no reference found", section 3.7).
    fn check_dot(&self, piece: Piece, from: Source, to: Hex) -> Result<(), SuffixDisagrees> {
        let others = |hex: Hex| self.stacks.stack(hex).iter().any(|&p| p != piece);
        if self.is_empty() || others(to) {
            return Ok(());
        }
        let own = match from {
            Source::Board(at) => Some(at),
            Source::Rack => None,
        };
        match to
            .neighbours()
            .into_iter()
            .find(|&n| others(n) && Some(n) != own)
        {
            None => Ok(()),
            Some(n) => Err(SuffixDisagrees::NotAlone {
                to: self.frame.written(to),
                beside: self.frame.written(n),
            }),
        }
    }
}

impl BoardView for Board {
    fn game_type(&self) -> GameType {
        self.game_type
    }

    fn location(&self, piece: Piece) -> Option<Hex> {
        self.cell_of(piece)
    }

    fn stack(&self, hex: Hex) -> Vec<Piece> {
        self.stacks.stack(hex).to_vec()
    }

    fn board_is_empty(&self) -> bool {
        self.is_empty()
    }
}
