//! Whether two engines agree on a position: what the lock-step walk checks
//! at every ply, written once for any two engines.

use std::collections::BTreeSet;

use crate::core::{GameState, Move, Turn};
use crate::rules::Rules;

/// What two agreeing engines share in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// The legal moves, sorted (§5.9: compared as absolute moves).
    pub legal: Vec<Move>,
    /// The canonical GameString (§9.31).
    pub game_string: String,
}

/// Canonical names of a set of moves in the model's position, sorted.
pub(crate) fn move_names<M: Rules>(model: &M, moves: &BTreeSet<Move>) -> Vec<String> {
    let mut out: Vec<String> = moves.iter().map(|&mv| model.move_string(mv)).collect();
    out.sort();
    out
}

/// How the engine under test differs from the model in one position; the
/// moves are named canonically in the model's position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Disagreement {
    /// The engine under test lists these moves more than once (§5.9).
    #[error("the engine under test lists moves more than once: {}", .0.join(";"))]
    ListedTwice(Vec<String>),
    /// The legal move sets differ.
    #[error("the legal moves differ\n  missing: {}\n  extra:   {}", .missing.join(";"), .extra.join(";"))]
    LegalMoves {
        /// Legal for the model, not listed by the engine under test.
        missing: Vec<String>,
        /// Listed by the engine under test, not legal for the model.
        extra: Vec<String>,
    },
    /// The states differ (§8.8): the engine under test's, then the model's.
    #[error("the state differs: {0} against {1}")]
    State(GameState, GameState),
    /// The turns differ (§9.18): the engine under test's, then the model's.
    #[error("the turn differs: {0} against {1}")]
    Turn(Turn, Turn),
    /// The histories differ.
    #[error("the histories differ")]
    History,
    /// The engine under test prints this GameString, not the model's.
    #[error("the GameString differs: the engine under test prints\n  {0}")]
    GameString(String),
}

/// Compares the engine under test with the model in their current
/// positions: legal moves as absolute moves each listed once (§5.9), the
/// state (§8.8), the side to move and the turn (§7.1, §9.18), the history,
/// and the GameString (§9.31, §9.30). `model_game_string` is the model's
/// GameString, passed in so a caller that builds it ply by ply need not
/// replay the game. `Err` says what differs, moves named canonically.
pub fn compare_engines<S: Rules, M: Rules>(
    system: &S,
    model: &M,
    model_game_string: &str,
) -> Result<Agreement, Disagreement> {
    let system_list = system.legal_moves();
    let system_set: BTreeSet<Move> = system_list.iter().copied().collect();
    if system_set.len() != system_list.len() {
        let mut seen = BTreeSet::new();
        let twice: BTreeSet<Move> = system_list
            .iter()
            .copied()
            .filter(|&mv| !seen.insert(mv))
            .collect();
        return Err(Disagreement::ListedTwice(move_names(model, &twice)));
    }
    let model_set: BTreeSet<Move> = model.legal_moves().into_iter().collect();
    if system_set != model_set {
        let missing: BTreeSet<Move> = model_set.difference(&system_set).copied().collect();
        let extra: BTreeSet<Move> = system_set.difference(&model_set).copied().collect();
        return Err(Disagreement::LegalMoves {
            missing: move_names(model, &missing),
            extra: move_names(model, &extra),
        });
    }
    if system.state() != model.state() {
        return Err(Disagreement::State(system.state(), model.state()));
    }
    if system.side_to_move() != model.side_to_move() || system.turn() != model.turn() {
        return Err(Disagreement::Turn(system.turn(), model.turn()));
    }
    if system.history() != model.history() {
        return Err(Disagreement::History);
    }
    let system_string = system.game_string();
    if system_string != model_game_string {
        return Err(Disagreement::GameString(system_string));
    }
    Ok(Agreement {
        legal: model_set.into_iter().collect(),
        game_string: system_string,
    })
}
