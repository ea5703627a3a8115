//! Every refusal names its clause: in random positions of every game type,
//! every conceivable placement and movement (every piece to every cell on or
//! next to the hive, and a pass) is either legal and accepted by `play`, or
//! refused by `play` with a reason that cites at least one clause, leaving
//! the game unchanged. This pins the contract of `IllegalMove` (§9.14 for the
//! notation side; the clauses of chapters 3–8 for the rules side).

use std::collections::BTreeSet;

use hive_oracle::core::notation::BoardView;
use hive_oracle::core::{GameType, Hex, Move, RulesOptions};
use hive_oracle::reference::ReferenceEngine;
use hive_oracle::rules::Rules;
use proptest::prelude::*;

fn random_game(game_type: GameType, choices: &[u16]) -> ReferenceEngine {
    let mut g = ReferenceEngine::new_game(game_type, RulesOptions::default());
    for &choice in choices {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        g.play_unchecked(moves[choice as usize % moves.len()]);
    }
    g
}

/// Every move one could ask for: each piece of the game type to each cell on
/// or next to the hive (the origin for an empty board), and a pass.
fn candidates(g: &ReferenceEngine) -> Vec<Move> {
    let mut cells: BTreeSet<Hex> = BTreeSet::from([Hex::ORIGIN]);
    for (hex, _) in g.board().pieces() {
        cells.insert(hex);
        cells.extend(hex.neighbours());
    }
    let mut out = vec![Move::Pass];
    for piece in g.game_type().all_pieces() {
        for &to in &cells {
            out.push(match g.location(piece) {
                Some(_) => Move::Move { piece, to },
                None => Move::Place { piece, to },
            });
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_refusal_cites_a_clause(game_type in (0..8usize).prop_map(|i| GameType::ALL[i]),
                                    choices in prop::collection::vec(any::<u16>(), 0..50)) {
        let g = random_game(game_type, &choices);
        let legal: BTreeSet<Move> = g.legal_moves().into_iter().collect();
        let before = g.game_string();
        for mv in candidates(&g) {
            let mut copy = g.clone();
            match copy.play(mv) {
                Ok(()) => prop_assert!(legal.contains(&mv), "play accepted {} not in the legal set of {}", mv, before),
                Err(e) => {
                    prop_assert!(!legal.contains(&mv), "play refused legal {} in {}: {}", mv, before, e);
                    prop_assert!(!e.clauses.is_empty(), "refusal of {} in {} cites no clause: {}", mv, before, e);
                    prop_assert_eq!(copy.game_string(), before.clone());
                }
            }
        }
    }
}
