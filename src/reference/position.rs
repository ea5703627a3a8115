//! A position as the rules judge a move in it (chapters 3 to 8): the board
//! and the few facts of the history that matter, with its legal moves.

use std::borrow::Cow;
use std::collections::BTreeSet;

use super::board::Board;
use super::{bugs, movement, opening, placement, turns};
use crate::core::notation::Turn;
use crate::core::{Color, GameState, GameType, Move, Piece, RulesOptions};
use crate::rules::Rules;

/// A position as the rules judge a move in it: the board, the game type and
/// options, the plies played (whose turn it is, §7.1, and the turn number,
/// §4.4), the piece moved last turn (immune, §5.10) and the game state (§8.8).
/// The legal moves (chapters 3–8) and the reason a move is refused
/// ([`judge::judge`](super::judge::judge)) depend on nothing else; the rest of the history
/// matters only through the state (repetition, §8.7.2).
///
/// [`ReferenceEngine::position`](super::ReferenceEngine::position) is the position of a reference game, on its
/// own board; [`Position::of_game`] copies the position of any engine's game,
/// so that the reference rules can judge a move there without replaying the
/// game's history.
#[derive(Clone, Debug)]
pub struct Position<'a> {
    pub(super) board: Cow<'a, Board>,
    pub(super) game_type: GameType,
    pub(super) options: RulesOptions,
    pub(super) plies: usize,
    pub(super) immune: Option<Piece>,
    /// The previous ply, for the facts that ask how the immune piece got
    /// there (placed, moved or thrown); no rule reads it.
    pub(super) last_move: Option<Move>,
    pub(super) state: GameState,
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
            immune: game.last_moved(),
            last_move: game.history().last().copied(),
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

    /// The previous ply (a placement, a movement or throw, or a pass), if
    /// any: what an explanation says of the immune piece (§5.10).
    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// Whether the immune piece (§5.10) belongs to the side to move: the
    /// opponent moved it on their turn, which only a throw does (§6.8.2,
    /// §1.9).
    pub fn immune_piece_was_thrown(&self) -> bool {
        self.immune
            .is_some_and(|piece| piece.color == self.side_to_move())
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
        }
        // The pillbug's ability, even when the thrower is pinned (§6.8.6);
        // a throw and a movement to one cell are one move (§5.9).
        moves.extend(bugs::throw::legal_throws(&self.board, color, immune));
        moves
    }

    /// Every throw open to the side to move (§6.8.2–§6.8.8): the moves of an
    /// adjacent piece that a pillbug of theirs, or a mosquito copying one
    /// (§6.7.5), makes. Part of [`Position::legal_move_set`]; the judgement
    /// of one move reads the same attempts (`bugs/throw.rs`).
    pub fn legal_throws(&self) -> BTreeSet<Move> {
        let color = self.side_to_move();
        // §8.5 nothing after the end; §4.3 nothing moves before the queen
        if self.state.is_over() || !opening::may_move_pieces(&self.board, color) {
            return BTreeSet::new();
        }
        bugs::throw::legal_throws(&self.board, color, self.immune)
    }

    /// Whether the immunity of the piece moved last turn (§5.10) removes a
    /// move: the legal moves with it differ from the legal moves without it
    /// (§8.7.6). Only then does the immune piece count in the identity of
    /// the position for the repetition rule.
    pub fn immunity_removes_a_move(&self) -> bool {
        !self.moves_immunity_removes().is_empty()
    }

    /// The moves the immunity of the piece moved last turn (§5.10) takes
    /// away: the legal moves without it that are not legal with it. Empty
    /// when no piece is immune (§5.11) or its immunity removes nothing,
    /// and in a finished game (§8.5).
    pub fn moves_immunity_removes(&self) -> BTreeSet<Move> {
        if self.immune.is_none() {
            return BTreeSet::new();
        }
        let free = Position {
            immune: None,
            ..self.clone()
        };
        let with = self.legal_move_set();
        free.legal_move_set()
            .into_iter()
            .filter(|mv| !with.contains(mv))
            .collect()
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
