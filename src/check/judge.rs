//! Judging what an engine says against the reference engine: its move
//! list in one position ([`MoveDiff`], and the findings it shows), the state
//! and turn it prints, the GameString it prints, and the clauses that
//! decide each.

use std::collections::{BTreeMap, BTreeSet};

use crate::check::finding::{Finding, Kind};
use crate::check::verdict::clauses_of;
use crate::core::notation::{parse_game_state, parse_turn};
use crate::core::{GameState, Move, Turn};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// The state and turn fields of a GameString printed by an engine.
pub(crate) fn state_and_turn(line: &str) -> Option<(GameState, Turn)> {
    let fields: Vec<&str> = line.trim().split(';').collect();
    if fields.len() < 3 {
        return None;
    }
    let state = parse_game_state(fields[1]).ok()?;
    let turn = parse_turn(fields[2]).ok()?;
    Some((state, turn))
}

/// The clauses that decide a disputed state or turn: the rule that gives the
/// reference's state (§8.3 a double surround, §8.2 a single one, §8.7.2 a
/// repetition, §8.8 otherwise), and §9.18 when only the turn differs.
pub(crate) fn state_clauses(game: &ReferenceEngine, state_differs: bool) -> Vec<String> {
    use crate::core::Color;
    use crate::reference::end::queen_is_surrounded;
    if !state_differs {
        return vec!["§9.18".to_string()];
    }
    let board = game.board();
    let clause = match game.state() {
        GameState::Draw
            if queen_is_surrounded(board, Color::White)
                && queen_is_surrounded(board, Color::Black) =>
        {
            "§8.3"
        }
        GameState::Draw => "§8.7.2",
        GameState::WhiteWins | GameState::BlackWins => "§8.2",
        GameState::NotStarted | GameState::InProgress => "§8.8",
    };
    vec![clause.to_string()]
}

/// Whether two clause lists share a clause (or the first is empty: then
/// nothing is required).
pub(crate) fn shares_a_clause(wanted: &[String], found: &[String]) -> bool {
    wanted.is_empty() || wanted.iter().any(|c| found.contains(c))
}

/// Why a GameString an engine printed is not the position of `game`: it
/// does not replay, or replays to another position; `None` when it is.
pub(crate) fn replay_problem(game: &ReferenceEngine, line: &str) -> Option<String> {
    // The fast engine replays it (it agrees with the reference on every
    // position, tests/differential.rs); the reference says why when it does
    // not replay to the same moves.
    let same = crate::fast::FastEngine::load_with(line.trim(), game.options())
        .is_ok_and(|r| r.history() == game.history());
    if same {
        return None;
    }
    Some(
        match ReferenceEngine::load_with(line.trim(), game.options()) {
            Err(e) => format!("it does not replay: {e}"),
            Ok(r) => {
                let at = r
                    .history()
                    .iter()
                    .zip(game.history())
                    .position(|(a, b)| a != b)
                    .unwrap_or(r.plies().min(game.plies()));
                format!(
                    "it replays to another position ({} plies, first different at move {})",
                    r.plies(),
                    at + 1
                )
            }
        },
    )
}

/// What an engine's `validmoves` shows against the rules, in one position.
pub(crate) struct MoveDiff {
    pub missing: BTreeSet<Move>,
    pub extra: BTreeSet<Move>,
    pub unresolvable: Vec<String>,
    /// Moves the list names more than once (in one spelling or in two),
    /// with the number of times (§9.35).
    pub duplicates: BTreeMap<Move, usize>,
}

/// Where a move comparison was made, for its findings: the unit, the
/// position, the clauses a case pins, the lines sent (the last one
/// `validmoves`) and the engine's answer.
pub(crate) struct Shown<'a> {
    pub test: &'a str,
    pub game: &'a ReferenceEngine,
    pub case_clauses: &'a [String],
    pub sent: Vec<String>,
    pub answer: &'a [String],
    /// For a shrunk game: the plies of the game where it was first seen.
    pub found_at_ply: Option<usize>,
}

impl MoveDiff {
    /// The kinds of findings it shows.
    pub fn kinds(&self) -> Vec<Kind> {
        let mut kinds = Vec::new();
        if !self.missing.is_empty() {
            kinds.push(Kind::MissingMoves);
        }
        if !self.extra.is_empty() || !self.unresolvable.is_empty() {
            kinds.push(Kind::ExtraMoves);
        }
        if !self.duplicates.is_empty() {
            kinds.push(Kind::Protocol);
        }
        kinds
    }

