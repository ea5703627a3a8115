//! `hive-oracle explain`: why a move is legal or illegal, as a chain of
//! clauses with the concrete facts of the position, and every legal move of a
//! position with the clause that grants it.
//!
//! This module is a view: it decides nothing. The judgement of a move is the
//! reference engine's ([`crate::reference::judge::judge`]): each bug's file
//! produces the walks that make a move legal and says which rule stops a move
//! it does not produce, and the general rules of placement and movement are
//! judged in spec order in `reference/judge.rs`. A refusal starts with the
//! reason and clauses that [`Rules::play`] gives, unchanged. Here the facts
//! are put in order and printed, each clause with its title from the spec.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::core::view::{self, BoardView};
use crate::core::{Bug, Hex, Move, Piece};
use crate::reference::bugs::throw::pillbug_throws;
use crate::reference::end::end_facts;
use crate::reference::facts::{describe, names};
use crate::reference::judge::{judge, Judgement};
use crate::reference::pass::pass_facts;
use crate::reference::{opening, placement, Position, ReferenceEngine};
use crate::render;

mod after;
mod rulings;
use crate::rules::{IllegalMove, Rules};
use after::{after_move, repetition_facts};
use rulings::rulings;

pub use crate::clauses::Ruling;

pub use crate::reference::facts::Fact;

/// The verdict on one move: legal or not, and the chain of facts behind it.
/// For an illegal move, `refusal` is `play`'s message (reason and clauses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the rules allow the move (the reference engine's legal moves).
    pub legal: bool,
    /// For an illegal move: the refusal, exactly as `play` gives it, with its
    /// clause.
    pub refusal: Option<String>,
    /// The facts of the position that grant or forbid the move, clause by
    /// clause.
    pub facts: Vec<Fact>,
}

/// A short name for a clause, shown after its number: the title on the
/// clause's label line in `spec/` (`[§5.3] One Hive`); empty for a string
/// that names no clause.
pub fn clause_title(clause: &str) -> &'static str {
    crate::clauses::clause_title(clause)
}

/// The ruling of `spec/rulings.md` behind a clause, named on the clause's
/// `Ruling:` line, with its one-line summary: `beetle-height-gates` for
/// `"§6.2.2"`; `None` for a clause that has no ruling.
pub fn clause_ruling(clause: &str) -> Option<Ruling> {
    crate::clauses::clause_ruling(clause)
}

/// The ways a legal move is granted: one list of facts per way (a piece may
/// reach a cell by its own movement and by a throw, §5.9), the granting
/// clause first in each. Empty for a move that is not legal.
pub fn grants(game: &ReferenceEngine, mv: Move) -> Vec<Vec<Fact>> {
    match judge(&game.position(), mv) {
        Judgement::Legal { ways, .. } => ways,
        Judgement::Illegal(_) => Vec::new(),
    }
}

impl Verdict {
    /// The exceptions the judgement consulted and found to apply: the
    /// facts a legal move relies on where a general rule would refuse it
    /// (§6.8.7, §6.7.5, §6.2.3, §6.8.6), in the order they were found.
    pub fn exceptions(&self) -> Vec<&Fact> {
        self.facts.iter().filter(|fact| fact.exception).collect()
    }
}

/// The verdict on `mv` in `game`: legal (with the clauses that grant it) or
/// illegal (with `play`'s refusal, unchanged, and the facts behind it).
///
/// The README's position: wS1 joins the hive's two halves, so it cannot move
/// (§5.3 One Hive), while placing wA1 next to wQ is legal.
///
/// ```
/// use hive_oracle_rules::explain::verdict;
/// use hive_oracle_rules::reference::ReferenceEngine;
/// use hive_oracle_rules::rules::Rules;
///
/// let game = ReferenceEngine::load("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")?;
/// let refused = verdict(&game, game.parse_move("wS1 wQ/")?);
/// assert!(!refused.legal);
/// assert!(refused.refusal.as_deref().is_some_and(|why| why.ends_with("(§5.3)")));
/// assert!(refused.facts.iter().any(|fact| fact.clauses.contains(&"§5.3")));
///
/// let granted = verdict(&game, game.parse_move("wA1 \\wQ")?);
/// assert!(granted.legal && granted.refusal.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verdict(game: &ReferenceEngine, mv: Move) -> Verdict {
    let mut verdict = verdict_in(&game.position(), mv);
    if verdict.legal {
        verdict.facts.extend(after_move(game, mv));
    }
    verdict
}

