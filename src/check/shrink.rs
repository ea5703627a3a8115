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

/// How much work one shrink may do.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Candidates shown to the predicate (each costs the engine under
    /// check a `newgame` and a question).
    pub predicate_calls: usize,
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
    pub safety_cap: Duration,
}

impl Budget {
    /// The budget for a finding that costs the engine a timeout each time
    /// it is shown again: a few questions only.
    pub fn for_timeouts() -> Budget {
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
    pub predicate_calls: usize,
    /// Candidates built (legal or not).
    pub candidates: usize,
    /// Positions scored by the rebuild search.
    pub positions: usize,
    /// Whether the search stopped on its budget (or on an abort) rather than
    /// because nothing more could be removed.
    pub exhausted: bool,
    /// Whether the wall-clock safety cap stopped it (see
    /// [`Budget::safety_cap`]).
    pub capped: bool,
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

/// A game this short is not searched for a shorter rebuild.
const BEAM_FROM_PLIES: usize = 8;

/// Positions kept at each ply of the rebuild search.
const BEAM_WIDTH: usize = 96;

/// Positions shown to the predicate at each ply of the rebuild search.
const BEAM_QUERIES_PER_PLY: usize = 3;

/// Which cells around the disputed move a pattern asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    /// The destination and the cells next to both ends of the move: the
    /// gate of a step (§5.5, §5.6), the pillbug of a throw (§6.8.3).
    Edge,
    /// Every cell next to either end of the move, and the destination.
    Neighbourhood,
}

/// What a cell near the disputed move holds, as the pattern sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    Empty,
    Stack {
        color: Color,
        bug: Bug,
        height: usize,
    },
}

fn look(engine: &FastEngine, hex: Hex) -> Look {
    match engine.top_at(hex) {
        None => Look::Empty,
        Some((piece, height)) => Look::Stack {
            color: piece.color,
            bug: piece.bug,
            height,
        },
    }
}

/// The cell `offset` from `at` after turning the offset `turns` sixths of
/// a turn (cube rotation; adjacency is kept).
fn turned(at: Hex, offset: Hex, turns: usize) -> Hex {
    let mut h = offset;
    for _ in 0..turns {
        h = Hex::new(-h.r, h.q + h.r);
    }
    Hex::new(at.q + h.q, at.r + h.r)
}

/// The neighbourhood of the disputed move in the finding's position: the
/// stacks around the cell the piece leaves and around the cell it reaches,
/// the side to move and where the piece moved last turn stands (§5.8).
/// The rebuild search looks for a short game whose position has the same
/// neighbourhood around a piece of the same colour and bug, in any of the
/// six orientations.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    color: Color,
    bug: Bug,
    side_to_move: Color,
    height: usize,
    /// Offsets from the piece's cell and what they hold.
    cells: Vec<(Hex, Look)>,
    /// The offset of the piece moved last turn, when it is in the pattern.
    last_moved: Option<Hex>,
    /// The offset of the destination.
    to: Hex,
    /// The colours and bugs the pattern shows.
    bugs: Vec<(Color, Bug)>,
}

impl Pattern {
    fn of(engine: &FastEngine, disputed: Move, scope: Scope) -> Option<Pattern> {
        use crate::core::notation::BoardView;
        let Move::Move { piece, to } = disputed else {
            return None;
        };
        let from = engine.location(piece)?;
        let (top, height) = engine.top_at(from)?;
        if top != piece {
            return None;
        }
        let offset = |h: Hex| Hex::new(h.q - from.q, h.r - from.r);
        let mut hexes: Vec<Hex> = match scope {
            Scope::Edge => {
                let near_to = to.neighbours();
                let mut both: Vec<Hex> = from
                    .neighbours()
                    .into_iter()
                    .filter(|h| near_to.contains(h))
                    .collect();
                if both.is_empty() {
                    both.extend(near_to);
                }
                both
            }
            Scope::Neighbourhood => {
                let mut all = from.neighbours().to_vec();
                all.extend(to.neighbours());
                all
            }
        };
        hexes.push(to);
        hexes.sort();
        hexes.dedup();
        hexes.retain(|&h| h != from);
        let cells: Vec<(Hex, Look)> = hexes
            .iter()
            .map(|&h| (offset(h), look(engine, h)))
            .collect();
        let last_moved = engine
            .history()
            .last()
            .and_then(|m| m.piece())
            .and_then(|p| engine.location(p))
            .filter(|h| *h == from || hexes.contains(h))
            .map(offset);
        let mut bugs: Vec<(Color, Bug)> = vec![(piece.color, piece.bug)];
        for (_, l) in &cells {
            if let Look::Stack { color, bug, .. } = *l {
                bugs.push((color, bug));
            }
        }
        bugs.sort();
        bugs.dedup();
        Some(Pattern {
            color: piece.color,
            bug: piece.bug,
            side_to_move: engine.side_to_move(),
            height,
            cells,
            last_moved,
            to: offset(to),
            bugs,
        })
    }

