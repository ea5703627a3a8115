//! Position strings (§9.36 to §9.42): a position without its history, as a
//! person writes it down from a board at the table or a screenshot. The
//! string holds what the legal moves depend on and nothing else: the game
//! type and the opening rule, whose turn it is and its number, the piece
//! moved last, and every stack bottom to top, each piece placed beside or
//! on a piece listed before it in the MoveString notation (§9.21 to §9.23).
//! Every command that takes a GameString takes one, with the answers of any
//! game that reaches the position (§9.43, through `Rules::load_with`).
//!
//! `Base;Position;Black[3];last=wB1;opening=standard;wQ;bQ wQ-;bS1 bQ\;wB1 wQ`
//! is the position after `wQ;bQ wQ-;wB1 -wQ;bS1 bQ\;wB1 wQ` played with the
//! standard opening: Black to move on its third turn, White's beetle on its
//! queen and immune. The module reads
//! a [`Setup`], plain data whose physical possibility is judged where the
//! rules are (`Rules::load_setup`).

use std::collections::{BTreeMap, VecDeque};

use super::game::GameType;
use super::hex::{Direction, Hex};
use super::notation::{
    parse_game_type, parse_move, parse_piece, parse_turn, target_text, MoveSpec, NotationError,
    Target, Turn,
};
use super::piece::Piece;

/// A position without its history, as written: plain data (§9.36).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The GameTypeString (§9.15).
    pub game_type: GameType,
    /// Whether the tournament opening applies (§4.2): the field
    /// `opening=standard` turns it off.
    pub tournament_opening: bool,
    /// Whose turn it is, and its number (§9.18, §4.4).
    pub turn: Turn,
    /// The piece moved or placed on the last ply, immune on this one
    /// (§5.10): thrown by the side to move's opponent when it has the colour
    /// of the side to move (§6.8.7); `None` after a pass or at the start.
    pub last_moved: Option<Piece>,
    /// Every piece on the board with its cell, in the order written: a
    /// piece on a cell already listed is on top of it (§2.4).
    pub pieces: Vec<(Piece, Hex)>,
}

impl Setup {
    /// The plies played before this position: White's turn `n` follows
    /// `2(n - 1)` plies, Black's `2(n - 1) + 1` (§4.4, §9.18).
    pub fn plies(&self) -> usize {
        // saturating: a turn number above MAX_TURN is refused (§9.45), and a
        // set-up built in code with one must not overflow on the way
        let turns = usize::try_from(self.turn.number.saturating_sub(1)).unwrap_or(usize::MAX);
        let before = turns.saturating_mul(2);
        match self.turn.color {
            super::piece::Color::White => before,
            super::piece::Color::Black => before.saturating_add(1),
        }
    }

    /// The stacks, bottom to top, by cell.
    pub fn stacks(&self) -> BTreeMap<Hex, Vec<Piece>> {
        let mut stacks: BTreeMap<Hex, Vec<Piece>> = BTreeMap::new();
        for &(piece, hex) in &self.pieces {
            stacks.entry(hex).or_default().push(piece);
        }
        stacks
    }
}

/// The largest turn number of a position string (§9.45): far beyond any
/// game, and small enough that every count of plies fits.
pub const MAX_TURN: u64 = 1_000_000_000;

/// Whether `text` has the form of a position string rather than of a
/// GameString: its second field is `Position` (§9.36), where a GameString
/// has its GameStateString.
pub fn is_position_string(text: &str) -> bool {
    text.trim()
        .split(';')
        .nth(1)
        .is_some_and(|field| field.trim().eq_ignore_ascii_case("position"))
}

