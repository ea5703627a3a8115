//! Which spellings an engine MAY refuse. spec/notation.md makes our engine
//! read some spellings that the established engines do not all accept:
//! letters in any case (§9.1, §9.2, §9.3, §9.5, §9.6), blank padding
//! (§9.11), a west or east target that points at an occupied cell (§9.8)
//! and a stack target naming a covered piece (§9.9). `check` still sends
//! them, but an engine that refuses one gets an *advisory* finding, which
//! does not fail the check unless `--strict-notation`. Every other legal
//! spelling (any neighbour as the reference, the mover itself included,
//! §9.7) is one every UHP engine must accept (spec/sources/uhp-notes.md section 4.5).

use crate::core::notation::{
    parse_game_state, parse_game_type, parse_move, parse_turn, MoveSpec, Target,
};
use crate::core::{GameType, Piece, RulesOptions};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// The clause of the leniency a MoveString relies on in `game`, if any.
/// `None` for a canonical or must-accept spelling, and for text that does
/// not read as a MoveString at all.
pub(crate) fn move_leniency(game: &ReferenceEngine, text: &str) -> Option<&'static str> {
    // §9.11: one space between the piece and the target, none elsewhere
    if text != text.trim() || text.contains('\t') || text.contains("  ") {
        return Some("§9.11");
    }
    let spec = parse_move(text).ok()?;
    let MoveSpec::Piece { piece, target } = spec else {
        // §9.6: `pass` is printed lower-case; `PASS` is a leniency
        return (text != "pass").then_some("§9.6");
    };
    // §9.5: both piece names in their canonical case
    let named = |token: &str, p: Piece| token.trim_matches(['-', '/', '\\']) == p.to_string();
    let mut tokens = text.split(' ');
    let piece_ok = tokens.next().is_some_and(|t| named(t, piece));
    let reference_ok = match (target, tokens.next()) {
        (Target::Origin, None) => true,
        (Target::OnTop(r) | Target::Beside { reference: r, .. }, Some(t)) => named(t, r),
        _ => false,
    };
    if !piece_ok || !reference_ok {
        return Some("§9.5");
    }
    let board = game.board();
    match target {
        // §9.9: a stack target names the top piece
        Target::OnTop(reference) if !board.is_on_top(reference) => Some("§9.9"),
        // §9.8: a glyph target pointing at an occupied cell is a climb
        Target::Beside {
            reference,
            direction,
        } => board
            .location(reference)
            .is_some_and(|at| board.is_occupied(at.neighbour(direction)))
            .then_some("§9.8"),
        _ => None,
    }
}

/// The clause of the leniency a GameString relies on, if any: padding
/// (§9.11), the case of its header fields (§9.1, §9.2, §9.3), or a move
/// that relies on one in its position. `None` also for a string that does
/// not replay.
pub(crate) fn game_string_leniency(text: &str, options: RulesOptions) -> Option<&'static str> {
    if text != text.trim() {
        return Some("§9.11");
    }
    let fields: Vec<&str> = text.split(';').collect();
    if fields.iter().any(|f| *f != f.trim()) {
        return Some("§9.11");
    }
    let game_type: GameType = parse_game_type(fields.first()?).ok()?;
    if fields[0] != game_type.to_string() {
        return Some("§9.1");
    }
    if fields.len() < 3 {
        return None;
    }
    if parse_game_state(fields[1]).ok()?.name() != fields[1] {
        return Some("§9.2");
    }
    if parse_turn(fields[2]).ok()?.to_string() != fields[2] {
        return Some("§9.3");
    }
    let mut game = ReferenceEngine::new_game(game_type, options);
    for text in &fields[3..] {
        if let Some(clause) = move_leniency(&game, text) {
            return Some(clause);
        }
        let mv = game.parse_move(text).ok()?;
        game.play(mv).ok()?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const POSITION: &str = "Base;InProgress;Black[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 -wQ;bB1 \\bQ;wA1 -wG1;bB1 \\bS1;wG2 -wA1;bB1 wS1;wG2 bQ-;bB2 \\bS1;wS2 -wA1";

    #[test]
    fn lenient_move_spellings_are_named_by_their_clause() {
        // Positions from spec/notation.md §9.9's example.
        let game = ReferenceEngine::load(POSITION).expect("loads");
        assert_eq!(move_leniency(&game, "bB2 bB1"), None);
        assert_eq!(move_leniency(&game, "bB2 wS1"), Some("§9.9"));
        assert_eq!(move_leniency(&game, "BB2 bB1"), Some("§9.5"));
        assert_eq!(move_leniency(&game, "bB2  bB1"), Some("§9.11"));
        assert_eq!(move_leniency(&game, " bB2 bB1"), Some("§9.11"));
        assert_eq!(move_leniency(&game, "bB2 -bS1"), Some("§9.8"));
        assert_eq!(move_leniency(&game, "PASS"), Some("§9.6"));
        assert_eq!(move_leniency(&game, "pass"), None);
        // §9.7: any neighbour as reference is a must-accept spelling
        assert_eq!(move_leniency(&game, "bQ wG2-"), None);
    }

    #[test]
    fn lenient_game_strings_are_named_by_their_clause() {
        let options = RulesOptions::default();
        assert_eq!(game_string_leniency(POSITION, options), None);
        assert_eq!(
            game_string_leniency("base;InProgress;Black[1];wS1", options),
            Some("§9.1")
        );
        assert_eq!(
            game_string_leniency("Base;inprogress;Black[1];wS1", options),
            Some("§9.2")
        );
        assert_eq!(
            game_string_leniency("Base;InProgress;Black[1]; wS1", options),
            Some("§9.11")
        );
        assert_eq!(
            game_string_leniency("Base;InProgress;White[2];ws1;bS1 wS1-", options),
            Some("§9.5")
        );
    }
}