    /// The score of a perfect match.
    fn perfect(&self) -> u32 {
        self.bugs.len() as u32
            + 2
            + 3 * self.cells.len() as u32
            + if self.last_moved.is_some() { 3 } else { 0 }
    }

    /// How close `engine`'s position comes to the pattern: one point per
    /// colour and bug of the pattern on the board, then the best piece and
    /// orientation: 2 for the piece's height, 3 per cell that holds the
    /// same, 1 per cell that is at least as empty or occupied, 3 when the
    /// piece moved last turn stands where it should. With the piece and the
    /// orientation, to map the disputed move.
    fn score(&self, engine: &FastEngine) -> (u32, Option<(Piece, Hex, usize)>) {
        use crate::core::notation::BoardView;
        let on_board = |color: Color, bug: Bug| {
            (1..=bug.count())
                .filter_map(|n| Piece::new(color, bug, n))
                .any(|p| engine.location(p).is_some())
        };
        let presence = self.bugs.iter().filter(|&&(c, b)| on_board(c, b)).count() as u32;
        let last = engine
            .history()
            .last()
            .and_then(|m| m.piece())
            .and_then(|p| engine.location(p));
        let mut best: (u32, Option<(Piece, Hex, usize)>) = (presence, None);
        for number in 1..=self.bug.count() {
            let Some(piece) = Piece::new(self.color, self.bug, number) else {
                continue;
            };
            let Some(at) = engine.location(piece) else {
                continue;
            };
            let Some((top, height)) = engine.top_at(at) else {
                continue;
            };
            if top != piece {
                continue;
            }
            for turns in 0..6 {
                let mut score = presence;
                if height == self.height {
                    score += 2;
                }
                for &(offset, want) in &self.cells {
                    let got = look(engine, turned(at, offset, turns));
                    if got == want {
                        score += 3;
                    } else if (got == Look::Empty) == (want == Look::Empty) {
                        score += 1;
                    }
                }
                if let Some(offset) = self.last_moved {
                    if last == Some(turned(at, offset, turns)) {
                        score += 3;
                    }
                }
                if score > best.0 || best.1.is_none() && score == best.0 {
                    best = (score, Some((piece, at, turns)));
                }
            }
        }
        best
    }
}

/// A position of the rebuild search.
struct Node {
    moves: Vec<Move>,
    score: u32,
    anchor: Option<(Piece, Hex, usize)>,
    hash: u64,
    tie: u64,
}

