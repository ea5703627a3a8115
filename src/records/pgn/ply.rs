//! One ply of PGN movetext normalised to a standard UHP spelling (§10.6;
//! spec/notation.md §9.29) without an engine, each change noted: numbered
//! single pieces lose their `1`, a first ply `wL .` loses its `.`, letters
//! take the standard case and blank space becomes one space.

use super::quote::quote;
use crate::core::notation::{move_spec_text, parse_move, MoveSpec, NotationError, Target};
use crate::core::Piece;

/// Why a ply's text is not a MoveString.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum NotAPly {
    /// Nothing after the ply's number.
    #[error("the ply has no move after its number")]
    Empty,
    /// The text does not read as a MoveString (§9.21).
    #[error(transparent)]
    Notation(#[from] NotationError),
}

/// Normalises one ply (the text after its number) to a standard UHP
/// spelling, noting each change; why it is not a MoveString.
pub(super) fn normalise_ply(
    written: &str,
    ply: usize,
    line: usize,
    notes: &mut Vec<(usize, String)>,
) -> Result<(String, MoveSpec), NotAPly> {
    let tokens: Vec<&str> = written.split_whitespace().collect();
    if tokens.is_empty() {
        return Err(NotAPly::Empty);
    }
    let mut fixed: Vec<String> = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        if ply == 1 && i == 1 && *token == "." && tokens.len() == 2 {
            notes.push((
                line,
                format!(
                    "line {line}: first ply \"{}\" read as \"{}\" (a \".\" destination, as hivegame wrote before 2024)",
                    quote(&tokens.join(" ")),
                    quote(tokens[0])
                ),
            ));
            continue;
        }
        fixed.push(drop_singleton_number(token, line, notes));
    }
    let candidate = fixed.join(" ");
    let spec = parse_move(&candidate)?;
    let uhp = move_spec_text(spec);
    let mut why = Vec::new();
    if uhp != candidate {
        why.push("letter case");
    }
    if tokens.join(" ") != written {
        why.push("blank space");
    }
    if !why.is_empty() {
        notes.push((
            line,
            format!(
                "line {line}: \"{}\" read as \"{uhp}\" ({})",
                quote(written),
                why.join(", ")
            ),
        ));
    }
    Ok((uhp, spec))
}

/// `wM1`, `-bL1`, `wP1\`, `wQ1`: a single piece written with the number 1
/// (older converters), read without it (§10.6), noted.
fn drop_singleton_number(token: &str, line: usize, notes: &mut Vec<(usize, String)>) -> String {
    let is_glyph = |c: char| matches!(c, '-' | '/' | '\\');
    let (before, rest) = match token.strip_prefix(is_glyph) {
        Some(rest) => (&token[..1], rest),
        None => ("", token),
    };
    let (core, after) = match rest.strip_suffix(is_glyph) {
        Some(core) => (core, &rest[core.len()..]),
        None => (rest, ""),
    };
    let chars: Vec<char> = core.chars().collect();
    if let [color @ ('w' | 'W' | 'b' | 'B'), letter, '1'] = chars[..] {
        if matches!(letter.to_ascii_uppercase(), 'Q' | 'M' | 'L' | 'P') {
            let name = format!(
                "{}{}",
                color.to_ascii_lowercase(),
                letter.to_ascii_uppercase()
            );
            notes.push((line, format!("line {line}: {core} read as {name}")));
            return format!("{before}{name}{after}");
        }
    }
    token.to_string()
}

/// The pieces a parsed ply names: the mover and its reference.
pub(super) fn spec_pieces(spec: MoveSpec) -> Vec<Piece> {
    match spec {
        MoveSpec::Pass => Vec::new(),
        MoveSpec::Piece { piece, target } => match target {
            Target::Origin => vec![piece],
            Target::OnTop(reference) | Target::Beside { reference, .. } => vec![piece, reference],
        },
    }
}
