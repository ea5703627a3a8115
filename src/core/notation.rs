//! UHP notation: parsing and printing of GameTypeStrings, GameStateStrings,
//! TurnStrings, piece names, MoveStrings and GameStrings (spec/notation.md,
//! chapter 9): every standard spelling (§9.29) and the lenient ones
//! (§9.16, §9.20, §9.26, §9.27, §9.28) are read; only the canonical
//! spelling is printed (§9.30).
//!
//! Parsing happens in two stages, following "plain data at the boundaries":
//! text becomes a [`MoveSpec`] (what the string says), and a `MoveSpec` is
//! resolved against a position ([`view`](super::view)) into an absolute
//! [`Move`](super::Move) (what happens on the board). Nothing here panics on
//! any input; every error names what was expected and quotes the offending
//! token (§9.14).

use std::fmt;

use super::game::{GameState, GameType};
use super::hex::Direction;
use super::piece::{Bug, Color, Piece};

/// A notation error: what was being read, what was expected, and the
/// offending token (§9.14).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid {what} \"{token}\": {problem}")]
pub struct NotationError {
    /// What was being parsed, e.g. "MoveString".
    pub what: &'static str,
    /// The offending token, quoted as given (truncated when very long).
    pub token: String,
    /// What was expected instead, or what is wrong, with its clause.
    pub problem: String,
}

impl NotationError {
    pub(crate) fn new(
        what: &'static str,
        token: &str,
        problem: impl Into<String>,
    ) -> NotationError {
        NotationError {
            what,
            token: quote_token(token),
            problem: problem.into(),
        }
    }
}

/// Quotes at most 60 characters of a token, so a 1 MB line gives a short message.
fn quote_token(token: &str) -> String {
    const LIMIT: usize = 60;
    if token.chars().count() <= LIMIT {
        token.to_string()
    } else {
        let head: String = token.chars().take(LIMIT).collect();
        format!("{head}…")
    }
}

// ---------------------------------------------------------------------------
// GameTypeString (§9.15, §9.16)
// ---------------------------------------------------------------------------

/// Parses a GameTypeString (§9.15): `Base`, optionally `+` and the expansion
/// letters M, L, P; leniently in any order (§9.16) and any letter case
/// (§9.20), never with a repeated letter or an empty `+` (§9.16).
pub fn parse_game_type(text: &str) -> Result<GameType, NotationError> {
    let what = "GameTypeString";
    let trimmed = text.trim();
    let expected = "Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP or Base+MLP (§9.15)";
    let Some(head) = trimmed.get(..4) else {
        return Err(NotationError::new(
            what,
            trimmed,
            format!("expected {expected}"),
        ));
    };
    if !head.eq_ignore_ascii_case("base") {
        return Err(NotationError::new(
            what,
            trimmed,
            format!("expected {expected}"),
        ));
    }
    let rest = &trimmed[4..];
    if rest.is_empty() {
        return Ok(GameType::BASE);
    }
    let Some(letters) = rest.strip_prefix('+') else {
        return Err(NotationError::new(
            what,
            trimmed,
            format!("expected \"+\" after \"Base\" in {expected}"),
        ));
    };
    if letters.is_empty() {
        return Err(NotationError::new(
            what,
            trimmed,
            "expected at least one of M, L, P after \"+\" (§9.16)",
        ));
    }
    let mut game_type = GameType::BASE;
    for letter in letters.chars() {
        let flag = match letter.to_ascii_uppercase() {
            'M' => &mut game_type.mosquito,
            'L' => &mut game_type.ladybug,
            'P' => &mut game_type.pillbug,
            _ => {
                return Err(NotationError::new(
                    what,
                    trimmed,
                    format!("unexpected \"{letter}\": expansions are M, L and P (§9.15)"),
                ));
            }
        };
        if *flag {
            return Err(NotationError::new(
                what,
                trimmed,
                format!("expansion \"{letter}\" is named twice (§9.16)"),
            ));
        }
        *flag = true;
    }
    Ok(game_type)
}

// ---------------------------------------------------------------------------
// GameStateString (§9.17) and TurnString (§9.18)
// ---------------------------------------------------------------------------

/// Parses a GameStateString (§9.17), leniently in any letter case (§9.20).
pub fn parse_game_state(text: &str) -> Result<GameState, NotationError> {
    let trimmed = text.trim();
    GameState::ALL
        .into_iter()
        .find(|state| state.name().eq_ignore_ascii_case(trimmed))
        .ok_or_else(|| {
            NotationError::new(
                "GameStateString",
                trimmed,
                "expected NotStarted, InProgress, Draw, WhiteWins or BlackWins (§9.17)",
            )
        })
}

