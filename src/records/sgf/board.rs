//! boardspace cells and piece tokens, and the small board the reader keeps
//! to write each ply as a standard UHP MoveString (spec/sources/records-notes.md section 3.6,
//! section 3.7, section 4). The board knows where pieces are and nothing of the rules.

use std::collections::HashMap;
use std::fmt;

use crate::core::view;
use crate::core::view::BoardView;
use crate::core::{Bug, Color, Direction, GameType, Hex, Move, Piece};

/// The largest column or row distance from the board's letters that a
/// cell may name; a bound so that no input overflows.
const COORDINATE_LIMIT: i32 = 10_000;

/// A boardspace cell as written: column index (A = 0, `<k>Z` = 25 + k,
/// `<k>A` = −k) and row number (§10.10; section 4.1, section 4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cell {
    col: i32,
    row: i32,
}

impl Cell {
    /// Reads a column token and a row token (`N` `13`, `1Z` `13`, `2A` `7`).
    pub(super) fn parse(col: &str, row: &str) -> Result<Cell, String> {
        let bad_col = || {
            format!(
                "\"{col}\" is not a column: expected a letter A–Z, or <k>A / <k>Z beyond the board"
            )
        };
        let letter_index = |c: char| -> Option<i32> {
            c.is_ascii_alphabetic()
                .then(|| i32::from(c.to_ascii_uppercase() as u8 - b'A'))
        };
        let mut chars = col.chars();
        let last = chars.next_back().ok_or_else(bad_col)?;
        let prefix = chars.as_str();
        let index = letter_index(last).ok_or_else(bad_col)?;
        let col_index = if prefix.is_empty() {
            index
        } else {
            // `<k>Z` and `<k>A`: columns beyond the board's letters.
            let k: i32 = prefix
                .parse()
                .ok()
                .filter(|k| (1..=COORDINATE_LIMIT).contains(k))
                .ok_or_else(bad_col)?;
            match last.to_ascii_uppercase() {
                'Z' => 25 + k,
                'A' => -k,
                _ => return Err(bad_col()),
            }
        };
        let row_number: i32 = row
            .parse()
            .ok()
            .filter(|n: &i32| n.abs() <= COORDINATE_LIMIT)
            .ok_or_else(|| format!("\"{row}\" is not a row number"))?;
        Ok(Cell {
            col: col_index,
            row: row_number,
        })
    }

    /// The cell in boardspace's writing (`N 13`, `1Z 4`).
    fn written(col: i32, row: i32) -> String {
        let column = match col {
            0..=25 => char::from(b'A' + col as u8).to_string(),
            c if c > 25 => format!("{}Z", c - 25),
            c => format!("{}A", -c),
        };
        format!("{column} {row}")
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Cell::written(self.col, self.row))
    }
}

/// A difference of two coordinates on the 26 × 26 torus, taken into
/// −13…12 when both lie on the board's letters or numbers (section 4.2); columns
/// beyond the letters (`1Z`, `2A`) are not wrapped.
fn torus_delta(value: i32, base: i32, on_board: impl Fn(i32) -> bool) -> i32 {
    let raw = value - base;
    if on_board(value) && on_board(base) {
        (raw + 13).rem_euclid(26) - 13
    } else {
        raw
    }
}

fn column_on_board(c: i32) -> bool {
    (0..=25).contains(&c)
}

fn row_on_board(n: i32) -> bool {
    (1..=26).contains(&n)
}

/// A piece token as written: with its colour (`wL1`, `bs1`) or without
/// (`Q`, `g1`, `b1` = beetle 1) (section 3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Token {
    /// The colour written, if any.
    pub color: Option<Color>,
    /// The bug.
    pub bug: Bug,
    /// The number (1 for unique bugs).
    pub number: u8,
    /// Whether a unique bug was written with `1` (`wL1`).
    pub numbered_unique: bool,
}

