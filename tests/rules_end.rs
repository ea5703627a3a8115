//! Rule tests for chapters 7 and 8 of spec/rules.md: turns and passing, the
//! end of the game, the optional repetition rule and the game states.
//!
//! These are the facts the case vocabulary cannot state (turn numbers,
//! GameStrings, loading errors, the history, the plies on which a game
//! ends); the rest are cases in `tests/cases/end.toml` and
//! `tests/cases/options.toml`. Every test runs on both engines
//! (`tests/engines/`), but for one that tests the reference engine's
//! surround predicate on boards built cell by cell.
//!
//! Every position is constructed for its test (with a full legal history)
//! unless a source is named (the sources cited are in `spec/sources/`).
//! Diagrams draw one label per cell, each row shifted half a cell to the
//! right of the row above (pointy-top hexes, §2.2); `.` is an empty cell of
//! interest and `^n` a stack of height n. Long repetition games are played
//! with absolute moves (piece and cell) rather than MoveStrings.

use crate::common;
use crate::engines;

use std::collections::BTreeMap;

use engines::*;
use hive_oracle_rules::core::notation::{parse_game_state, parse_piece};
use hive_oracle_rules::core::{Color, GameState, Hex, Move, Piece, RulesOptions};
use hive_oracle_rules::reference::board::Board;
use hive_oracle_rules::reference::end::{queen_is_surrounded, surround_result};
use hive_oracle_rules::rules::{LoadError, Rules};

const REPETITION: RulesOptions = RulesOptions {
    tournament_opening: true,
    repetition_draw: true,
};

const STANDARD_OPENING: RulesOptions = RulesOptions {
    tournament_opening: false,
    repetition_draw: false,
};

/// White to move and stuck (28 plies). The black beetle covers White's
/// spider, so White's only top piece is the queen; its one empty neighbour
/// `.` is gated by bA3 and bA2 and touches black stacks, so White can
/// neither move nor place.
///
/// ```text
///                bB2   bA3
/// bQ    bS1   bB1^2 wQ    .
///                bA1   bA2
/// ```
const FORCED_PASS: &str = "Base;InProgress;White[15];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wQ wS1/;\
     bB1 \\bS1;wQ wS1-;bA1 -bQ;wQ wS1/;bA2 bA1\\;wQ wS1-;bA3 -bB1;wQ wS1/;bA1 wS1\\;\
     wQ bA1/;bA2 wQ\\;wQ bA2/;bB1 \\wS1;wQ \\bA2;bB1 wS1;wQ bA2/;bB2 \\bS1;wQ \\bA2;\
     bB2 \\bB1;wQ bA2/;bB2 bB1/;wQ bB2\\;bA3 wQ/";

/// Both queens have five occupied neighbours and share the empty cell `.`;
/// White's ant can walk into it (12 plies, White to move).
///
/// ```text
///       wG2   .     bG2
///    wG1   wQ    bQ    bG1
/// wA1   wS1   bS1   bG3
///                bA1
/// ```
const BOTH_QUEENS_ALMOST_SURROUNDED: &str = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;\
     bQ bS1/;wQ wS1/;bG1 bQ-;wG1 \\wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 -wS1;bA1 bS1\\";

/// The same, except that wG1 went west of wS1, so White's queen has a free
/// neighbour at (0,-1) and only Black's queen can be surrounded at `.`.
const BLACK_QUEEN_ALMOST_SURROUNDED: &str = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;\
     bQ bS1/;wQ wS1/;bG1 bQ-;wG1 -wS1;bG2 bQ/;wG2 \\wQ;bG3 bQ\\;wA1 /wS1;bA1 bS1\\";

/// A quiet opening: wS1 (0,0), bS1 (1,0), wQ (-1,0), bQ (2,0), wA1 (-2,0),
/// bA1 (3,0); both ants are free to walk round the hive.
///
/// ```text
///   wA1   wQ    wS1   bS1   bQ    bA1
/// ```
const TWO_ANTS: &str = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-";

fn piece_move(name: &str, q: i32, r: i32) -> Move {
    Move::Move {
        piece: parse_piece(name).expect("piece name in test"),
        to: Hex::new(q, r),
    }
}

