//! Collapsing boardspace's pick-and-drop actions into plies
//! (§10.8, §10.9; spec/sources/records-notes.md section 3.5, section 3.8): the last drop before `Done` is the move,
//! a pass is `Pass` + `Done`, a bare `Done` of the side to move or a move
//! out of turn stands for a forced pass, draw talk makes no ply, `Resign`
//! and `AcceptDraw` end the game, and what follows the end is debris.

use std::fmt::Display;

use crate::core::{Bug, Color, GameType, Move, Piece, Turn};
use crate::records::{Ending, RecordError, RecordedMove};

use super::actions::{note, short, Action, Dialect};
use super::board::{Board, Source};
use super::cell::Cell;
use super::token::Token;

/// What the actions of a game give.
#[derive(Clone, Debug, Default)]
pub(super) struct Outcome {
    /// The plies.
    pub moves: Vec<RecordedMove>,
    /// Whether ply 1 or ply 2 places a queen.
    pub standard_opening: bool,
    /// How the body ends the game: a resignation or an agreed draw.
    pub ending: Option<Ending>,
    /// What was read leniently or ignored, each with its line.
    pub notes: Vec<String>,
}

/// A piece in hand, and where it came from.
#[derive(Clone, Copy, Debug)]
struct Lifted {
    piece: Piece,
    from: Source,
}

/// What the next `Done` confirms.
#[derive(Clone, Debug)]
enum Pending {
    /// A dropped piece.
    Move {
        piece: Piece,
        from: Source,
        to: Cell,
        /// The written relative suffix, to cross-check.
        suffix: String,
        /// The drop's line and text, for errors.
        line: usize,
        text: String,
    },
    /// `Pass`.
    Pass,
    /// `OfferDraw`, `DeclineDraw`: no ply.
    Talk,
}

/// Why the game is over.
#[derive(Clone, Copy, Debug)]
enum Finish {
    /// A player ended it (`Resign`, `AcceptDraw`, `GameOverOnTime`) at a line;
    /// the same player's next `Done` confirms it.
    Ended {
        what: &'static str,
        line: usize,
        player: usize,
        confirmed: bool,
    },
    /// A queen is surrounded on the board after this many plies.
    Decided { plies: usize },
}

/// The collapsing state of one game.
struct Turns<'a> {
    /// How the game writes colours, pieces and cells.
    dialect: Dialect<'a>,
    board: Board,
    lifted: Option<Lifted>,
    pending: Option<Pending>,
    /// The actions of the current turn, as written.
    turn: Vec<String>,
    /// The line of the last action read.
    last_line: usize,
    finish: Option<Finish>,
    /// Lines of the actions after the end.
    debris: Vec<usize>,
    outcome: Outcome,
}

/// Collapses the actions of a game into plies.
pub(super) fn collapse(
    file: &str,
    game_type: GameType,
    first_player: usize,
    actions: &[Action],
) -> Result<Outcome, RecordError> {
    let mut turns = Turns {
        dialect: Dialect::new(file, game_type, first_player),
        board: Board::new(game_type),
        lifted: None,
        pending: None,
        turn: Vec::new(),
        last_line: 0,
        finish: None,
        debris: Vec::new(),
        outcome: Outcome::default(),
    };
    for action in actions {
        turns.act(action)?;
    }
    turns.wrap_up();
    Ok(turns.outcome)
}

