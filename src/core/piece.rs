//! Colours, bugs and pieces (§1.2–§1.5, §1.8).

use std::fmt;

/// The two players (§1.8). White moves first (§1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// The first player (§1.6), letter `w` (§9.19).
    White,
    /// The second player, letter `b` (§9.19).
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other player.
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The colour letter of UHP piece names (§9.19).
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The word used in TurnStrings (§9.18).
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The eight kinds of bug (§1.2, §1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bug {
    /// The Queen Bee, `Q` (§1.2).
    Queen,
    /// The Spider, `S` (§1.2).
    Spider,
    /// The Beetle, `B` (§1.2).
    Beetle,
    /// The Grasshopper, `G` (§1.2).
    Grasshopper,
    /// The Soldier Ant, `A` (§1.2).
    Ant,
    /// The Mosquito, `M` (§1.3).
    Mosquito,
    /// The Ladybug, `L` (§1.3).
    Ladybug,
    /// The Pillbug, `P` (§1.3).
    Pillbug,
}

impl Bug {
    /// In UHP enumeration order (Mzinga's order, see `spec/sources/uhp-notes.md` section 3.5).
    pub const ALL: [Bug; 8] = [
        Bug::Queen,
        Bug::Spider,
        Bug::Beetle,
        Bug::Grasshopper,
        Bug::Ant,
        Bug::Mosquito,
        Bug::Ladybug,
        Bug::Pillbug,
    ];

    /// How many pieces of this bug each player owns when it is in the game (§1.2, §1.3).
    pub fn count(self) -> u8 {
        match self {
            Bug::Queen => 1,
            Bug::Spider | Bug::Beetle => 2,
            Bug::Grasshopper | Bug::Ant => 3,
            Bug::Mosquito | Bug::Ladybug | Bug::Pillbug => 1,
        }
    }

    /// The bug letter of UHP piece names (§9.19).
    pub fn letter(self) -> char {
        match self {
            Bug::Queen => 'Q',
            Bug::Spider => 'S',
            Bug::Beetle => 'B',
            Bug::Grasshopper => 'G',
            Bug::Ant => 'A',
            Bug::Mosquito => 'M',
            Bug::Ladybug => 'L',
            Bug::Pillbug => 'P',
        }
    }

    /// The bug with this letter, in either case (§9.19, §9.20).
    pub(crate) fn from_letter(letter: char) -> Option<Bug> {
        Bug::ALL
            .into_iter()
            .find(|bug| bug.letter() == letter.to_ascii_uppercase())
    }

    /// The English name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Bug::Queen => "queen",
            Bug::Spider => "spider",
            Bug::Beetle => "beetle",
            Bug::Grasshopper => "grasshopper",
            Bug::Ant => "ant",
            Bug::Mosquito => "mosquito",
            Bug::Ladybug => "ladybug",
            Bug::Pillbug => "pillbug",
        }
    }

    /// Whether pieces of this bug carry a number in their names (§1.5).
    pub(crate) fn is_numbered(self) -> bool {
        self.count() > 1
    }

    /// Whether this bug belongs to an expansion (§1.3).
    pub fn is_expansion(self) -> bool {
        matches!(self, Bug::Mosquito | Bug::Ladybug | Bug::Pillbug)
    }
}

/// One physical piece: colour, bug and number (§1.5).
///
/// Single pieces (queen and expansion bugs) have number 1 internally and are
/// printed without it (`wQ`), numbered ones are printed with it (`wS1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// Its owner (§1.8); only its owner moves it (§1.9).
    pub color: Color,
    /// Its bug (§1.2, §1.3).
    pub bug: Bug,
    /// Its number among the pieces of its bug and colour, from 1 (§1.5).
    pub number: u8,
}

impl Piece {
    /// A piece, if `number` is one this bug has (§1.5).
    pub fn new(color: Color, bug: Bug, number: u8) -> Option<Piece> {
        (1..=bug.count())
            .contains(&number)
            .then_some(Piece { color, bug, number })
    }

    /// The single piece of a one-piece bug, or the first of a numbered one.
    pub fn first(color: Color, bug: Bug) -> Piece {
        Piece {
            color,
            bug,
            number: 1,
        }
    }
}

impl fmt::Display for Piece {
    /// The standard UHP piece name (§9.19): `wQ`, `bS2`, `wM`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.color.letter(), self.bug.letter())?;
        if self.bug.is_numbered() {
            write!(f, "{}", self.number)?;
        }
        Ok(())
    }
}