/// Plays a MoveString that must be legal.
fn play_text<R: Rules>(game: &mut R, text: &str) {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} does not resolve: {e}"));
    game.play(mv)
        .unwrap_or_else(|e| panic!("{text} refused in {}: {e}", game.game_string()));
}

/// Plays an absolute move that must be legal and returns the state after it.
fn play_move<R: Rules>(game: &mut R, mv: Move) -> GameState {
    game.play(mv)
        .unwrap_or_else(|e| panic!("{mv} refused in {}: {e}", game.game_string()));
    game.state()
}

/// Plays `rounds` rounds of a cycle: in round k (from 1) White's `white`
/// piece goes to `white_cells[k % len]` and Black's `black` piece to
/// `black_cells[k % len]`. Returns the state after every ply.
fn play_cycle<R: Rules>(
    game: &mut R,
    white: &str,
    white_cells: &[(i32, i32)],
    black: &str,
    black_cells: &[(i32, i32)],
    rounds: usize,
) -> Vec<GameState> {
    let mut states = Vec::new();
    for k in 1..=rounds {
        let (q, r) = white_cells[k % white_cells.len()];
        states.push(play_move(game, piece_move(white, q, r)));
        if states.last().is_some_and(|s| s.is_over()) {
            break;
        }
        let (q, r) = black_cells[k % black_cells.len()];
        states.push(play_move(game, piece_move(black, q, r)));
        if states.last().is_some_and(|s| s.is_over()) {
            break;
        }
    }
    states
}

/// The index (in plies after the start of `states`, counting from 1) of the
/// first state that is over, if any.
fn first_end(states: &[GameState]) -> Option<usize> {
    states.iter().position(|s| s.is_over()).map(|i| i + 1)
}

// ---------------------------------------------------------------------------
// 7 Turns and passing
// ---------------------------------------------------------------------------

on_both_engines! {
    /// §7.1: the players alternate and each turn is exactly one action. Over
    /// pseudo-random legal games (Base+MLP, fixed seeds) the side to move changes
    /// after every ply, every placement offered is of the mover's colour, and each
    /// ply changes the board by exactly one placement (one more piece), one
    /// movement (one piece changes cell) or nothing (a pass). Moving an opponent's
    /// piece is refused (§5.1). Positions: random games from fixed seeds, and a
    /// constructed opening.
    fn one_action_per_turn_alternating(R) {
        for start in [11_u64, 2024, 0x9e37_79b9_7f4a_7c15] {
            let mut g = game::<R>("Base+MLP;NotStarted;White[1]");
            let mut rng = common::Lcg(start);
            for ply in 0..150 {
                if g.state().is_over() {
                    break;
                }
                let mover = g.side_to_move();
                assert_eq!(
                    mover,
                    if ply % 2 == 0 {
                        Color::White
                    } else {
                        Color::Black
                    }
                );
                // sorted, so that both engines play the same games
                let mut moves = g.legal_moves();
                moves.sort();
                assert!(moves.iter().all(|mv| match mv {
                    Move::Place { piece, .. } => piece.color == mover,
                    _ => true,
                }));
                let mv = moves[rng.below(moves.len())];
                let before: BTreeMap<Piece, Hex> =
                    board(&g).pieces().map(|(hex, p)| (p, hex)).collect();
                play_move(&mut g, mv);
                let after: BTreeMap<Piece, Hex> =
                    board(&g).pieces().map(|(hex, p)| (p, hex)).collect();
                assert_eq!(g.plies(), ply + 1);
                assert_eq!(g.side_to_move(), mover.opponent());
                match mv {
                    Move::Place { piece, to } => {
                        assert_eq!(piece.color, mover);
                        let mut expected = before.clone();
                        expected.insert(piece, to);
                        assert_eq!(after, expected);
                    }
                    Move::Move { piece, to } => {
                        assert_eq!(after.len(), before.len());
                        let changed: Vec<&Piece> = after
                            .keys()
                            .filter(|p| after.get(*p) != before.get(*p))
                            .collect();
                        assert_eq!(changed, [&piece]);
                        assert_eq!(after[&piece], to);
                    }
                    Move::Pass => assert_eq!(after, before),
                }
            }
        }
        // A scripted game: Black to move may not move White's queen.
        let mut g = game::<R>("Base;NotStarted;White[1]");
        for text in [
            "wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bA1 bQ-", "wA1 bA1-",
        ] {
            play_text(&mut g, text);
        }
        assert_eq!(g.side_to_move(), Color::Black);
        assert_illegal(&g, "wQ \\wS1", "§5.1");
    }
}

