//! boardspace piece tokens (spec/sources/records-notes.md section 3.6): a
//! piece name with its colour (`wL1`, `bs1`) or without (`Q`, `g1`, `b1` =
//! beetle 1), as the old and new dialects write them.

use crate::core::{Bug, Color, Piece};

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

/// Why a token names no piece: the token as written, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{text}\" is not a piece: {problem}")]
pub(super) struct NotAPiece {
    text: String,
    problem: PieceProblem,
}

/// What is wrong with a piece token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
enum PieceProblem {
    #[error("expected a bug letter Q, S, B, G, A, M, L or P")]
    NotABugLetter,
    #[error("expected a bug letter")]
    NoBugLetter,
    #[error("expected at most one digit")]
    TooManyDigits,
    #[error("the {} is a single piece", .0.name())]
    SinglePiece(Bug),
    #[error("a player has {count} {}s, numbered 1–{count}", .bug.name())]
    NumberedOneTo { bug: Bug, count: u8 },
}

impl Token {
    /// Reads a piece token. `w`/`b` followed by a bug letter (any case) is a
    /// coloured name; anything else is a bug letter and an optional number.
    pub(super) fn parse(text: &str) -> Result<Token, NotAPiece> {
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
        let bad = |problem| NotAPiece {
            text: text.to_string(),
            problem,
        };
        let (bug, digits) = match rest {
            [b, digits @ ..] => (
                Bug::from_letter(*b).ok_or_else(|| bad(PieceProblem::NotABugLetter))?,
                digits,
            ),
            [] => return Err(bad(PieceProblem::NoBugLetter)),
        };
        let number = match digits {
            [] => None,
            [d] => d.to_digit(10),
            _ => return Err(bad(PieceProblem::TooManyDigits)),
        };
        let token = |number, numbered_unique| Token {
            color,
            bug,
            number,
            numbered_unique,
        };
        match (bug.count(), number) {
            (1, None) => Ok(token(1, false)),
            (1, Some(1)) => Ok(token(1, true)),
            (count, Some(n)) if count > 1 && (1..=u32::from(count)).contains(&n) => {
                Ok(token(n as u8, false))
            }
            (1, Some(_)) => Err(bad(PieceProblem::SinglePiece(bug))),
            (count, _) => Err(bad(PieceProblem::NumberedOneTo { bug, count })),
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

#[cfg(test)]
mod tests {
    use super::*;

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
