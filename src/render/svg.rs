//! The SVG picture of a position: standalone (`hive-oracle render --svg`)
//! or with clickable cells for the web page.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{stacks, Frame};
use crate::core::BoardView;
use crate::core::{Color, Hex, Piece};

/// Escapes text for XML character data and attribute values (the SVG here,
/// the JUnit report of `check`); characters XML 1.0 cannot hold are replaced.
pub fn xml_escape(text: &str) -> String {
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
/// [`check_highlight`](super::check_highlight)). Every text is XML-escaped and the output is
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
    let drawing = Drawing::new(view, highlight, arrow, clickable);
    let mut out = String::new();
    drawing.write_frame(&mut out);
    if drawing.clickable.is_some() {
        drawing.write_empty_cells(&mut out);
    }
    for (&hex, stack) in &drawing.stacks {
        drawing.write_stack(&mut out, hex, stack);
    }
    drawing.write_highlights(&mut out);
    if let Some(Some(hex)) = drawing.clickable {
        let (x, y) = centre(hex);
        let _ = writeln!(
            out,
            "  <polygon class=\"selected\"{} pointer-events=\"none\" points=\"{}\" fill=\"none\" stroke=\"#2e86c1\" stroke-width=\"5\"/>",
            cell_data(hex),
            corners(x, y, SIZE - 1.0)
        );
    }
    if let Some((from, to)) = arrow {
        write_arrow(&mut out, from, to);
    }
    out.push_str("</svg>\n");
    out
}

/// What one SVG picture draws: the stacks, the highlighted cells inside the
/// frame, every cell the picture spans, and whether cells are clickable.
struct Drawing {
    stacks: BTreeMap<Hex, Vec<Piece>>,
    highlight: Vec<Hex>,
    /// The cells the picture must show: the hive, the highlighted cells and
    /// the arrow's ends, and for the page every empty cell next to the hive.
    cells: BTreeSet<Hex>,
    clickable: Option<Option<Hex>>,
}

impl Drawing {
    fn new(
        view: &impl BoardView,
        highlight: &[Hex],
        arrow: Option<(Hex, Hex)>,
        clickable: Option<Option<Hex>>,
    ) -> Drawing {
        let stacks = stacks(view);
        let frame = Frame::of(view);
        let highlight: Vec<Hex> = highlight
            .iter()
            .copied()
            .filter(|&h| frame.contains(h))
            .collect();
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
        Drawing {
            stacks,
            highlight,
            cells,
            clickable,
        }
    }

    /// The XML declaration, the `<svg>` element sized to the cells with a
    /// margin, the arrowhead marker and the background.
    fn write_frame(&self, out: &mut String) {
        let centres: Vec<(f64, f64)> = self.cells.iter().map(|&h| centre(h)).collect();
        let margin = SIZE * 1.5;
        let low = |values: &mut dyn Iterator<Item = f64>| values.fold(f64::INFINITY, f64::min);
        let high = |values: &mut dyn Iterator<Item = f64>| values.fold(f64::NEG_INFINITY, f64::max);
        let min_x = low(&mut centres.iter().map(|c| c.0)) - margin;
        let max_x = high(&mut centres.iter().map(|c| c.0)) + margin;
        let min_y = low(&mut centres.iter().map(|c| c.1)) - margin;
        let max_y = high(&mut centres.iter().map(|c| c.1)) + margin;
        let (width, height) = (max_x - min_x, max_y - min_y);
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
    }

    /// The page's clickable empty cells, drawn under the pieces.
    fn write_empty_cells(&self, out: &mut String) {
        for &hex in self.cells.iter().filter(|h| !self.stacks.contains_key(h)) {
            let (x, y) = centre(hex);
            let _ = writeln!(
                out,
                "  <polygon class=\"cell\"{} points=\"{}\" fill=\"#f3f0e6\" stroke=\"#cfc8b4\" stroke-width=\"1\"/>",
                cell_data(hex),
                corners(x, y, SIZE - 2.0)
            );
        }
    }

    /// One occupied cell: a group with the stack's pieces in its title, the
    /// hexagon in the top piece's colour (§2.5), its label, and `×h` for a
    /// stack of height 2 or more.
    fn write_stack(&self, out: &mut String, hex: Hex, stack: &[Piece]) {
        let Some(&top) = stack.last() else {
            return;
        };
        let (x, y) = centre(hex);
        let (fill, ink, colour) = match top.color {
            Color::White => ("#fbf8ef", "#222222", "white"),
            Color::Black => ("#2b2b2b", "#fbf8ef", "black"),
        };
        let names: Vec<String> = stack.iter().map(Piece::to_string).collect();
        let data = if self.clickable.is_some() {
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

    /// The highlight outlines, each cell once: solid around a piece, dashed
    /// around an empty cell.
    fn write_highlights(&self, out: &mut String) {
        let mut seen = BTreeSet::new();
        for &hex in self.highlight.iter().filter(|h| seen.insert(**h)) {
            let (x, y) = centre(hex);
            let dash = if self.stacks.contains_key(&hex) {
                ""
            } else {
                " stroke-dasharray=\"5,3\""
            };
            let data = if self.clickable.is_some() {
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
    }
}

/// A move's arrow, from the centre of one cell to another, shortened at both
/// ends so that it does not hide the pieces' labels.
fn write_arrow(out: &mut String, from: Hex, to: Hex) {
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