/// Reads a position string (§9.36 to §9.41) into a [`Setup`]; whether the
/// position can exist is not judged here.
pub fn parse_position_string(text: &str) -> Result<Setup, NotationError> {
    let what = "position string";
    let trimmed = text.trim();
    let fields: Vec<&str> = trimmed.split(';').map(str::trim).collect();
    let form = "expected GameTypeString;Position;TurnString;last=PIECE or last=none, then the pieces (§9.36)";
    if fields.len() < 4 || !is_position_string(trimmed) {
        return Err(NotationError::new(what, trimmed, form));
    }
    let game_type = parse_game_type(fields[0])?;
    let turn = parse_turn(fields[2])?;
    if turn.number > MAX_TURN {
        return Err(NotationError::new(
            what,
            fields[2],
            format!("a position string's turn number is at most {MAX_TURN} (§9.45)"),
        ));
    }
    let mut last_moved = None;
    let mut last_given = false;
    let mut tournament_opening = true;
    let mut pieces: Vec<(Piece, Hex)> = Vec::new();
    for (index, field) in fields[3..].iter().enumerate() {
        if field.is_empty() {
            return Err(NotationError::new(
                what,
                trimmed,
                format!(
                    "field {} is empty: no trailing or doubled \";\" (§9.32, §9.36)",
                    index + 4
                ),
            ));
        }
        if let Some((key, value)) = field.split_once('=') {
            if !pieces.is_empty() {
                return Err(NotationError::new(
                    what,
                    field,
                    "the fields last= and opening= come before the pieces (§9.36)",
                ));
            }
            match key.trim().to_ascii_lowercase().as_str() {
                "last" => {
                    last_given = true;
                    last_moved = match value.trim() {
                        v if v.eq_ignore_ascii_case("none") => None,
                        v => Some(parse_piece(v)?),
                    };
                }
                "opening" => {
                    tournament_opening = match value.trim().to_ascii_lowercase().as_str() {
                        "tournament" => true,
                        "standard" => false,
                        _ => {
                            return Err(NotationError::new(
                                what,
                                field,
                                "expected opening=tournament or opening=standard (§4.2, §9.38)",
                            ))
                        }
                    }
                }
                _ => {
                    return Err(NotationError::new(
                        what,
                        field,
                        "expected last=PIECE, last=none or opening=standard (§9.37, §9.38)",
                    ))
                }
            }
            continue;
        }
        let (piece, hex) = placed_piece(field, &pieces)?;
        pieces.push((piece, hex));
    }
    if !last_given {
        return Err(NotationError::new(
            what,
            trimmed,
            "the field last= is missing: name the piece moved last, or last=none after a pass or at the start (§9.37)",
        ));
    }
    Ok(Setup {
        game_type,
        tournament_opening,
        turn,
        last_moved,
        pieces,
    })
}

/// Reads one piece of a position string and finds its cell from the pieces
/// listed before it (§9.39, §9.40).
fn placed_piece(field: &str, before: &[(Piece, Hex)]) -> Result<(Piece, Hex), NotationError> {
    let what = "position string";
    let cell_of = |piece: Piece| {
        before
            .iter()
            .rev()
            .find(|(p, _)| *p == piece)
            .map(|(_, h)| *h)
    };
    let (piece, target) = match parse_move(field)? {
        MoveSpec::Piece { piece, target } => (piece, target),
        MoveSpec::Pass => {
            return Err(NotationError::new(
                what,
                field,
                "expected a piece, not pass (§9.39)",
            ))
        }
    };
    if cell_of(piece).is_some() {
        return Err(NotationError::new(
            what,
            field,
            format!("{piece} is listed twice: each piece once (§9.39)"),
        ));
    }
    let unknown = |reference: Piece| {
        NotationError::new(
            what,
            field,
            format!("{reference} is not listed before {piece}: each piece is placed beside or on one listed before it (§9.40)"),
        )
    };
    let hex = match target {
        Target::Origin if before.is_empty() => Hex::ORIGIN,
        Target::Origin => {
            return Err(NotationError::new(
                what,
                field,
                "only the first piece is written alone; name where this one stands (§9.40)",
            ))
        }
        _ if before.is_empty() => {
            return Err(NotationError::new(
                what,
                field,
                "the first piece is written alone: it stands at the origin (§9.40)",
            ))
        }
        Target::OnTop(reference) => {
            let hex = cell_of(reference).ok_or_else(|| unknown(reference))?;
            let top = before
                .iter()
                .rev()
                .find(|(_, h)| *h == hex)
                .map(|(p, _)| *p);
            if top != Some(reference) {
                return Err(NotationError::new(
                    what,
                    field,
                    format!("{reference} is covered: a piece goes on the top of a stack, listed bottom to top (§9.40)"),
                ));
            }
            hex
        }
        Target::Beside {
            reference,
            direction,
        } => {
            let hex = cell_of(reference)
                .ok_or_else(|| unknown(reference))?
                .neighbour(direction);
            if before.iter().any(|(_, h)| *h == hex) {
                return Err(NotationError::new(
                    what,
                    field,
                    "that cell holds a piece already: write a piece on a stack with the stack form (`bB1 wQ`, §9.40)",
                ));
            }
            hex
        }
    };
    Ok((piece, hex))
}

