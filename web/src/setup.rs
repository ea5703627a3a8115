//! The page's set-up mode: a position put together piece by piece, without
//! its history, as a position string (spec/notation.md §9.36 to §9.42).
//!
//! The page's script holds the edit as plain JSON (game type, opening, whose
//! turn and its number, the piece moved last, and the stacks by cell); these
//! functions read it into a [`Setup`], have the library judge whether a box
//! of the game can hold it and a game reach it (§9.42, the physical checks
//! of `Rules::load_setup`), and print its position string (§9.41). The rules
//! are the library's: nothing here decides what is possible.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use hive_oracle_rules::core::notation::{parse_game_type, parse_piece, parse_turn, Turn};
use hive_oracle_rules::core::position_string::{
    is_position_string, parse_position_string, position_string, PositionHeader,
};
use hive_oracle_rules::core::{Hex, Piece, RulesOptions, Setup};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::{LoadError, Rules};

/// A set-up as the page holds it: the fields of a position string, the
/// stacks by cell, bottom to top.
pub(super) fn setup_json(setup: &Setup) -> Value {
    json!({
        "gameType": setup.game_type.to_string(),
        "standardOpening": !setup.tournament_opening,
        "toMove": setup.turn.color.name(),
        "turn": setup.turn.number,
        "lastMoved": setup.last_moved.map(|p| p.to_string()),
        "cells": setup.stacks().into_iter().map(|(hex, stack)| json!({
            "q": hex.q,
            "r": hex.r,
            "stack": stack.iter().map(Piece::to_string).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// A position string read into the page's set-up (its pieces and fields,
/// whether or not the position can exist), or `{"error": …}` naming the
/// clause of the notation it breaks. Only a position string is read: a
/// GameString says `"error"` too.
pub(super) fn read(text: &str) -> Value {
    if !is_position_string(text) {
        return json!({ "error": "not a position string: its second field must be Position (§9.36)" });
    }
    match parse_position_string(text) {
        Ok(setup) => json!({ "setup": setup_json(&setup) }),
        Err(e) => json!({ "error": e.to_string() }),
    }
}

/// The page's edit, judged: `{"possible": true, "positionString": …}` when
/// the library sets the position up, else `{"possible": false, "clause",
/// "problem", "message"}` with the clause the position breaks (§9.42) or the
/// clause of a field that does not read (§9.15, §9.18, §9.19, §9.39). The
/// position string is printed whenever the pieces can be written (it then
/// reads back as this set-up, `"readsBack": true`), possible or not, so an
/// impossible board can still be shared and edited.
pub(super) fn check(edit: &str) -> Value {
    let setup = match from_json(edit) {
        Ok(setup) => setup,
        Err((clause, problem)) => return refusal(clause, problem, None),
    };
    let printed = printed(&setup);
    let reads_back = parse_position_string(&printed).is_ok();
    let shown = reads_back.then_some(printed.as_str());
    let options = RulesOptions {
        tournament_opening: setup.tournament_opening,
        repetition_draw: false,
    };
    match ReferenceEngine::load_setup(&setup, options) {
        Ok(game) => json!({
            "possible": true,
            "positionString": game.position_string(),
            "readsBack": true,
            "state": game.state().to_string(),
        }),
        Err(LoadError::Impossible { clause, problem }) => {
            refusal(clause.to_string(), problem, shown)
        }
        Err(other) => refusal(String::new(), other.to_string(), shown),
    }
}

/// A refused edit, with its clause and the position string when the pieces
/// can be written.
fn refusal(clause: String, problem: String, shown: Option<&str>) -> Value {
    let message = if clause.is_empty() {
        format!("Impossible position: {problem}.")
    } else {
        format!("Impossible position: {problem} ({clause}).")
    };
    json!({
        "possible": false,
        "clause": clause,
        "problem": problem,
        "message": message,
        "positionString": shown,
        "readsBack": shown.is_some(),
    })
}

/// The position string of a set-up as the library prints it (§9.41); for a
/// hive in several groups it does not read back.
fn printed(setup: &Setup) -> String {
    let header = PositionHeader {
        game_type: setup.game_type,
        tournament_opening: setup.tournament_opening,
        turn: setup.turn,
        last_moved: setup.last_moved,
    };
    position_string(&header, &setup.stacks())
}

/// The page's edit read into a [`Setup`]; a field that does not read is
/// refused with the clause of its notation.
fn from_json(edit: &str) -> Result<Setup, (String, String)> {
    let value: Value = serde_json::from_str(edit)
        .map_err(|e| (String::new(), format!("the set-up does not read: {e}")))?;
    let field = |name: &str| value[name].as_str().unwrap_or("").trim().to_string();
    let notation = |e: hive_oracle_rules::core::NotationError| {
        let text = e.to_string();
        (clause_in(&text), text)
    };
    let game_type = parse_game_type(&field("gameType")).map_err(notation)?;
    let number = match &value["turn"] {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_string(),
        _ => String::new(),
    };
    let turn: Turn = parse_turn(&format!("{}[{number}]", field("toMove"))).map_err(notation)?;
    let last_moved = match value["lastMoved"].as_str().map(str::trim) {
        None | Some("") | Some("none") => None,
        Some(text) => Some(parse_piece(text).map_err(notation)?),
    };
    let mut pieces: Vec<(Piece, Hex)> = Vec::new();
    let mut seen: BTreeSet<Piece> = BTreeSet::new();
    let mut cells: BTreeSet<Hex> = BTreeSet::new();
    for cell in value["cells"].as_array().into_iter().flatten() {
        let (Some(q), Some(r)) = (cell["q"].as_i64(), cell["r"].as_i64()) else {
            return Err((String::new(), format!("a cell without coordinates: {cell}")));
        };
        let hex = Hex::new(q as i32, r as i32);
        if !cells.insert(hex) {
            return Err((String::new(), format!("the cell {hex} is given twice")));
        }
        for name in cell["stack"].as_array().into_iter().flatten() {
            let piece = parse_piece(name.as_str().unwrap_or("")).map_err(notation)?;
            if !seen.insert(piece) {
                return Err((
                    "§9.39".to_string(),
                    format!("{piece} is on the board twice: each piece is in one stack"),
                ));
            }
            pieces.push((piece, hex));
        }
    }
    Ok(Setup {
        game_type,
        tournament_opening: !value["standardOpening"].as_bool().unwrap_or(false),
        turn,
        last_moved,
        pieces,
    })
}

/// The last clause number a message cites (`§9.18` of `… (§9.18)`), or
/// empty.
fn clause_in(text: &str) -> String {
    text.rmatch_indices('§')
        .next()
        .map(|(i, _)| {
            let number: String = text[i + '§'.len_utf8()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            format!("§{}", number.trim_end_matches('.'))
        })
        .filter(|c| c.len() > '§'.len_utf8())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(cells: Value, to_move: &str, turn: u64, last: Option<&str>) -> String {
        json!({
            "gameType": "Base", "standardOpening": false, "toMove": to_move,
            "turn": turn, "lastMoved": last, "cells": cells,
        })
        .to_string()
    }

    #[test]
    fn a_possible_set_up_prints_its_position_string() {
        let cells = json!([
            {"q": 0, "r": 0, "stack": ["wQ", "bB1"]},
            {"q": 1, "r": 0, "stack": ["bQ"]},
        ]);
        let answer = check(&edit(cells, "White", 3, Some("bB1")));
        assert_eq!(answer["possible"], true, "{answer}");
        let text = answer["positionString"].as_str().expect("a string");
        let game = ReferenceEngine::load(text).expect("it loads");
        assert_eq!(game.position_string(), text);
        assert_eq!(read(text)["setup"]["cells"][0]["stack"][1], "bB1");
    }

    #[test]
    fn a_split_hive_and_a_spider_on_a_stack_are_refused_with_their_clauses() {
        let split = json!([
            {"q": 0, "r": 0, "stack": ["wQ"]},
            {"q": 3, "r": 0, "stack": ["bQ"]},
        ]);
        let answer = check(&edit(split, "White", 2, None));
        assert_eq!(answer["clause"], "§2.7", "{answer}");
        assert_eq!(answer["readsBack"], false, "{answer}");
        let spider = json!([
            {"q": 0, "r": 0, "stack": ["wQ", "bS1"]},
            {"q": 1, "r": 0, "stack": ["bQ"]},
        ]);
        let answer = check(&edit(spider, "White", 3, None));
        assert_eq!(answer["clause"], "§6.2.1", "{answer}");
        assert_eq!(answer["readsBack"], true, "{answer}");
    }

    #[test]
    fn a_bad_turn_number_cites_its_notation() {
        let answer = check(&edit(json!([]), "White", 0, None));
        assert_eq!(answer["possible"], false, "{answer}");
        assert!(
            answer["clause"]
                .as_str()
                .is_some_and(|c| c.starts_with('§')),
            "{answer}"
        );
    }
}
