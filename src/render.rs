//! Pictures of a position: an ASCII hex grid for terminals and snapshots, and
//! a standalone SVG drawing (`hive-oracle render`).
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
use std::fmt::Write as _;

use crate::core::BoardView;
use crate::core::{Color, Hex, Piece};

/// Width of one cell in the ASCII picture; a row is shifted by half of it.
const CELL_WIDTH: i64 = 8;

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
    pub fn cell(&self, q: i64, r: i64) -> Result<Hex, String> {
        match (i32::try_from(q), i32::try_from(r)) {
            (Ok(cq), Ok(cr)) if self.contains_axial(q, r) => Ok(Hex::new(cq, cr)),
            _ => Err(format!(
                "({q}, {r}) is outside the picture: a highlighted cell must have q from {} to {} and r from {} to {} (the hive and {MARGIN} cells around it)",
                self.q.0, self.q.1, self.r.0, self.r.1
            )),
        }
    }
}

/// Refuses highlighted cells that a picture of the position cannot show
/// (outside its [`Frame`]), naming the first one and the allowed range.
///
/// ```
/// use hive_oracle::core::Hex;
/// use hive_oracle::reference::ReferenceEngine;
/// use hive_oracle::rules::Rules;
///
/// let game = ReferenceEngine::load("Base;InProgress;White[2];wS1;bS1 wS1-").unwrap();
/// assert!(hive_oracle::render::check_highlight(&game, &[Hex::new(6, 0)]).is_ok());
/// let refused = hive_oracle::render::check_highlight(&game, &[Hex::new(7, 0)]).unwrap_err();
/// assert!(refused.contains("q from -5 to 6 and r from -5 to 5"), "{refused}");
/// ```
pub fn check_highlight(view: &impl BoardView, cells: &[Hex]) -> Result<(), String> {
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

/// The label of a stack in the ASCII picture: its top piece, with `^h` for a
/// stack of height 2 or more (as in the diagrams of `spec/rules.md`).
fn stack_label(stack: &[Piece]) -> String {
    match stack.last() {
        None => ".".to_string(),
        Some(top) if stack.len() >= 2 => format!("{top}^{}", stack.len()),
        Some(top) => top.to_string(),
    }
}

/// Cells listed in reading order: top row first, west to east.
fn reading_order(cells: impl IntoIterator<Item = Hex>) -> Vec<Hex> {
    let mut cells: Vec<Hex> = cells.into_iter().collect();
    cells.sort_by_key(|h| (h.r, h.q));
    cells.dedup();
    cells
}

fn cell_list(cells: &[Hex]) -> String {
    cells
        .iter()
        .map(Hex::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// An ASCII picture of the position as a hex grid, followed by a legend.
///
/// Each occupied cell shows its top piece (`wQ`, `bS1`), with `^h` when the
/// stack has height `h` ≥ 2; each empty cell next to the hive shows `.`;
/// highlighted cells are put in brackets (`[wQ]`, `[.]`), also when they are
/// empty and away from the hive, as long as they are within its [`Frame`]
/// (cells beyond it are listed in the legend but not drawn: see
/// [`check_highlight`]). The legend lists every stack of height 2 or
/// more with its pieces bottom to top, the cell of every top piece, and the
/// highlighted cells, all in axial coordinates `(q, r)`.
///
/// ```
/// use hive_oracle::reference::ReferenceEngine;
/// use hive_oracle::rules::Rules;
/// use hive_oracle::core::Hex;
///
/// let game = ReferenceEngine::load("Base;InProgress;White[2];wS1;bS1 wS1-").unwrap();
/// let picture = hive_oracle::render::ascii(&game, &[Hex::new(1, 0)]);
/// assert!(picture.contains(" wS1    [bS1]"));
/// ```
pub fn ascii(view: &impl BoardView, highlight: &[Hex]) -> String {
    let stacks = stacks(view);
    let frame = Frame::of(view);
    let highlighted: BTreeSet<Hex> = highlight.iter().copied().collect();
    let mut shown: BTreeSet<Hex> = stacks.keys().copied().collect();
    for &hex in stacks.keys() {
        shown.extend(hex.neighbours());
    }
    shown.extend(highlighted.iter().copied().filter(|&h| frame.contains(h)));

    let mut out = String::new();
    if stacks.is_empty() {
        out.push_str("(no piece on the board)\n");
    }
    if !shown.is_empty() {
        // Column of a cell in half-cells: 2q + r (pointy-top rows, §2.1),
        // in i64 so that no coordinate overflows.
        let column = |h: &Hex| 2 * i64::from(h.q) + i64::from(h.r);
        let left = shown.iter().map(column).min().unwrap_or(0);
        let top = shown.iter().map(|h| h.r).min().unwrap_or(0);
        let bottom = shown.iter().map(|h| h.r).max().unwrap_or(0);
        for r in top..=bottom {
            let mut line = String::new();
            for hex in reading_order(shown.iter().copied().filter(|h| h.r == r)) {
                let at = usize::try_from((column(&hex) - left) * CELL_WIDTH / 2).unwrap_or(0);
                while line.len() < at {
                    line.push(' ');
                }
                let label = stacks
                    .get(&hex)
                    .map_or_else(|| ".".to_string(), |s| stack_label(s));
                if highlighted.contains(&hex) {
                    let _ = write!(line, "[{label}]");
                } else {
                    let _ = write!(line, " {label}");
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }

    let tall: Vec<(&Hex, &Vec<Piece>)> = stacks.iter().filter(|(_, s)| s.len() >= 2).collect();
    if !tall.is_empty() {
        out.push_str("stacks, bottom to top:\n");
        for (hex, stack) in reading_order(tall.iter().map(|(h, _)| **h))
            .into_iter()
            .map(|h| (h, &stacks[&h]))
        {
            let pieces: Vec<String> = stack.iter().map(Piece::to_string).collect();
            let _ = writeln!(
                out,
                "  {hex}: {} (height {})",
                pieces.join(", "),
                stack.len()
            );
        }
    }
    if !stacks.is_empty() {
        let tops: Vec<String> = reading_order(stacks.keys().copied())
            .into_iter()
            .map(|h| format!("{} {h}", stack_label(&stacks[&h])))
            .collect();
        let _ = writeln!(out, "cells: {}", tops.join(", "));
    }
    if !highlighted.is_empty() {
        let cells: Vec<Hex> = highlight.to_vec();
        let mut seen = BTreeSet::new();
        let cells: Vec<Hex> = cells.into_iter().filter(|h| seen.insert(*h)).collect();
        let _ = writeln!(out, "highlighted: {}", cell_list(&cells));
    }
    out
}

/// Escapes text for XML character data and attribute values (the SVG here,
/// the JUnit report of `check`); characters XML 1.0 cannot hold are replaced.
pub(crate) fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Radius (centre to corner) of a hexagon in the SVG picture.
const SIZE: f64 = 30.0;

/// The centre of a cell in SVG user units (pointy-top, §2.1).
fn centre(hex: Hex) -> (f64, f64) {
    let x = SIZE * 3f64.sqrt() * (f64::from(hex.q) + f64::from(hex.r) / 2.0);
    let y = SIZE * 1.5 * f64::from(hex.r);
    (x, y)
}

/// The six corners of a pointy-top hexagon around `(x, y)`, as SVG points.
fn corners(x: f64, y: f64, radius: f64) -> String {
    (0..6)
        .map(|i| {
            let angle = std::f64::consts::PI / 180.0 * (60.0 * f64::from(i) - 30.0);
            format!(
                "{:.1},{:.1}",
                x + radius * angle.cos(),
                y + radius * angle.sin()
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text shown on a piece: bug letter and number (`Q`, `S1`, `M`).
fn piece_text(piece: Piece) -> String {
    let name = piece.to_string();
    name[1..].to_string()
}

/// A standalone SVG picture of the position.
///
/// One hexagon (`<polygon class="piece …">`) per occupied cell, filled with
/// the colour of its top piece (§2.5) and labelled with the top piece's bug
/// letter and number; a stack of height 2 or more also shows `×h` and lists
/// its pieces in a `<title>`. Highlighted cells get a `class="highlight"`
/// outline (an empty highlighted cell is drawn as a dashed outline), and
/// `arrow` draws an arrow from the centre of one cell to another, for a move.
/// Highlighted cells beyond the position's [`Frame`] are not drawn (see
/// [`check_highlight`]). Every text is XML-escaped and the output is
/// well-formed XML.
pub fn svg(view: &impl BoardView, highlight: &[Hex], arrow: Option<(Hex, Hex)>) -> String {
    draw_svg(view, highlight, arrow, None)
}

/// The SVG picture of the web page (`web/`): [`svg`]'s picture, in which
/// every cell of the hive and every empty cell next to it (or highlighted)
/// can be clicked. Each such cell is a `<polygon class="cell">` with its
/// axial coordinates in `data-q` and `data-r`, drawn under the pieces; the
/// groups of occupied cells and the highlight outlines carry the same
/// attributes, and `selected` (the clicked piece's cell) gets a
/// `class="selected"` outline.
pub fn svg_clickable(
    view: &impl BoardView,
    selected: Option<Hex>,
    highlight: &[Hex],
    arrow: Option<(Hex, Hex)>,
) -> String {
    draw_svg(view, highlight, arrow, Some(selected))
}

/// The one SVG drawing behind [`svg`] and [`svg_clickable`]: `clickable` is
/// `None` for the standalone picture, and `Some(selected)` for the page's.
/// The attributes that name a cell for the page's script: ` data-q="…" data-r="…"`.
fn cell_data(hex: Hex) -> String {
    format!(" data-q=\"{}\" data-r=\"{}\"", hex.q, hex.r)
}

fn draw_svg(
    view: &impl BoardView,
    highlight: &[Hex],
    arrow: Option<(Hex, Hex)>,
    clickable: Option<Option<Hex>>,
) -> String {
    let stacks = stacks(view);
    let frame = Frame::of(view);
    let highlight: Vec<Hex> = highlight
        .iter()
        .copied()
        .filter(|&h| frame.contains(h))
        .collect();
    let highlight = &highlight[..];
    let mut cells: BTreeSet<Hex> = stacks.keys().copied().collect();
    if clickable.is_some() {
        let around: Vec<Hex> = stacks.keys().flat_map(|h| h.neighbours()).collect();
        cells.extend(around);
    }
    cells.extend(highlight.iter().copied());
    if let Some((a, b)) = arrow {
        cells.insert(a);
        cells.insert(b);
    }
    if cells.is_empty() {
        cells.insert(Hex::ORIGIN);
    }
    let centres: Vec<(f64, f64)> = cells.iter().map(|&h| centre(h)).collect();
    let margin = SIZE * 1.5;
    let min_x = centres.iter().map(|c| c.0).fold(f64::INFINITY, f64::min) - margin;
    let max_x = centres
        .iter()
        .map(|c| c.0)
        .fold(f64::NEG_INFINITY, f64::max)
        + margin;
    let min_y = centres.iter().map(|c| c.1).fold(f64::INFINITY, f64::min) - margin;
    let max_y = centres
        .iter()
        .map(|c| c.1)
        .fold(f64::NEG_INFINITY, f64::max)
        + margin;
    let (width, height) = (max_x - min_x, max_y - min_y);

    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"{min_x:.1} {min_y:.1} {width:.1} {height:.1}\">"
    );
    out.push_str(concat!(
        "  <defs>\n",
        "    <marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\">\n",
        "      <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c0392b\"/>\n",
        "    </marker>\n",
        "  </defs>\n",
    ));
    let _ = writeln!(
        out,
        "  <rect x=\"{min_x:.1}\" y=\"{min_y:.1}\" width=\"{width:.1}\" height=\"{height:.1}\" fill=\"#e8e4d8\"/>"
    );
    if clickable.is_some() {
        for &hex in cells.iter().filter(|h| !stacks.contains_key(h)) {
            let (x, y) = centre(hex);
            let _ = writeln!(
                out,
                "  <polygon class=\"cell\"{} points=\"{}\" fill=\"#f3f0e6\" stroke=\"#cfc8b4\" stroke-width=\"1\"/>",
                cell_data(hex),
                corners(x, y, SIZE - 2.0)
            );
        }
    }
    for (&hex, stack) in &stacks {
        let Some(&top) = stack.last() else { continue };
        let (x, y) = centre(hex);
        let (fill, ink, colour) = match top.color {
            Color::White => ("#fbf8ef", "#222222", "white"),
            Color::Black => ("#2b2b2b", "#fbf8ef", "black"),
        };
        let names: Vec<String> = stack.iter().map(Piece::to_string).collect();
        let data = if clickable.is_some() {
            format!(" class=\"cell\"{}", cell_data(hex))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  <g id=\"cell_{}_{}\"{data}>",
            hex.q.to_string().replace('-', "m"),
            hex.r.to_string().replace('-', "m")
        );
        let _ = writeln!(
            out,
            "    <title>{} at {}</title>",
            xml_escape(&names.join(", ")),
            xml_escape(&hex.to_string())
        );
        let _ = writeln!(
            out,
            "    <polygon class=\"piece {colour}\" points=\"{}\" fill=\"{fill}\" stroke=\"#555555\" stroke-width=\"2\"/>",
            corners(x, y, SIZE - 2.0)
        );
        let _ = writeln!(
            out,
            "    <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\" fill=\"{ink}\">{}</text>",
            y + 6.0,
            xml_escape(&piece_text(top))
        );
        if stack.len() >= 2 {
            let _ = writeln!(
                out,
                "    <text class=\"height\" x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"11\" fill=\"{ink}\">×{}</text>",
                y + 20.0,
                stack.len()
            );
        }
        out.push_str("  </g>\n");
    }
    let mut seen = BTreeSet::new();
    for &hex in highlight.iter().filter(|h| seen.insert(**h)) {
        let (x, y) = centre(hex);
        let dash = if stacks.contains_key(&hex) {
            ""
        } else {
            " stroke-dasharray=\"5,3\""
        };
        let data = if clickable.is_some() {
            format!("{} pointer-events=\"none\"", cell_data(hex))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  <polygon class=\"highlight\"{data} points=\"{}\" fill=\"none\" stroke=\"#e67e22\" stroke-width=\"4\"{dash}/>",
            corners(x, y, SIZE - 1.0)
        );
    }
    if let Some(Some(hex)) = clickable {
        let (x, y) = centre(hex);
        let _ = writeln!(
            out,
            "  <polygon class=\"selected\"{} pointer-events=\"none\" points=\"{}\" fill=\"none\" stroke=\"#2e86c1\" stroke-width=\"5\"/>",
            cell_data(hex),
            corners(x, y, SIZE - 1.0)
        );
    }
    if let Some((from, to)) = arrow {
        let (x1, y1) = centre(from);
        let (x2, y2) = centre(to);
        let (dx, dy) = (x2 - x1, y2 - y1);
        let length = (dx * dx + dy * dy).sqrt();
        if length > 0.0 {
            let shorten = (SIZE * 0.45).min(length / 3.0);
            let (ux, uy) = (dx / length, dy / length);
            let _ = writeln!(
                out,
                "  <line class=\"arrow\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#c0392b\" stroke-width=\"4\" marker-end=\"url(#arrowhead)\"/>",
                x1 + ux * shorten,
                y1 + uy * shorten,
                x2 - ux * shorten,
                y2 - uy * shorten
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(xml_escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn centres_follow_the_axial_grid() {
        // §2.1: (0, -1) is up and to the left of the origin, (1, 0) to its right.
        let (x, y) = centre(Hex::new(0, -1));
        assert!(x < 0.0 && y < 0.0);
        let (x, y) = centre(Hex::new(1, 0));
        assert!(x > 0.0 && y == 0.0);
    }
}