/// Black to move and stuck (21 plies): White's beetle covers bS1, so bQ is
/// Black's only top piece; it holds wA1 to the hive (One Hive) and both its
/// empty neighbours `.` are gated and touch white stacks, so Black can
/// neither move nor place. Constructed for this test.
///
/// ```text
///                .     wA1
/// wQ    wS1   wB1^2 bQ    .
///                wA3   wA2
/// ```
const BLACK_MUST_PASS: &str = "Base;InProgress;Black[11];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;\
     wB1 \\wS1;bQ bS1/;wB1 -bQ;bQ bS1-;wB1 bS1;bQ wB1/;wA1 -wQ;bQ wB1-;wA2 -wA1;\
     bQ wB1/;wA3 -wA2;bQ wB1-;wA3 wB1\\;bQ wB1/;wA2 wA3-;bQ \\wA2;wA1 bQ/";

on_both_engines! {
    /// §7.3 (with §4.4): a pass is a turn and a ply: it goes into the history,
    /// hands the turn to the opponent and advances the TurnString, from Black[11]
    /// to White[12] when Black passes and from White[15] to Black[15] (and on to
    /// White[16], Black[16]) when White passes twice. Positions: `BLACK_MUST_PASS`
    /// and `FORCED_PASS`, constructed.
    fn pass_counts_as_a_turn(R) {
        let mut g = game::<R>(BLACK_MUST_PASS);
        assert_eq!(g.turn().to_string(), "Black[11]");
        play_text(&mut g, "pass");
        assert_eq!(g.plies(), 22);
        assert_eq!(g.turn().to_string(), "White[12]");
        assert!(g.game_string().starts_with("Base;InProgress;White[12];"));

        let mut g = game::<R>(FORCED_PASS);
        assert_eq!(g.turn().to_string(), "White[15]");
        play_text(&mut g, "pass");
        assert_eq!(g.plies(), 29);
        assert_eq!(g.history().last(), Some(&Move::Pass));
        assert_eq!(g.turn().to_string(), "Black[15]");
        // Black places a grasshopper away from White; White is still stuck.
        play_text(&mut g, "bG1 bB2/");
        assert_eq!(g.turn().to_string(), "White[16]");
        assert_legal_moves(&g, &["pass"]);
        play_text(&mut g, "pass");
        assert_eq!(g.turn().to_string(), "Black[16]");
        assert!(g.game_string().starts_with("Base;InProgress;Black[16];"));
        assert_eq!(g.plies(), 31);
        let tail = &g.history()[28..];
        assert!(
            matches!(tail, [Move::Pass, Move::Place { .. }, Move::Pass]),
            "{tail:?}"
        );
        assert!(g.game_string().ends_with(";pass"));
    }
}

on_both_engines! {
    /// §7.3 (with §5.11): after a pass no piece is immune. In `FORCED_PASS` Black
    /// has just moved bA3; after White's pass bA3 moves again (were the pass to
    /// carry bA3's immunity over, bA3 would have no move). The immune piece itself
    /// is checked where an engine shows it: the reference engine's `immune_piece`;
    /// the fast engine keeps it to itself, so on it the moves of bA3 are the test.
    /// Position: `FORCED_PASS`, constructed.
    fn pass_leaves_no_piece_immune(R) {
        let mut g = game::<R>(FORCED_PASS);
        if let Some(reference) = as_reference(&g) {
            assert_eq!(reference.immune_piece(), parse_piece("bA3").ok());
        }
        play_text(&mut g, "pass");
        if let Some(reference) = as_reference(&g) {
            assert_eq!(reference.immune_piece(), None);
        }
        assert_piece_moves(
            &g,
            "bA3",
            &[
                "bA3 -bB2",
                "bA3 -bQ",
                "bA3 /bA1",
                "bA3 /bQ",
                "bA3 \\bB2",
                "bA3 \\bQ",
                "bA3 \\bS1",
                "bA3 bA1\\",
                "bA3 bA2-",
                "bA3 bA2/",
                "bA3 bA2\\",
                "bA3 bB2/",
                "bA3 bQ\\",
                "bA3 bS1\\",
            ],
        );
    }
}