impl Token {
    /// Reads a piece token. `w`/`b` followed by a bug letter (any case) is a
    /// coloured name; anything else is a bug letter and an optional number.
    pub(super) fn parse(text: &str) -> Result<Token, String> {
        let chars: Vec<char> = text.chars().collect();
        let color_of = |c: char| match c.to_ascii_lowercase() {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        };
        let (color, rest) = match chars.as_slice() {
            [c, b, ..] if color_of(*c).is_some() && Bug::from_letter(*b).is_some() => {
                (color_of(*c), &chars[1..])
            }
            _ => (None, chars.as_slice()),
        };
        let bad = |why: &str| format!("\"{text}\" is not a piece: {why}");
        let (bug, digits) = match rest {
            [b, digits @ ..] => (
                Bug::from_letter(*b)
                    .ok_or_else(|| bad("expected a bug letter Q, S, B, G, A, M, L or P"))?,
                digits,
            ),
            [] => return Err(bad("expected a bug letter")),
        };
        let number = match digits {
            [] => None,
            [d] => d.to_digit(10),
            _ => return Err(bad("expected at most one digit")),
        };
        match (bug.count(), number) {
            (1, None) => Ok(Token {
                color,
                bug,
                number: 1,
                numbered_unique: false,
            }),
            (1, Some(1)) => Ok(Token {
                color,
                bug,
                number: 1,
                numbered_unique: true,
            }),
            (count, Some(n)) if count > 1 && (1..=u32::from(count)).contains(&n) => Ok(Token {
                color,
                bug,
                number: n as u8,
                numbered_unique: false,
            }),
            (1, Some(_)) => Err(bad(&format!("the {} is a single piece", bug.name()))),
            (count, _) => Err(bad(&format!(
                "a player has {count} {}s, numbered 1–{count}",
                bug.name()
            ))),
        }
    }

    /// The piece, a colourless token taking `default`.
    pub(super) fn piece(self, default: Color) -> Piece {
        Piece {
            color: self.color.unwrap_or(default),
            bug: self.bug,
            number: self.number,
        }
    }

    /// Whether the token names `piece` (a colourless token names either colour).
    pub(super) fn names(self, piece: Piece) -> bool {
        self.bug == piece.bug
            && self.number == piece.number
            && self.color.is_none_or(|c| c == piece.color)
    }
}

/// Where a lifted piece came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Source {
    /// Its rack: the move is a placement.
    Rack,
    /// A cell of the board: the move is a movement.
    Board(Hex),
}

/// The board: stacks by cell and cells by piece; the first piece's cell
/// (c0, n0) anchors the axial coordinates (section 4.2).
#[derive(Clone, Debug)]
pub(super) struct Board {
    game_type: GameType,
    origin: Option<Cell>,
    stacks: HashMap<Hex, Vec<Piece>>,
    cells: HashMap<Piece, Hex>,
}

impl Board {
    pub(super) fn new(game_type: GameType) -> Board {
        Board {
            game_type,
            origin: None,
            stacks: HashMap::new(),
            cells: HashMap::new(),
        }
    }

    /// The axial cell of a boardspace cell: q = c − c0, r = n0 − n on the
    /// torus (section 4.2). Before the first piece, the cell itself is the origin.
    pub(super) fn hex(&self, cell: Cell) -> Hex {
        let origin = self.origin.unwrap_or(cell);
        Hex::new(
            torus_delta(cell.col, origin.col, column_on_board),
            torus_delta(origin.row, cell.row, row_on_board),
        )
    }

    /// A cell in boardspace's writing, for messages.
    pub(super) fn written(&self, hex: Hex) -> String {
        let origin = self.origin.unwrap_or(Cell { col: 13, row: 13 });
        let mut col = origin.col + hex.q;
        let mut row = origin.row - hex.r;
        if column_on_board(origin.col) && !column_on_board(col) && (-13..=38).contains(&col) {
            col = col.rem_euclid(26);
        }
        if row_on_board(origin.row) && !row_on_board(row) && (-12..=39).contains(&row) {
            row = (row - 1).rem_euclid(26) + 1;
        }
        Cell::written(col, row)
    }

    /// Whether two written cells are the same cell.
    pub(super) fn same_cell(&self, a: Cell, b: Cell) -> bool {
        match self.origin {
            Some(_) => self.hex(a) == self.hex(b),
            None => a == b,
        }
    }

    /// The top piece on a cell.
    pub(super) fn top(&self, hex: Hex) -> Option<Piece> {
        self.stacks
            .get(&hex)
            .and_then(|stack| stack.last().copied())
    }

    /// Where a piece stands.
    pub(super) fn cell_of(&self, piece: Piece) -> Option<Hex> {
        self.cells.get(&piece).copied()
    }

