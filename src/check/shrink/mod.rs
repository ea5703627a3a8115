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

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::core::{Bug, Color, GameType, Hex, Move, Piece, RulesOptions};
use crate::fast::FastEngine;
use crate::reference::ReferenceEngine;
use crate::rules::Rules;
use rebuild::{Pattern, Scope, BEAM_FROM_PLIES};

/// How much work one shrink may do.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Candidates shown to the predicate (each costs the engine under
    /// check a `newgame` and a question).
    pub(crate) predicate_calls: usize,
    /// Candidates built and replayed by the oracle, legal or not.
    pub candidates: usize,
    /// Positions scored by the rebuild search.
    pub positions: usize,
    /// A wall-clock safety cap, far above the normal cost of a shrink (on
    /// our own engine a shrink takes 0.02 to 4 s): it only stops a shrink
    /// against an engine that answers very slowly, and then
    /// [`Shrunk::capped`] says so, because the result then depends on the
    /// machine. The budgets above, which count work, decide every normal
    /// shrink, so that its result is the same on every machine.
    pub(crate) safety_cap: Duration,
}

impl Budget {
    /// The budget for a finding that costs the engine a timeout each time
    /// it is shown again: a few questions only.
    pub(crate) fn for_timeouts() -> Budget {
        Budget {
            predicate_calls: 6,
            ..Budget::default()
        }
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            predicate_calls: 600,
            candidates: 30_000,
            positions: 2_000_000,
            safety_cap: Duration::from_secs(300),
        }
    }
}

/// The result of a shrink, with what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shrunk {
    /// The shortest game found that still shows the finding.
    pub moves: Vec<Move>,
    /// The focus move, renamed and translated with the game.
    pub focus: Option<Move>,
    /// Candidates shown to the predicate.
    pub(crate) predicate_calls: usize,
    /// Candidates built (legal or not).
    pub candidates: usize,
    /// Positions scored by the rebuild search.
    pub positions: usize,
    /// Whether the search stopped on its budget (or on an abort) rather than
    /// because nothing more could be removed.
    pub(crate) exhausted: bool,
    /// Whether the wall-clock safety cap stopped it (see
    /// [`Budget::safety_cap`]).
    pub(crate) capped: bool,
}

/// What the predicate says about one candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shows {
    /// The candidate shows the finding: keep it.
    Yes,
    /// It does not.
    No,
    /// Stop shrinking (the engine under check failed): keep the best so far.
    Abort,
}

/// One turn of the game: who made it and a stable id.
#[derive(Clone, Copy, Debug)]
struct Turn {
    id: usize,
    mv: Move,
}

/// The game as White's turns and Black's turns, in the names and cells of
/// the game being shrunk (candidates are normalized when they are built).
#[derive(Clone, Debug)]
struct Split {
    white: Vec<Turn>,
    black: Vec<Turn>,
}

impl Split {
    fn of(moves: &[Move]) -> Split {
        let mut split = Split {
            white: Vec::new(),
            black: Vec::new(),
        };
        for (id, &mv) in moves.iter().enumerate() {
            let turn = Turn { id, mv };
            if id % 2 == 0 {
                split.white.push(turn);
            } else {
                split.black.push(turn);
            }
        }
        split
    }

    fn len(&self) -> usize {
        self.white.len() + self.black.len()
    }

    /// The interleaved game, without the turns whose ids are in `removed`.
    fn without(&self, removed: &[usize]) -> Vec<Move> {
        let keep = |t: &&Turn| !removed.contains(&t.id);
        let white: Vec<Move> = self.white.iter().filter(keep).map(|t| t.mv).collect();
        let black: Vec<Move> = self.black.iter().filter(keep).map(|t| t.mv).collect();
        interleave(&white, &black)
    }

    fn remove(&mut self, removed: &[usize]) {
        self.white.retain(|t| !removed.contains(&t.id));
        self.black.retain(|t| !removed.contains(&t.id));
    }
}

/// White's and Black's turns as one game: White, Black, White, ...
fn interleave(white: &[Move], black: &[Move]) -> Vec<Move> {
    let mut out = Vec::with_capacity(white.len() + black.len());
    for i in 0..white.len().max(black.len()) {
        out.extend(white.get(i));
        out.extend(black.get(i));
    }
    out
}

