//! Pictures of a position: an ASCII hex grid for terminals and snapshots
//! ([`ascii`]), and an SVG drawing, standalone or for the web page ([`svg`],
//! [`svg_clickable`]) (`hive-oracle render`). This file holds what both
//! share: the [`Frame`] a picture may show and the stacks of a position.
//!
//! Both work from [`BoardView`] alone, so they draw a position of either
//! engine. The occupied cells are found by asking where each piece of the
//! game type is. Both outputs are deterministic: the same position and the
//! same highlights always give the same bytes.
//!
//! The grid is the one of §2.1: pointy-top hexagons, `q` growing towards the
//! east and `r` towards the south, so each row is shifted half a cell to the
//! right of the row above it.

use std::collections::{BTreeMap, BTreeSet};

mod ascii;
mod svg;

pub use ascii::ascii;
pub use svg::{svg, svg_clickable, xml_escape};

use crate::core::BoardView;
use crate::core::{Hex, Piece};

/// How many cells a picture reaches beyond the hive on every side: a
/// highlighted cell may be up to this far from the nearest occupied row or
/// column, and no further, so that the size of a picture is set by the
/// position and never by the coordinates asked for.
pub const MARGIN: i32 = 5;

/// The cells a picture may show: the bounding box of the occupied cells in
/// axial coordinates, widened by [`MARGIN`] on every side (around the origin
/// on an empty board). Bounds are `i64`, so no coordinate overflows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The smallest and largest `q`.
    pub q: (i64, i64),
    /// The smallest and largest `r`.
    pub r: (i64, i64),
}

impl Frame {
    /// The frame of a position.
    pub fn of(view: &impl BoardView) -> Frame {
        let cells: Vec<Hex> = stacks(view).into_keys().collect();
        let span = |values: Vec<i64>| {
            let low = values.iter().copied().min().unwrap_or(0);
            let high = values.iter().copied().max().unwrap_or(0);
            (low - i64::from(MARGIN), high + i64::from(MARGIN))
        };
        Frame {
            q: span(cells.iter().map(|h| i64::from(h.q)).collect()),
            r: span(cells.iter().map(|h| i64::from(h.r)).collect()),
        }
    }

    /// Whether the picture may show `hex`.
    pub fn contains(&self, hex: Hex) -> bool {
        self.contains_axial(i64::from(hex.q), i64::from(hex.r))
    }

    fn contains_axial(&self, q: i64, r: i64) -> bool {
        (self.q.0..=self.q.1).contains(&q) && (self.r.0..=self.r.1).contains(&r)
    }

    /// The cell `(q, r)` if the picture may show it, else why not, with
    /// the allowed range. Takes any `i64`, so that a coordinate too large
    /// for a cell is refused with the same message.
    pub fn cell(&self, q: i64, r: i64) -> Result<Hex, OutsidePicture> {
        match (i32::try_from(q), i32::try_from(r)) {
            (Ok(cq), Ok(cr)) if self.contains_axial(q, r) => Ok(Hex::new(cq, cr)),
            _ => Err(OutsidePicture { q, r, frame: *self }),
        }
    }
}

/// A cell asked for beyond the [`Frame`] of a picture, with the range allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "({q}, {r}) is outside the picture: a highlighted cell must have q from {} to {} and r from {} to {} (the hive and {MARGIN} cells around it)",
    frame.q.0, frame.q.1, frame.r.0, frame.r.1
)]
pub struct OutsidePicture {
    /// The `q` asked for.
    pub q: i64,
    /// The `r` asked for.
    pub r: i64,
    /// The frame of the picture.
    pub frame: Frame,
}

/// Refuses highlighted cells that a picture of the position cannot show
/// (outside its [`Frame`]), naming the first one and the allowed range.
///
/// ```
/// use hive_oracle_rules::core::Hex;
/// use hive_oracle_rules::reference::ReferenceEngine;
/// use hive_oracle_rules::rules::Rules;
///
/// let game = ReferenceEngine::load("Base;InProgress;White[2];wS1;bS1 wS1-").unwrap();
/// assert!(hive_oracle_rules::render::check_highlight(&game, &[Hex::new(6, 0)]).is_ok());
/// let refused = hive_oracle_rules::render::check_highlight(&game, &[Hex::new(7, 0)]).unwrap_err();
/// assert!(refused.to_string().contains("q from -5 to 6 and r from -5 to 5"), "{refused}");
/// ```
pub fn check_highlight(view: &impl BoardView, cells: &[Hex]) -> Result<(), OutsidePicture> {
    let frame = Frame::of(view);
    for hex in cells {
        frame.cell(i64::from(hex.q), i64::from(hex.r))?;
    }
    Ok(())
}

/// The stacks of a position by cell, bottom to top (§2.4).
pub fn stacks(view: &impl BoardView) -> BTreeMap<Hex, Vec<Piece>> {
    let cells: BTreeSet<Hex> = view
        .game_type()
        .all_pieces()
        .filter_map(|piece| view.location(piece))
        .collect();
    cells
        .into_iter()
        .map(|hex| (hex, view.stack(hex)))
        .filter(|(_, stack)| !stack.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_refuses_cells_beyond_the_margin_with_the_range() {
        // the empty board's frame: MARGIN cells around the origin
        let frame = Frame {
            q: (-5, 5),
            r: (-5, 5),
        };
        assert_eq!(frame.cell(5, -5), Ok(Hex::new(5, -5)));
        let refused = frame.cell(6, 0).unwrap_err();
        assert!(refused.to_string().starts_with(
            "(6, 0) is outside the picture: a highlighted cell must have q from -5 to 5"
        ));
        assert!(frame.cell(i64::MAX, 0).is_err());
    }
}
