//! The ASCII picture of a position: a hex grid for terminals and snapshots.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::{stacks, Frame};
use crate::core::BoardView;
use crate::core::{Hex, Piece};

/// Width of one cell in the ASCII picture; a row is shifted by half of it.
const CELL_WIDTH: i64 = 8;

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
/// [`check_highlight`](super::check_highlight)). The legend lists every stack of height 2 or
/// more with its pieces bottom to top, the cell of every top piece, and the
/// highlighted cells, all in axial coordinates `(q, r)`.
///
/// ```
/// use hive_oracle_rules::reference::ReferenceEngine;
/// use hive_oracle_rules::rules::Rules;
/// use hive_oracle_rules::core::Hex;
///
/// let game = ReferenceEngine::load("Base;InProgress;White[2];wS1;bS1 wS1-").unwrap();
/// let picture = hive_oracle_rules::render::ascii(&game, &[Hex::new(1, 0)]);
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
