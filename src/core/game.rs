//! Game types, rules options, absolute moves and game states (§1.4, §4.2, §5.9, §8.7.2, §8.8).

use std::fmt;

use super::hex::Hex;
use super::piece::{Bug, Color, Piece};

/// Which expansion pieces are in the game (§1.3, §1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct GameType {
    /// Whether the Mosquito is in the game (§1.3).
    pub mosquito: bool,
    /// Whether the Ladybug is in the game (§1.3).
    pub ladybug: bool,
    /// Whether the Pillbug is in the game (§1.3).
    pub pillbug: bool,
}

impl GameType {
    /// The base game, without expansion pieces (§1.4).
    pub const BASE: GameType = GameType {
        mosquito: false,
        ladybug: false,
        pillbug: false,
    };
    /// The base game with all three expansion pieces, `Base+MLP` (§1.4).
    pub const BASE_MLP: GameType = GameType {
        mosquito: true,
        ladybug: true,
        pillbug: true,
    };

    /// All eight game types, in the order of `spec/sources/uhp-notes.md` section 3.1 (§1.4).
    pub const ALL: [GameType; 8] = [
        GameType::from_flags(false, false, false),
        GameType::from_flags(true, false, false),
        GameType::from_flags(false, true, false),
        GameType::from_flags(false, false, true),
        GameType::from_flags(true, true, false),
        GameType::from_flags(true, false, true),
        GameType::from_flags(false, true, true),
        GameType::from_flags(true, true, true),
    ];

    /// The game type with the given expansion pieces (§1.4).
    pub const fn from_flags(mosquito: bool, ladybug: bool, pillbug: bool) -> GameType {
        GameType {
            mosquito,
            ladybug,
            pillbug,
        }
    }

    /// Whether pieces of `bug` exist in this game type (§1.3).
    pub fn has_bug(self, bug: Bug) -> bool {
        match bug {
            Bug::Mosquito => self.mosquito,
            Bug::Ladybug => self.ladybug,
            Bug::Pillbug => self.pillbug,
            _ => true,
        }
    }

    /// The bugs of this game type, in UHP enumeration order.
    pub fn bugs(self) -> impl Iterator<Item = Bug> {
        Bug::ALL.into_iter().filter(move |&bug| self.has_bug(bug))
    }

    /// Every piece of one colour in this game type, in UHP enumeration order (§1.2, §1.3).
    pub fn pieces_of(self, color: Color) -> impl Iterator<Item = Piece> {
        self.bugs()
            .flat_map(move |bug| (1..=bug.count()).map(move |number| Piece { color, bug, number }))
    }

    /// Every piece of both colours, white first.
    pub fn all_pieces(self) -> impl Iterator<Item = Piece> {
        Color::ALL
            .into_iter()
            .flat_map(move |color| self.pieces_of(color))
    }
}

impl fmt::Display for GameType {
    /// The standard GameTypeString (§9.15).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Base")?;
        if *self != GameType::BASE {
            f.write_str("+")?;
        }
        for (on, letter) in [
            (self.mosquito, "M"),
            (self.ladybug, "L"),
            (self.pillbug, "P"),
        ] {
            if on {
                f.write_str(letter)?;
            }
        }
        Ok(())
    }
}

/// Rules options: the readings of the rules that users may choose between.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RulesOptions {
    /// Tournament opening: no queen on a player's first placement (§4.2). On by default,
    /// as in every UHP engine and the published perft counts.
    pub tournament_opening: bool,
    /// Draw by threefold repetition within 32 plies (§8.7.2; the same position
    /// §8.7.4 to §8.7.8; a surround first §8.7.3). Off by default,
    /// as in Mzinga.
    pub repetition_draw: bool,
}

impl Default for RulesOptions {
    fn default() -> Self {
        RulesOptions {
            tournament_opening: true,
            repetition_draw: false,
        }
    }
}

/// The options in words: `tournament opening, repetition draw off` (§4.2,
/// §8.7.2).
impl fmt::Display for RulesOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opening = if self.tournament_opening {
            "tournament"
        } else {
            "standard"
        };
        let draw = if self.repetition_draw { "on" } else { "off" };
        write!(f, "{opening} opening, repetition draw {draw}")
    }
}

/// An absolute move: what happens on the board, in cell coordinates, not in
/// notation (§5.9). A movement is identified by the piece and where it ends,
/// so a pillbug throw and an ordinary move of the same piece to the same cell
/// are the same move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// A piece from the reserve is put on an empty cell (§3.1).
    Place {
        /// The piece placed.
        piece: Piece,
        /// The empty cell it goes to.
        to: Hex,
    },
    /// A piece on the board moves, by itself or thrown by a pillbug (§5.1).
    Move {
        /// The piece moved or thrown.
        piece: Piece,
        /// The cell where it ends.
        to: Hex,
    },
    /// The player has no other legal move (§7.2).
    Pass,
}

impl Move {
    /// The piece placed or moved, if any.
    pub fn piece(self) -> Option<Piece> {
        match self {
            Move::Place { piece, .. } | Move::Move { piece, .. } => Some(piece),
            Move::Pass => None,
        }
    }

    /// The same move with its destination moved by `(dq, dr)` cells: the
    /// move in a copy of the board translated so (§1.7).
    pub fn translated(self, dq: i32, dr: i32) -> Move {
        let shift = |to: Hex| Hex::new(to.q + dq, to.r + dr);
        match self {
            Move::Place { piece, to } => Move::Place {
                piece,
                to: shift(to),
            },
            Move::Move { piece, to } => Move::Move {
                piece,
                to: shift(to),
            },
            Move::Pass => Move::Pass,
        }
    }

    /// The destination cell, if any.
    pub fn destination(self) -> Option<Hex> {
        match self {
            Move::Place { to, .. } | Move::Move { to, .. } => Some(to),
            Move::Pass => None,
        }
    }
}

impl fmt::Display for Move {
    /// A coordinate form for debugging; UHP notation needs the position and
    /// lives in [`crate::core::notation`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place { piece, to } => write!(f, "place {piece} at {to}"),
            Move::Move { piece, to } => write!(f, "move {piece} to {to}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// The state of a game (§8.8). There is no state for a draw by agreement:
/// that happens between the players, outside the engine (§8.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameState {
    /// No ply played yet (§8.8).
    NotStarted,
    /// At least one ply played and the game not over (§8.8).
    InProgress,
    /// Both queens surrounded at once (§8.3), or a repetition draw (§8.7.2).
    Draw,
    /// Black's queen is surrounded (§8.2).
    WhiteWins,
    /// White's queen is surrounded (§8.2).
    BlackWins,
}

impl GameState {
    /// The five states, in the order of §8.8.
    pub const ALL: [GameState; 5] = [
        GameState::NotStarted,
        GameState::InProgress,
        GameState::Draw,
        GameState::WhiteWins,
        GameState::BlackWins,
    ];

    /// Whether the game has ended (§8.5).
    pub fn is_over(self) -> bool {
        matches!(
            self,
            GameState::Draw | GameState::WhiteWins | GameState::BlackWins
        )
    }

    /// The GameStateString (§9.17).
    pub fn name(self) -> &'static str {
        match self {
            GameState::NotStarted => "NotStarted",
            GameState::InProgress => "InProgress",
            GameState::Draw => "Draw",
            GameState::WhiteWins => "WhiteWins",
            GameState::BlackWins => "BlackWins",
        }
    }
}

impl fmt::Display for GameState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