/// The verdict on `mv` in a position as the reference rules judge it: the
/// position of a reference game, or a copy of any engine's
/// ([`Position::of_game`]), so that a move refused by another engine is
/// judged without replaying its game's history.
pub fn verdict_in(position: &Position, mv: Move) -> Verdict {
    match judge(position, mv) {
        Judgement::Legal { conditions, ways } => {
            // the rulings behind the ways, not behind the general conditions
            let ruled = rulings(position, &ways.concat());
            let mut facts = conditions;
            let several = ways.len() > 1;
            for (i, way) in ways.into_iter().enumerate() {
                if several {
                    facts.push(Fact::new(&[], format!("way {}:", i + 1)));
                }
                facts.extend(way);
            }
            if several {
                facts.push(Fact::new(
                    &["§5.9"],
                    "these ways end in the same cell with the same piece: they are one move",
                ));
            }
            facts.extend(ruled);
            if mv == Move::Pass {
                // §7.2 why each other move is refused
                facts.extend(pass_facts(position));
            }
            Verdict {
                legal: true,
                refusal: None,
                facts,
            }
        }
        Judgement::Illegal(refusal) => {
            let mut facts = refusal.facts;
            facts.extend(rulings(position, &facts));
            facts.extend(other_moves(position, mv));
            Verdict {
                legal: false,
                refusal: Some(refusal.illegal.to_string()),
                facts,
            }
        }
    }
}

/// For a refused movement of the player's own piece on the board: where it
/// could go instead.
fn other_moves(position: &Position, mv: Move) -> Option<Fact> {
    let Move::Move { piece, .. } = mv else {
        return None;
    };
    position.board().location(piece)?;
    if piece.color != position.side_to_move() {
        return None;
    }
    // §8.5, §7.2: only a finished game has no legal move at all (a player
    // with nothing else to do has the pass), and then nothing is offered
    let legal = position.legal_move_set();
    if legal.is_empty() {
        return None;
    }
    let options: Vec<String> = legal
        .iter()
        .copied()
        .filter(|m| m.piece() == Some(piece))
        .map(|m| view::move_string(position, m))
        .collect();
    if options.is_empty() {
        if let Some(throws) = throws_without_a_move(position, piece, &legal) {
            return Some(throws);
        }
    }
    Some(Fact::new(
        &[],
        if options.is_empty() {
            format!("{piece} has no legal move here")
        } else {
            format!("the legal moves of {piece} here: {}", options.join(", "))
        },
    ))
}

/// For a pillbug, or a mosquito, of the player's that has no move of its
/// own: the throws it may still make (§6.8.2), under the clause of its own
/// step (§6.8.1; §6.7.5 for a mosquito copying a pillbug). `None` when it
/// throws nothing either, or is another bug.
fn throws_without_a_move(
    position: &Position,
    piece: Piece,
    legal: &BTreeSet<Move>,
) -> Option<Fact> {
    let clause = match piece.bug {
        Bug::Pillbug => "§6.8.1",
        Bug::Mosquito => "§6.7.5",
        _ => return None,
    };
    let at = position.board().location(piece)?;
    let throws: Vec<String> = pillbug_throws(position.board(), at, position.immune_piece())
        .into_iter()
        .map(|(thrown, to)| Move::Move { piece: thrown, to })
        .filter(|throw| legal.contains(throw))
        .map(|throw| view::move_string(position, throw))
        .collect();
    if throws.is_empty() {
        return None;
    }
    Some(
        Fact::new(
            &[clause],
            format!(
                "{piece} has no move of its own (it may still throw: {})",
                throws.join(", ")
            ),
        )
        .with_cells([at]),
    )
}