// ---------------------------------------------------------------------------
// 8 End of the game
// ---------------------------------------------------------------------------

on_both_engines! {
    /// §8.1: a queen is surrounded when its six neighbouring cells are occupied, by
    /// either colour and at any height; five are not enough. In a game: in
    /// `FORCED_PASS` wQ's neighbours are five black pieces and, once bG1 fills `.`,
    /// the stack bB1 on wS1 (height 2). The engine's board ([`Board::from_view`])
    /// is judged by the reference engine's surround test. Position: `FORCED_PASS`,
    /// constructed.
    fn queen_surrounded_by_any_colour_and_height(R) {
        let mut g = game::<R>(FORCED_PASS);
        play_text(&mut g, "pass");
        play_text(&mut g, "bG1 bB2/");
        play_text(&mut g, "pass");
        assert!(!queen_is_surrounded(&board(&g), Color::White));
        play_text(&mut g, "bG1 bA2/");
        assert!(queen_is_surrounded(&board(&g), Color::White));
        assert_eq!(board(&g).height(Hex::ORIGIN), 2);
    }
}

/// §8.1: the same on boards built for this test: six neighbours of either
/// colour, one of them a stack, surround the queen; a beetle on the queen
/// changes nothing; five neighbours are not enough.
///
/// Reference engine only: it tests the reference engine's surround
/// predicate itself (`queen_is_surrounded`, `surround_result`) on boards
/// built piece by piece, in an order no game plays (a beetle put on a queen
/// already surrounded, a piece taken away again); the `Rules` trait reaches
/// a board only by legal moves, and the fast engine has no such predicate.
///
/// ```text
///    bS1   wS1
/// bG1   wQ    bA1^2      (bA1^2 is wA1 under bB1)
///    wG1   bA2
/// ```
#[test]
fn queen_surrounded_on_boards_built_cell_by_cell() {
    let p = |name: &str| parse_piece(name).expect("piece name in test");
    let mut board = Board::default();
    board.push(Hex::ORIGIN, p("wQ"));
    let ring = [
        ((0, -1), "bS1"),
        ((1, -1), "wS1"),
        ((1, 0), "wA1"),
        ((0, 1), "bA2"),
        ((-1, 1), "wG1"),
        ((-1, 0), "bG1"),
    ];
    for ((q, r), name) in ring {
        board.push(Hex::new(q, r), p(name));
    }
    board.push(Hex::new(1, 0), p("bB1"));
    assert!(queen_is_surrounded(&board, Color::White));
    assert_eq!(surround_result(&board), Some(GameState::BlackWins));
    // A beetle on the queen does not change the test.
    board.push(Hex::ORIGIN, p("bB2"));
    assert!(queen_is_surrounded(&board, Color::White));
    board.pop(Hex::ORIGIN);
    // Five neighbours are not enough.
    board.pop(Hex::new(-1, 0));
    assert!(!queen_is_surrounded(&board, Color::White));
    assert_eq!(surround_result(&board), None);
}

on_both_engines! {
    /// §8.2: after a move that surrounds exactly one queen its owner loses: Black's
    /// grasshopper closes White's queen in `FORCED_PASS` (BlackWins); White's ant
    /// closes Black's queen in `BLACK_QUEEN_ALMOST_SURROUNDED` (WhiteWins), White's
    /// own queen keeping a free neighbour. Positions: constructed.
    fn surrounded_queen_loses(R) {
        let mut g = game::<R>(FORCED_PASS);
        play_text(&mut g, "pass");
        play_text(&mut g, "bG1 bB2/");
        play_text(&mut g, "pass");
        assert_state(&g, GameState::InProgress);
        play_text(&mut g, "bG1 bA2/");
        assert_state(&g, GameState::BlackWins);
        assert!(g.game_string().starts_with("Base;BlackWins;White[17];"));

        let mut g = game::<R>(BLACK_QUEEN_ALMOST_SURROUNDED);
        assert_state(&g, GameState::InProgress);
        play_text(&mut g, "wA1 wQ/");
        assert_state(&g, GameState::WhiteWins);
        assert!(!board(&g).is_occupied(Hex::new(0, -1)));
        assert!(g.game_string().starts_with("Base;WhiteWins;Black[7];"));
    }
}

