//! Hex geometry: unbounded axial coordinates and the six directions (§2.1, §2.2, §2.8, §2.9).

use std::fmt;

/// A cell of the unbounded hex grid in axial coordinates (§2.1).
///
/// Pointy-top hexes; `q` grows towards the east, `r` towards the south.
/// The first piece of every game stands on the origin `(0, 0)` (§3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hex {
    /// The axial column, growing towards the east (§2.1).
    pub q: i32,
    /// The axial row, growing towards the south (§2.1).
    pub r: i32,
}

impl Hex {
    /// The origin, where the first piece of a game is placed (§3.3).
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    /// The cell at axial coordinates `(q, r)` (§2.1).
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The neighbouring cell in direction `dir` (§2.2).
    pub fn neighbour(self, dir: Direction) -> Hex {
        let (dq, dr) = dir.delta();
        Hex::new(self.q + dq, self.r + dr)
    }

    /// The six neighbours, in the order of [`Direction::ALL`] (§2.8).
    pub fn neighbours(self) -> [Hex; 6] {
        Direction::ALL.map(|dir| self.neighbour(dir))
    }

    /// Whether `other` shares an edge with `self` (§2.8).
    pub fn is_adjacent(self, other: Hex) -> bool {
        self.direction_to(other).is_some()
    }

    /// The direction from `self` to an adjacent cell, if `other` is adjacent (§2.8).
    pub(crate) fn direction_to(self, other: Hex) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|&dir| self.neighbour(dir) == other)
    }

    /// The two cells adjacent to both `self` and the adjacent cell `other`:
    /// the flanking cells of the edge between them (§2.9). `None` when the
    /// two cells are not adjacent.
    pub fn common_neighbours(self, other: Hex) -> Option<[Hex; 2]> {
        let dir = self.direction_to(other)?;
        Some([
            self.neighbour(dir.rotated_clockwise()),
            self.neighbour(dir.rotated_counterclockwise()),
        ])
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.q, self.r)
    }
}

/// One of the six directions of the pointy-top grid (§2.2).
///
/// The order of [`Direction::ALL`] is clockwise starting at north-west, which is
/// also the order in which the canonical reference piece is searched (§9.30).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// Delta `(0, -1)`, written `\X` (§2.2).
    NorthWest,
    /// Delta `(+1, -1)`, written `X/` (§2.2).
    NorthEast,
    /// Delta `(+1, 0)`, written `X-` (§2.2).
    East,
    /// Delta `(0, +1)`, written `X\` (§2.2).
    SouthEast,
    /// Delta `(-1, +1)`, written `/X` (§2.2).
    SouthWest,
    /// Delta `(-1, 0)`, written `-X` (§2.2).
    West,
}

impl Direction {
    /// Clockwise from north-west (§2.2, §9.30).
    pub const ALL: [Direction; 6] = [
        Direction::NorthWest,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::West,
    ];

    /// The axial delta `(dq, dr)` of one step in this direction (§2.2).
    pub(crate) const fn delta(self) -> (i32, i32) {
        match self {
            Direction::East => (1, 0),
            Direction::West => (-1, 0),
            Direction::NorthEast => (1, -1),
            Direction::SouthWest => (-1, 1),
            Direction::SouthEast => (0, 1),
            Direction::NorthWest => (0, -1),
        }
    }

    fn index(self) -> usize {
        match self {
            Direction::NorthWest => 0,
            Direction::NorthEast => 1,
            Direction::East => 2,
            Direction::SouthEast => 3,
            Direction::SouthWest => 4,
            Direction::West => 5,
        }
    }

    /// The next direction clockwise.
    pub(crate) fn rotated_clockwise(self) -> Direction {
        Direction::ALL[(self.index() + 1) % 6]
    }

    /// The next direction counter-clockwise.
    pub(crate) fn rotated_counterclockwise(self) -> Direction {
        Direction::ALL[(self.index() + 5) % 6]
    }

    /// The opposite direction.
    pub(crate) fn opposite(self) -> Direction {
        Direction::ALL[(self.index() + 3) % 6]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_neighbours_are_adjacent_to_both_cells() {
        // §2.9: the two flanking cells of an edge touch both of its cells.
        let a = Hex::new(2, -1);
        for b in a.neighbours() {
            let [l, r] = a.common_neighbours(b).expect("adjacent");
            for c in [l, r] {
                assert!(a.is_adjacent(c) && b.is_adjacent(c));
            }
            assert_ne!(l, r);
        }
        assert!(a.common_neighbours(Hex::new(9, 9)).is_none());
    }

    #[test]
    fn opposite_directions_cancel() {
        // §2.2
        for dir in Direction::ALL {
            assert_eq!(
                Hex::ORIGIN.neighbour(dir).neighbour(dir.opposite()),
                Hex::ORIGIN
            );
        }
    }
}
