//! Whether two engines agree on a position: what the differential tests and
//! `hive-oracle selfcheck` check at every ply, written once.

use std::collections::BTreeSet;

use crate::core::Move;
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
) -> Result<Agreement, String> {
    let system_list = system.legal_moves();
    let system_set: BTreeSet<Move> = system_list.iter().copied().collect();
    if system_set.len() != system_list.len() {
        let mut seen = BTreeSet::new();
        let twice: BTreeSet<Move> = system_list
            .iter()
            .copied()
            .filter(|&mv| !seen.insert(mv))
            .collect();
        return Err(format!(
            "the engine under test lists moves more than once: {}",
            move_names(model, &twice).join(";")
        ));
    }
    let model_set: BTreeSet<Move> = model.legal_moves().into_iter().collect();
    if system_set != model_set {
        let missing: BTreeSet<Move> = model_set.difference(&system_set).copied().collect();
        let extra: BTreeSet<Move> = system_set.difference(&model_set).copied().collect();
        return Err(format!(
            "the legal moves differ\n  missing: {}\n  extra:   {}",
            move_names(model, &missing).join(";"),
            move_names(model, &extra).join(";")
        ));
    }
    if system.state() != model.state() {
        return Err(format!(
            "the state differs: {} against {}",
            system.state(),
            model.state()
        ));
    }
    if system.side_to_move() != model.side_to_move() || system.turn() != model.turn() {
        return Err(format!(
            "the turn differs: {} against {}",
            system.turn(),
            model.turn()
        ));
    }
    if system.history() != model.history() {
        return Err("the histories differ".to_string());
    }
    let system_string = system.game_string();
    if system_string != model_game_string {
        return Err(format!(
            "the GameString differs: the engine under test prints\n  {system_string}"
        ));
    }
    Ok(Agreement {
        legal: model_set.into_iter().collect(),
        game_string: system_string,
    })
}