    /// Whether no piece is on the board.
    pub(super) fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The absolute move of `piece` from `from` to `to` (which anchors the
    /// coordinates when it is the first piece).
    pub(super) fn absolute(&mut self, piece: Piece, from: Source, to: Cell) -> Move {
        if self.is_empty() && self.origin.is_none() {
            self.origin = Some(to);
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

    /// Plays a move on the board (no rules).
    pub(super) fn apply(&mut self, mv: Move) {
        let (piece, to) = match mv {
            Move::Pass => return,
            Move::Place { piece, to } | Move::Move { piece, to } => (piece, to),
        };
        if let Some(from) = self.cells.remove(&piece) {
            if let Some(stack) = self.stacks.get_mut(&from) {
                stack.retain(|&p| p != piece);
                if stack.is_empty() {
                    self.stacks.remove(&from);
                }
            }
        }
        self.stacks.entry(to).or_default().push(piece);
        self.cells.insert(piece, to);
    }

    /// Whether a queen on the board has all six neighbours occupied (§8.1),
    /// which ends the game: later actions are debris (section 3.8).
    pub(super) fn queen_surrounded(&self) -> bool {
        Color::ALL.into_iter().any(|color| {
            self.cell_of(Piece::first(color, Bug::Queen))
                .is_some_and(|at| at.neighbours().iter().all(|n| self.stacks.contains_key(n)))
        })
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
    ) -> Result<(), String> {
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
        if placed.is_empty() {
            return Err(format!(
                "it names {}, which is not on the board",
                candidates[0]
            ));
        }
        let says = |at: Hex| direction.map_or(at, |dir| at.neighbour(dir));
        if placed.iter().any(|&(_, at)| says(at) == to) {
            return Ok(());
        }
        let (reference, at) = placed[0];
        let what = match direction {
            Some(_) => format!("the cell {} beside {reference}", self.written(says(at))),
            None => format!("a climb onto {reference} at {}", self.written(at)),
        };
        Err(format!("it says {what}, not {}", self.written(to)))
    }

    /// `.`: the first piece of the game, a climb, or a move next to
    /// nothing but the mover's own cell ("no reference found", section 3.7).
    fn check_dot(&self, piece: Piece, from: Source, to: Hex) -> Result<(), String> {
        let others = |hex: Hex| {
            self.stacks
                .get(&hex)
                .is_some_and(|s| s.iter().any(|&p| p != piece))
        };
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
            Some(n) => Err(format!(
                "\".\" says the first piece, a climb or no neighbour but the mover's own cell, and {} is empty beside {}",
                self.written(to),
                self.written(n)
            )),
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
        self.stacks.get(&hex).cloned().unwrap_or_default()
    }

    fn board_is_empty(&self) -> bool {
        self.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_the_torus() {
        // section 4.2: N 13 is the origin; columns east, rows up one = NW.
        let mut board = Board::new(GameType::BASE);
        let n13 = Cell::parse("N", "13").unwrap();
        board.absolute(Piece::first(Color::White, Bug::Queen), Source::Rack, n13);
        assert_eq!(board.hex(Cell::parse("O", "13").unwrap()), Hex::new(1, 0));
        assert_eq!(board.hex(Cell::parse("n", "14").unwrap()), Hex::new(0, -1));
        assert_eq!(board.hex(Cell::parse("M", "12").unwrap()), Hex::new(-1, 1));
        // Z 13 as origin: A 14 lies NE (column +1, row +1).
        let mut board = Board::new(GameType::BASE);
        board.absolute(
            Piece::first(Color::White, Bug::Queen),
            Source::Rack,
            Cell::parse("Z", "13").unwrap(),
        );
        assert_eq!(board.hex(Cell::parse("A", "14").unwrap()), Hex::new(1, -1));
        assert_eq!(board.hex(Cell::parse("1Z", "13").unwrap()), Hex::new(1, 0));
        assert_eq!(board.written(Hex::new(1, -1)), "A 14");
        assert_eq!(Cell::parse("2A", "3").unwrap().col, -2);
        for bad in [
            ("", "1"),
            ("0Z", "1"),
            ("1B", "1"),
            ("N", "x"),
            ("N", "99999999999"),
        ] {
            assert!(Cell::parse(bad.0, bad.1).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn tokens() {
        // section 3.6: coloured names, colourless old names, b1 = beetle 1, unique bugs with 1.
        let t = |s: &str| Token::parse(s).map(|t| (t.color, t.piece(Color::White).to_string()));
        assert_eq!(t("wL1"), Ok((Some(Color::White), "wL".into())));
        assert_eq!(t("bs1"), Ok((Some(Color::Black), "bS1".into())));
        assert_eq!(t("b1"), Ok((None, "wB1".into())));
        assert_eq!(t("B2"), Ok((None, "wB2".into())));
        assert_eq!(t("q"), Ok((None, "wQ".into())));
        assert_eq!(t("bb2"), Ok((Some(Color::Black), "bB2".into())));
        for bad in ["", "w", "wS3", "bQ2", "x1", "wS", "B", "wS12"] {
            assert!(Token::parse(bad).is_err(), "{bad}");
        }
    }
}
