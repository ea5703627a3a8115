//! The rule faults (chapters 1 to 8): the moves a fault adds to the legal
//! ones, computed on the reference position with the reference engine's
//! building blocks (the spider's walk with revisits, beetle steps through
//! height gates, a mosquito copying mosquitoes, a pillbug throwing the
//! piece moved last, the queen as a first placement); how a faulty engine
//! plays a move the rules refuse; and the win it declares when both queens
//! are surrounded.

use std::collections::BTreeSet;

use super::table::Fault;
use crate::core::view::BoardView;
use crate::core::{Bug, Color, GameState, Hex, Move, RulesOptions};
use crate::reference::board::Board;
use crate::reference::bugs::pillbug::pillbug_throws;
use crate::reference::end::queen_is_surrounded;
use crate::reference::movement::{
    ground_step_possible, ground_steps_from, one_hive_holds, step_ignoring_height_gates,
};
use crate::reference::{opening, ReferenceEngine};
use crate::rules::Rules;
use crate::uhp::{Game, GameError};

/// The game on the reference engine, replayed without checks (the faulty
/// game may hold moves the real rules refuse).
pub(super) fn reference_of(game: &Game) -> ReferenceEngine {
    if let Game::Reference(g) = game {
        return g.clone();
    }
    let mut reference = ReferenceEngine::new_game(game.game_type(), game.options());
    for &mv in game.history() {
        reference.play_unchecked(mv);
    }
    reference
}

/// The moves the fault adds to the legal moves of the position (none that
/// the rules allow, none for a fault that adds no move or a finished game).
pub fn extra_moves(fault: Fault, game: &Game) -> BTreeSet<Move> {
    let Some(added_moves) = added_moves(fault) else {
        return BTreeSet::new();
    };
    if game.state().is_over() {
        return BTreeSet::new();
    }
    let reference = reference_of(game);
    let mut extra = added_moves(&reference);
    let legal = reference.legal_move_set();
    extra.retain(|mv| !legal.contains(mv));
    extra
}

/// How a fault that adds moves finds them in a position, `None` for the
/// others.
fn added_moves(fault: Fault) -> Option<fn(&ReferenceEngine) -> BTreeSet<Move>> {
    let added: fn(&ReferenceEngine) -> BTreeSet<Move> = match fault {
        Fault::SpiderBacktracks => {
            |reference| own_bug_moves(reference, Bug::Spider, backtracking_walk_ends)
        }
        Fault::BeetleIgnoresHeightGates => {
            |reference| own_bug_moves(reference, Bug::Beetle, steps_through_height_gates)
        }
        Fault::MosquitoCopiesMosquito => {
            |reference| own_bug_moves(reference, Bug::Mosquito, mosquito_as_queen)
        }
        Fault::PillbugThrowsLastMoved => throws_of_last_moved,
        Fault::QueenFirstAllowed => queen_first,
        _ => return None,
    };
    Some(added)
}

/// The side to move's pieces of `bug` that may act (queen placed §4.3, on
/// top §5.2, not immune §5.10, lifting them keeps one hive §5.3), each with
/// the destinations `destinations` gives.
fn own_bug_moves(
    reference: &ReferenceEngine,
    bug: Bug,
    destinations: fn(&Board, Hex) -> BTreeSet<Hex>,
) -> BTreeSet<Move> {
    let board = reference.board();
    let color = reference.side_to_move();
    let mut moves = BTreeSet::new();
    if !opening::may_move_pieces(board, color) {
        return moves;
    }
    for from in board.occupied_cells() {
        let Some(piece) = board.top(from) else {
            continue;
        };
        if piece.color != color || piece.bug != bug || reference.immune_piece() == Some(piece) {
            continue;
        }
        if !one_hive_holds(board, from) {
            continue;
        }
        for to in destinations(board, from) {
            if to != from {
                moves.insert(Move::Move { piece, to });
            }
        }
    }
    moves
}

/// §6.4.2 broken: the ends of every walk of three ground steps, revisits allowed.
fn backtracking_walk_ends(board: &Board, from: Hex) -> BTreeSet<Hex> {
    if board.height(from) != 1 {
        return BTreeSet::new();
    }
    let lifted = board.with_top_lifted(from);
    let mut cells = BTreeSet::from([from]);
    for _ in 0..3 {
        let mut next_cells = BTreeSet::new();
        for &here in &cells {
            for next in here.neighbours() {
                if ground_step_possible(&lifted, here, next) {
                    next_cells.insert(next);
                }
            }
        }
        cells = next_cells;
    }
    cells
}

/// §6.2.2 broken: one-cell beetle steps with the height gate rule ignored,
/// except ground-to-ground steps (whose gate is §5.5, not §5.6).
fn steps_through_height_gates(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    from.neighbours()
        .into_iter()
        .filter(|&to| lifted.height(from) > 0 || lifted.height(to) > 0)
        .filter(|&to| step_ignoring_height_gates(&lifted, from, to))
        .collect()
}

/// §6.7.2 broken: a ground mosquito touching only mosquitoes steps like a queen.
fn mosquito_as_queen(board: &Board, from: Hex) -> BTreeSet<Hex> {
    if board.height(from) != 1 {
        return BTreeSet::new();
    }
    let tops: Vec<_> = from
        .neighbours()
        .into_iter()
        .filter_map(|n| board.top(n))
        .collect();
    if tops.is_empty() || tops.iter().any(|top| top.bug != Bug::Mosquito) {
        return BTreeSet::new();
    }
    let lifted = board.with_top_lifted(from);
    ground_steps_from(&lifted, from).into_iter().collect()
}