/// A TurnString as written: the side to move and the turn number (§9.18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The side to move (§9.18).
    pub color: Color,
    /// The turn number of the side to move, from 1 (§9.18).
    pub number: u64,
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.color, self.number)
    }
}

impl Turn {
    /// The TurnString after `plies` plies (§9.18, §4.4).
    pub fn after_plies(plies: usize) -> Turn {
        Turn {
            color: if plies.is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            },
            number: 1 + (plies / 2) as u64,
        }
    }
}

/// Parses a TurnString `White[n]` / `Black[n]`, n ≥ 1 (§9.18), the colour
/// word leniently in any letter case (§9.20).
pub fn parse_turn(text: &str) -> Result<Turn, NotationError> {
    let what = "TurnString";
    let trimmed = text.trim();
    let expected = "expected White[n] or Black[n] with n a positive whole number (§9.18)";
    let Some((word, rest)) = trimmed.split_once('[') else {
        return Err(NotationError::new(what, trimmed, expected));
    };
    let color = if word.eq_ignore_ascii_case("white") {
        Color::White
    } else if word.eq_ignore_ascii_case("black") {
        Color::Black
    } else {
        return Err(NotationError::new(what, trimmed, expected));
    };
    let Some(digits) = rest.strip_suffix(']') else {
        return Err(NotationError::new(what, trimmed, expected));
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotationError::new(what, trimmed, expected));
    }
    match digits.parse::<u64>() {
        Ok(number) if number >= 1 => Ok(Turn { color, number }),
        _ => Err(NotationError::new(what, trimmed, expected)),
    }
}

// ---------------------------------------------------------------------------
// Piece names (§9.19)
// ---------------------------------------------------------------------------

/// Parses a piece name such as `wQ`, `bS2`, `wM` (§9.19); leniently, its
/// letters in either case (§9.20).
///
/// Whether the piece exists in a particular game type is checked when a move
/// is resolved against a position (§1.3).
pub fn parse_piece(text: &str) -> Result<Piece, NotationError> {
    let what = "piece name";
    let mut chars = text.chars();
    let (Some(c), Some(b)) = (chars.next(), chars.next()) else {
        return Err(NotationError::new(
            what,
            text,
            "expected a colour letter w or b, a bug letter and, for S, B, G, A, a number (§9.19)",
        ));
    };
    let color = match c.to_ascii_lowercase() {
        'w' => Color::White,
        'b' => Color::Black,
        _ => {
            return Err(NotationError::new(
                what,
                text,
                format!("expected the colour letter w or b, found \"{c}\" (§9.19)"),
            ))
        }
    };
    let Some(bug) = Bug::from_letter(b) else {
        return Err(NotationError::new(
            what,
            text,
            format!("expected a bug letter Q, S, B, G, A, M, L or P, found \"{b}\" (§9.19)"),
        ));
    };
    let rest: String = chars.collect();
    // A single bug takes no number; a numbered one takes exactly one digit.
    let (number_text, trailing) = if bug.is_numbered() {
        match rest.chars().next() {
            Some(d) if d.is_ascii_digit() => rest.split_at(1),
            _ => ("", rest.as_str()),
        }
    } else {
        ("", rest.as_str())
    };
    if !trailing.is_empty() {
        let problem = if !bug.is_numbered() && trailing.starts_with(|c: char| c.is_ascii_digit()) {
            format!(
                "the {} is a single piece and takes no number (§1.5)",
                bug.name()
            )
        } else if bug.is_numbered() && number_text.is_empty() {
            format!(
                "expected a number 1–{} after {}, found \"{trailing}\" (§1.5)",
                bug.count(),
                bug.letter()
            )
        } else {
            let name: String = text
                .chars()
                .take(text.chars().count() - trailing.chars().count())
                .collect();
            format!("unexpected \"{trailing}\" after the piece name {name}; a direction glyph is -, / or \\ (§9.19, §9.21)")
        };
        return Err(NotationError::new(what, text, problem));
    }
    if !bug.is_numbered() {
        return Ok(Piece::first(color, bug));
    }
    let number = match number_text {
        "1" => 1,
        "2" => 2,
        "3" => 3,
        "" => {
            return Err(NotationError::new(
                what,
                text,
                format!(
                    "expected a number 1–{} after {} (§1.5)",
                    bug.count(),
                    bug.letter()
                ),
            ));
        }
        _ => 0,
    };
    Piece::new(color, bug, number).ok_or_else(|| {
        NotationError::new(
            what,
            text,
            format!(
                "a player has {} {}s, numbered 1–{} (§1.5)",
                bug.count(),
                bug.name(),
                bug.count()
            ),
        )
    })
}

// ---------------------------------------------------------------------------
// MoveString (§9.21) and its target (§9.22 to §9.28)
// ---------------------------------------------------------------------------