on_both_engines! {
    /// §8.3: one move that surrounds both queens draws the game, whoever moved.
    /// White's ant walks into `.` (see `BOTH_QUEENS_ALMOST_SURROUNDED`). Position:
    /// constructed.
    fn both_queens_surrounded_is_draw(R) {
        let mut g = game::<R>(BOTH_QUEENS_ALMOST_SURROUNDED);
        play_text(&mut g, "wA1 wQ/");
        assert_state(&g, GameState::Draw);
        assert!(queen_is_surrounded(&board(&g), Color::White));
        assert!(queen_is_surrounded(&board(&g), Color::Black));
        assert!(g.game_string().starts_with("Base;Draw;Black[7];"));
    }
}

on_both_engines! {
    /// §8.5: once the game has ended no move is legal, not even a pass; `play`
    /// refuses any move citing §8.5, and a GameString with a move after the end
    /// does not load. Positions: the constructed games of `surrounded_queen_loses`
    /// and `both_queens_surrounded_is_draw`.
    fn no_move_after_game_end(R) {
        let mut won = game::<R>(BLACK_QUEEN_ALMOST_SURROUNDED);
        play_text(&mut won, "wA1 wQ/");
        let mut drawn = game::<R>(BOTH_QUEENS_ALMOST_SURROUNDED);
        play_text(&mut drawn, "wA1 wQ/");
        for g in [&won, &drawn] {
            assert!(g.state().is_over());
            assert_legal_moves(g, &[]);
            assert_illegal(g, "pass", "§8.5");
            // bA1 could walk and bA2 be placed, were the game not over.
            assert_illegal(g, "bA1 bG3\\", "§8.5");
            assert_illegal(g, "bA2 bA1\\", "§8.5");
        }
        let text = format!("{};pass", won.game_string());
        match R::load(&text) {
            Err(LoadError::Illegal { index, error, .. }) => {
                assert_eq!(index, 14);
                assert!(error.clauses.contains(&"§8.5"), "{error}");
            }
            other => panic!("a move after the end should be refused, got {other:?}"),
        }
        let text = format!("{};bA1 bG3\\", drawn.game_string());
        assert!(R::load(&text).is_err());
    }
}

on_both_engines! {
    /// §8.6: a draw by agreement is not a game state: the states are exactly the
    /// five below, a GameString claiming `Draw` with no surround loads as
    /// InProgress, and in the default rules a long repetitive game that surrounds
    /// no queen never becomes a draw. Positions: constructed.
    fn draw_by_agreement_not_recorded(R) {
        let names: Vec<&str> = GameState::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(
            names,
            ["NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins"]
        );
        for state in GameState::ALL {
            // Exhaustive: a sixth state would not compile here.
            let over = match state {
                GameState::NotStarted | GameState::InProgress => false,
                GameState::Draw | GameState::WhiteWins | GameState::BlackWins => true,
            };
            assert_eq!(state.is_over(), over);
        }
        for agreed in ["Agreed", "DrawByAgreement", "Resigned"] {
            assert!(parse_game_state(agreed).is_err());
        }
        let g = game::<R>("Base;Draw;Black[1];wS1");
        assert_state(&g, GameState::InProgress);
        assert_eq!(g.game_string(), "Base;InProgress;Black[1];wS1");
        // 60 plies of the same ant dance, default rules: still in progress.
        let mut g = game::<R>(TWO_ANTS);
        let states = play_cycle(&mut g, "wA1", &WHITE_EIGHT, "bA1", &BLACK_TWO, 30);
        assert_eq!(states.len(), 60);
        assert!(states.iter().all(|&s| s == GameState::InProgress));
    }
}