/// §5.10 broken: the side to move's pillbugs also throw the piece moved last turn.
fn throws_of_last_moved(reference: &ReferenceEngine) -> BTreeSet<Move> {
    let board = reference.board();
    let color = reference.side_to_move();
    let mut moves = BTreeSet::new();
    let Some(immune) = reference.immune_piece() else {
        return moves;
    };
    if !opening::may_move_pieces(board, color) {
        return moves;
    }
    for from in board.occupied_cells() {
        let Some(piece) = board.top(from) else {
            continue;
        };
        if piece.color != color || piece.bug != Bug::Pillbug || piece == immune {
            continue;
        }
        for (target, to) in pillbug_throws(board, from, None) {
            if target == immune {
                moves.insert(Move::Move { piece: target, to });
            }
        }
    }
    moves
}

/// §4.2 broken: the queen placements a standard opening would allow.
fn queen_first(reference: &ReferenceEngine) -> BTreeSet<Move> {
    if !reference.options().tournament_opening {
        return BTreeSet::new();
    }
    let standard = RulesOptions {
        tournament_opening: false,
        ..reference.options()
    };
    let mut replay = ReferenceEngine::new_game(reference.game_type(), standard);
    for &mv in reference.history() {
        replay.play_unchecked(mv);
    }
    replay
        .legal_move_set()
        .into_iter()
        .filter(|mv| matches!(mv, Move::Place { piece, .. } if piece.bug == Bug::Queen))
        .collect()
}

/// How the fault plays a move otherwise than the rules.
pub(super) enum Deviation {
    /// A move the fault adds, applied without checking.
    Unchecked(Move),
    /// Under covered-name-moves-top, the move of the piece on top of the
    /// covered mover's stack, played instead (§5.2 broken).
    TopOfStack(Move),
}

impl Deviation {
    /// Plays the move in the game.
    pub(super) fn apply(self, game: &mut Game) -> Result<(), GameError> {
        match self {
            Deviation::Unchecked(mv) => {
                game.play_unchecked(mv);
                Ok(())
            }
            Deviation::TopOfStack(instead) => game.play(instead),
        }
    }
}

/// How the fault plays `mv` in the game, `None` when it plays it as the
/// rules do.
pub(super) fn deviation(fault: Fault, game: &Game, mv: Move) -> Option<Deviation> {
    if extra_moves(fault, game).contains(&mv) {
        return Some(Deviation::Unchecked(mv));
    }
    if fault == Fault::CoveredNameMovesTop {
        return top_of_covered_mover(game, mv).map(Deviation::TopOfStack);
    }
    None
}

/// Plays a move with the fault applied ([`Deviation`]); any other move
/// goes to the real engine.
pub(super) fn play(fault: Fault, game: &mut Game, mv: Move) -> Result<(), GameError> {
    match deviation(fault, game, mv) {
        Some(deviation) => deviation.apply(game),
        None => game.play(mv),
    }
}

/// §5.2 broken: when `mv` moves a covered piece, the same move by the piece
/// on top of its stack, if that move is legal.
fn top_of_covered_mover(game: &Game, mv: Move) -> Option<Move> {
    let Move::Move { piece, to } = mv else {
        return None;
    };
    let reference = reference_of(game);
    let board = reference.board();
    let top = board.top(board.location(piece)?)?;
    if top == piece {
        return None;
    }
    let instead = Move::Move { piece: top, to };
    game.legal_moves().contains(&instead).then_some(instead)
}

/// §8.3 broken (simultaneous-surround-wins): the GameString `text` of a
/// game drawn because both queens are surrounded, with the state of a win
/// for the player who made the last move. Any other GameString is as it is.
pub(super) fn surround_won_by_last_mover(game: &Game, text: String) -> String {
    if game.state() != GameState::Draw {
        return text;
    }
    let reference = reference_of(game);
    let board = reference.board();
    if !(queen_is_surrounded(board, Color::White) && queen_is_surrounded(board, Color::Black)) {
        return text;
    }
    // §8.3 broken: the player who made the last move is declared the winner
    let mover = match reference.history().len() % 2 {
        1 => GameState::WhiteWins,
        _ => GameState::BlackWins,
    };
    let mut fields: Vec<String> = text.split(';').map(str::to_string).collect();
    if fields.len() >= 2 {
        fields[1] = mover.to_string();
    }
    fields.join(";")
}

/// §8.2 broken (repetition-draw-early-win): the GameString `text` of a game
/// in progress in which Black's queen has four or more neighbours, with the
/// state `WhiteWins`. Any other GameString is as it is.
pub(super) fn white_wins_early(game: &Game, text: String) -> String {
    if game.state() != GameState::InProgress {
        return text;
    }
    let reference = reference_of(game);
    let board = reference.board();
    let queen = board.occupied_cells().into_iter().find(|&cell| {
        board
            .stack(cell)
            .iter()
            .any(|p| p.bug == Bug::Queen && p.color == Color::Black)
    });
    let Some(queen) = queen else {
        return text;
    };
    let neighbours = queen
        .neighbours()
        .into_iter()
        .filter(|&n| board.height(n) > 0)
        .count();
    if neighbours < 4 {
        return text;
    }
    // §8.2 broken: four neighbours are taken for a surround
    let mut fields: Vec<String> = text.split(';').map(str::to_string).collect();
    if fields.len() >= 2 {
        fields[1] = GameState::WhiteWins.to_string();
    }
    fields.join(";")
}