// ---------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------

/// The cells a picture of `mv` highlights: where the piece starts (for a
/// movement) and where it ends, on any engine's position.
pub fn move_cells(game: &impl BoardView, mv: Move) -> Vec<Hex> {
    match mv {
        Move::Pass => Vec::new(),
        Move::Place { to, .. } => vec![to],
        Move::Move { piece, to } => {
            let mut cells: Vec<Hex> = game.location(piece).into_iter().collect();
            if !cells.contains(&to) {
                cells.push(to);
            }
            cells
        }
    }
}

/// The explanation of one move: `legal: …` or `illegal: …` with `play`'s
/// refusal, the chain of clauses with their facts, one per line, and the
/// ASCII picture with the from and to cells highlighted. The move is named
/// in its canonical spelling; [`explain_typed_move`] keeps the user's.
pub fn explain_move(game: &ReferenceEngine, mv: Move) -> String {
    explain_typed_move(game, mv, &game.move_string(mv))
}

/// [`explain_move`] for a move the user typed as `typed`: the headline
/// names the move as typed, then its canonical spelling when that differs
/// (`illegal: bS1 \wP (canonical: bS1 -bB1; move …)`), so that the reader
/// finds the move they asked about.
pub fn explain_typed_move(game: &ReferenceEngine, mv: Move, typed: &str) -> String {
    let name = game.move_string(mv);
    let typed = typed.split_whitespace().collect::<Vec<_>>().join(" ");
    let named = if typed.is_empty() || typed == name {
        format!("{name} ({mv})")
    } else {
        format!("{typed} (canonical: {name}; {mv})")
    };
    let verdict = verdict(game, mv);
    let mut out = String::new();
    match &verdict.refusal {
        None => {
            let mut exceptions: Vec<String> = Vec::new();
            for clause in verdict.exceptions().iter().flat_map(|f| f.clauses.first()) {
                let named = format!("{clause} {}", clause_title(clause));
                // once each, though several ways rely on it
                if !exceptions.contains(&named) {
                    exceptions.push(named);
                }
            }
            if exceptions.is_empty() {
                let _ = writeln!(out, "legal: {named}");
            } else {
                let _ = writeln!(
                    out,
                    "legal: {named}, by the exception of {}",
                    exceptions.join(" and ")
                );
            }
        }
        Some(refusal) => {
            let _ = writeln!(out, "illegal: {named}: {refusal}");
        }
    }
    for fact in &verdict.facts {
        let _ = writeln!(out, "  {}", fact.line());
    }
    out.push('\n');
    out.push_str(&render::ascii(game, &move_cells(game, mv)));
    out
}

/// The short grant of a legal move for the list of a position: the first
/// fact of each way, joined.
fn short_grant(game: &ReferenceEngine, mv: Move) -> String {
    grants(game, mv)
        .iter()
        .filter_map(|way| way.first())
        .map(Fact::line)
        .collect::<Vec<_>>()
        .join("; or ")
}

/// The explanation of a position: its state, the side to move and every
/// legal move grouped by piece, each with the clause that grants it, then
/// the ASCII picture.
pub fn explain_position(game: &ReferenceEngine) -> String {
    let state = game.state();
    let mut out = String::new();
    let _ = writeln!(out, "game: {}", game.game_string());
    let _ = writeln!(out, "state: {state}");
    if state.is_over() {
        let over = Fact::new(&["§8.5"], "the game is over: no move is legal");
        for fact in std::iter::once(over).chain(end_facts(game.board(), state)) {
            let _ = writeln!(out, "  {}", fact.line());
        }
        write_repetitions(&mut out, game);
    } else {
        let _ = writeln!(
            out,
            "to move: {} (turn {}, ply {})",
            game.turn().color,
            opening::turn_number(game.plies()),
            game.plies() + 1
        );
        if let Some(last) = game.immune_piece() {
            let immune = Fact::new(
                &["§5.10"],
                format!("{last} was moved or placed last turn and is immune"),
            );
            let _ = writeln!(out, "  {}", immune.line());
        }
        write_repetitions(&mut out, game);
        let moves = game.legal_move_set();
        let _ = writeln!(out, "legal moves: {}", moves.len());
        write_placements(&mut out, game, &moves);
        write_movements(&mut out, game, &moves);
        if moves.contains(&Move::Pass) {
            let _ = writeln!(out, "pass:");
            let _ = writeln!(out, "  pass  {}", short_grant(game, Move::Pass));
        }
    }
    out.push('\n');
    out.push_str(&render::ascii(game, &[]));
    out
}

