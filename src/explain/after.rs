//! What a legal move does to the game after it (a result, a repetition, a
//! pass left to the other player), and the earlier occurrences of a
//! position under the repetition option: the facts `explain` adds once the
//! move itself is judged.

use std::collections::BTreeSet;

use crate::core::{GameState, Move};
use crate::reference::end::{earlier_occurrences, end_facts};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

use crate::reference::facts::Fact;

/// What a legal move does to the game when it ends it or leaves the other
/// player only a pass: the result after it with the surrounded queens
/// (§8.2, §8.3, §8.4) or the plies of a repetition (§8.7.2), or the pass
/// the other player is left with (§7.2). Empty otherwise.
pub(super) fn after_move(game: &ReferenceEngine, mv: Move) -> Vec<Fact> {
    let mut after = game.clone();
    after.play_unchecked(mv);
    let state = after.state();
    if state.is_over() {
        let mut facts = end_facts(after.board(), state);
        let Some(result) = facts.pop() else {
            return facts;
        };
        let mut headline = Fact::new(
            &result.clauses,
            format!("after this move: {} — {}", result_name(state), result.text),
        )
        .with_cells(facts.iter().flat_map(|f| f.cells.iter().copied()));
        if result.clauses == ["§8.7.2"] {
            let ply = after.plies();
            let mut plies = earlier_occurrences(after.repetition_keys());
            headline.text = format!(
                "after this move: Draw — the position after ply {ply} stood after plies {} too: the third time within 32 plies",
                ply_list(&plies)
            );
            plies.push(ply);
            headline = headline.with_plies(plies);
        }
        return std::iter::once(headline).chain(facts).collect();
    }
    if after.legal_move_set() == BTreeSet::from([Move::Pass]) {
        return vec![Fact::new(
            &["§7.2"],
            format!(
                "after this move: {} has no legal move and must pass",
                after.side_to_move()
            ),
        )];
    }
    Vec::new()
}

/// The result of a finished game in words: `Draw`, `White wins`.
fn result_name(state: GameState) -> String {
    match state {
        GameState::WhiteWins => "White wins".to_string(),
        GameState::BlackWins => "Black wins".to_string(),
        other => other.to_string(),
    }
}

/// Plies as a reader counts them: `4`, `4 and 8`, `4, 8 and 12`.
fn ply_list(plies: &[usize]) -> String {
    let words: Vec<String> = plies.iter().map(usize::to_string).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// With the repetition option (§8.7.2): the earlier plies, within the
/// last 32, after which the current position stood, and each earlier ply
/// whose stacks and side to move were the same but whose immune piece
/// counted differently (§8.7.6), with the moves the immunity takes away.
pub(super) fn repetition_facts(game: &ReferenceEngine) -> Vec<Fact> {
    let keys = game.repetition_keys();
    let ply = game.plies();
    let Some(current) = keys.last() else {
        return Vec::new();
    };
    let earlier = earlier_occurrences(keys);
    let count = earlier.len() + 1;
    let text = if earlier.is_empty() {
        format!("the position after ply {ply} has not stood after any of the 32 plies before: 1 occurrence of the 3 that draw")
    } else {
        format!(
            "the position after ply {ply} also stood after ply {}: {count} occurrence{} of the 3 that draw",
            ply_list(&earlier),
            if count == 1 { "" } else { "s" }
        )
    };
    let mut plies = earlier;
    plies.push(ply);
    let mut facts = vec![Fact::new(&["§8.7.2"], text).with_plies(plies)];
    let window = ply.saturating_sub(32);
    for (k, key) in keys.iter().enumerate().take(ply).skip(window) {
        if key != current && key.same_stacks(current) {
            facts.push(
                Fact::new(
                    &["§8.7.6"],
                    format!(
                        "after ply {k} the same stacks stood with the same side to move, yet it is another position: {}; {}",
                        immunity_at(game, k),
                        immunity_at(game, ply)
                    ),
                )
                .with_plies([k, ply]),
            );
        }
    }
    facts
}

/// Whether the immune piece counted in the position after `ply` (§8.7.6),
/// in words: the game is taken back to that ply and asked which moves the
/// immunity takes away.
fn immunity_at(game: &ReferenceEngine, ply: usize) -> String {
    let mut then = game.clone();
    while then.plies() > ply {
        then.undo();
    }
    let Some(immune) = then.immune_piece() else {
        return format!("after ply {ply} no piece was immune");
    };
    let removed: Vec<String> = then
        .position()
        .moves_immunity_removes()
        .into_iter()
        .map(|m| then.move_string(m))
        .collect();
    if removed.is_empty() {
        format!("after ply {ply} the immune {immune} did not count: its immunity took away no move")
    } else {
        format!(
            "after ply {ply} the immune {immune} counted: its immunity took away {}",
            removed.join(", ")
        )
    }
}
