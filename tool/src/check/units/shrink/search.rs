//! The search of a shrink: removals of turns in rounds, and the rebuild
//! search, a beam search for a short legal game that rebuilds the
//! neighbourhood of the disputed move (see the module documentation of
//! [`super`]). The predicate is asked about legal games only.

use std::time::Instant;

use hive_oracle_rules::core::splitmix::{SplitMix64, GOLDEN_GAMMA};
use hive_oracle_rules::core::{Color, GameType, Hex, Move, Piece, RulesOptions};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

use super::budget::{Budget, Shrunk};
use super::pattern::{turned, Pattern};
use super::split::{normalize, Split, Turn};

/// A game this short is not searched for a shorter rebuild.
pub(super) const BEAM_FROM_PLIES: usize = 8;

/// Positions kept at each ply of the rebuild search.
const BEAM_WIDTH: usize = 96;

/// Positions shown to the predicate at each ply of the rebuild search.
const BEAM_QUERIES_PER_PLY: usize = 3;

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

/// The search state: the best game so far and the budget used.
pub(super) struct Search<'a, F> {
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

impl<'a, F: FnMut(&ReferenceEngine, Option<Move>) -> Shows> Search<'a, F> {
    /// The search of a shorter game than `moves` (with the `focus` after
    /// it) that still `shows` the finding.
    pub(super) fn new(
        game_type: GameType,
        options: RulesOptions,
        moves: &[Move],
        focus: Option<Move>,
        budget: Budget,
        shows: &'a mut F,
    ) -> Search<'a, F> {
        Search {
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
            shows,
        }
    }

    /// The number of plies of the best game so far.
    pub(super) fn best_len(&self) -> usize {
        self.best_moves.len()
    }

    /// The result: the best game, and what the search cost.
    pub(super) fn into_shrunk(self) -> Shrunk {
        let exhausted = self.out_of_budget();
        let capped = self.capped();
        Shrunk {
            moves: self.best_moves,
            focus: self.best_focus,
            predicate_calls: self.predicate_calls,
            candidates: self.candidates,
            positions: self.positions,
            exhausted,
            capped,
        }
    }

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

    /// Removal phases in rounds until a round removes nothing.
    pub(super) fn remove_turns(&mut self) {
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
    pub(super) fn rebuild(&mut self, pattern: &Pattern) -> bool {
        let max_plies = self.best_moves.len().saturating_sub(1);
        let perfect = pattern.perfect();
        let mut seen: std::collections::HashSet<u64> = std::collections::HashSet::new();
        let mut queried: std::collections::HashSet<u64> = std::collections::HashSet::new();
        let mut beam: Vec<Vec<Move>> = vec![Vec::new()];
        // a fixed, well-mixed tie-breaking sequence
        let mut ties = SplitMix64::new(GOLDEN_GAMMA);
        let mut next_tie = move || ties.next_u64();
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

/// A position of the rebuild search.
struct Node {
    moves: Vec<Move>,
    score: u32,
    anchor: Option<(Piece, Hex, usize)>,
    hash: u64,
    tie: u64,
}