/// The repetition facts of a game played with the repetition option.
fn write_repetitions(out: &mut String, game: &ReferenceEngine) {
    if game.options().repetition_draw {
        for fact in repetition_facts(game) {
            let _ = writeln!(out, "  {}", fact.line());
        }
    }
}

/// The placements of a position: every placeable piece on every placement
/// cell (§3.1–§3.8), one row per cell with the clause that grants it, and
/// the refusal that keeps each other next piece of the reserve off the
/// board (§4.5, §4.2).
fn write_placements(out: &mut String, game: &ReferenceEngine, moves: &BTreeSet<Move>) {
    let placements: Vec<(Piece, Hex)> = moves
        .iter()
        .filter_map(|m| match *m {
            Move::Place { piece, to } => Some((piece, to)),
            _ => None,
        })
        .collect();
    let Some(&(sample, first_cell)) = placements.first() else {
        return;
    };
    let color = game.side_to_move();
    let pieces: BTreeSet<Piece> = placements.iter().map(|&(p, _)| p).collect();
    let cells: BTreeSet<Hex> = placements.iter().map(|&(_, h)| h).collect();
    let _ = writeln!(
        out,
        "placements ({} piece{} × {} cell{} = {} moves):",
        pieces.len(),
        if pieces.len() == 1 { "" } else { "s" },
        cells.len(),
        if cells.len() == 1 { "" } else { "s" },
        placements.len()
    );
    let listed: Vec<Piece> = pieces.iter().copied().collect();
    let reserve = Fact::new(
        &["§3.1", "§3.2"],
        format!(
            "{}: the lowest-numbered piece of each bug in {color}'s reserve",
            names(&listed)
        ),
    );
    let _ = writeln!(out, "  pieces: {}", reserve.line());
    // The next pieces of the reserve that may not be placed, grouped by the
    // refusal the rules give for placing them on a placement cell.
    let mut kept: BTreeMap<String, Vec<Piece>> = BTreeMap::new();
    let position = game.position();
    let next = placement::next_pieces_in_reserve(game.board(), game.game_type(), color);
    for piece in next.into_iter().filter(|p| !pieces.contains(p)) {
        let place = Move::Place {
            piece,
            to: first_cell,
        };
        if let Judgement::Illegal(refusal) = judge(&position, place) {
            if let Some(fact) = refusal.facts.first() {
                kept.entry(fact.line()).or_default().push(piece);
            }
        }
    }
    for (line, kept_pieces) in kept {
        let _ = writeln!(out, "  not placeable ({}): {line}", names(&kept_pieces));
    }
    let mut rows: Vec<(String, Hex)> = cells
        .iter()
        .map(|&to| {
            let text = game.move_string(Move::Place { piece: sample, to });
            let target = text
                .strip_prefix(&sample.to_string())
                .unwrap_or(&text)
                .trim()
                .to_string();
            (target, to)
        })
        .collect();
    rows.sort();
    let width = rows
        .iter()
        .map(|(t, _)| t.chars().count())
        .max()
        .unwrap_or(0);
    for (target, to) in rows {
        let grant = short_grant(game, Move::Place { piece: sample, to });
        let target = if target.is_empty() {
            "(first)".to_string()
        } else {
            target
        };
        let _ = writeln!(out, "  {target:<width$}  {:<9}  {grant}", to.to_string());
    }
}