/// Where a MoveString says the piece goes, before it is resolved (§9.21).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A bare piece name: the first move of the game (§9.10).
    Origin,
    /// `wB1 wS1`: onto the stack that holds the reference (§9.23; a covered
    /// reference leniently, §9.27).
    OnTop(Piece),
    /// `wA1 wS1/`: the cell beside the reference in `direction` (§9.23; an
    /// occupied cell leniently, §9.26).
    Beside {
        /// The reference piece (§9.23, §9.24).
        reference: Piece,
        /// Where the cell lies from the reference (§2.2).
        direction: Direction,
    },
}

/// A parsed MoveString: plain data, not yet checked against any position (§9.21).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSpec {
    /// `pass` (§9.21; leniently in any letter case, §9.20).
    Pass,
    /// A piece and where it goes.
    Piece {
        /// The piece placed or moved, exactly the one named (§9.19, §9.25).
        piece: Piece,
        /// Where it goes, as written.
        target: Target,
    },
}

/// Parses a MoveString (§9.21): `pass`, `wS1`, `wB1 wS1`, `wA1 -wS1`, `wA1 wS1/`.
/// Leniently, surrounding whitespace is trimmed and runs of spaces or tabs
/// separate the two tokens (§9.28), and letters may be in any case (§9.20).
pub fn parse_move(text: &str) -> Result<MoveSpec, NotationError> {
    let what = "MoveString";
    let trimmed = text.trim();
    if trimmed.eq_ignore_ascii_case("pass") {
        return Ok(MoveSpec::Pass);
    }
    let tokens: Vec<&str> = trimmed.split_whitespace().collect();
    let (piece_token, target_token) = match tokens.as_slice() {
        [piece] => (*piece, None),
        [piece, target] => (*piece, Some(*target)),
        [] => {
            return Err(NotationError::new(
                what,
                trimmed,
                "expected a move such as \"wA1 wS1/\" or \"pass\", found nothing (§9.21)",
            ))
        }
        _ => {
            return Err(NotationError::new(
                what,
                trimmed,
                "expected a piece name and at most one target, found more tokens (§9.21, §9.28)",
            ));
        }
    };
    let piece =
        parse_piece(piece_token).map_err(|e| NotationError::new(what, trimmed, e.to_string()))?;
    let Some(target_token) = target_token else {
        return Ok(MoveSpec::Piece {
            piece,
            target: Target::Origin,
        });
    };
    let target =
        parse_target(target_token).map_err(|e| NotationError::new(what, trimmed, e.to_string()))?;
    Ok(MoveSpec::Piece { piece, target })
}

/// Parses the target half of a MoveString: `wS1`, `-wS1`, `/wS1`, `\wS1`,
/// `wS1-`, `wS1/`, `wS1\` (§9.21, §2.2), with one glyph at most (§9.22).
fn parse_target(token: &str) -> Result<Target, NotationError> {
    let what = "move target";
    let glyph_before = |c: char| match c {
        '-' => Some(Direction::West),
        '/' => Some(Direction::SouthWest),
        '\\' => Some(Direction::NorthWest),
        _ => None,
    };
    let glyph_after = |c: char| match c {
        '-' => Some(Direction::East),
        '/' => Some(Direction::NorthEast),
        '\\' => Some(Direction::SouthEast),
        _ => None,
    };
    let first = token.chars().next();
    let last = token.chars().last();
    let before = first.and_then(glyph_before);
    let after = last.and_then(glyph_after);
    match (before, after) {
        (Some(_), Some(_)) => Err(NotationError::new(
            what,
            token,
            "expected one direction glyph, before or after the piece, not both (§9.22)",
        )),
        (Some(direction), None) => {
            let reference = parse_piece(&token[1..])?;
            Ok(Target::Beside {
                reference,
                direction,
            })
        }
        (None, Some(direction)) => {
            let reference = parse_piece(&token[..token.len() - 1])?;
            Ok(Target::Beside {
                reference,
                direction,
            })
        }
        (None, None) => Ok(Target::OnTop(parse_piece(token)?)),
    }
}

/// A move description as written, in its standard spelling (§9.21, §9.29):
/// `pass`, a piece alone, or a piece and the target it names (so a
/// self-reference or a glyph pointing at a stack stays as written).
pub(crate) fn move_spec_text(spec: MoveSpec) -> String {
    match spec {
        MoveSpec::Pass => "pass".to_string(),
        MoveSpec::Piece { piece, target } => match target {
            Target::Origin => piece.to_string(),
            Target::OnTop(reference) => format!("{piece} {reference}"),
            Target::Beside {
                reference,
                direction,
            } => format!("{piece} {}", target_text(reference, direction)),
        },
    }
}

