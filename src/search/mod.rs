//! `bestmove`: a game-tree search on the fast engine.
//!
//! Iterative deepening over a fail-soft negamax alpha-beta, with a
//! transposition table keyed by the fast engine's incremental Zobrist hash
//! ([`FastEngine::hash`]) whose move is searched first, killer moves, and a
//! static move order (the last gap of the opponent's queen, then its other
//! neighbours, then moves that free the own queen). Playing strength is not
//! the goal; soundness is:
//!
//! * **Finished games** score as wins and losses with the distance in plies
//!   (`MATE - plies`, see [`MATE`]), so a faster win is preferred and a loss
//!   is put off as long as possible; a draw scores 0.
//! * **Leaves** (depth 0) first check whether the side to move can surround
//!   the opponent's queen on the move (each candidate move is played and the
//!   engine's `state()` decides), so even a depth-1 search never plays a move
//!   that lets the opponent win on the next move when another move does not.
//! * **Evaluation** of other leaves: occupied neighbours of each queen
//!   (pressure on the opponent's minus pressure on one's own) plus the
//!   mobility of the side to move (pieces with a legal movement, and legal
//!   moves up to a cap).
//! * **Time** (`limits.time`) is a hard budget: the clock is read every 128
//!   nodes, a stopped iteration is thrown away, and the answer is the best
//!   move of the last completed iteration (or, if the first iteration did not
//!   complete, the best root move searched so far, else the first legal move).
//! * **Depth** (`limits.depth`) is deterministic: a search with a depth limit
//!   starts a new table generation (an O(1) logical clear, see
//!   [`TranspositionTable`]), so for a given table size the same position and
//!   depth always give the same result, whatever was searched before. A
//!   search with only a time limit keeps the table's entries from earlier
//!   searches (they help the next move of the same game); its result depends
//!   on the clock anyway.
//!
//! Everything goes through the [`Rules`] trait (`legal_moves`,
//! `play_unchecked`, `undo`, `state`, `side_to_move`) and [`BoardView`] on a
//! clone of the caller's game, which is never changed.
//!
//! ```
//! use hive_oracle_rules::fast::FastEngine;
//! use hive_oracle_rules::rules::Rules;
//! use hive_oracle_rules::search::{best_move, SearchLimits, TranspositionTable};
//!
//! let game = FastEngine::load("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-").unwrap();
//! let mut table = TranspositionTable::new(16);
//! let limits = SearchLimits { depth: Some(2), time: None };
//! let result = best_move(&game, &limits, &mut table).unwrap();
//! assert!(game.legal_moves().contains(&result.best));
//! assert_eq!(result.depth, 2);
//! ```
//!
//! [`FastEngine::hash`]: crate::fast::FastEngine::hash
//! [`BoardView`]: crate::core::BoardView

mod eval;
mod table;
mod tree;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::core::Move;
use crate::fast::FastEngine;
use crate::rules::Rules;

pub use table::TranspositionTable;
use tree::Searcher;
pub use tree::MAX_DEPTH;

/// The budget of a search given neither a depth nor a time limit.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// The score of a win on the move. A win `n` plies from the position scores
/// `MATE - n`, a loss `n` plies away `-(MATE - n)`; every other score is far
/// smaller in absolute value (below `MATE - 1000`).
pub const MATE: i32 = tree::MATE;

/// When to stop searching. With both limits, the search stops at whichever
/// comes first (and is then deterministic only if the depth came first).
/// With neither, the budget is [`DEFAULT_TIME`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Search this many plies (1 ..= [`MAX_DEPTH`]; 0 is taken as 1 and
    /// larger values as [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Answer within this budget (plus a few milliseconds; the tests hold the
    /// overshoot under 50 ms).
    pub time: Option<Duration>,
}

/// The answer of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// A legal move of the position (`Move::Pass` when it is the only one).
    pub best: Move,
    /// The depth of the last completed iteration (0 if none completed).
    pub depth: u32,
    /// The value for the side to move at that depth: see [`MATE`] for won
    /// and lost positions; 0 if no iteration completed.
    pub score: i32,
    /// Nodes visited (positions reached in the tree, root and leaves included).
    pub nodes: u64,
}

/// The best move of `game` for the side to move, found by an
/// iterative-deepening alpha-beta search within `limits`, using (and
/// filling) `table`. `game` is not changed.
///
/// `None` when the game is over (no legal move, §8.5). Never panics. When
/// the only legal move is `pass` (§7.2), returns `Move::Pass`; when there is
/// a single legal move the search stops after the first iteration.
pub fn best_move(
    game: &FastEngine,
    limits: &SearchLimits,
    table: &mut TranspositionTable,
) -> Option<SearchResult> {
    best_move_from(game, limits, table, Instant::now(), None)
}

/// [`best_move`] with its time budget counted from `start` (the moment the
/// request was read, so that what the caller did before, such as allocating
/// the table or copying the game, is counted) and stopped early, as when
/// the budget runs out, once `stop` is set (the UHP server sets it when its
/// input ends).
pub fn best_move_from(
    game: &FastEngine,
    limits: &SearchLimits,
    table: &mut TranspositionTable,
    start: Instant,
    stop: Option<&AtomicBool>,
) -> Option<SearchResult> {
    if game.state().is_over() {
        return None;
    }
    let mut root_moves = game.legal_moves();
    let first_legal = *root_moves.first()?;
    let (max_depth, time) = match (limits.depth, limits.time) {
        (None, None) => (MAX_DEPTH, Some(DEFAULT_TIME)),
        (depth, time) => (depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH), time),
    };
    if limits.depth.is_some() {
        table.new_generation();
    }
    let table_move = table.probe(game.hash()).map(|entry| entry.mv);
    // a huge budget that overflows the clock means no deadline
    let deadline = time.and_then(|t| start.checked_add(t));
    let mut searcher = Searcher::new(game.clone(), table, deadline, stop);
    searcher.order(&mut root_moves, table_move, 0);

    let mut result = SearchResult {
        best: first_legal,
        depth: 0,
        score: 0,
        nodes: 0,
    };
    for depth in 1..=max_depth {
        if searcher.out_of_time() {
            break;
        }
        let outcome = searcher.root(&root_moves, depth);
        let Some((mv, score)) = outcome.best else {
            break; // stopped before the first root move was done
        };
        if !outcome.complete {
            if result.depth == 0 {
                // nothing completed: the best of the root moves searched
                result.best = mv;
                result.score = score;
            }
            break;
        }
        result.best = mv;
        result.score = score;
        result.depth = depth;
        // the best move first in the next iteration; the others keep their order
        if let Some(i) = root_moves.iter().position(|&m| m == mv) {
            root_moves[..=i].rotate_right(1);
        }
        if root_moves.len() == 1 {
            break; // a single legal move: nothing to choose
        }
        let distance = MATE - score.abs();
        if score.abs() > tree::MATE_BOUND && distance <= depth as i32 {
            break; // a win or loss proven within the horizon: deeper changes nothing
        }
    }
    result.nodes = searcher.nodes;
    debug_assert_eq!(searcher.game().history(), game.history());
    Some(result)
}
