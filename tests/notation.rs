//! UHP notation (spec/notation.md, chapter 9): what we accept, what we print,
//! and that nothing panics. Positions are constructed for these tests unless
//! a source is named (the sources cited are in `spec/sources/`).

use crate::common;
use crate::engines;

use common::*;
use engines::{assert_illegal, assert_legal, legal, legal_for};
use hive_oracle_rules::core::notation::{
    parse_game_state, parse_game_string, parse_game_type, parse_move, parse_piece, parse_turn,
    MoveSpec, Target, Turn,
};
use hive_oracle_rules::core::{Color, GameState, GameType, Hex, Move, RulesOptions};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::{LoadError, Rules};
use proptest::prelude::*;

const FOUR_PLIES: &str = "Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1";

/// `wB1` sits on `wQ` at (-1, 0): the position of an audit of the spec
/// against the established engines, for a covered mover.
const COVERED_QUEEN: &str =
    "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bA1 bQ-;wB1 wQ;bA1 bQ/";

#[test]
fn game_type_strings_accept_any_case_and_order_and_print_canonically() {
    // §9.15; leniently any order (§9.16) and any letter case (§9.20)
    assert_eq!(parse_game_type("Base+MLP"), Ok(GameType::BASE_MLP));
    assert_eq!(
        parse_game_type("base+lpm").map(|t| t.to_string()),
        Ok("Base+MLP".to_string())
    );
    assert_eq!(
        parse_game_type("BASE").map(|t| t.to_string()),
        Ok("Base".to_string())
    );
    for bad in [
        "Base+", "Base+MM", "Base+X", "BaseMLP", "Bas", "", "Base +M", "Base+M+L",
    ] {
        assert!(parse_game_type(bad).is_err(), "{bad:?} should be refused");
    }
    let names: Vec<String> = GameType::ALL.iter().map(|t| t.to_string()).collect();
    assert_eq!(
        names,
        ["Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP"]
    );
}

#[test]
fn game_state_strings_are_the_five_states() {
    // §9.17, §8.8; leniently any letter case (§9.20)
    for state in GameState::ALL {
        assert_eq!(parse_game_state(state.name()), Ok(state));
        assert_eq!(parse_game_state(&state.name().to_lowercase()), Ok(state));
    }
    assert!(parse_game_state("Agreed").is_err());
    assert!(parse_game_state("").is_err());
}

#[test]
fn turn_strings_name_the_side_to_move_and_its_turn() {
    // §9.18, §4.4; the colour word leniently in any letter case (§9.20)
    assert_eq!(Turn::after_plies(0).to_string(), "White[1]");
    assert_eq!(Turn::after_plies(1).to_string(), "Black[1]");
    assert_eq!(Turn::after_plies(4).to_string(), "White[3]");
    assert_eq!(
        parse_turn("black[12]"),
        Ok(Turn {
            color: Color::Black,
            number: 12
        })
    );
    for bad in [
        "White[0]",
        "White[]",
        "White[-1]",
        "Red[1]",
        "White1",
        "White[1",
        "White[99999999999999999999999]",
    ] {
        assert!(parse_turn(bad).is_err(), "{bad:?} should be refused");
    }
}

#[test]
fn game_strings_need_three_header_fields() {
    // §9.31: a bare GameTypeString is not a GameString
    assert!(parse_game_string("Base").is_err());
    assert!(parse_game_string("Base;NotStarted").is_err());
    assert!(parse_game_string("Base;Foo;White[1]").is_err());
    assert!(parse_game_string("Base;NotStarted;White[1]").is_ok());
}

#[test]
fn game_strings_with_stale_state_and_turn_are_recomputed() {
    // §9.33: like Mzinga's own test data (`Base;NotStarted;Black[1];wS1`,
    // spec/sources/uhp-notes.md section 5.2)
    let g = game("Base;NotStarted;White[9];wS1");
    assert_eq!(g.game_string(), "Base;InProgress;Black[1];wS1");
}

#[test]
fn game_strings_refuse_empty_move_fields() {
    // §9.32: a trailing or doubled ";" is an error
    assert!(ReferenceEngine::load("Base;InProgress;Black[1];wS1;").is_err());
    assert!(ReferenceEngine::load("Base;InProgress;Black[1];;wS1").is_err());
}

