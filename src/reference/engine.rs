//! The reference engine: a game's history played and undone on a board,
//! behind the crate's [`Rules`] trait; every rule it asks is answered by the
//! position ([`Position`]) and the judge.

use std::borrow::Cow;
use std::collections::BTreeSet;

use super::board::Board;
use super::end::{self, RepetitionKey};
use super::judge;
use super::position::Position;
use crate::core::view::BoardView;
use crate::core::{Color, GameState, GameType, Hex, Move, Piece, RulesOptions, Setup, SetupStart};
use crate::rules::setup::connected_order;
use crate::rules::{IllegalMove, Rules};

/// A game played by the reference engine: the board and the moves that led to it.
#[derive(Clone, Debug)]
pub struct ReferenceEngine {
    game_type: GameType,
    options: RulesOptions,
    board: Board,
    /// Every move played, passes included.
    history: Vec<Move>,
    /// For each move of `history`, the cell a moved piece came from, so that
    /// undo can put it back. `None` for placements and passes.
    origins: Vec<Option<Hex>>,
    /// The repetition key after each ply; `keys[0]` is the empty start (§8.7.2).
    keys: Vec<RepetitionKey>,
    /// For a game set up from a position string (§9.36), the plies before
    /// it and the piece moved last then; `None` from the empty board.
    start: Option<SetupStart>,
}

impl ReferenceEngine {
    /// The board of the current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece moved (or placed) on the previous turn, immune on this one
    /// (§5.10). Nothing after a pass (§5.11) or at the start. After a throw it
    /// is the thrown piece, never the pillbug that threw it (§6.8.7).
    pub fn immune_piece(&self) -> Option<Piece> {
        self.last_moved()
    }

    /// The current position, as the rules judge a move in it.
    pub fn position(&self) -> Position<'_> {
        Position {
            board: Cow::Borrowed(&self.board),
            game_type: self.game_type,
            options: self.options,
            plies: self.plies(),
            immune: self.immune_piece(),
            last_move: self.history.last().copied(),
            state: self.state(),
        }
    }

    /// The repetition key after each ply, `[0]` the empty start (§8.7.2):
    /// what `explain` reads to show where a position occurred before.
    pub fn repetition_keys(&self) -> &[RepetitionKey] {
        &self.keys
    }

    /// Every legal move as an ordered set (chapters 3–8).
    pub fn legal_move_set(&self) -> BTreeSet<Move> {
        self.position().legal_move_set()
    }

    /// The immune piece as the repetition rule counts it (§8.7.6): the piece
    /// moved last turn, only when its immunity removes a move from the legal
    /// moves. Only the repetition option reads the keys (§8.7.2), so without
    /// it the question is not asked.
    fn counted_immune_piece(&self) -> Option<Piece> {
        if !self.options.repetition_draw {
            return None;
        }
        let position = Position {
            board: Cow::Borrowed(&self.board),
            game_type: self.game_type,
            options: self.options,
            plies: self.plies(),
            immune: self.immune_piece(),
            last_move: self.history.last().copied(),
            // the moves the position offers, whatever the state after this ply
            state: GameState::InProgress,
        };
        self.immune_piece()
            .filter(|_| position.immunity_removes_a_move())
    }

    /// Applies a move known to be legal.
    fn apply(&mut self, mv: Move) {
        let origin = match mv {
            Move::Place { piece, to } => {
                self.board.push(to, piece);
                None
            }
            Move::Move { piece, to } => {
                let from = self.board.location(piece);
                if let Some(from) = from {
                    self.board.pop(from);
                }
                self.board.push(to, piece);
                from
            }
            Move::Pass => None,
        };
        // §7.1 one placement, movement or pass per turn; the other player is next
        self.history.push(mv);
        self.origins.push(origin);
        let key = RepetitionKey::of(
            &self.board,
            self.side_to_move(),
            self.counted_immune_piece(),
        );
        self.keys.push(key);
    }
}

impl BoardView for ReferenceEngine {
    fn game_type(&self) -> GameType {
        self.game_type
    }

    fn location(&self, piece: Piece) -> Option<Hex> {
        self.board.location(piece)
    }

    fn stack(&self, hex: Hex) -> Vec<Piece> {
        self.board.stack(hex).to_vec()
    }

    fn board_is_empty(&self) -> bool {
        self.board.is_empty()
    }
}

impl Rules for ReferenceEngine {
    fn new_game(game_type: GameType, options: RulesOptions) -> Self {
        let board = Board::default();
        let keys = vec![RepetitionKey::of(&board, Color::White, None)];
        ReferenceEngine {
            game_type,
            options,
            board,
            history: Vec::new(),
            origins: Vec::new(),
            keys,
            start: None,
        }
    }

    fn from_setup(setup: &Setup, options: RulesOptions) -> Self {
        // §2.4 each stack bottom to top, the first piece at the origin
        let mut board = Board::default();
        for (piece, hex) in connected_order(&setup.pieces) {
            board.push(hex, piece);
        }
        let start = SetupStart {
            plies: setup.plies(),
            last_moved: setup.last_moved,
        };
        let side = crate::core::notation::Turn::after_plies(start.plies).color;
        let keys = vec![RepetitionKey::of(&board, side, None)];
        ReferenceEngine {
            game_type: setup.game_type,
            options,
            board,
            history: Vec::new(),
            origins: Vec::new(),
            keys,
            start: Some(start),
        }
    }

    fn setup_start(&self) -> Option<SetupStart> {
        self.start
    }

    fn options(&self) -> RulesOptions {
        self.options
    }

    fn generate_moves(&self, out: &mut Vec<Move>) {
        out.extend(self.legal_move_set());
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.legal_move_set().contains(&mv) {
            self.apply(mv);
            Ok(())
        } else {
            Err(judge::why_illegal(&self.position(), mv))
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn undo(&mut self) -> Option<Move> {
        let mv = self.history.pop()?;
        let origin = self.origins.pop().flatten();
        self.keys.pop();
        match mv {
            Move::Place { to, .. } => {
                self.board.pop(to);
            }
            Move::Move { piece, to } => {
                self.board.pop(to);
                if let Some(from) = origin {
                    self.board.push(from, piece);
                }
            }
            Move::Pass => {}
        }
        Some(mv)
    }

    fn state(&self) -> GameState {
        // §8.2–§8.4 a surround decides; §8.7.3 it takes precedence over repetition
        if let Some(result) = end::surround_result(&self.board) {
            return result;
        }
        // §8.7.2 the optional repetition rule
        if self.options.repetition_draw && end::repetition_draw(&self.keys) {
            return GameState::Draw;
        }
        // §8.8 (a set-up position after plies counts them, §9.36)
        if self.plies() == 0 {
            GameState::NotStarted
        } else {
            GameState::InProgress
        }
    }

    fn history(&self) -> &[Move] {
        &self.history
    }
}
