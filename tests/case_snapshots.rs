//! Snapshot tests of the case corpus: every case of
//! `tests/cases/` rendered for a reader: the ASCII picture of its position
//! (the cells its moves concern highlighted), the legal moves in question,
//! and the explanation of every move it asserts to be legal or illegal.
//! The snapshots live in `tests/snapshots/integration__case_snapshots__*.snap`; a change
//! in a rule, in notation or in an explanation shows as a readable diff.
//! `HIVE_ORACLE_CASE=<text>` filters the cases as in `tests/cases.rs`.

use std::collections::BTreeSet;
use std::fmt::Write;

use hive_oracle_rules::cases::{builtin_corpus, Case};
use hive_oracle_rules::core::notation::parse_piece;
use hive_oracle_rules::core::{Hex, Move};
use hive_oracle_rules::explain::{move_cells, verdict};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::render::ascii;
use hive_oracle_rules::rules::Rules;

/// The text of one case's snapshot.
fn render_case(id: &str, case: &Case) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "case: {id}");
    let _ = writeln!(out, "clauses: {}", case.clauses.join(", "));
    let _ = writeln!(out, "source: {}", case.source);
    let _ = writeln!(out, "game: {}", case.game);
    let game = match ReferenceEngine::load_with(&case.game, case.options.into()) {
        Ok(game) => game,
        Err(e) => {
            let _ = writeln!(out, "does not load: {e}");
            return out;
        }
    };
    let _ = writeln!(
        out,
        "state: {}, {} to move",
        game.state(),
        game.side_to_move()
    );
    // The moves the case talks about, and the cells they concern.
    let asserted: Vec<&String> = case
        .legal
        .iter()
        .chain(case.illegal.iter().map(|entry| &entry.mv))
        .collect();
    let mut cells: BTreeSet<Hex> = BTreeSet::new();
    let mut resolved: Vec<(String, Option<Move>)> = Vec::new();
    for text in asserted {
        let mv = game.parse_move(text).ok();
        if let Some(mv) = mv {
            cells.extend(move_cells(&game, mv));
        }
        resolved.push((text.clone(), mv));
    }
    let piece = case.piece.as_deref().and_then(|p| parse_piece(p).ok());
    if let Some(p) = piece {
        if let Some(at) = hive_oracle_rules::core::BoardView::location(&game, p) {
            cells.insert(at);
        }
    }
    let highlight: Vec<Hex> = cells.into_iter().collect();
    out.push('\n');
    out.push_str(&ascii(&game, &highlight));
    // The legal moves in question: those of `piece`, or all of them.
    let mut legal: Vec<String> = game
        .legal_moves()
        .into_iter()
        .filter(|mv| piece.is_none() || mv.piece() == piece)
        .map(|mv| game.move_string(mv))
        .collect();
    legal.sort();
    let scope = case.piece.as_deref().unwrap_or("all pieces");
    let _ = writeln!(out, "\nlegal moves of {scope} ({}):", legal.len());
    if legal.len() <= 60 {
        for chunk in legal.chunks(8) {
            let _ = writeln!(out, "  {}", chunk.join("; "));
        }
    } else {
        let _ = writeln!(out, "  (more than 60: not listed)");
    }
    for (text, mv) in resolved {
        let _ = writeln!(out, "\nmove {text}:");
        match mv {
            None => {
                let error = game
                    .parse_move(&text)
                    .err()
                    .map(|e| e.to_string())
                    .unwrap_or_default();
                let _ = writeln!(out, "  unreadable: {error}");
            }
            Some(mv) => {
                let v = verdict(&game, mv);
                let _ = writeln!(out, "  {}", if v.legal { "legal" } else { "illegal" });
                if let Some(refusal) = v.refusal {
                    let _ = writeln!(out, "  refused: {refusal}");
                }
                for fact in v.facts {
                    let _ = writeln!(out, "  {}", fact.line());
                }
            }
        }
    }
    out
}

#[test]
fn every_case_as_a_picture_with_its_moves_and_explanations() {
    let corpus = builtin_corpus().unwrap_or_else(|e| panic!("the corpus does not load: {e}"));
    let filter = std::env::var("HIVE_ORACLE_CASE").unwrap_or_default();
    for loaded in corpus.iter().filter(|c| c.id().contains(&filter)) {
        let id = loaded.id();
        let name = id.replace(".toml::", "__").replace(['.', ':'], "_");
        insta::assert_snapshot!(name, render_case(&id, &loaded.case));
    }
}