/// Prints a position string (§9.41): the stacks in a walk of the hive from
/// the cell of the origin (or the smallest cell when the origin is empty),
/// each neighbour in the order of [`Direction::ALL`]; every stack bottom to
/// top, its bottom piece beside the bottom piece of the first listed stack
/// next to it, each piece above on the piece below. A hive in several
/// groups (no legal position has one, §2.7) lists each group from its
/// smallest cell, the first alone; it does not read back.
pub fn position_string(
    setup_header: &PositionHeader,
    stacks: &BTreeMap<Hex, Vec<Piece>>,
) -> String {
    let mut out = format!(
        "{};Position;{};last={}",
        setup_header.game_type,
        setup_header.turn,
        setup_header
            .last_moved
            .map_or_else(|| "none".to_string(), |p| p.to_string())
    );
    if !setup_header.tournament_opening {
        out.push_str(";opening=standard");
    }
    let mut listed: BTreeMap<Hex, Piece> = BTreeMap::new();
    let mut pending: Vec<Hex> = stacks.keys().copied().collect();
    if stacks.contains_key(&Hex::ORIGIN) {
        pending.retain(|h| *h != Hex::ORIGIN);
        pending.insert(0, Hex::ORIGIN);
    }
    while let Some(start) = pending.first().copied() {
        let mut queue = VecDeque::from([start]);
        pending.retain(|h| *h != start);
        while let Some(hex) = queue.pop_front() {
            let stack = &stacks[&hex];
            let beside = hex
                .neighbours()
                .into_iter()
                .zip(Direction::ALL)
                .find_map(|(n, dir)| listed.get(&n).map(|reference| (*reference, opposite(dir))));
            for (level, piece) in stack.iter().enumerate() {
                out.push(';');
                match (level, beside) {
                    (0, None) => out.push_str(&piece.to_string()),
                    (0, Some((reference, direction))) => {
                        out.push_str(&format!("{piece} {}", target_text(reference, direction)))
                    }
                    _ => out.push_str(&format!("{piece} {}", stack[level - 1])),
                }
            }
            if let Some(bottom) = stack.first() {
                listed.insert(hex, *bottom);
            }
            for n in hex.neighbours() {
                if pending.contains(&n) {
                    pending.retain(|h| *h != n);
                    queue.push_back(n);
                }
            }
        }
    }
    out
}

/// Where a game set up from a position string started: the plies before
/// it and the piece moved last then (§5.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupStart {
    /// The plies played before the position (§4.4).
    pub plies: usize,
    /// The piece moved or placed on the ply before it, `None` after a pass
    /// or at the start.
    pub last_moved: Option<Piece>,
}

/// The fields of a position string before its pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionHeader {
    /// The GameTypeString (§9.15).
    pub game_type: GameType,
    /// Whether the tournament opening applies (§4.2).
    pub tournament_opening: bool,
    /// Whose turn it is, and its number (§9.18).
    pub turn: Turn,
    /// The piece moved last (§5.10), `None` after a pass or at the start.
    pub last_moved: Option<Piece>,
}

/// The direction from a neighbour back to a cell.
fn opposite(direction: Direction) -> Direction {
    match direction {
        Direction::NorthWest => Direction::SouthEast,
        Direction::NorthEast => Direction::SouthWest,
        Direction::East => Direction::West,
        Direction::SouthEast => Direction::NorthWest,
        Direction::SouthWest => Direction::NorthEast,
        Direction::West => Direction::East,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §9.40: a later piece is placed beside or on one listed before it.
    #[test]
    fn pieces_are_placed_from_those_listed_before() {
        let setup =
            parse_position_string(r"Base;Position;Black[3];last=wB1;wQ;bQ wQ-;bS1 bQ\;wB1 wQ")
                .expect("reads");
        assert_eq!(setup.plies(), 5);
        assert_eq!(
            setup
                .pieces
                .iter()
                .map(|(_, h)| (h.q, h.r))
                .collect::<Vec<_>>(),
            [(0, 0), (1, 0), (1, 1), (0, 0)]
        );
    }

    #[test]
    fn bad_pieces_are_refused_with_their_clause() {
        for (text, clause) in [
            ("Base;Position;White[2];last=none;wQ;wQ -wQ", "§9.39"),
            ("Base;Position;White[2];last=none;wQ;bQ bS1-", "§9.40"),
            (
                "Base;Position;White[2];last=none;wQ;bQ wQ-;bB1 wQ-",
                "§9.40",
            ),
            ("Base;Position;White[2];wQ;bQ wQ-", "§9.37"),
            ("Base;Position;White[2];last=none;opening=club;wQ", "§9.38"),
            ("Base;Position;White[2];last=none;wQ;bQ", "§9.40"),
        ] {
            let error = parse_position_string(text).expect_err(text);
            assert!(error.to_string().contains(clause), "{text}: {error}");
        }
    }
}
