//! The reference engine: the rules of `spec/` as code written for the reader.
//!
//! This engine is the oracle that every other engine is checked against, so
//! it is written for clarity, not speed (see `spec/sources/style-notes.md`): ordered maps
//! and sets so that every output is deterministic, every answer recomputed
//! from the position, no caches, no bit tricks, no `unsafe`. The files follow
//! the chapters of the specification:
//!
//! | file | spec |
//! |---|---|
//! | `board.rs` | chapter 2, geometry and stacks |
//! | `placement.rs` | chapter 3, placement |
//! | `opening.rs` | chapter 4, the queen and the opening |
//! | `movement.rs` | chapter 5, movement in general |
//! | `bugs/*.rs` | chapter 6, one file per bug |
//! | `turns.rs` | chapter 7, turns and passing |
//! | `end.rs` | chapter 8, the end of the game |
//! | `facts.rs` | the facts a rule looks at, in words |
//! | `judge.rs` | one move judged: the facts that grant it, or the first rule it breaks |
//!
//! [`Position`] is what the rules judge a move in: the board and the few facts
//! of the history that matter (the plies, the last move, the state). The
//! engine gives its own; [`Position::of_game`] copies another engine's.

#![forbid(unsafe_code)]

pub mod board;
pub mod bugs;
pub mod end;
pub mod facts;
pub mod judge;
pub mod movement;
pub mod opening;
pub mod placement;
pub mod turns;

use std::borrow::Cow;
use std::collections::BTreeSet;

use crate::core::notation::Turn;
use crate::core::view::BoardView;
use crate::core::{Color, GameState, GameType, Hex, Move, Piece, RulesOptions};
use crate::rules::{IllegalMove, Rules};

use board::Board;
use end::RepetitionKey;

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
}

/// The piece moved (or placed) on the previous turn of a game, immune on
/// this one (§5.10). Nothing after a pass (§5.11) or at the start. After a
/// throw it is the thrown piece, never the pillbug that threw it (§6.8.7).
fn last_moved_piece(history: &[Move]) -> Option<Piece> {
    history.last().and_then(|mv| mv.piece())
}

/// A position as the rules judge a move in it: the board, the game type and
/// options, the plies played (whose turn it is, §7.1, and the turn number,
/// §4.4), the piece moved last turn (immune, §5.10) and the game state (§8.8).
/// The legal moves (chapters 3–8) and the reason a move is refused
/// ([`judge::judge`]) depend on nothing else; the rest of the history
/// matters only through the state (repetition, §8.7.2).
///
/// [`ReferenceEngine::position`] is the position of a reference game, on its
/// own board; [`Position::of_game`] copies the position of any engine's game,
/// so that the reference rules can judge a move there without replaying the
/// game's history.
#[derive(Clone, Debug)]
pub struct Position<'a> {
    board: Cow<'a, Board>,
    game_type: GameType,
    options: RulesOptions,
    plies: usize,
    immune: Option<Piece>,
    state: GameState,
}

impl Position<'_> {
    /// The position of any engine's game: a copy of its board
    /// ([`Board::from_view`]), its plies and its last move. The state is the
    /// engine's own (the surrounds and the repetition it counted); `selfcheck`
    /// compares the two engines' states at every ply.
    pub fn of_game<R: Rules>(game: &R) -> Position<'static> {
        Position {
            board: Cow::Owned(Board::from_view(game)),
            game_type: game.game_type(),
            options: game.options(),
            plies: game.plies(),
            immune: last_moved_piece(game.history()),
            state: game.state(),
        }
    }

    /// The board of the position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move: White after an even number of plies (§1.6, §7.1).
    pub fn side_to_move(&self) -> Color {
        Turn::after_plies(self.plies).color
    }

    /// The piece moved (or placed) last turn, immune on this one (§5.10).
    pub fn immune_piece(&self) -> Option<Piece> {
        self.immune
    }

    /// All placements open to the side to move (§3.1–§3.8, §4.5, §4.2).
    fn placement_moves(&self) -> BTreeSet<Move> {
        let color = self.side_to_move();
        let cells = placement::placement_cells(&self.board, color);
        let mut moves = BTreeSet::new();
        for piece in placement::next_pieces_in_reserve(&self.board, self.game_type, color) {
            if !opening::queen_rules_allow(&self.board, piece, self.plies, self.options) {
                continue;
            }
            for &to in &cells {
                moves.insert(Move::Place { piece, to });
            }
        }
        moves
    }

    /// All movements open to the side to move, throws included (chapters 5, 6).
    fn movement_moves(&self) -> BTreeSet<Move> {
        let color = self.side_to_move();
        let mut moves = BTreeSet::new();
        // §4.3 nothing moves before the queen
        if !opening::may_move_pieces(&self.board, color) {
            return moves;
        }
        let immune = self.immune;
        for from in self.board.occupied_cells() {
            // §5.1, §5.2 only the player's own top pieces act
            let Some(piece) = self.board.top(from) else {
                continue;
            };
            if piece.color != color || immune == Some(piece) {
                continue; // §5.10 the piece moved last turn neither moves nor throws
            }
            // The piece's own movement, if lifting it keeps one hive (§5.3).
            if movement::one_hive_holds(&self.board, from) {
                for to in bugs::own_movement(piece.bug, &self.board, from) {
                    if to != from {
                        moves.insert(Move::Move { piece, to }); // §5.7, §5.9
                    }
                }
            }
            // The pillbug's ability, even when the thrower is pinned (§6.8.6).
            if bugs::pillbug::has_pillbug_ability(&self.board, piece, from) {
                for (target, to) in bugs::pillbug::pillbug_throws(&self.board, from, immune) {
                    moves.insert(Move::Move { piece: target, to }); // §5.9
                }
            }
        }
        moves
    }

    /// Whether the immunity of the piece moved last turn (§5.10) removes a
    /// move: the legal moves with it differ from the legal moves without it
    /// (§8.7.6). Only then does the immune piece count in the identity of
    /// the position for the repetition rule.
    pub fn immunity_removes_a_move(&self) -> bool {
        if self.immune.is_none() {
            return false;
        }
        let free = Position {
            immune: None,
            ..self.clone()
        };
        free.legal_move_set() != self.legal_move_set()
    }

    /// Every legal move as an ordered set (chapters 3–8), so each once.
    pub fn legal_move_set(&self) -> BTreeSet<Move> {
        // §9.35 a set: each legal move is listed once
        // §8.5 nothing is legal once the game has ended
        if self.state.is_over() {
            return BTreeSet::new();
        }
        let mut moves = self.placement_moves();
        moves.extend(self.movement_moves());
        // §7.2 pass only when nothing else is legal
        turns::pass_if_stuck(moves)
    }
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
        last_moved_piece(&self.history)
    }

    /// The current position, as the rules judge a move in it.
    pub fn position(&self) -> Position<'_> {
        Position {
            board: Cow::Borrowed(&self.board),
            game_type: self.game_type,
            options: self.options,
            plies: self.plies(),
            immune: self.immune_piece(),
            state: self.state(),
        }
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
        }
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
        // §8.8
        if self.history.is_empty() {
            GameState::NotStarted
        } else {
            GameState::InProgress
        }
    }

    fn history(&self) -> &[Move] {
        &self.history
    }
}
