//! What the page says beyond the legal moves of a piece: the throws a
//! pillbug (or a mosquito copying one) can make, why a piece has no move,
//! the cells an explanation names for the board to draw, and a pasted game
//! loaded up to its first illegal ply.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use hive_oracle_rules::core::notation::parse_game_type;
use hive_oracle_rules::core::{Bug, Hex, Move, Piece, RulesOptions};
use hive_oracle_rules::explain;
use hive_oracle_rules::records::{self, GameText, GameTextError, PASTED_RECORD};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The legal throws `thrower` makes (§6.8.2): moves of an adjacent piece
/// granted by a way whose first fact is this thrower using the pillbug's
/// ability (itself a pillbug, or a mosquito copying one, §6.7.5).
pub(super) fn throws_by(game: &ReferenceEngine, thrower: Piece) -> Vec<Move> {
    if !matches!(thrower.bug, Bug::Pillbug | Bug::Mosquito) {
        return Vec::new();
    }
    let Some(at) = game.board().location(thrower) else {
        return Vec::new();
    };
    let next_to = at.neighbours();
    game.legal_moves()
        .into_iter()
        .filter(|mv| match mv {
            Move::Move { piece, .. } => {
                *piece != thrower
                    && game
                        .board()
                        .location(*piece)
                        .is_some_and(|from| next_to.contains(&from))
            }
            _ => false,
        })
        .filter(|&mv| {
            explain::grants(game, mv).iter().any(|way| {
                way.first()
                    .is_some_and(|fact| fact.clauses.contains(&"§6.8.2") && fact.cells == [at])
            })
        })
        .collect()
}

/// Why `piece` has no legal move (it has none): the game's end, or the
/// refusals of the moves to every cell it could be meant for (the empty
/// cells next to the hive), the same refusal said once when every cell gets
/// it (a pinned, covered or opponent's piece), else each refusal with the
/// number of cells it refuses.
pub(super) fn no_move_reason(game: &ReferenceEngine, piece: Piece) -> String {
    if game.state().is_over() {
        return format!("The game is over ({}): no move is played.", game.state());
    }
    let occupied: BTreeSet<Hex> = hive_oracle_rules::render::stacks(game)
        .into_keys()
        .collect();
    let mut cells: BTreeSet<Hex> = occupied
        .iter()
        .flat_map(|h| h.neighbours())
        .filter(|h| !occupied.contains(h))
        .collect();
    if cells.is_empty() {
        cells.insert(Hex::new(0, 0));
    }
    let from = game.board().location(piece);
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    for to in cells.iter().copied() {
        let mv = match from {
            Some(_) => Move::Move { piece, to },
            None => Move::Place { piece, to },
        };
        if let Some(why) = explain::verdict(game, mv).refusal {
            *refusals.entry(why).or_default() += 1;
        }
    }
    match refusals.len() {
        0 => format!("{piece} has no legal move."),
        1 => format!(
            "{piece} has no legal move: {}",
            refusals.into_keys().next().unwrap_or_default()
        ),
        _ => {
            let mut ranked: Vec<(String, usize)> = refusals.into_iter().collect();
            ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            let lines: Vec<String> = ranked
                .iter()
                .map(|(why, n)| format!("- {n} cell{}: {why}", if *n == 1 { "" } else { "s" }))
                .collect();
            format!(
                "{piece} has no legal move. Of the {} empty cells next to the hive:\n{}",
                cells.len(),
                lines.join("\n")
            )
        }
    }
}

/// The cells the explanation of `mv` names, fact by fact, for the board to
/// draw: the cells a fact marks (a gate's flanks, a copied neighbour, a
/// thrower, surrounded queens) and the walk it describes.
pub(super) fn fact_marks(game: &ReferenceEngine, mv: Move) -> Vec<Value> {
    let pairs = |cells: &[Hex]| cells.iter().map(|h| [h.q, h.r]).collect::<Vec<_>>();
    explain::verdict(game, mv)
        .facts
        .iter()
        .filter(|fact| !fact.cells.is_empty() || fact.path.len() > 1)
        .map(|fact| {
            json!({
                "clauses": fact.clauses,
                "cells": pairs(&fact.cells),
                "path": pairs(&fact.path),
            })
        })
        .collect()
}

/// A pasted game whose loading stopped at an illegal ply: the game before
/// that ply, the ply's number and its move, to be explained.
pub(super) struct StoppedAt {
    pub(super) game: ReferenceEngine,
    pub(super) ply: usize,
    pub(super) mv: String,
}

/// When `text` is refused because one of its plies is illegal (a move that
/// reads but the rules refuse), the game up to that ply; `None` for any
/// other refusal (a bad header, a move that does not read, a bad record).
pub(super) fn load_to_illegal_ply(
    text: &str,
    options: RulesOptions,
    error: &GameTextError,
) -> Option<StoppedAt> {
    match (GameText::of_paste(text).ok()?, error) {
        (GameText::Record(record), GameTextError::IllegalPly { ply, uhp, .. }) => {
            let (_, game): (_, ReferenceEngine) =
                records::record_game(PASTED_RECORD, record.as_bytes(), 1, Some(ply - 1)).ok()?;
            game.parse_move(uhp).ok()?;
            Some(StoppedAt {
                game,
                ply: *ply,
                mv: uhp.clone(),
            })
        }
        (GameText::GameString(text), GameTextError::Load(_)) => {
            game_string_to_illegal_ply(text, options)
        }
        _ => None,
    }
}

/// A GameString's moves (§9.31) played from the start of its game type
/// until one reads but is refused.
fn game_string_to_illegal_ply(text: &str, options: RulesOptions) -> Option<StoppedAt> {
    let fields: Vec<&str> = text.split(';').collect();
    let game_type = parse_game_type(fields.first()?.trim()).ok()?;
    let mut game = ReferenceEngine::new_game(game_type, options);
    for (i, written) in fields.iter().skip(3).enumerate() {
        let mv = game.parse_move(written.trim()).ok()?;
        if game.play(mv).is_err() {
            return Some(StoppedAt {
                mv: game.move_string(mv),
                game,
                ply: i + 1,
            });
        }
    }
    None
}