/// The movements of a position, grouped by the piece that moves (its own
/// movement or thrown), each with the clause that grants it.
fn write_movements(out: &mut String, game: &ReferenceEngine, moves: &BTreeSet<Move>) {
    let board = game.board();
    let mut by_piece: BTreeMap<Piece, Vec<Move>> = BTreeMap::new();
    for &mv in moves {
        if let Move::Move { piece, .. } = mv {
            by_piece.entry(piece).or_default().push(mv);
        }
    }
    for (piece, group) in by_piece {
        let at = board
            .location(piece)
            .map_or_else(|| piece.to_string(), |h| describe(board, h));
        let _ = writeln!(
            out,
            "{at} ({} move{}):",
            group.len(),
            if group.len() == 1 { "" } else { "s" }
        );
        let mut rows: Vec<(String, Move)> =
            group.iter().map(|&m| (game.move_string(m), m)).collect();
        rows.sort();
        let width = rows
            .iter()
            .map(|(s, _)| s.chars().count())
            .max()
            .unwrap_or(0);
        for (text, mv) in rows {
            let dest = mv.destination().map_or_else(String::new, |h| h.to_string());
            let _ = writeln!(
                out,
                "  {text:<width$}  {dest:<9}  {}",
                short_grant(game, mv)
            );
        }
    }
}

/// Why [`play_explained`] refused a move. `Display` gives the refusal as the
/// command line and the UHP server print it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayRefused {
    /// The reference rules refuse the move: their reason and clauses.
    #[error("{0}")]
    Illegal(IllegalMove),
    /// The engine refused a move that the reference rules accept: a bug of
    /// the engine, with its own refusal.
    #[error("{0} (the reference engine accepts this move: please report it)")]
    ReferenceAccepts(IllegalMove),
    /// The engine's own refusal, unexplained: the reference engine could not
    /// replay the game's history ([`play_explained_slow`] only).
    #[error("{0}")]
    Unexplained(IllegalMove),
}

/// Plays `mv` on any engine; a refusal is explained by the reference engine
/// in the same position, with the clause that forbids the move (the fast
/// engine's own refusals cite none). Used by the CLI, the UHP server and
/// the loading of game records.
///
/// The reference rules judge the move on a copy of the engine's position
/// ([`Position::of_game`]): its board, plies, last move and state, which is
/// all a refusal depends on, and [`judge`] looks only at the moved piece's
/// walks and its throwers, not at every legal move; replaying the game's
/// history on the reference engine, as [`play_explained_slow`] does, costs
/// one move generation per ply.
pub fn play_explained<R: Rules>(game: &mut R, mv: Move) -> Result<(), PlayRefused> {
    let Err(refusal) = game.play(mv) else {
        return Ok(());
    };
    match judge(&Position::of_game(game), mv) {
        // The reference rules must refuse the move too: a disagreement is a bug.
        Judgement::Legal { .. } => Err(PlayRefused::ReferenceAccepts(refusal)),
        Judgement::Illegal(why) => Err(PlayRefused::Illegal(why.illegal)),
    }
}

/// [`play_explained`] the long way, kept as its oracle (`tests/refusals.rs`):
/// the game's GameString is reloaded on the reference engine, replaying and
/// checking every move of its history, and the move is played there. A
/// history the reference engine refuses leaves the engine's own refusal.
pub fn play_explained_slow<R: Rules>(game: &mut R, mv: Move) -> Result<(), PlayRefused> {
    let Err(refusal) = game.play(mv) else {
        return Ok(());
    };
    let reference = ReferenceEngine::load_with(&game.game_string(), game.options())
        .ok()
        .map(|mut reference| reference.play(mv));
    Err(match reference {
        Some(Err(why)) => PlayRefused::Illegal(why),
        Some(Ok(())) => PlayRefused::ReferenceAccepts(refusal),
        None => PlayRefused::Unexplained(refusal),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_title_names_a_clause_shape() {
        // §5.3: the title of a cited clause is shown after it.
        assert_eq!(clause_title("§5.3"), "One Hive");
        assert_eq!(clause_title("nothing"), "");
    }
}