    /// Only the part of the difference of `kind`.
    pub fn only(&self, kind: Kind) -> MoveDiff {
        if kind == Kind::Protocol {
            return MoveDiff {
                missing: BTreeSet::new(),
                extra: BTreeSet::new(),
                unresolvable: Vec::new(),
                duplicates: self.duplicates.clone(),
            };
        }
        let missing = kind == Kind::MissingMoves;
        MoveDiff {
            missing: if missing {
                self.missing.clone()
            } else {
                BTreeSet::new()
            },
            extra: if missing {
                BTreeSet::new()
            } else {
                self.extra.clone()
            },
            unresolvable: if missing {
                Vec::new()
            } else {
                self.unresolvable.clone()
            },
            duplicates: BTreeMap::new(),
        }
    }

    /// The clauses behind the differing moves.
    pub fn clauses(&self, game: &ReferenceEngine) -> Vec<String> {
        if self.missing.is_empty() && self.extra.is_empty() && !self.duplicates.is_empty() {
            // §9.35 each legal move listed once
            return vec!["§9.35".to_string()];
        }
        if self.missing.is_empty() {
            clauses_of(game, &self.extra)
        } else {
            clauses_of(game, &self.missing)
        }
    }

    /// The findings of the difference, one per kind, in the order of
    /// [`MoveDiff::kinds`].
    pub fn findings(&self, shown: &Shown<'_>) -> Vec<Finding> {
        self.kinds()
            .into_iter()
            .map(|kind| match kind {
                Kind::Protocol => self.duplicates_finding(shown),
                kind => self.moves_finding(kind, shown),
            })
            .collect()
    }

    /// The finding of the missing moves or of the extra (and unreadable)
    /// ones.
    fn moves_finding(&self, kind: Kind, shown: &Shown<'_>) -> Finding {
        let game = shown.game;
        let names = |moves: &BTreeSet<Move>| {
            let mut out: Vec<String> = moves.iter().map(|&mv| game.move_string(mv)).collect();
            out.sort();
            out
        };
        let (set, mut moves, mut detail) = if kind == Kind::MissingMoves {
            let moves = names(&self.missing);
            let detail = format!(
                "the engine's validmoves lacks {} legal move(s): {}",
                moves.len(),
                moves.join("; ")
            );
            (&self.missing, moves, detail)
        } else {
            let moves = names(&self.extra);
            let detail = format!(
                "the engine's validmoves has {} illegal move(s): {}",
                moves.len(),
                moves.join("; ")
            );
            (&self.extra, moves, detail)
        };
        if kind == Kind::ExtraMoves && !self.unresolvable.is_empty() {
            detail.push_str(&format!(
                "; unreadable in this position: {}",
                self.unresolvable.join("; ")
            ));
            moves.extend(self.unresolvable.iter().cloned());
        }
        let mut finding = Finding::new(kind, shown.test, game)
            .case_clauses(shown.case_clauses)
            .clauses(clauses_of(game, set))
            .detail(detail)
            .explain(&game.game_string(), moves.first().map(String::as_str))
            .exchange(shown.sent.clone(), shown.answer.to_vec())
            .verdicts(game, set);
        if set.is_empty() {
            finding = finding.pattern("unreadable move");
        }
        finding.moves = moves;
        finding.found_at_ply = shown.found_at_ply;
        finding
    }

    /// The finding of a list that names a move more than once (§9.35),
    /// compared after resolving spellings: a protocol finding.
    fn duplicates_finding(&self, shown: &Shown<'_>) -> Finding {
        let game = shown.game;
        let mut named: Vec<(String, usize)> = self
            .duplicates
            .iter()
            .map(|(&mv, &n)| (game.move_string(mv), n))
            .collect();
        named.sort();
        let listed: Vec<String> = named
            .iter()
            .map(|(name, n)| format!("{name} ({n} times)"))
            .collect();
        let moves: BTreeSet<Move> = self.duplicates.keys().copied().collect();
        let mut finding = Finding::new(Kind::Protocol, shown.test, game)
            .case_clauses(shown.case_clauses)
            // §9.35 each legal move listed once
            .clauses(["§9.35"])
            .pattern("move listed twice")
            .detail(format!(
                "the engine's validmoves names {} move(s) more than once, where each legal move is listed once: {}",
                listed.len(),
                listed.join("; ")
            ))
            .explain(&game.game_string(), named.first().map(|(n, _)| n.as_str()))
            .exchange(shown.sent.clone(), shown.answer.to_vec())
            .verdicts(game, &moves);
        finding.moves = named.into_iter().map(|(name, _)| name).collect();
        finding.found_at_ply = shown.found_at_ply;
        finding
    }
}