on_both_engines! {
    /// §8.8: a new game is NotStarted; after any ply (a pass included) and until
    /// the end it is InProgress; WhiteWins, BlackWins and Draw come only from a
    /// surround (or a repetition with the option on, see below); taking back the
    /// only ply returns to NotStarted; a stated header is recomputed. Positions:
    /// the start, and the constructed `FORCED_PASS`.
    fn game_state_sequence(R) {
        let mut g = game::<R>("Base;NotStarted;White[1]");
        assert_state(&g, GameState::NotStarted);
        play_text(&mut g, "wG1");
        assert_state(&g, GameState::InProgress);
        assert!(g.game_string().starts_with("Base;InProgress;Black[1];"));
        g.undo();
        assert_state(&g, GameState::NotStarted);
        assert_eq!(g.game_string(), "Base;NotStarted;White[1]");

        // Every ply of the 28-ply stuck game, passes after it, then the surround.
        let mut g = game::<R>("Base;NotStarted;White[1]");
        let record = game::<R>(FORCED_PASS);
        for &mv in record.history() {
            assert_eq!(play_move(&mut g, mv), GameState::InProgress);
            assert!(surround_result(&board(&g)).is_none());
        }
        for text in ["pass", "bG1 bB2/", "pass"] {
            play_text(&mut g, text);
            assert_state(&g, GameState::InProgress);
        }
        play_text(&mut g, "bG1 bA2/");
        assert_state(&g, GameState::BlackWins);
        assert_eq!(surround_result(&board(&g)), Some(GameState::BlackWins));

        let g = game::<R>("Base;WhiteWins;White[9];wG1;bG1 wG1-");
        assert_state(&g, GameState::InProgress);
    }
}

// ---------------------------------------------------------------------------
// 8.7 Repetition
// ---------------------------------------------------------------------------

/// Eight cells round the west of `TWO_ANTS` for White's ant (the first is
/// where it stands), and two east cells for Black's ant.
///
/// ```text
///          7     6     5
///       0    wQ    wS1   bS1   bQ    x        x = (3,0), y = (3,-1)
///          1     2     3     4
/// ```
const WHITE_EIGHT: [(i32, i32); 8] = [
    (-2, 0),
    (-2, 1),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, -1),
    (0, -1),
    (-1, -1),
];
const BLACK_TWO: [(i32, i32); 2] = [(3, 0), (3, -1)];

/// The queens step back and forth: the positions after plies 4, 8 and 12
/// are equal. Source: constructed for this test (§8.7.2).
///
/// ```text
///    +     +                 wQ alternates between (-1,0) and (0,-1),
/// wQ    wS1   bS1   bQ       bQ between (2,0) and (2,-1)
/// ```
const QUEENS_SHUFFLE: &str = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;\
     wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-;wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-";

on_both_engines! {
    /// §8.7.2: the repetition rule is off by default: `QUEENS_SHUFFLE` repeats its
    /// position three times and stays InProgress, as do a two-queen walk repeating
    /// every two plies and 48 plies of the ant dance. Positions: constructed.
    fn repetition_is_not_a_draw_by_default(R) {
        assert!(!RulesOptions::default().repetition_draw);
        let g = game::<R>(QUEENS_SHUFFLE);
        assert_eq!(g.plies(), 12);
        assert_state(&g, GameState::InProgress);
        assert_legal(&g, "wQ \\wS1");
        let walk = "Base;InProgress;White[4];wQ;bQ wQ-;wQ \\bQ;bQ wQ-;wQ \\bQ;bQ wQ-";
        let g = game_with::<R>(walk, STANDARD_OPENING);
        assert_state(&g, GameState::InProgress);
        let mut g = game::<R>(TWO_ANTS);
        let states = play_cycle(&mut g, "wA1", &WHITE_EIGHT, "bA1", &BLACK_TWO, 24);
        assert!(states.iter().all(|&s| s == GameState::InProgress));
    }
}