impl<F: FnMut(&ReferenceEngine, Option<Move>) -> Shows> Search<'_, F> {
    /// Removal phases in rounds until a round removes nothing.
    fn remove_turns(&mut self) {
        loop {
            let before = self.best.len();
            self.prefixes();
            self.pieces_removed();
            self.turn_pairs();
            if self.best.len() == before || self.out_of_budget() {
                break;
            }
        }
    }

    /// Looks for a game shorter than the best one whose position rebuilds
    /// `pattern`: a beam search over both players' moves (they cooperate),
    /// keeping at each ply the positions closest to the pattern, and
    /// showing the closest ones (with the side to move of the finding) to
    /// the predicate. Deterministic: ties are broken by a fixed sequence.
    fn rebuild(&mut self, pattern: &Pattern) -> bool {
        let max_plies = self.best_moves.len().saturating_sub(1);
        let perfect = pattern.perfect();
        let mut seen: std::collections::HashSet<u64> = std::collections::HashSet::new();
        let mut queried: std::collections::HashSet<u64> = std::collections::HashSet::new();
        let mut beam: Vec<Vec<Move>> = vec![Vec::new()];
        let mut tie_state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next_tie = move || {
            // splitmix64: a fixed, well-mixed tie-breaking sequence
            tie_state = tie_state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = tie_state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut legal = Vec::new();
        for ply in 1..=max_plies {
            if self.out_of_budget() {
                return false;
            }
            let mut children: Vec<Node> = Vec::new();
            for parent in &beam {
                let mut engine = FastEngine::new_game(self.game_type, self.options);
                for &mv in parent {
                    engine.play_unchecked(mv);
                }
                if engine.state().is_over() {
                    continue;
                }
                legal.clear();
                engine.generate_moves(&mut legal);
                for &mv in &legal {
                    engine.play_unchecked(mv);
                    if seen.insert(engine.hash()) {
                        let (score, anchor) = pattern.score(&engine);
                        let mut moves = parent.clone();
                        moves.push(mv);
                        children.push(Node {
                            moves,
                            score,
                            anchor,
                            hash: engine.hash(),
                            tie: next_tie(),
                        });
                    }
                    engine.undo();
                }
            }
            self.positions += children.len();
            if self.positions >= self.budget.positions {
                return false;
            }
            children.sort_by(|a, b| b.score.cmp(&a.score).then(a.tie.cmp(&b.tie)));
            children.truncate(BEAM_WIDTH);
            let to_move = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            if to_move == pattern.side_to_move {
                let mut asked = 0;
                for node in &children {
                    if asked >= BEAM_QUERIES_PER_PLY || self.out_of_budget() {
                        break;
                    }
                    let Some((piece, at, turns)) = node.anchor else {
                        continue;
                    };
                    if node.score * 4 < perfect * 3 || !queried.insert(node.hash) {
                        continue;
                    }
                    asked += 1;
                    let focus = self.focus.map(|_| Move::Move {
                        piece,
                        to: turned(at, pattern.to, turns),
                    });
                    if self.found(&node.moves, focus) {
                        return true;
                    }
                }
            }
            beam = children.into_iter().map(|n| n.moves).collect();
        }
        false
    }

    /// Shows a legal game (and focus) to the predicate; keeps it as the new
    /// best game, in its own names, when it shows the finding.
    fn found(&mut self, moves: &[Move], focus: Option<Move>) -> bool {
        if !self.shows_finding(moves, focus) {
            return false;
        }
        self.best = Split::of(moves);
        self.best_moves = moves.to_vec();
        self.focus = focus;
        self.best_focus = focus;
        true
    }
}

#[cfg(test)]
mod tests {
    //! The shrinker against the fault engines of `uhp --fault`, in process:
    //! the predicate is "the fault adds a move here", exactly what `check`
    //! sees from the faulty engine, without a process in between. Long
    //! games come from seeded random play.

    use super::*;
    use crate::uhp::fault::extra_moves;
    use crate::uhp::{Fault, Game};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    use std::collections::BTreeSet;

    fn faulty(fault: Fault, game: &ReferenceEngine) -> BTreeSet<Move> {
        extra_moves(fault, &Game::Reference(game.clone()))
    }