#[test]
fn game_strings_with_an_illegal_move_are_refused_naming_it() {
    // §9.34, §4.2: the queen as white's first placement
    match ReferenceEngine::load("Base;InProgress;Black[1];wQ") {
        Err(LoadError::Illegal { index, text, error }) => {
            assert_eq!((index, text.as_str()), (1, "wQ"));
            assert!(error.clauses.contains(&"§4.2"), "{error}");
        }
        other => panic!("expected an illegal-move error, got {other:?}"),
    }
    // §9.34, §3.6: a placement touching the enemy
    let err = ReferenceEngine::load("Base;InProgress;White[2];wS1;bS1 wS1-;wA1 bS1-")
        .expect_err("illegal");
    assert!(err.to_string().contains("move 3 \"wA1 bS1-\""), "{err}");
    assert!(err.to_string().contains("§3.6"), "{err}");
}

#[test]
fn piece_names_accept_any_case_and_print_canonically() {
    // §9.19, §1.5; leniently any letter case (§9.20)
    assert_eq!(parse_piece("WS1").map(|p| p.to_string()), Ok("wS1".into()));
    assert_eq!(parse_piece("bm").map(|p| p.to_string()), Ok("bM".into()));
    for bad in [
        "wS3", "wQ1", "wM1", "wG4", "wA0", "wB", "xQ", "wX", "w", "wS01",
    ] {
        assert!(parse_piece(bad).is_err(), "{bad:?} should be refused");
    }
}

#[test]
fn every_glyph_names_its_side_of_the_reference() {
    // §9.21, §2.2: spec/sources/uhp-notes.md section 4.3 worked example
    let g = game(FOUR_PLIES);
    let at = |piece: &str| {
        let p = parse_piece(piece).expect("piece");
        hive_oracle_rules::core::BoardView::location(&g, p).expect("on board")
    };
    assert_eq!(at("wS1"), Hex::new(0, 0));
    assert_eq!(at("bG1"), Hex::new(-1, 0));
    assert_eq!(at("wA1"), Hex::new(1, -1));
    assert_eq!(at("bG2"), Hex::new(-2, 1));
    let dest = |text: &str| {
        g.parse_move(text)
            .expect("resolves")
            .destination()
            .expect("cell")
    };
    assert_eq!(dest("wS2 wS1-"), Hex::new(1, 0));
    assert_eq!(dest("wS2 -wS1"), Hex::new(-1, 0));
    assert_eq!(dest("wS2 wS1/"), Hex::new(1, -1));
    assert_eq!(dest("wS2 /wS1"), Hex::new(-1, 1));
    assert_eq!(dest("wS2 wS1\\"), Hex::new(0, 1));
    assert_eq!(dest("wS2 \\wS1"), Hex::new(0, -1));
    assert_eq!(dest("wS2 wS1"), Hex::new(0, 0));
}

