//! A history for a set-up position (spec/notation.md §9.44): a search,
//! within a budget of positions, for a legal game from the empty board to
//! the position, so that UHP engines, which take GameStrings only, can be
//! checked on a position set up from a board.
//!
//! The search runs backwards from the position: each step takes back one
//! ply, a placement (the piece back to its reserve) or a movement or throw
//! (the piece back to a cell it could have come from), each judged by the
//! fast engine's legal moves in the position before it. Positions with
//! fewer pieces and fewer contacts between the colours come first, since
//! every placement after the second touches only its own colour (§3.5,
//! §3.6). A history found is replayed forwards on the reference engine and
//! kept only if every move is legal and the game ends at the position, so
//! "found" is never wrong; "none found" says only that the budget ran out,
//! never that the position is unreachable.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use crate::core::notation::Turn;
use crate::core::position_string::Setup;
use crate::core::view::BoardView;
use crate::core::{Hex, Move, Piece, RulesOptions};
use crate::fast::FastEngine;
use crate::reference::ReferenceEngine;
use crate::rules::setup::{arrivals, legal_in};
use crate::rules::{LoadError, Rules};

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistorySearch {
    /// A legal game that reaches the position, as a GameString, after
    /// `positions` positions looked at.
    Found {
        /// The GameString of the game, replayed and checked.
        game_string: String,
        /// The positions the search looked at.
        positions: usize,
    },
    /// No history within the budget; the position may still be reachable.
    NoneWithin {
        /// The budget, in positions, that was used up.
        positions: usize,
    },
}

/// One position of the backward search: the set-up, and the forward move
/// that leads from it to the position it was reached from.
struct Node {
    setup: Setup,
    /// The index of the position this one was taken back from, and the
    /// forward move between them.
    next: Option<(usize, Move)>,
}

/// Searches for a legal game that reaches `setup` (§9.44), looking at no
/// more than `budget` positions. The position must load (§9.42).
pub fn find_history(
    setup: &Setup,
    options: RulesOptions,
    budget: usize,
) -> Result<HistorySearch, LoadError> {
    let target = ReferenceEngine::load_setup(setup, options)?;
    let options = target.options();
    let mut nodes = vec![Node {
        setup: setup.clone(),
        next: None,
    }];
    let mut seen: BTreeSet<(usize, BTreeMap<Hex, Vec<Piece>>)> = BTreeSet::new();
    seen.insert((setup.plies(), setup.stacks()));
    let mut queue = BinaryHeap::from([Reverse((distance(setup), 0usize))]);
    let mut looked = 0;
    while let Some(Reverse((_, index))) = queue.pop() {
        looked += 1;
        if looked > budget {
            break;
        }
        let current = nodes[index].setup.clone();
        if current.plies() == 0 {
            if let Some(game_string) = replayed(&nodes, index, &target, options) {
                return Ok(HistorySearch::Found {
                    game_string,
                    positions: looked,
                });
            }
            continue;
        }
        let moved_next = nodes[index].next.and_then(|(_, mv)| mv.piece());
        for (before, mv) in steps_back(&current, options, moved_next, index == 0) {
            if seen.insert((before.plies(), before.stacks())) {
                nodes.push(Node {
                    setup: before.clone(),
                    next: Some((index, mv)),
                });
                queue.push(Reverse((distance(&before), nodes.len() - 1)));
            }
        }
    }
    Ok(HistorySearch::NoneWithin {
        positions: looked.min(budget),
    })
}

/// How far a position looks from the empty board: its pieces, then the
/// contacts between pieces of the two colours (each must be undone before
/// the pieces can go back to their reserves), then its plies.
fn distance(setup: &Setup) -> (usize, usize, usize) {
    let stacks = setup.stacks();
    let contacts = stacks
        .iter()
        .map(|(hex, stack)| {
            let top = stack[stack.len() - 1];
            hex.neighbours()
                .into_iter()
                .filter_map(|n| stacks.get(&n))
                .filter(|other| other[other.len() - 1].color != top.color)
                .count()
        })
        .sum();
    (setup.pieces.len() + contacts, contacts, setup.plies())
}

/// The positions one ply before `setup` with the forward move from each:
/// a placement taken back, or a movement or throw taken back to a cell the
/// piece could have come from, each a legal move of the position before
/// (with no piece immune there; the replay checks immunity). The piece
/// moved after `setup` (`moved_next`) cannot be the one moved before it
/// (§5.10), and the position's own last-moved piece is the one taken back
/// first.
fn steps_back(
    setup: &Setup,
    options: RulesOptions,
    moved_next: Option<Piece>,
    is_target: bool,
) -> Vec<(Setup, Move)> {
    let plies = setup.plies();
    let mut before = setup.clone();
    before.turn = Turn::after_plies(plies - 1);
    before.last_moved = None;
    let stacks = setup.stacks();
    let mut steps = Vec::new();
    // the target's last ply was a pass (§5.11): the same board before it,
    // where nothing else was legal (§7.2)
    if is_target && setup.last_moved.is_none() {
        if legal_in(&before, options, &fast_moves).contains(&Move::Pass) {
            steps.push((before, Move::Pass));
        }
        return steps;
    }
    for (&hex, stack) in &stacks {
        let piece = stack[stack.len() - 1];
        if Some(piece) == moved_next || setup.last_moved.is_some_and(|last| last != piece) {
            continue;
        }
        steps.extend(arrivals(setup, piece, hex, options, &fast_moves));
    }
    steps
}

/// The legal moves of a set-up position on the fast engine.
fn fast_moves(setup: &Setup, options: RulesOptions) -> Vec<Move> {
    FastEngine::from_setup(setup, options).legal_moves()
}

/// The GameString of the forward moves from the empty board (the node at
/// `start`, with no plies) to the target, when the reference engine plays
/// every one of them and reaches the target's position; `None` otherwise.
fn replayed(
    nodes: &[Node],
    start: usize,
    target: &ReferenceEngine,
    options: RulesOptions,
) -> Option<String> {
    let mut moves = Vec::new();
    let mut at = start;
    while let Some((next, mv)) = nodes[at].next {
        moves.push(mv);
        at = next;
    }
    let mut game = ReferenceEngine::new_game(target_game_type(target), options);
    // the first placement stands at the origin (§3.3): the search's cells
    // are the target's, so the moves are translated by the first's cell
    let origin = moves.first().and_then(|mv| mv.destination())?;
    for mv in moves {
        let mv = mv.translated(-origin.q, -origin.r);
        game.play(mv).ok()?;
    }
    same_position(&game, target).then(|| game.game_string())
}

/// Whether two games stand at one position: the same turn and piece moved
/// last, and the same stacks up to translation (§1.7).
fn same_position(a: &ReferenceEngine, b: &ReferenceEngine) -> bool {
    let stacks = |g: &ReferenceEngine| {
        let cells: BTreeMap<Hex, Vec<Piece>> = target_game_type(g)
            .all_pieces()
            .filter_map(|p| g.location(p))
            .map(|hex| (hex, g.stack(hex)))
            .collect();
        let anchor = cells.keys().next().copied().unwrap_or(Hex::ORIGIN);
        cells
            .into_iter()
            .map(|(h, s)| (Hex::new(h.q - anchor.q, h.r - anchor.r), s))
            .collect::<Vec<_>>()
    };
    a.turn() == b.turn() && a.last_moved() == b.last_moved() && stacks(a) == stacks(b)
}

/// The game type of a game.
fn target_game_type(game: &ReferenceEngine) -> crate::core::GameType {
    BoardView::game_type(game)
}