/// Renumbers the pieces in the order they are placed (§1.5, §3.2) and
/// translates the board so that the first placement is on the origin
/// (§3.3). `None` when a piece moves before it is placed, or the game does
/// not start with a placement.
fn normalize(moves: &[Move], focus: Option<Move>) -> Option<(Vec<Move>, Option<Move>)> {
    let offset = match moves.first().copied().or(focus) {
        Some(Move::Place { to, .. }) => to,
        Some(_) => return None,
        None => Hex::ORIGIN,
    };
    let shift = |h: Hex| Hex::new(h.q - offset.q, h.r - offset.r);
    let mut renamed: BTreeMap<Piece, Piece> = BTreeMap::new();
    let mut placed: BTreeMap<(Color, Bug), u8> = BTreeMap::new();
    let mut place = |piece: Piece, renamed: &mut BTreeMap<Piece, Piece>| -> Option<Piece> {
        let count = placed.entry((piece.color, piece.bug)).or_insert(0);
        *count += 1;
        let new = Piece::new(piece.color, piece.bug, *count)?;
        renamed.insert(piece, new);
        Some(new)
    };
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        out.push(match mv {
            Move::Place { piece, to } => {
                if renamed.contains_key(&piece) {
                    return None;
                }
                Move::Place {
                    piece: place(piece, &mut renamed)?,
                    to: shift(to),
                }
            }
            Move::Move { piece, to } => Move::Move {
                piece: *renamed.get(&piece)?,
                to: shift(to),
            },
            Move::Pass => Move::Pass,
        });
    }
    let focus = match focus {
        None => None,
        Some(Move::Pass) => Some(Move::Pass),
        Some(Move::Place { piece, to }) => Some(Move::Place {
            // a placement of a piece already on the board names the next one
            piece: match renamed.get(&piece) {
                Some(&p) => p,
                None => place(piece, &mut renamed)?,
            },
            to: shift(to),
        }),
        Some(Move::Move { piece, to }) => Some(Move::Move {
            piece: *renamed.get(&piece)?,
            to: shift(to),
        }),
    };
    Some((out, focus))
}

/// The search state: the best game so far and the budget used.
struct Search<'a, F> {
    game_type: GameType,
    options: RulesOptions,
    focus: Option<Move>,
    budget: Budget,
    best: Split,
    best_moves: Vec<Move>,
    best_focus: Option<Move>,
    predicate_calls: usize,
    candidates: usize,
    positions: usize,
    started: Instant,
    aborted: bool,
    shows: &'a mut F,
}