on_both_engines! {
    /// §8.7.2: with the option on, the third occurrence of a position within the
    /// window draws: `QUEENS_SHUFFLE` is InProgress after ply 11 and Draw after ply
    /// 12 (positions after plies 4, 8 and 12 are equal). Position:
    /// `QUEENS_SHUFFLE`, constructed.
    fn threefold_repetition_within_32_plies_draws(R) {
        let record = game::<R>(QUEENS_SHUFFLE);
        let mut g = game_with::<R>("Base;NotStarted;White[1]", REPETITION);
        let mut states = Vec::new();
        for &mv in record.history() {
            states.push(play_move(&mut g, mv));
        }
        assert_eq!(first_end(&states), Some(12));
        assert_eq!(states[10], GameState::InProgress);
        assert_state(&g, GameState::Draw);
        let g = game_with::<R>(QUEENS_SHUFFLE, REPETITION);
        assert!(g.game_string().starts_with("Base;Draw;White[7];"));
        assert_legal_moves(&g, &[]);
    }
}

on_both_engines! {
    /// §8.7.4: piece numbers are ignored. White's two ants rotate through the cells
    /// p, q, r (wA1 p->q, wA2 r->p, wA1 q->r, ...) while Black's ant goes round x,
    /// y, z; after 6 plies the position recurs with wA1 and wA2 swapped, after 12
    /// with them back in place. Counting numbers, ply 20 would be only the second
    /// occurrence; ignoring them it is the third. Position: constructed.
    ///
    /// ```text
    ///          r     .     .
    ///       p    wQ    wS1   bS1   bQ    x       p=(-2,0) q=(-2,1) r=(-1,-1)
    ///          q                      z          x=(3,0) y=(3,-1) z=(2,1)
    /// ```
    fn repetition_ignores_piece_numbers(R) {
        let setup = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ/;\
                     wA2 \\wQ;bA1 bQ-";
        let (p, q, r) = ((-2, 0), (-2, 1), (-1, -1));
        let (x, y, z) = ((3, 0), (3, -1), (2, 1));
        let cycle = [
            ("wA1", q),
            ("bA1", y),
            ("wA2", p),
            ("bA1", z),
            ("wA1", r),
            ("bA1", x),
            ("wA2", q),
            ("bA1", y),
            ("wA1", p),
            ("bA1", z),
            ("wA2", r),
            ("bA1", x),
        ];
        let mut g = game_with::<R>(setup, REPETITION);
        let mut states = Vec::new();
        for (name, (cq, cr)) in cycle {
            states.push(play_move(&mut g, piece_move(name, cq, cr)));
        }
        assert_eq!(first_end(&states), Some(12), "draw on ply 8 + 12 = 20");
        assert_state(&g, GameState::Draw);
        assert_eq!(
            g.location(parse_piece("wA1").unwrap()),
            Some(Hex::new(-2, 0))
        );
    }
}

/// §8.7.6: the key of a position holds the immune piece's cell (translated
/// as its stacks are, §8.7.4) only when that piece's immunity removes a
/// move. The game is the case
/// `options.toml::immunity-that-removes-a-move-distinguishes-positions`:
/// after ply 27 the just-thrown bG1 counts; after ply 19 the immune wS1 takes
/// away no move and the key holds no cell.
#[test]
fn a_repetition_key_holds_the_immune_cell_only_when_the_immunity_counts() {
    let corpus = hive_oracle_rules::cases::builtin_corpus().expect("the corpus loads");
    let id = "options.toml::immunity-that-removes-a-move-distinguishes-positions";
    let loaded = corpus.iter().find(|c| c.id() == id).expect("the case");
    let game = hive_oracle_rules::reference::ReferenceEngine::load_with(
        &loaded.case.game,
        loaded.case.options.into(),
    )
    .expect("the game loads");
    let keys = game.repetition_keys();
    assert_eq!(keys.len(), 28, "a key per ply and the start");
    assert_eq!(keys[19].immune_cell(), None);
    let board = game.board();
    let anchor = board.occupied_cells().next().expect("a hive");
    let thrown = parse_piece("bG1").expect("a piece");
    let at = board.location(thrown).expect("bG1 is on the board");
    assert_eq!(
        keys[27].immune_cell(),
        Some(Hex::new(at.q - anchor.q, at.r - anchor.r))
    );
    // the same stacks after plies 19 and 27, told apart by the immune cell
    assert!(keys[19].same_stacks(&keys[27]));
    assert_ne!(keys[19], keys[27]);
}