/// The target text naming the cell in `direction` from `reference` (§2.2, §9.21).
pub fn target_text(reference: Piece, direction: Direction) -> String {
    match direction {
        Direction::East => format!("{reference}-"),
        Direction::West => format!("-{reference}"),
        Direction::NorthEast => format!("{reference}/"),
        Direction::SouthWest => format!("/{reference}"),
        Direction::SouthEast => format!("{reference}\\"),
        Direction::NorthWest => format!("\\{reference}"),
    }
}

// ---------------------------------------------------------------------------
// GameString (§9.31)
// ---------------------------------------------------------------------------

/// A GameString as written: plain data whose moves are not yet played (§9.31).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The GameTypeString (§9.15).
    pub game_type: GameType,
    /// The GameStateString as written; engines recompute it (§9.33).
    pub(crate) stated_state: GameState,
    /// The TurnString as written; engines recompute it (§9.33).
    pub(crate) stated_turn: Turn,
    /// The MoveStrings, trimmed, in order. Loading plays them one by one
    /// and refuses the whole string at the first that is unreadable or
    /// illegal in the position the moves before it reach (§9.34,
    /// `Rules::load_with`).
    pub moves: Vec<String>,
}

/// Parses a GameString into its fields (§9.31). Moves are checked for syntax
/// here and for legality when they are played.
pub fn parse_game_string(text: &str) -> Result<GameRecord, NotationError> {
    let what = "GameString";
    let trimmed = text.trim();
    let fields: Vec<&str> = trimmed.split(';').collect();
    if fields.len() < 3 {
        return Err(NotationError::new(
            what,
            trimmed,
            "expected GameTypeString;GameStateString;TurnString followed by the moves (§9.31)",
        ));
    }
    let game_type = parse_game_type(fields[0])?;
    let stated_state = parse_game_state(fields[1])?;
    let stated_turn = parse_turn(fields[2])?;
    let mut moves = Vec::with_capacity(fields.len() - 3);
    for (index, field) in fields[3..].iter().enumerate() {
        let field = field.trim();
        if field.is_empty() {
            return Err(NotationError::new(
                what,
                trimmed,
                format!(
                    "move {} is empty: a GameString has no trailing or doubled \";\" (§9.32)",
                    index + 1
                ),
            ));
        }
        parse_move(field)
            .map_err(|e| NotationError::new(what, field, format!("move {}: {e}", index + 1)))?;
        moves.push(field.to_string());
    }
    Ok(GameRecord {
        game_type,
        stated_state,
        stated_turn,
        moves,
    })
}

/// Prints a GameString from its parts (§9.31), in its standard spelling (§9.29).
pub fn game_string(
    game_type: GameType,
    state: GameState,
    plies: usize,
    moves: &[String],
) -> String {
    let mut out = format!("{game_type};{state};{}", Turn::after_plies(plies));
    for mv in moves {
        out.push(';');
        out.push_str(mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_types_round_trip() {
        // §9.15, §9.16, §9.20
        for gt in GameType::ALL {
            assert_eq!(parse_game_type(&gt.to_string()), Ok(gt));
        }
        assert_eq!(parse_game_type("base+plm"), Ok(GameType::BASE_MLP));
        assert!(parse_game_type("Base+").is_err());
        assert!(parse_game_type("Base+MM").is_err());
        assert!(parse_game_type("Bas").is_err());
        assert!(parse_game_type("Baseé").is_err());
    }

    #[test]
    fn pieces_parse() {
        // §9.19, §9.20, §1.5
        assert_eq!(parse_piece("wS1").map(|p| p.to_string()), Ok("wS1".into()));
        assert_eq!(parse_piece("BQ").map(|p| p.to_string()), Ok("bQ".into()));
        for bad in [
            "wS3", "wQ1", "wM1", "wA0", "wA", "xQ", "wZ", "w", "", "wA11",
        ] {
            assert!(parse_piece(bad).is_err(), "{bad}");
        }
        // a numbered bug followed by something else than a digit: that
        // character is not taken for the number (§1.5), even when it is
        // several bytes long (a mutant that took it split the text inside
        // the character, and panicked)
        for bad in ["wSé", "wS-", "bA/"] {
            match parse_piece(bad) {
                Err(e) => assert!(e.to_string().contains("expected a number"), "{bad}: {e}"),
                Ok(piece) => panic!("{bad} read as {piece}"),
            }
        }
    }

    #[test]
    fn turns_parse() {
        // §9.18: `Color[N]`, N a turn number from 1 written in decimal
        // digits only: no sign, no space
        assert_eq!(
            parse_turn("Black[12]"),
            Ok(Turn {
                color: Color::Black,
                number: 12
            })
        );
        for bad in [
            "White[+1]",
            "White[-1]",
            "White[ 1]",
            "White[]",
            "White[0]",
            "White[1a]",
            "White",
        ] {
            assert!(parse_turn(bad).is_err(), "{bad}");
        }
    }
}