impl<F: FnMut(&ReferenceEngine, Option<Move>) -> Shows> Search<'_, F> {
    fn out_of_budget(&self) -> bool {
        self.aborted
            || self.predicate_calls >= self.budget.predicate_calls
            || self.candidates >= self.budget.candidates
            || self.capped()
    }

    /// Whether the wall-clock safety cap is reached.
    fn capped(&self) -> bool {
        self.started.elapsed() >= self.budget.safety_cap
    }

    /// Tries the best game without the turns `removed`; keeps it if it is
    /// legal and still shows the finding.
    fn attempt(&mut self, removed: &[usize]) -> bool {
        if self.out_of_budget() {
            return false;
        }
        self.candidates += 1;
        let raw = self.best.without(removed);
        let Some((moves, focus)) = normalize(&raw, self.focus) else {
            return false;
        };
        // The oracle first: the candidate must be a legal game.
        let mut fast = FastEngine::new_game(self.game_type, self.options);
        for &mv in &moves {
            if fast.play(mv).is_err() {
                return false;
            }
        }
        if !self.shows_finding(&moves, focus) {
            return false;
        }
        self.best.remove(removed);
        self.best_moves = moves;
        self.best_focus = focus;
        true
    }

    /// Asks the predicate about a legal game (and focus); an abort stops
    /// the search.
    fn shows_finding(&mut self, moves: &[Move], focus: Option<Move>) -> bool {
        let mut game = ReferenceEngine::new_game(self.game_type, self.options);
        for &mv in moves {
            game.play_unchecked(mv);
        }
        self.predicate_calls += 1;
        match (self.shows)(&game, focus) {
            Shows::Yes => true,
            Shows::No => false,
            Shows::Abort => {
                self.aborted = true;
                false
            }
        }
    }

    /// Phase 1: the shortest prefix.
    fn prefixes(&mut self) -> bool {
        let ids: Vec<usize> = self.ordered_ids();
        for len in 0..ids.len() {
            if self.out_of_budget() {
                return false;
            }
            if self.attempt(&ids[len..]) {
                return true;
            }
        }
        false
    }

    /// The ids of the current game in playing order.
    fn ordered_ids(&self) -> Vec<usize> {
        let white: Vec<usize> = self.best.white.iter().map(|t| t.id).collect();
        let black: Vec<usize> = self.best.black.iter().map(|t| t.id).collect();
        let mut ids = Vec::with_capacity(white.len() + black.len());
        for i in 0..white.len().max(black.len()) {
            ids.extend(white.get(i));
            ids.extend(black.get(i));
        }
        ids
    }

    /// The turns of `player` that involve `piece`: its placement, its
    /// moves and throws of it.
    fn turns_of(turns: &[Turn], piece: Piece) -> Vec<usize> {
        turns
            .iter()
            .filter(|t| t.mv.piece() == Some(piece))
            .map(|t| t.id)
            .collect()
    }

    /// Every piece placed in the current game, by colour.
    fn pieces(&self, color: Color) -> Vec<Piece> {
        let turns = match color {
            Color::White => &self.best.white,
            Color::Black => &self.best.black,
        };
        turns
            .iter()
            .filter_map(|t| match t.mv {
                Move::Place { piece, .. } => Some(piece),
                _ => None,
            })
            .collect()
    }

    /// All turns of both players about `piece`.
    fn all_turns_of(&self, piece: Piece) -> (Vec<usize>, Vec<usize>) {
        (
            Self::turns_of(&self.best.white, piece),
            Self::turns_of(&self.best.black, piece),
        )
    }

    /// Evens out a removal so both players lose as many turns: the player
    /// who lost fewer also loses their earliest turns that move a piece and
    /// are not already removed. `None` when there are not enough.
    fn balanced(&self, mut white: Vec<usize>, mut black: Vec<usize>) -> Option<Vec<usize>> {
        let fill = |removed: &mut Vec<usize>, turns: &[Turn], want: usize| -> Option<()> {
            for t in turns {
                if removed.len() >= want {
                    break;
                }
                if matches!(t.mv, Move::Move { .. }) && !removed.contains(&t.id) {
                    removed.push(t.id);
                }
            }
            (removed.len() >= want).then_some(())
        };
        let want = white.len().max(black.len());
        fill(&mut white, &self.best.white, want)?;
        fill(&mut black, &self.best.black, want)?;
        white.extend(black);
        Some(white)
    }

    /// Phase 2: whole pieces.
    fn pieces_removed(&mut self) -> bool {
        let whites = self.pieces(Color::White);
        let blacks = self.pieces(Color::Black);
        let mut removals: Vec<Vec<usize>> = Vec::new();
        for &w in &whites {
            for &b in &blacks {
                let (w1, b1) = self.all_turns_of(w);
                let (w2, b2) = self.all_turns_of(b);
                let white: Vec<usize> = w1.into_iter().chain(w2).collect();
                let black: Vec<usize> = b1.into_iter().chain(b2).collect();
                removals.extend(self.balanced(white, black));
            }
        }
        for piece in whites.iter().chain(&blacks) {
            let (white, black) = self.all_turns_of(*piece);
            removals.extend(self.balanced(white, black));
        }
        let mut improved = false;
        for removed in removals {
            if self.out_of_budget() {
                break;
            }
            // a removal may name turns an earlier success already took
            let present = self.ordered_ids();
            if removed.iter().any(|id| !present.contains(id)) {
                continue;
            }
            improved |= self.attempt(&removed);
        }
        improved
    }

    /// Phase 3: one turn of each player, nearest in time first.
    fn turn_pairs(&mut self) -> bool {
        let white: Vec<usize> = self.best.white.iter().map(|t| t.id).collect();
        let black: Vec<usize> = self.best.black.iter().map(|t| t.id).collect();
        let mut pairs: Vec<(usize, usize)> = white
            .iter()
            .flat_map(|&w| black.iter().map(move |&b| (w, b)))
            .collect();
        pairs.sort_by_key(|&(w, b)| (w.abs_diff(b), w.min(b)));
        let mut improved = false;
        for (w, b) in pairs {
            if self.out_of_budget() {
                break;
            }
            let present = self.ordered_ids();
            if !present.contains(&w) || !present.contains(&b) {
                continue;
            }
            improved |= self.attempt(&[w, b]);
        }
        improved
    }
}

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
    let mut search = Search {
        game_type,
        options,
        focus,
        budget,
        best: Split::of(moves),
        best_moves: moves.to_vec(),
        best_focus: focus,
        predicate_calls: 0,
        candidates: 0,
        positions: 0,
        started: Instant::now(),
        aborted: false,
        shows: &mut shows,
    };
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
        if search.best_moves.len() > BEAM_FROM_PLIES && search.rebuild(&pattern) {
            search.remove_turns();
        }
    }
    let exhausted = search.out_of_budget();
    let capped = search.capped();
    Shrunk {
        moves: search.best_moves,
        focus: search.best_focus,
        predicate_calls: search.predicate_calls,
        candidates: search.candidates,
        positions: search.positions,
        exhausted,
        capped,
    }
}

mod rebuild;
#[cfg(all(test, feature = "faults"))]
mod tests;
