//! The tree search: fail-soft negamax alpha-beta with a
//! transposition table, killer moves and a one-move win check at the leaves.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::eval::{self, Queens};
use super::table::{Bound, TranspositionTable};
use crate::core::BoardView;
use crate::core::{Color, GameState, Move};
use crate::fast::FastEngine;
use crate::rules::Rules;

/// The score of a win on the move (a surround at ply 0); a win `n` plies
/// from the root scores `MATE - n`, a loss `-(MATE - n)`.
pub(super) const MATE: i32 = 1_000_000;
/// Above every score.
pub(super) const INFINITY: i32 = MATE + 1;
/// Scores beyond this (in absolute value) are wins or losses.
pub(super) const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest iteration searched, whatever depth is asked for (plies).
///
/// Below this cap, a depth limit without a time limit is bounded only by the
/// game: the search runs until that depth is done or a win or loss is
/// proven. The cost grows several times per ply: on the 45-move Base+MLP
/// midgame of `tests/search.rs`, depth 5 takes about 0.3 s, depth 6 about
/// 1.1 s and depth 7 more than 4 s (release build, the project's 2-core machine). Callers that take a depth from users (the UHP
/// `bestmove depth N`) must cap it well below this, or give a time limit too.
pub const MAX_DEPTH: u32 = 64;

const _: () = assert!(eval::EVAL_BOUND < MATE_BOUND && (MAX_DEPTH as i32) + 2 < MATE - MATE_BOUND);

/// Plies of killer slots: the deepest node is at ply `MAX_DEPTH`.
const KILLER_PLIES: usize = MAX_DEPTH as usize + 2;
/// The clock is read every this many nodes (a power of two).
const CLOCK_INTERVAL: u64 = 128;

/// The score of a finished game for the side to move, `ply` plies from the root (§8.2–§8.4).
fn terminal(state: GameState, to_move: Color, ply: u32) -> Option<i32> {
    let win = MATE - ply as i32;
    match (state, to_move) {
        (GameState::Draw, _) => Some(0),
        (GameState::WhiteWins, Color::White) | (GameState::BlackWins, Color::Black) => Some(win),
        (GameState::WhiteWins, Color::Black) | (GameState::BlackWins, Color::White) => Some(-win),
        (GameState::NotStarted | GameState::InProgress, _) => None,
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_table(score: i32, ply: u32) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: u32) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// How one iteration at the root ended.
pub(super) struct RootOutcome {
    /// The best root move among those searched to the end, with its score.
    pub best: Option<(Move, i32)>,
    /// Whether every root move was searched (the clock did not stop it).
    pub complete: bool,
}

pub(super) struct Searcher<'t> {
    game: FastEngine,
    table: &'t mut TranspositionTable,
    deadline: Option<Instant>,
    /// Stops the search like the deadline once set (read with the clock).
    stop: Option<&'t AtomicBool>,
    pub nodes: u64,
    stopped: bool,
    killers: [[Option<Move>; 2]; KILLER_PLIES],
    /// With the repetition rule on, a position's value depends on the
    /// history, which the hash does not see: the table then only orders moves.
    table_cutoffs: bool,
}

impl<'t> Searcher<'t> {
    pub fn new(
        game: FastEngine,
        table: &'t mut TranspositionTable,
        deadline: Option<Instant>,
        stop: Option<&'t AtomicBool>,
    ) -> Self {
        let table_cutoffs = !game.options().repetition_draw;
        Searcher {
            game,
            table,
            deadline,
            stop,
            nodes: 0,
            stopped: false,
            killers: [[None; 2]; KILLER_PLIES],
            table_cutoffs,
        }
    }

    pub fn game(&self) -> &FastEngine {
        &self.game
    }

