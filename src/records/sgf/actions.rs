//! The actions of boardspace's move nodes (spec/sources/records-notes.md
//! section 3.5): `P1[57 Dropb bG1 M 12 /wL]` read as a player, a verb and
//! its arguments, and the arguments read as colours, pieces and cells in
//! the game's dialect (coloured or colourless piece names, §10.8; colours
//! swapped when the first player plays black, section 7).

use std::fmt::Display;

use crate::core::{Color, GameType};
use crate::records::RecordError;

use super::cell::Cell;
use super::token::Token;

/// One action of a move node: `P1[57 Dropb bG1 M 12 /wL]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Action {
    /// The 1-based line of the property.
    pub line: usize,
    /// The player who acts: 0 for `P0`, 1 for `P1`.
    pub player: usize,
    /// The verb, lowercased (section 3.5: verbs are case-insensitive).
    pub verb: String,
    /// The arguments after the verb.
    pub args: Vec<String>,
    /// The value without its sequence number, as written.
    pub text: String,
}

/// At most 60 characters of a text, for messages.
pub(super) fn short(text: &str) -> String {
    const LIMIT: usize = 60;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        let head: String = text.chars().take(LIMIT).collect();
        format!("{head}…")
    }
}

/// Adds the note `line N: text` to `notes`.
pub(super) fn note(notes: &mut Vec<String>, line: usize, text: impl Display) {
    notes.push(format!("line {line}: {text}"));
}

/// How a game writes the arguments of its actions: who plays White,
/// whether the written colours are swapped (decided by the first colour
/// written), and the dialect's leniencies, each noted once.
pub(super) struct Dialect<'a> {
    file: &'a str,
    game_type: GameType,
    first_player: usize,
    /// Whether every written colour is swapped (the first player plays the
    /// black pieces, spec/sources/records-notes.md section 7); decided by the first colour written.
    swap: Option<bool>,
    noted_colourless: bool,
    noted_numbered_unique: bool,
}

impl<'a> Dialect<'a> {
    /// The dialect of a game of `file`, whose `first_player` moves first.
    pub(super) fn new(file: &'a str, game_type: GameType, first_player: usize) -> Dialect<'a> {
        Dialect {
            file,
            game_type,
            first_player,
            swap: None,
            noted_colourless: false,
            noted_numbered_unique: false,
        }
    }

    /// An error at the action's line, quoting the action.
    pub(super) fn error(&self, action: &Action, message: impl Display) -> RecordError {
        RecordError::new(
            self.file,
            action.line,
            format!("\"{}\": {message}", short(&action.text)),
        )
    }

    /// An error at `line`.
    pub(super) fn error_at(&self, line: usize, message: impl Into<String>) -> RecordError {
        RecordError::new(self.file, line, message)
    }

    /// The colour a player plays: the first player is White (§1.6).
    pub(super) fn colour_of(&self, player: usize) -> Color {
        if player == self.first_player {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Whether the written colours are swapped.
    pub(super) fn swapped(&self) -> bool {
        self.swap == Some(true)
    }

    /// A colour as written, swapped when the first player plays black.
    fn written_colour(&mut self, color: Color, action: &Action, notes: &mut Vec<String>) -> Color {
        let swap = match self.swap {
            Some(swap) => swap,
            None => {
                let swap = color != self.colour_of(action.player);
                self.swap = Some(swap);
                if swap {
                    note(
                        notes,
                        action.line,
                        "the first player plays the black pieces: colours swapped so that White moves first",
                    );
                }
                swap
            }
        };
        if swap {
            color.opponent()
        } else {
            color
        }
    }

    /// A rack or piece-colour token, `W` or `B` (section 3.5).
    pub(super) fn colour(
        &mut self,
        action: &Action,
        index: usize,
        notes: &mut Vec<String>,
    ) -> Result<Color, RecordError> {
        let text = self.arg(action, index, "a colour W or B")?;
        let color = match text.to_ascii_lowercase().as_str() {
            "w" => Color::White,
            "b" => Color::Black,
            _ => {
                return Err(self.error(
                    action,
                    format!("expected the colour W or B, found \"{}\"", short(text)),
                ))
            }
        };
        Ok(self.written_colour(color, action, notes))
    }

    /// A piece token (section 3.6), its colour swapped if need be, its bug checked
    /// against the game type (section 3.4).
    pub(super) fn token(
        &mut self,
        action: &Action,
        index: usize,
        notes: &mut Vec<String>,
    ) -> Result<Token, RecordError> {
        let text = self.arg(action, index, "a piece")?;
        let mut token = Token::parse(text).map_err(|why| self.error(action, why))?;
        if let Some(color) = token.color {
            token.color = Some(self.written_colour(color, action, notes));
        } else if !self.noted_colourless {
            self.noted_colourless = true;
            note(
                notes,
                action.line,
                format!(
                    "piece names without a colour (\"{}\", the old dialect) take the colour of the player, the rack or the W/B token",
                    short(text)
                ),
            );
        }
        if token.numbered_unique && !self.noted_numbered_unique {
            self.noted_numbered_unique = true;
            note(
                notes,
                action.line,
                format!(
                    "unique pieces written with 1 (\"{}\") read without it",
                    short(text)
                ),
            );
        }
        if !self.game_type.has_bug(token.bug) {
            return Err(self.error(
                action,
                format!(
                    "the {} is not in the game type {} (SU)",
                    token.bug.name(),
                    self.game_type
                ),
            ));
        }
        Ok(token)
    }

    /// A cell: a column and a row argument from `index` (section 4.1).
    pub(super) fn cell(&self, action: &Action, index: usize) -> Result<Cell, RecordError> {
        let col = self.arg(action, index, "a column")?;
        let row = self.arg(action, index + 1, "a row")?;
        Cell::parse(col, row).map_err(|why| self.error(action, why))
    }

    fn arg<'b>(
        &self,
        action: &'b Action,
        index: usize,
        what: &str,
    ) -> Result<&'b str, RecordError> {
        action
            .args
            .get(index)
            .map(String::as_str)
            .ok_or_else(|| self.error(action, format!("expected {what} as argument {}", index + 1)))
    }
}
