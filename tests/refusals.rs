//! Every refusal names its clause: in random positions of every game type,
//! every conceivable placement and movement (every piece to every cell on or
//! next to the hive, and a pass) is either legal and accepted by `play`, or
//! refused by `play` with a reason that cites at least one clause, leaving
//! the game unchanged. This pins the contract of `IllegalMove` (§9.14 for the
//! notation side; the clauses of chapters 3–8 for the rules side).
//!
//! The judgement of one move (`reference::judge::judge`, what `explain` and
//! the refusals print) is checked against the legal move set in the same
//! positions: it grants exactly the legal moves, each with at least one way,
//! and every refusal shows facts, the first resting on its first clause and
//! each clause it cites shown by some fact.

use std::collections::BTreeSet;

use hive_oracle_rules::core::BoardView;
use hive_oracle_rules::core::{GameType, Hex, Move, Piece, RulesOptions};
use hive_oracle_rules::explain::{play_explained, play_explained_slow, PlayRefused};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::judge::{judge, Judgement};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use regex::Regex;

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
    // 12 random positions in a default run; 24 in the twin at full size
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn every_refusal_cites_a_clause(game_type in (0..8usize).prop_map(|i| GameType::ALL[i]),
                                    choices in prop::collection::vec(any::<u16>(), 0..50)) {
        every_refusal_cites_a_clause_in(game_type, &choices)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    #[ignore = "full size: .ci/run runs it"]
    fn every_refusal_cites_a_clause_at_full_size(game_type in (0..8usize).prop_map(|i| GameType::ALL[i]),
                                    choices in prop::collection::vec(any::<u16>(), 0..50)) {
        every_refusal_cites_a_clause_in(game_type, &choices)?;
    }
}