#[test]
fn any_adjacent_reference_and_self_reference_name_the_same_move() {
    // §9.23, §9.24: three spellings of one move of wQ, one naming the queen itself
    let g = game("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
    let a = g.parse_move("wQ \\wS1").expect("resolves");
    let b = g.parse_move("wQ wQ/").expect("self-reference resolves");
    assert_eq!(a, b);
    assert_eq!(
        a,
        Move::Move {
            piece: parse_piece("wQ").expect("piece"),
            to: Hex::new(0, -1)
        }
    );
    assert_legal(&g, "wQ wQ/");
}

#[test]
fn a_covered_piece_is_a_reference_beside_its_cell() {
    // §9.23: for adjacency the reference's cell matters, not its height; wB1
    // covers wQ, so `-wQ` and `-wB1` name the same cell west of the stack
    let g = game(COVERED_QUEEN);
    let beside_queen = g.parse_move("wA1 -wQ").expect("covered reference resolves");
    assert_eq!(beside_queen, g.parse_move("wA1 -wB1").expect("resolves"));
    assert_eq!(beside_queen.destination(), Some(Hex::new(-2, 0)));
    assert_legal(&g, "wA1 -wQ");
}

#[test]
fn a_target_with_a_glyph_on_both_sides_is_refused() {
    // §9.22 (rulings.md#notation-glyph-on-both-sides): `-wQ-` names the cell
    // west of the queen and the cell east of it; neither is guessed
    for text in ["wA1 -wQ-", "wA1 /wQ\\", "wA1 \\wQ/", "wA1 -wQ/"] {
        let err = parse_move(text).expect_err(text);
        assert!(err.to_string().contains("§9.22"), "{text}: {err}");
    }
    let g = game("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
    let err = g.parse_move("wA1 -wQ-").expect_err("two glyphs");
    assert!(err.to_string().contains("§9.22"), "{err}");
    // the two readings it could have: west of wQ is a legal placement, east
    // of it is wS1's cell
    assert_legal(&g, "wA1 -wQ");
    assert_illegal(&g, "wA1 wQ-", "§3.7");
    // a GameString holding it is refused whole (§9.34)
    let err =
        ReferenceEngine::load("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ-")
            .expect_err("two glyphs");
    assert!(err.to_string().contains("§9.22"), "{err}");
}

#[test]
fn a_covered_piece_named_as_the_mover_is_that_piece() {
    // §9.25 (rulings.md#notation-covered-mover): `wQ \wS1` names the queen,
    // which wB1 covers, so it cannot move (§5.2); the beetle on top of it is
    // never moved in its place
    let g = game(COVERED_QUEEN);
    let queen = parse_piece("wQ").expect("piece");
    let named = g.parse_move("wQ \\wS1").expect("resolves");
    assert_eq!(
        named,
        Move::Move {
            piece: queen,
            to: Hex::new(0, -1)
        }
    );
    assert_illegal(&g, "wQ \\wS1", "§5.2");
    assert_ne!(named, g.parse_move("wB1 \\wS1").expect("resolves"));
    assert_legal(&g, "wB1 \\wS1");
}

#[test]
fn a_direction_pointing_at_an_occupied_cell_names_a_climb() {
    // §9.26: nokamute's reading (spec/sources/uhp-notes.md section 4.5); W of bS1 is wS1's cell
    let g = game("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bA1 bQ\\");
    let climb = g.parse_move("wB1 -bS1").expect("resolves");
    assert_eq!(climb, g.parse_move("wB1 wS1").expect("resolves"));
    assert_legal(&g, "wB1 -bS1");
}

#[test]
fn a_stack_target_naming_a_covered_piece_names_its_cell() {
    // §9.27: wB1 covers wS1; naming wS1 still names the cell (0, 0)
    let g = game(
        "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bA1 bQ\\;wB1 wS1;bA1 bQ/",
    );
    let b = g.parse_move("wB1 wS1").expect("covered reference resolves");
    assert_eq!(b.destination(), Some(Hex::new(0, 0)));
    // wB1 is on (0, 0), so naming wS1 is naming wB1's own cell: not a move (§5.7)
    assert_illegal(&g, "wB1 wS1", "§5.7");
    let over_queen = g.parse_move("wB2 wQ").expect("resolves");
    assert_eq!(over_queen.destination(), Some(Hex::new(-1, 0)));
}

#[test]
fn a_bare_piece_name_is_only_the_first_move() {
    // §9.10: Mzinga reads it as the origin, nokamute refuses; we refuse
    let g = game("Base;InProgress;Black[1];wS1");
    let err = g.parse_move("bS1").expect_err("bare name after move 1");
    assert!(err.to_string().contains("§9.10"), "{err}");
    let first = game("Base;NotStarted;White[1]");
    assert_eq!(
        first.parse_move("wS1").ok().and_then(|m| m.destination()),
        Some(Hex::ORIGIN)
    );
}

#[test]
fn whitespace_runs_and_surrounding_blanks_are_accepted() {
    // §9.28
    let g = game("Base;InProgress;Black[1];wS1");
    let plain = g.parse_move("bS1 wS1-").expect("plain");
    assert_eq!(g.parse_move("  bS1 \t  wS1-  ").expect("spaced"), plain);
    assert!(parse_move("bS1 wS1 -").is_err(), "no space inside a target");
    assert!(parse_move("bS1 wS1- wS1").is_err(), "one target only");
}

#[test]
fn canonical_reference_scans_clockwise_from_north_west() {
    // §9.30: Mzinga's second-ply list (spec/sources/uhp-notes.md section 5.5):
    // bS1 \wS1; bS1 wS1/; bS1 wS1-; bS1 wS1\; bS1 /wS1; bS1 -wS1
    let g = game("Base;InProgress;Black[1];wS1");
    let spellings: Vec<String> = legal_for(&g, "bS1")
        .into_iter()
        .map(|m| g.move_string(m))
        .collect();
    let mut expected = vec![
        "bS1 \\wS1",
        "bS1 wS1/",
        "bS1 wS1-",
        "bS1 wS1\\",
        "bS1 /wS1",
        "bS1 -wS1",
    ];
    expected.sort();
    let mut got = spellings.clone();
    got.sort();
    assert_eq!(got, expected);
}

#[test]
fn canonical_reference_never_names_the_moving_piece() {
    // §9.30: nokamute may echo `bA1 -bA1` (§9.24); we never name the mover
    let g = game("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \\wQ;bA1 bQ\\");
    for mv in legal(&g) {
        let text = g.move_string(mv);
        let mover = mv.piece().map(|p| p.to_string()).unwrap_or_default();
        let target = text.split(' ').nth(1).unwrap_or_default();
        assert!(!target.contains(&mover), "{text} names its own piece");
        assert_eq!(g.parse_move(&text), Ok(mv), "{text} does not read back");
    }
    // a climb names the top piece of the destination, without a glyph
    let g = game("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bA1 bQ\\");
    let climb = g.parse_move("wB1 wQ").expect("resolves");
    assert_eq!(g.move_string(climb), "wB1 wQ");
}

#[test]
fn a_piece_in_reserve_is_placed_and_one_on_the_board_moves() {
    // §9.13
    let g = game("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
    assert!(matches!(g.parse_move("wA1 -wQ"), Ok(Move::Place { .. })));
    assert!(matches!(g.parse_move("wQ \\wS1"), Ok(Move::Move { .. })));
}

#[test]
fn errors_say_what_was_expected_and_quote_the_token() {
    // §9.14
    let err = parse_move("wZ9 wS1-").expect_err("bad piece");
    let text = err.to_string();
    assert!(text.contains("wZ9"), "{text}");
    assert!(text.contains("bug letter"), "{text}");
    let err = ReferenceEngine::load("Base;InProgress;White[2];wS1;bS1 wS9-").expect_err("bad move");
    assert!(err.to_string().contains("wS9"), "{err}");
    // a reference piece that is not on the board
    let g = game("Base;InProgress;Black[1];wS1");
    let err = g.parse_move("bS1 wA1-").expect_err("wA1 is in reserve");
    assert!(err.to_string().contains("not on the board"), "{err}");
    // a piece outside the game type (§1.3)
    let err = g.parse_move("bM wS1-").expect_err("no mosquito in Base");
    assert!(err.to_string().contains("§1.3"), "{err}");
    // a very long token is quoted short
    let long = "x".repeat(1_000_000);
    assert!(parse_move(&long).expect_err("garbage").to_string().len() < 500);
}

fn any_game_type() -> impl Strategy<Value = GameType> {
    (0..8usize).prop_map(|i| GameType::ALL[i])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// §9.30, §9.23: every legal move printed canonically reads back as the same move.
    #[test]
    fn printed_moves_parse_back(game_type in any_game_type(), choices in prop::collection::vec(any::<u16>(), 0..60)) {
        let g = game_from_choices(game_type, RulesOptions::default(), &choices);
        for mv in g.legal_moves() {
            let text = g.move_string(mv);
            prop_assert_eq!(g.parse_move(&text), Ok(mv), "{}", text);
        }
    }

    /// §9.29: every move printed is a standard spelling: single spaces, the
    /// letters as written in the grammar, a stack target naming the top
    /// piece and a glyph target pointing at an empty cell, so that an engine
    /// without our leniencies (§9.20, §9.26, §9.27, §9.28) reads it.
    #[test]
    fn printed_moves_are_standard_spellings(game_type in any_game_type(), choices in prop::collection::vec(any::<u16>(), 0..60)) {
        let g = game_from_choices(game_type, RulesOptions::default(), &choices);
        for mv in g.legal_moves() {
            let text = g.move_string(mv);
            prop_assert!(text == text.trim() && !text.contains("  ") && !text.contains('\t'), "{}", text);
            match parse_move(&text).expect("reads") {
                MoveSpec::Pass => prop_assert_eq!(text.as_str(), "pass"),
                MoveSpec::Piece { piece, target } => {
                    let mut tokens = text.split(' ');
                    prop_assert_eq!(tokens.next().map(str::to_string), Some(piece.to_string()));
                    match target {
                        Target::Origin => prop_assert_eq!(tokens.next(), None),
                        Target::OnTop(reference) => {
                            prop_assert_eq!(tokens.next().map(str::to_string), Some(reference.to_string()));
                            prop_assert!(g.board().is_on_top(reference), "{}", text);
                        }
                        Target::Beside { reference, direction } => {
                            let token = tokens.next().unwrap_or_default();
                            prop_assert_eq!(token.trim_matches(['-', '/', '\\']), reference.to_string());
                            let at = g.board().location(reference).expect("on the board");
                            prop_assert!(!g.board().is_occupied(at.neighbour(direction)), "{}", text);
                        }
                    }
                }
            }
        }
    }

    /// §9.31: a printed GameString loads back to the same game and prints the same.
    #[test]
    fn printed_game_strings_load_back(game_type in any_game_type(), choices in prop::collection::vec(any::<u16>(), 0..80)) {
        let g = game_from_choices(game_type, RulesOptions::default(), &choices);
        let text = g.game_string();
        let loaded = ReferenceEngine::load(&text);
        prop_assert!(loaded.is_ok(), "{}: {:?}", text, loaded.err());
        let loaded = loaded.expect("checked");
        prop_assert_eq!(loaded.history(), g.history());
        prop_assert_eq!(loaded.game_string(), text);
    }

    /// §9.14: no string makes a parser panic.
    #[test]
    fn parsing_arbitrary_strings_never_panics(text in ".{0,80}") {
        let _ = parse_move(&text);
        let _ = parse_piece(&text);
        let _ = parse_game_type(&text);
        let _ = parse_game_state(&text);
        let _ = parse_turn(&text);
        let _ = parse_game_string(&text);
        let _ = ReferenceEngine::load(&text);
        let g = game("Base+MLP;InProgress;White[2];wS1;bP wS1-");
        let _ = g.parse_move(&text);
    }

    /// §9.14: strings made of notation characters, more likely to reach deep paths.
    #[test]
    fn parsing_notation_like_strings_never_panics(text in "[wbQSBGAMLP0-9 ;\\-/\\\\\\[\\]a-zA-Z+]{0,60}") {
        let _ = parse_move(&text);
        let _ = parse_game_string(&text);
        let _ = ReferenceEngine::load(&format!("Base+MLP;InProgress;White[1];{text}"));
        let g = game("Base+MLP;InProgress;White[2];wS1;bP wS1-");
        let _ = g.parse_move(&text);
    }
}

/// §9.19, §1.5: a piece name that does not read says which part is wrong,
/// each mistake with its own message (the messages are what a user of a
/// UHP engine or of `replay` reads to fix the name): a number after a
/// single bug, a numbered bug without its number, a stray letter after a
/// single bug, a number out of range.
#[test]
fn a_piece_name_that_does_not_read_says_what_is_wrong_with_it() {
    let message = |text: &str| parse_piece(text).expect_err(text).to_string();
    assert!(
        message("wQ1").contains("the queen is a single piece and takes no number (§1.5)"),
        "{}",
        message("wQ1")
    );
    assert!(
        message("bS").contains("expected a number 1–2 after S (§1.5)"),
        "{}",
        message("bS")
    );
    assert!(
        message("wQx").contains("unexpected \"x\" after the piece name wQ"),
        "{}",
        message("wQx")
    );
    assert!(
        message("wSx").contains("expected a number 1–2 after S, found \"x\" (§1.5)"),
        "{}",
        message("wSx")
    );
    assert!(message("wA4").contains("wA4"), "{}", message("wA4"));
}

/// §9.21, §9.28: a MoveString of nothing (empty or blank) and one of three
/// tokens are each refused with the message that says which: the first
/// asks for a move, the second for at most one target.
#[test]
fn an_empty_move_string_and_one_of_three_tokens_say_which_they_are() {
    for blank in ["", "   ", "\t"] {
        let refused = parse_move(blank).expect_err("nothing").to_string();
        assert!(
            refused.contains("found nothing (§9.21)"),
            "{blank:?}: {refused}"
        );
    }
    let refused = parse_move("wA1 wS1/ bQ")
        .expect_err("three tokens")
        .to_string();
    assert!(refused.contains("found more tokens"), "{refused}");
}

/// The rules options in words, as the tool's reports and refusals print them
/// (§4.2 the opening, §8.7.2 the repetition draw): each of the four
/// combinations says both options.
#[test]
fn the_rules_options_read_in_words() {
    let words = |tournament_opening, repetition_draw| {
        RulesOptions {
            tournament_opening,
            repetition_draw,
        }
        .to_string()
    };
    assert_eq!(
        words(true, false),
        "tournament opening, repetition draw off"
    );
    assert_eq!(words(false, true), "standard opening, repetition draw on");
    assert_eq!(RulesOptions::default().to_string(), words(true, false));
}
