//! Shrinking a finding to a short game that still shows it.
//!
//! A finding of `check` is a position, reached by a random game of up to a
//! few hundred plies, where an engine disagrees with the rules. What a
//! reader needs is the shortest game that shows the same disagreement: a
//! handful of pieces around the one move in dispute.
//!
//! # The game as two lists of turns
//!
//! Removing one ply from a game changes which player makes every later
//! ply, so almost every shorter game obtained by cutting plies is illegal.
//! The shrinker therefore sees a game as two lists, the turns of White and
//! the turns of Black, each in order, and a candidate as those lists with
//! the same number of turns removed from each. The candidate game
//! interleaves what is left (White, Black, White, ...), so every turn is
//! still made by the player who made it, but the turns of the two players
//! may shift against each other. Moves are absolute (a piece and a cell,
//! [`Move`]), so removing an earlier move of a piece turns its later move
//! into a longer one from an earlier cell, and removing a piece removes its
//! placement, its moves and every throw of it.
//!
//! Before it is tried, a candidate is normalized: pieces are renumbered in
//! the order they are placed (removing `wA1` makes `wA2` the first ant,
//! §1.5, §3.2) and the board is translated so that the first piece placed
//! stands on the origin (§3.3). The candidate must then be a legal game
//! (checked quickly with the fast engine, which agrees with the reference
//! everywhere; see `tests/differential.rs`) before the engine under check
//! is asked anything, so engine time is spent only on legal games.
//!
//! # The search
//!
//! First removals, greedy, in rounds, until a round removes nothing or a
//! budget runs out:
//!
//! 1. the shortest prefix that shows the finding;
//! 2. a white and a black piece removed together (all their turns), then
//!    one piece with the other player's earliest moves that move a piece;
//! 3. one turn of each player, nearest in time first.
//!
//! Each step keeps a candidate as soon as it still shows the finding: a
//! legal game whose last position makes the engine disagree in the same way
//! (the caller decides what "the same way" is; `check` asks for the same
//! kind of finding and at least one clause in common).
//!
//! Removals alone get stuck on long games: early placements hold the hive
//! together and later moves need them. So when the result is still longer
//! than a few plies, a rebuild search follows: it takes the neighbourhood
//! of the disputed move in the finding's position (a `Pattern`: what
//! stands on the cells around both ends of the move, the side to move, the
//! piece moved last) and searches, breadth first with a beam, for a shorter
//! game whose position has the same neighbourhood around a piece of the
//! same kind; the closest positions are shown to the predicate. A rebuilt
//! game then goes through the removals again. On the fault engines of
//! `uhp --fault`, games of 30 to 97 plies shrink to 5 to 19 plies (the unit
//! tests below and `tests/check_faults.rs`).
//!
//! A finding may also carry a *focus* move: the illegal move the engine
//! accepted, the legal move it refused, or the move after which it printed
//! the wrong state. The focus is renamed and translated with the game and
//! tried after its last position.

mod budget;
mod pattern;
mod search;
mod split;
#[cfg(all(test, feature = "faults"))]
mod tests;

use hive_oracle_rules::core::{GameType, Move, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

pub use budget::{Budget, Shrunk};
use pattern::{Pattern, Scope};
pub use search::Shows;
use search::{Search, BEAM_FROM_PLIES};

/// Shrinks `moves`, a legal game of `game_type` whose last position shows
/// a finding (with `focus`, the move in dispute after it, if any), to a
/// shorter legal game that still shows it according to `shows`. `shows`
/// is given the reference engine in the candidate's last position and the
/// focus renamed for it; it is called only on legal games. `disputed` is
/// the move the finding is about (the focus, or one of the moves the engine
/// lists wrongly): when it moves a piece, a search for a short game that
/// rebuilds its neighbourhood follows the removals (see `Pattern`).
pub fn shrink<F>(
    game_type: GameType,
    options: RulesOptions,
    moves: &[Move],
    focus: Option<Move>,
    disputed: Option<Move>,
    budget: Budget,
    mut shows: F,
) -> Shrunk
where
    F: FnMut(&ReferenceEngine, Option<Move>) -> Shows,
{
    let mut search = Search::new(game_type, options, moves, focus, budget, &mut shows);
    search.remove_turns();
    let mut fast = FastEngine::new_game(game_type, options);
    let replayed = moves.iter().all(|&m| fast.play(m).is_ok());
    for scope in [Scope::Edge, Scope::Neighbourhood] {
        let Some(pattern) = disputed
            .filter(|_| replayed)
            .and_then(|mv| Pattern::of(&fast, mv, scope))
        else {
            continue;
        };
        if search.best_len() > BEAM_FROM_PLIES && search.rebuild(&pattern) {
            search.remove_turns();
        }
    }
    search.into_shrunk()
}