/// Every candidate move of the random position of `choices`: the judge
/// grants exactly the legal moves, each with its facts, and refuses the
/// others citing a clause that its first fact rests on; `play` agrees and
/// leaves the game as it was when it refuses.
fn every_refusal_cites_a_clause_in(
    game_type: GameType,
    choices: &[u16],
) -> Result<(), TestCaseError> {
    let g = random_game(game_type, choices);
    let legal: BTreeSet<Move> = g.legal_moves().into_iter().collect();
    let before = g.game_string();
    let position = g.position();
    for mv in candidates(&g) {
        match judge(&position, mv) {
            Judgement::Legal { ways, .. } => {
                prop_assert!(
                    legal.contains(&mv),
                    "judge granted {} not in the legal set of {}",
                    mv,
                    before
                );
                prop_assert!(
                    !ways.is_empty() && ways.iter().all(|w| !w.is_empty()),
                    "{} granted without facts in {}",
                    mv,
                    before
                );
            }
            Judgement::Illegal(refusal) => {
                prop_assert!(
                    !legal.contains(&mv),
                    "judge refused legal {} in {}: {}",
                    mv,
                    before,
                    refusal.illegal
                );
                // The first fact rests on the refusal's first clause, and every clause it cites is shown by a fact.
                let shown: BTreeSet<&str> = refusal
                    .facts
                    .iter()
                    .flat_map(|f| f.clauses.iter().copied())
                    .collect();
                prop_assert!(refusal.facts.first().is_some_and(|f| f.clauses.first() == refusal.illegal.clauses.first()), "the first fact of the refusal of {} in {} does not rest on its first clause: {:?}", mv, before, refusal);
                prop_assert!(
                    refusal.illegal.clauses.iter().all(|c| shown.contains(c)),
                    "a clause of the refusal of {} in {} is shown by no fact: {:?}",
                    mv,
                    before,
                    refusal
                );
            }
        }
        let mut copy = g.clone();
        match copy.play(mv) {
            Ok(()) => prop_assert!(
                legal.contains(&mv),
                "play accepted {} not in the legal set of {}",
                mv,
                before
            ),
            Err(e) => {
                prop_assert!(
                    !legal.contains(&mv),
                    "play refused legal {} in {}: {}",
                    mv,
                    before,
                    e
                );
                prop_assert!(
                    !e.clauses.is_empty(),
                    "refusal of {} in {} cites no clause: {}",
                    mv,
                    before,
                    e
                );
                prop_assert_eq!(copy.game_string(), before.clone());
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The refusal of `play_explained` against its slow twin
// ---------------------------------------------------------------------------

/// The games whose positions `refusals_match_the_slow_path` visits: each
/// game type twice, the combinations of the options in turn.
const GAMES: u64 = 16;

/// The moves judged in each position, drawn from [`more_candidates`].
const MOVES_PER_POSITION: usize = 200;

/// The plies after which a game's position is judged: the opening (§3.3,
/// §3.4, §4.2), the fourth turn (§4.5) and the middle game; and the end,
/// when the game ends sooner (§8.5).
const VISITED_PLIES: [usize; 6] = [0, 1, 3, 6, 30, 70];

/// [`candidates`], and the moves that only a wider search asks for: each
/// piece of the game type to a cell far from the hive (§3.5 for a placement),
/// and each piece of an expansion the game type lacks (§1.3).
fn more_candidates(g: &ReferenceEngine) -> Vec<Move> {
    let far = Hex::new(100, 100);
    let mut out = candidates(g);
    for piece in g.game_type().all_pieces() {
        out.push(match g.location(piece) {
            Some(_) => Move::Move { piece, to: far },
            None => Move::Place { piece, to: far },
        });
    }
    for piece in GameType::from_flags(true, true, true).all_pieces() {
        if !g.game_type().has_bug(piece.bug) {
            out.push(Move::Place {
                piece,
                to: Hex::ORIGIN,
            });
        }
    }
    out
}

/// What `explain` (`play_explained` or its slow twin) answers to `mv`: the
/// refusal, or `None` when the move is played (and then taken back).
fn answer<R: Rules>(
    explain: fn(&mut R, Move) -> Result<(), PlayRefused>,
    game: &mut R,
    mv: Move,
) -> Option<String> {
    let answer = explain(game, mv);
    if answer.is_ok() {
        game.undo();
    }
    answer.err().map(|refused| refused.to_string())
}

/// `play_explained` (the CLI's `play`, and the UHP server's `play` through
/// `uhp::Game::play`) judges a refused move with the reference rules on a
/// copy of the engine's position (`Position::of_game`); `play_explained_slow`
/// reloads the game's GameString on the reference engine, replaying every
/// move, and plays the move there, as `play_explained` did before. Their
/// answers must be equal word for word, on both engines, for every
/// conceivable move of seeded random positions of every game type with every
/// combination of the options (the games sometimes take back a movement so
/// that positions repeat, §8.7.2).
///
/// Calling the slow path for each move would take minutes, so the game it
/// reloads is loaded once per position and each move is played there (and
/// taken back if accepted), exactly as the slow path does; the slow path
/// itself answers every 16th move, and `play_explained` on the reference
/// engine every 4th.
///
/// The refusals seen must cite every clause of `PINNED`, so that the sample
/// keeps reaching each kind of refusal: the game over (§8.5), a pass with
/// moves left (§7.2), placements (§1.3, §3.1, §3.2, §3.3, §3.4, §3.5, §3.6,
/// §3.7, §4.5, §4.2), movements (§4.3, §5.1, §5.2, §5.3, §5.4, §5.5, §5.7,
/// §5.10, §6.1, §6.2.1, §6.3.1, §6.3.2, §6.4.1, §6.4.2, §6.5, §6.6.1, §6.6.5,
/// §6.7.1, §6.8.1) and throws (§6.7.5, §6.8.2, §6.8.4, §6.8.8).
#[test]
fn refusals_match_the_slow_path() {
    const PINNED: &[&str] = &[
        "§8.5", "§7.2", "§1.3", "§3.1", "§3.2", "§3.3", "§3.4", "§3.5", "§3.6", "§3.7", "§4.5",
        "§4.2", "§4.3", "§5.1", "§5.2", "§5.3", "§5.4", "§5.5", "§5.7", "§5.10", "§6.1", "§6.2.1",
        "§6.3.1", "§6.3.2", "§6.4.1", "§6.4.2", "§6.5", "§6.6.1", "§6.6.5", "§6.7.1", "§6.8.1",
        "§6.7.5", "§6.8.2", "§6.8.4", "§6.8.8",
    ];
    let clause = Regex::new(r"§\d+(?:\.\d+)*").expect("regex");
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut judged = 0usize;
    for index in 0..GAMES {
        let game_type = GameType::ALL[(index % 8) as usize];
        let combination = (index + index / 8) % 4;
        let options = RulesOptions {
            tournament_opening: combination % 2 == 0,
            repetition_draw: combination / 2 == 1,
        };
        let mut rng = StdRng::seed_from_u64(index);
        let mut fast = FastEngine::new_game(game_type, options);
        // The piece moved at each ply and the cell it came from (movements only).
        let mut origins: Vec<Option<(Piece, Hex)>> = Vec::new();
        loop {
            let over = fast.state().is_over();
            if over || VISITED_PLIES.contains(&fast.plies()) {
                // The game the slow path reloads, and the same game on the
                // reference engine for `play_explained` there.
                let mut slow = ReferenceEngine::load_with(&fast.game_string(), options)
                    .expect("the reference engine loads the fast engine's game");
                let mut reference = slow.clone();
                let mut moves = more_candidates(&slow);
                // a seeded sample, the pass (first) always in it
                for i in 1..moves.len() {
                    moves.swap(i, rng.random_range(1..=i));
                }
                moves.truncate(MOVES_PER_POSITION);
                for (i, mv) in moves.into_iter().enumerate() {
                    judged += 1;
                    let expected = match fast.clone().play(mv) {
                        Ok(()) => None,
                        Err(refusal) => Some(match slow.play(mv) {
                            Err(why) => why.to_string(),
                            Ok(()) => {
                                slow.undo();
                                format!("{refusal} (the reference engine accepts this move: please report it)")
                            }
                        }),
                    };
                    let at = || format!("{} in {}", slow.move_string(mv), slow.game_string());
                    let fast_answer = answer(play_explained, &mut fast, mv);
                    assert_eq!(fast_answer, expected, "fast engine: {}", at());
                    if i % 4 == 0 {
                        let reference_answer = answer(play_explained, &mut reference, mv);
                        assert_eq!(reference_answer, expected, "reference engine: {}", at());
                    }
                    if i % 16 == 0 {
                        let slow_answer = answer(play_explained_slow, &mut fast, mv);
                        assert_eq!(slow_answer, expected, "the slow path itself: {}", at());
                    }
                    if let Some(text) = expected {
                        seen.extend(clause.find_iter(&text).map(|m| m.as_str().to_string()));
                    }
                }
            }
            if over || fast.plies() >= VISITED_PLIES[VISITED_PLIES.len() - 1] {
                break;
            }
            let moves = fast.legal_moves();
            let mut mv = moves[rng.random_range(0..moves.len())];
            // Now and then the side to move takes back its previous movement,
            // so that positions repeat (§8.7.2).
            if let Some(&Some((piece, from))) = origins.iter().rev().nth(1) {
                let back = Move::Move { piece, to: from };
                if rng.random_range(0..4) == 0 && moves.contains(&back) {
                    mv = back;
                }
            }
            origins.push(match mv {
                Move::Move { piece, .. } => fast.location(piece).map(|from| (piece, from)),
                _ => None,
            });
            fast.play_unchecked(mv);
        }
    }
    let missing: Vec<&str> = PINNED
        .iter()
        .copied()
        .filter(|c| !seen.contains(*c))
        .collect();
    assert!(
        missing.is_empty(),
        "no refusal cites {missing:?}; seen {seen:?}"
    );
    assert!(judged > 10_000, "only {judged} moves judged");
}

// ---------------------------------------------------------------------------
// The throw judged in one place
// ---------------------------------------------------------------------------

/// The random games whose positions `the_throw_judgement_is_the_legal_throw_set` visits.
const THROW_GAMES: u64 = 96;

/// The positions to judge throws in: seeded random games of every game type
/// with the pillbug, stopped in the middle game (where pillbugs and
/// mosquitoes touch pieces), and every position of the case files of the
/// pillbug and the mosquito, which hold the rare ones (a height gate on a
/// throw, §6.8.5; a covered pillbug, §6.8.3).
fn throw_positions() -> Vec<ReferenceEngine> {
    let pillbug_types: Vec<GameType> = GameType::ALL
        .into_iter()
        .filter(|t| t.has_bug(hive_oracle_rules::core::Bug::Pillbug))
        .collect();
    let mut games = Vec::new();
    for index in 0..THROW_GAMES {
        let game_type = pillbug_types[index as usize % pillbug_types.len()];
        let mut rng = StdRng::seed_from_u64(1000 + index);
        let mut fast = FastEngine::new_game(game_type, RulesOptions::default());
        let plies = 12 + rng.random_range(0..80);
        while fast.plies() < plies && !fast.state().is_over() {
            let moves = fast.legal_moves();
            fast.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        games.push(
            ReferenceEngine::load(&fast.game_string()).expect("the reference engine loads it"),
        );
    }
    let corpus = hive_oracle_rules::cases::builtin_corpus().expect("the case corpus loads");
    for loaded in corpus
        .iter()
        .filter(|c| c.id().starts_with("pillbug.toml") || c.id().starts_with("mosquito.toml"))
    {
        if let Ok(game) = ReferenceEngine::load_with(&loaded.case.game, loaded.case.options.into())
        {
            games.push(game);
        }
    }
    games
}

/// The pillbug's ability (§6.8.2–§6.8.8, and a mosquito copying it, §6.7.5)
/// is decided once, by the attempts of `reference/bugs/throw.rs`; the legal
/// throws and the judgement of one move both read them. In the positions of
/// [`throw_positions`], every piece to every cell on or next to the hive is
/// judged:
///
/// * the judgement grants a throw (a way whose first fact rests on §6.8.2)
///   exactly for the moves of `Position::legal_throws`;
/// * it grants the move at all exactly when the fast engine, which decides
///   throws with its own code, lists it; so the throw judgement equals the
///   legal move set, of the other player's pieces as of the mover's own.
///
/// The sample must reach legal throws of both colours' pieces, throws by a
/// mosquito, and refusals citing §6.8.3 (stacked piece or covered pillbug),
/// §6.8.4, §6.8.5 and §6.8.8, so that it keeps exercising each condition.
#[test]
fn the_throw_judgement_is_the_legal_throw_set() {
    let mut thrown_own = 0usize;
    let mut thrown_other = 0usize;
    let mut by_mosquito = 0usize;
    let mut cited: BTreeSet<&'static str> = BTreeSet::new();
    for g in throw_positions() {
        let position = g.position();
        let fast =
            FastEngine::load_with(&g.game_string(), g.options()).expect("the fast engine loads it");
        let legal: BTreeSet<Move> = fast.legal_moves().into_iter().collect();
        let throws = position.legal_throws();
        let at = || g.game_string();
        assert!(
            throws.is_subset(&legal),
            "a throw the fast engine does not list in {}",
            at()
        );
        for mv in candidates(&g) {
            let Move::Move { piece, .. } = mv else {
                continue;
            };
            match judge(&position, mv) {
                Judgement::Legal { ways, .. } => {
                    assert!(legal.contains(&mv), "judge granted {mv} in {}", at());
                    let thrown: Vec<&Vec<hive_oracle_rules::explain::Fact>> = ways
                        .iter()
                        .filter(|w| w.first().is_some_and(|f| f.clauses == ["§6.8.2"]))
                        .collect();
                    assert_eq!(!thrown.is_empty(), throws.contains(&mv), "{mv} in {}", at());
                    if !thrown.is_empty() {
                        if piece.color == g.side_to_move() {
                            thrown_own += 1;
                        } else {
                            thrown_other += 1;
                        }
                        if thrown
                            .iter()
                            .any(|w| w.iter().any(|f| f.clauses == ["§6.7.5"]))
                        {
                            by_mosquito += 1;
                        }
                    }
                }
                Judgement::Illegal(refusal) => {
                    assert!(
                        !legal.contains(&mv),
                        "judge refused legal {mv} in {}: {}",
                        at(),
                        refusal.illegal
                    );
                    assert!(
                        !throws.contains(&mv),
                        "judge refused the throw {mv} in {}",
                        at()
                    );
                    for clause in ["§6.8.3", "§6.8.4", "§6.8.5", "§6.8.8"] {
                        if refusal.illegal.clauses.contains(&clause) {
                            cited.insert(clause);
                        }
                    }
                }
            }
        }
    }
    assert!(
        thrown_own > 0 && thrown_other > 0 && by_mosquito > 0,
        "throws seen: {thrown_own} own, {thrown_other} other, {by_mosquito} by a mosquito"
    );
    assert_eq!(cited.len(), 4, "throw refusals seen: {cited:?}");
}