    /// Counts a node and reads the clock every `CLOCK_INTERVAL` nodes.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_INTERVAL) && self.out_of_time() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the deadline has passed (read now) or the stop flag is set.
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    /// Orders `moves` best-first, stably (so the order is a function of the
    /// position, the table move and the killers): the table move, killers,
    /// then moves next to the opponent's queen (filling its last gap first),
    /// moves that free a neighbour of the own queen, and last moves that
    /// crowd the own queen.
    pub fn order(&self, moves: &mut [Move], first: Option<Move>, ply: u32) {
        let queens = Queens::read(&self.game);
        let me = self.game.side_to_move();
        let them = me.opponent();
        let gap = queens.last_gap(them);
        let killers = self.killers.get(ply as usize).copied().unwrap_or([None; 2]);
        let own_queen = eval::queen(me);
        let key = |mv: Move| -> i32 {
            if Some(mv) == first {
                return 1 << 20;
            }
            if Some(mv) == killers[0] {
                return 1 << 19;
            }
            if Some(mv) == killers[1] {
                return 1 << 18;
            }
            let (Some(piece), Some(to)) = (mv.piece(), mv.destination()) else {
                return 0;
            };
            let mut k = 0;
            if gap == Some(to) {
                k += 5_000;
            }
            if queens.touches(them, to) {
                k += 1_000;
            }
            let from = match mv {
                Move::Move { .. } => self.game.location(piece),
                _ => None,
            };
            if let Some(from) = from {
                if queens.touches(me, from) && !queens.touches(me, to) {
                    k += 300;
                }
            }
            if piece != own_queen && queens.touches(me, to) {
                k -= 200;
            }
            k
        };
        let mut keyed: Vec<(i32, Move)> = moves.iter().map(|&mv| (key(mv), mv)).collect();
        keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        for (slot, (_, mv)) in moves.iter_mut().zip(keyed) {
            *slot = mv;
        }
    }

    /// Searches every root move `depth` plies (the root is ply 0) in the
    /// given order with a full window.
    pub fn root(&mut self, moves: &[Move], depth: u32) -> RootOutcome {
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best: Option<(Move, i32)> = None;
        for &mv in moves {
            self.game.play_unchecked(mv);
            let score = -self.negamax(depth - 1, 1, -beta, -alpha);
            self.game.undo();
            if self.stopped {
                return RootOutcome {
                    best,
                    complete: false,
                };
            }
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((mv, score));
            }
            alpha = alpha.max(score);
            if score >= MATE - 1 {
                break; // a win on the move: nothing is better
            }
        }
        if let Some((mv, score)) = best {
            self.table
                .store(self.game.hash(), mv, score, depth, Bound::Exact);
        }
        RootOutcome {
            best,
            complete: true,
        }
    }

    /// The value of the position for the side to move, searched `depth`
    /// plies; `ply` plies from the root. After a stop the value is
    /// meaningless (0) and the caller discards it.
    fn negamax(&mut self, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Some(score) = terminal(self.game.state(), self.game.side_to_move(), ply) {
            return score;
        }
        if depth == 0 {
            return self.leaf(ply);
        }
        let key = self.game.hash();
        let mut first = None;
        if let Some(entry) = self.table.probe(key) {
            first = Some(entry.mv);
            if self.table_cutoffs && entry.depth as u32 >= depth {
                let score = from_table(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let mut moves = self.game.legal_moves();
        if moves.is_empty() {
            return 0; // not reached: a game in progress has a move or a pass (§7.2)
        }
        self.order(&mut moves, first, ply);
        let alpha_at_start = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = moves[0];
        for mv in moves {
            self.game.play_unchecked(mv);
            let score = -self.negamax(depth - 1, ply + 1, -beta, -alpha);
            self.game.undo();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                self.remember_killer(mv, ply);
                break;
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_at_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table
            .store(key, best_move, to_table(best_score, ply), depth, bound);
        best_score
    }

    /// A node at the horizon: a win on the move if there is one, otherwise
    /// the static evaluation.
    fn leaf(&mut self, ply: u32) -> i32 {
        let moves = self.game.legal_moves();
        let queens = Queens::read(&self.game);
        if eval::wins_now(&mut self.game, &queens, &moves) {
            return MATE - (ply as i32 + 1);
        }
        eval::evaluate(&self.game, &queens, &moves)
    }

    fn remember_killer(&mut self, mv: Move, ply: u32) {
        if let Some(slot) = self.killers.get_mut(ply as usize) {
            if slot[0] != Some(mv) {
                slot[1] = slot[0];
                slot[0] = Some(mv);
            }
        }
    }
}