    /// A seeded random game of `game_type` played until the fault first adds
    /// a move at ply `min_plies` or later.
    fn long_game_showing(fault: Fault, game_type: GameType, min_plies: usize) -> Vec<Move> {
        for seed in 0..200 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut game = ReferenceEngine::new_game(game_type, RulesOptions::default());
            for _ in 0..150 {
                if game.state().is_over() {
                    break;
                }
                if game.plies() >= min_plies && !faulty(fault, &game).is_empty() {
                    return game.history().to_vec();
                }
                let legal = game.legal_moves();
                let mv = legal[rng.random_range(0..legal.len())];
                game.play(mv).expect("a legal move");
            }
        }
        panic!("no random game shows {fault} after {min_plies} plies");
    }

    fn replayed(game_type: GameType, moves: &[Move]) -> ReferenceEngine {
        let mut game = ReferenceEngine::new_game(game_type, RulesOptions::default());
        for &mv in moves {
            game.play(mv).expect("a shrunk game is legal");
        }
        game
    }

    /// Shrinks a long game showing `fault` and checks the result is a legal
    /// game, still shows it, and has at most `max_plies` plies.
    fn shrinks_to(fault: Fault, game_type: GameType, focused: bool, max_plies: usize) {
        let long = long_game_showing(fault, game_type, 30);
        let game = replayed(game_type, &long);
        let disputed = faulty(fault, &game)
            .into_iter()
            .find(|mv| matches!(mv, Move::Move { .. }));
        let focus = if focused { disputed } else { None };
        let shrunk = shrink(
            game_type,
            RulesOptions::default(),
            &long,
            focus,
            disputed,
            Budget::default(),
            |g, focus| match focus {
                // an accepted illegal move: the fault allows the focus
                Some(mv) if faulty(fault, g).contains(&mv) => Shows::Yes,
                Some(_) => Shows::No,
                None if !faulty(fault, g).is_empty() => Shows::Yes,
                None => Shows::No,
            },
        );
        let end = replayed(game_type, &shrunk.moves);
        let extra = faulty(fault, &end);
        match shrunk.focus {
            Some(mv) => assert!(extra.contains(&mv), "the shrunk focus still shows"),
            None => assert!(!extra.is_empty(), "the shrunk game still shows"),
        }
        assert_eq!(shrunk.focus.is_some(), focused);
        assert!(
            shrunk.moves.len() <= max_plies,
            "{fault}: {} plies shrunk to {} (at most {max_plies} expected): {}",
            long.len(),
            shrunk.moves.len(),
            end.game_string()
        );
    }

    #[test]
    fn removing_a_piece_renumbers_the_rest_and_moves_the_first_to_the_origin() {
        // §1.5 pieces are numbered in placement order; §3.3 the first piece
        // stands on the origin
        let ant = |color: Color, number: u8, q: i32| Move::Place {
            piece: Piece::new(color, Bug::Ant, number).expect("an ant"),
            to: Hex::new(q, 0),
        };
        let game = [
            ant(Color::White, 1, 0),
            ant(Color::Black, 1, 1),
            ant(Color::White, 2, -1),
            ant(Color::Black, 2, 2),
        ];
        let split = Split::of(&game);
        let (moves, focus) =
            normalize(&split.without(&[0, 1]), Some(ant(Color::White, 3, -2))).expect("normalizes");
        assert_eq!(moves, [ant(Color::White, 1, 0), ant(Color::Black, 1, 3)]);
        assert_eq!(focus, Some(ant(Color::White, 2, -1)));
    }

    #[test]
    fn a_removal_never_moves_a_turn_to_the_other_player() {
        // turn order alternates (§7.1): the interleaving keeps each
        // player's turns in order and the first player first
        let white = [Move::Pass; 3];
        let black = [Move::Place {
            piece: Piece::first(Color::Black, Bug::Ant),
            to: Hex::ORIGIN,
        }; 2];
        let game = interleave(&white, &black);
        assert_eq!(game.len(), 5);
        for (i, mv) in game.iter().enumerate() {
            assert_eq!(*mv == Move::Pass, i % 2 == 0);
        }
    }

    #[test]
    fn a_spider_that_backtracks_shrinks_to_a_few_plies() {
        // §6.4.2 the spider never visits a cell twice
        shrinks_to(Fault::SpiderBacktracks, GameType::BASE, false, 10);
    }

    #[test]
    fn a_mosquito_that_copies_a_mosquito_shrinks_to_a_short_game() {
        // §6.7.2 a mosquito next only to mosquitoes does not move
        shrinks_to(
            Fault::MosquitoCopiesMosquito,
            GameType::from_flags(true, true, false),
            false,
            14,
        );
    }

    #[test]
    fn a_throw_of_the_piece_just_moved_shrinks_with_its_focus() {
        // §5.8 the piece moved last turn cannot be thrown
        shrinks_to(
            Fault::PillbugThrowsLastMoved,
            GameType::from_flags(false, false, true),
            true,
            12,
        );
    }

    #[test]
    fn a_beetle_without_height_gates_shrinks_to_a_short_game() {
        // §6.2.2 beetles obey the height gate rule
        shrinks_to(
            Fault::BeetleIgnoresHeightGates,
            GameType::from_flags(true, false, false),
            false,
            24,
        );
    }
}