impl Turns<'_> {
    fn error(&self, action: &Action, message: impl Display) -> RecordError {
        self.dialect.error(action, message)
    }

    fn note(&mut self, line: usize, text: impl Display) {
        note(&mut self.outcome.notes, line, text);
    }

    /// The colour a player plays (§1.6).
    fn colour_of(&self, player: usize) -> Color {
        self.dialect.colour_of(player)
    }

    /// A colour argument (section 3.5).
    fn colour(&mut self, action: &Action, index: usize) -> Result<Color, RecordError> {
        self.dialect.colour(action, index, &mut self.outcome.notes)
    }

    /// A piece argument (section 3.6).
    fn token(&mut self, action: &Action, index: usize) -> Result<Token, RecordError> {
        self.dialect.token(action, index, &mut self.outcome.notes)
    }

    /// A cell argument (section 4.1).
    fn cell(&self, action: &Action, index: usize) -> Result<Cell, RecordError> {
        self.dialect.cell(action, index)
    }

    /// Reads one action.
    fn act(&mut self, action: &Action) -> Result<(), RecordError> {
        if self.finish.is_some() {
            self.after_the_end(action);
            return Ok(());
        }
        if action.verb != "start" {
            self.turn.push(action.text.clone());
        }
        self.last_line = action.line;
        match action.verb.as_str() {
            "start" => {}
            "pick" => self.pick_from_rack(action)?,
            "pickb" => self.pick_from_board(action)?,
            "dropb" | "pdropb" => self.drop_on_board(action)?,
            "drop" => {
                self.lifted = None;
                self.pending = None;
            }
            "move" | "pmove" | "movedone" | "pmovedone" => self.move_piece(action)?,
            "done" => self.done(action)?,
            "pass" | "passdone" => {
                self.lifted = None;
                self.pending = Some(Pending::Pass);
                if action.verb == "passdone" {
                    self.done(action)?;
                }
            }
            "offerdraw" | "declinedraw" => {
                self.lifted = None;
                self.pending = Some(Pending::Talk);
            }
            "acceptdraw" => {
                self.end(action, "an agreed draw");
                self.outcome.ending = Some(Ending::AgreedDraw);
            }
            "resign" => {
                self.end(action, "a resignation");
                self.outcome.ending = Some(Ending::Resignation(self.colour_of(action.player)));
            }
            "gameoverontime" => {
                self.end(action, "a loss on time");
                self.note(action.line, "the game ends on time");
            }
            "reset" => {
                self.lifted = None;
                self.pending = None;
                self.turn.clear();
                self.note(
                    action.line,
                    "Reset: the actions of the turn so far are undone",
                );
            }
            "playwhite" | "playblack" => {
                self.note(action.line, format!("\"{}\" ignored", short(&action.text)));
            }
            _ => return Err(self.unreadable(action)),
        }
        Ok(())
    }

    /// An action after the end of the game: the same player's `Done`
    /// confirms the end, anything else is debris (section 3.8 step 6).
    fn after_the_end(&mut self, action: &Action) {
        match self.finish {
            Some(Finish::Ended {
                what,
                line,
                player,
                confirmed: false,
            }) if action.verb == "done" && action.player == player => {
                self.finish = Some(Finish::Ended {
                    what,
                    line,
                    player,
                    confirmed: true,
                });
            }
            _ => self.debris.push(action.line),
        }
    }

    /// Why an action is not read: an edited board, a colour swap, or a verb
    /// the reader does not know (section 3.5).
    fn unreadable(&self, action: &Action) -> RecordError {
        match action.verb.as_str() {
            "edit" => self.error(
                action,
                "the board is edited (a puzzle or an analysis), not a played game",
            ),
            "swap" => self.error(action, "a colour swap, which no UHP game type has"),
            _ => self.error(
                action,
                format!(
                    "unknown action \"{}\" (expected Start, Pick, Pickb, Drop, Dropb, Pdropb, Move, PMove, MoveDone, Done, Pass, OfferDraw, DeclineDraw, AcceptDraw or Resign)",
                    short(&action.verb)
                ),
            ),
        }
    }

    /// `Pick`: a piece lifted from its rack (section 3.8 step 1).
    fn pick_from_rack(&mut self, action: &Action) -> Result<(), RecordError> {
        let rack = self.colour(action, 0)?;
        let piece = self.token(action, 2)?.piece(rack);
        self.pending = None;
        self.lifted = Some(Lifted {
            piece,
            from: Source::Rack,
        });
        Ok(())
    }

    /// `Move colour piece col row suffix` (and `PMove`, `MoveDone`,
    /// `PMoveDone`): a pick and a drop in one action, confirmed at once by
    /// the `…Done` verbs (section 3.5).
    fn move_piece(&mut self, action: &Action) -> Result<(), RecordError> {
        let color = self.colour(action, 0)?;
        let piece = self.token(action, 1)?.piece(color);
        let to = self.cell(action, 2)?;
        let from = match self.board.cell_of(piece) {
            Some(at) => Source::Board(at),
            None => Source::Rack,
        };
        self.lifted = None;
        self.pending = if from == Source::Board(self.board.hex(to)) {
            None
        } else {
            Some(Pending::Move {
                piece,
                from,
                to,
                suffix: action.args.get(4..).unwrap_or_default().join(" "),
                line: action.line,
                text: action.text.clone(),
            })
        };
        if action.verb.ends_with("done") {
            self.done(action)?;
        }
        Ok(())
    }

    /// `Pickb col row piece` (section 3.8 step 2).
    fn pick_from_board(&mut self, action: &Action) -> Result<(), RecordError> {
        let cell = self.cell(action, 0)?;
        let token = self.token(action, 2)?;
        if let Some(Pending::Move {
            piece, from, to, ..
        }) = self.pending.clone()
        {
            if self.board.same_cell(cell, to) {
                // the pending drop is lifted again: its origin stays
                if !token.names(piece) {
                    return Err(self.error(
                        action,
                        format!("{piece} was dropped on {cell}, not the piece named"),
                    ));
                }
                self.pending = None;
                self.lifted = Some(Lifted { piece, from });
                return Ok(());
            }
        }
        self.pending = None;
        let at = self.board.hex(cell);
        let top = if self.board.is_empty() {
            None
        } else {
            self.board.top(at)
        };
        let Some(top) = top else {
            return Err(self.error(
                action,
                format!("the cell {cell} is empty: a decoding bug or a damaged file"),
            ));
        };
        if !token.names(top) {
            return Err(self.error(
                action,
                format!("the top piece on {cell} is {top}, not the piece named: a decoding bug or a damaged file"),
            ));
        }
        self.lifted = Some(Lifted {
            piece: top,
            from: Source::Board(at),
        });
        Ok(())
    }

    /// `Dropb piece col row suffix`, `Pdropb …` (section 3.8 step 3).
    fn drop_on_board(&mut self, action: &Action) -> Result<(), RecordError> {
        let token = self.token(action, 0)?;
        let to = self.cell(action, 1)?;
        let again = match &self.pending {
            Some(Pending::Move { piece, from, .. }) if token.names(*piece) => Some(Lifted {
                piece: *piece,
                from: *from,
            }),
            _ => None,
        };
        let lifted = match (self.lifted, again) {
            (Some(lifted), _) => lifted,
            // a second drop of the piece just dropped, without a Pickb
            (None, Some(again)) => {
                self.note(
                    action.line,
                    "a drop without a pick moves the piece just dropped",
                );
                again
            }
            _ => {
                return Err(self.error(
                    action,
                    "no piece is lifted (no Pick or Pickb before it): a damaged file",
                ))
            }
        };
        if !token.names(lifted.piece) {
            return Err(self.error(
                action,
                format!("the piece lifted is {}, not the piece named", lifted.piece),
            ));
        }
        self.lifted = None;
        self.pending = if lifted.from == Source::Board(self.board.hex(to)) {
            // dropped back on its cell: nothing happens
            None
        } else {
            Some(Pending::Move {
                piece: lifted.piece,
                from: lifted.from,
                to,
                suffix: action.args.get(3..).unwrap_or_default().join(" "),
                line: action.line,
                text: action.text.clone(),
            })
        };
        Ok(())
    }

    /// `Done` (§10.8, §10.9; section 3.8 step 5).
    fn done(&mut self, action: &Action) -> Result<(), RecordError> {
        let written = std::mem::take(&mut self.turn).join(" ; ");
        let lifted = self.lifted.take();
        match self.pending.take() {
            Some(Pending::Talk) => {}
            Some(Pending::Pass) => self.emit(action, written, Move::Pass, "pass".into()),
            Some(Pending::Move {
                piece,
                from,
                to,
                suffix,
                line,
                text,
            }) => {
                if from == Source::Rack && self.board.cell_of(piece).is_some() {
                    return Err(self.error(
                        action,
                        format!("{piece} is placed from its rack but is already on the board: a damaged file"),
                    ));
                }
                let mv = self.board.absolute(piece, from, to);
                let (Move::Place { to: hex, .. } | Move::Move { to: hex, .. }) = mv else {
                    return Ok(());
                };
                if let Err(why) =
                    self.board
                        .check_suffix(piece, from, hex, &suffix, self.dialect.swapped())
                {
                    return Err(self.dialect.error_at(
                        line,
                        format!(
                            "\"{}\": the written reference \"{}\" disagrees with the coordinates ({why}): a decoding bug or a damaged file",
                            short(&text),
                            short(&suffix)
                        ),
                    ));
                }
                let uhp = self.board.move_string(mv);
                self.emit(action, written, mv, uhp);
                // the ply's number, after any pass inserted before it
                let ply = self.outcome.moves.len();
                if from == Source::Rack
                    && piece.bug == Bug::Queen
                    && ply <= 2
                    && !self.outcome.standard_opening
                {
                    self.outcome.standard_opening = true;
                    self.note(
                        action.line,
                        format!("{piece} is placed on ply {ply}: the game uses the standard opening, without the tournament rule"),
                    );
                }
                if self.board.queen_surrounded() {
                    self.finish = Some(Finish::Decided {
                        plies: self.outcome.moves.len(),
                    });
                }
            }
            None => {
                let color = self.colour_of(action.player);
                if lifted.is_some() {
                    self.note(
                        action.line,
                        "Done with a piece lifted but not dropped: no ply",
                    );
                } else if color == self.side_to_move() {
                    self.note(
                        action.line,
                        format!("a bare Done of {color}, who is to move, read as a forced pass"),
                    );
                    self.emit(action, written, Move::Pass, "pass".into());
                } else {
                    self.note(
                        action.line,
                        format!("a bare Done of {color}, who is not to move, ignored"),
                    );
                }
            }
        }
        Ok(())
    }

    /// The side to move after the plies so far (§1.6, §7.1).
    fn side_to_move(&self) -> Color {
        Turn::after_plies(self.outcome.moves.len()).color
    }

    /// Appends a ply, after a pass the record left out if the actor is not
    /// the side to move (§10.9; section 3.8 step 5), and plays it on the board.
    fn emit(&mut self, action: &Action, written: String, mv: Move, uhp: String) {
        let color = self.colour_of(action.player);
        if color != self.side_to_move() {
            self.note(
                action.line,
                format!("{color} moves while {} is to move: the forced pass the record leaves out is inserted", color.opponent()),
            );
            self.outcome.moves.push(RecordedMove {
                line: action.line,
                written: String::new(),
                uhp: "pass".into(),
            });
        }
        self.board.apply(mv);
        self.outcome.moves.push(RecordedMove {
            line: action.line,
            written,
            uhp,
        });
    }

    /// `Resign`, `AcceptDraw`, `GameOverOnTime`: the game is over (section 3.8 step 6).
    fn end(&mut self, action: &Action, what: &'static str) {
        if matches!(self.pending, Some(Pending::Move { .. } | Pending::Pass)) {
            self.note(action.line, "the unconfirmed move of the turn is dropped");
        }
        self.lifted = None;
        self.pending = None;
        self.turn.clear();
        self.finish = Some(Finish::Ended {
            what,
            line: action.line,
            player: action.player,
            confirmed: false,
        });
    }

    /// After the last action: debris and unconfirmed turns noted.
    fn wrap_up(&mut self) {
        if let (Some(&first), Some(&last)) = (self.debris.first(), self.debris.last()) {
            let why = match self.finish {
                Some(Finish::Ended { what, line, .. }) => format!("{what} at line {line}"),
                Some(Finish::Decided { plies }) => {
                    format!("a queen surrounded on the board after ply {plies}")
                }
                None => "the end".to_string(),
            };
            let lines = if first == last {
                format!("line {first}")
            } else {
                format!("lines {first}–{last}")
            };
            let count = self.debris.len();
            let actions = if count == 1 { "action" } else { "actions" };
            self.outcome.notes.push(format!(
                "{lines}: {count} {actions} after the end of the game ({why}) ignored"
            ));
        }
        if self.finish.is_none()
            && (self.lifted.is_some()
                || matches!(self.pending, Some(Pending::Move { .. } | Pending::Pass)))
        {
            self.note(
                self.last_line,
                "the last turn is never confirmed by Done: ignored",
            );
        }
    }
}
