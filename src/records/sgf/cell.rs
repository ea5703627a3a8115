//! boardspace cells (spec/sources/records-notes.md section 4): a column
//! letter and a row number as written (§10.10), and the frame that maps them
//! to axial hexes, anchored on the first piece's cell, on the 26 × 26 torus
//! of boardspace's board (section 4.2).

use std::fmt;

use crate::core::Hex;

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

/// Why a column or a row does not name a cell.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum NotACell {
    /// The column token, as written.
    #[error("\"{0}\" is not a column: expected a letter A–Z, or <k>A / <k>Z beyond the board")]
    Column(String),
    /// The row token, as written.
    #[error("\"{0}\" is not a row number")]
    Row(String),
}

impl Cell {
    /// Reads a column token and a row token (`N` `13`, `1Z` `13`, `2A` `7`).
    pub(super) fn parse(col: &str, row: &str) -> Result<Cell, NotACell> {
        let bad_col = || NotACell::Column(col.to_string());
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
            .ok_or_else(|| NotACell::Row(row.to_string()))?;
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

/// The axial frame of a game: the first piece's cell (c0, n0) is the
/// origin (section 4.2); until it is placed, every cell is its own origin.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Frame {
    origin: Option<Cell>,
}

impl Frame {
    /// Anchors the frame on `cell`, unless it is anchored already.
    pub(super) fn anchor(&mut self, cell: Cell) {
        self.origin.get_or_insert(cell);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_the_torus() {
        // section 4.2: N 13 is the origin; columns east, rows up one = NW.
        let mut frame = Frame::default();
        frame.anchor(Cell::parse("N", "13").unwrap());
        assert_eq!(frame.hex(Cell::parse("O", "13").unwrap()), Hex::new(1, 0));
        assert_eq!(frame.hex(Cell::parse("n", "14").unwrap()), Hex::new(0, -1));
        assert_eq!(frame.hex(Cell::parse("M", "12").unwrap()), Hex::new(-1, 1));
        // Z 13 as origin: A 14 lies NE (column +1, row +1).
        let mut frame = Frame::default();
        frame.anchor(Cell::parse("Z", "13").unwrap());
        assert_eq!(frame.hex(Cell::parse("A", "14").unwrap()), Hex::new(1, -1));
        assert_eq!(frame.hex(Cell::parse("1Z", "13").unwrap()), Hex::new(1, 0));
        assert_eq!(frame.written(Hex::new(1, -1)), "A 14");
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
}
