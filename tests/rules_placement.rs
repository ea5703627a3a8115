//! Rule tests for chapters 1 to 4 of spec/rules.md: components and game types,
//! geometry and stacks, placement, the Queen Bee and the opening.
//!
//! Every position is constructed for its test (with a full legal history)
//! unless a source is named (the sources cited are in `spec/sources/`); a
//! spec example is an example printed under its clause in `spec/rules.md`.
//! Diagrams draw one label per cell, each row shifted half a cell to the
//! right of the row above (pointy-top hexes, §2.2); `.` is an empty cell of
//! interest, `+` an allowed cell, `x` a refused one, `^n` a stack of height n.
//!
//! These are the tests that `spec/rulings.md` names and the facts the case
//! vocabulary cannot state (placements no MoveString can name, the
//! reserves, piece locations and stacks, turn numbers, properties of whole
//! move lists and of random games); the rest are cases in
//! `tests/cases/components.toml`, `placement.toml` and `opening.toml`.
//! Every test runs on both engines (`tests/engines/`).

use crate::common;
use crate::engines;

use std::collections::BTreeMap;

use engines::*;
use hive_oracle_rules::core::notation::{parse_move, parse_piece};
use hive_oracle_rules::core::{Bug, Color, GameState, GameType, Hex, Move, Piece, RulesOptions};
use hive_oracle_rules::rules::{perft, Rules};

/// The standard opening: tournament opening off, everything else default.
const STANDARD_OPENING: RulesOptions = RulesOptions {
    tournament_opening: false,
    repetition_draw: false,
};

fn piece(name: &str) -> Piece {
    parse_piece(name).expect("piece name in test")
}

fn place(name: &str, q: i32, r: i32) -> Move {
    Move::Place {
        piece: piece(name),
        to: Hex::new(q, r),
    }
}

/// Asserts that `play` refuses an absolute move citing at least one of
/// `clauses` (on an engine that cites clauses, see `Engine`).
fn assert_refused_citing_one_of<R: Engine>(game: &R, mv: Move, clauses: &[&str]) {
    let mut copy = game.clone();
    match copy.play(mv) {
        Ok(()) => panic!("play accepted the illegal move {mv}"),
        Err(e) => {
            if R::CITES_EVERY_CLAUSE || !e.clauses.is_empty() {
                assert!(
                    clauses.iter().any(|c| e.clauses.contains(c)),
                    "refusal of {mv} should cite one of {clauses:?}, got: {e}"
                );
            }
        }
    }
}

/// How many pieces of each (colour, bug) are on the board.
fn census<R: Rules>(game: &R) -> BTreeMap<(Color, Bug), usize> {
    let mut count = BTreeMap::new();
    for (_, p) in board(game).pieces() {
        *count.entry((p.color, p.bug)).or_insert(0) += 1;
    }
    count
}

// ---------------------------------------------------------------------------
// 1 Components and game types
// ---------------------------------------------------------------------------

on_both_engines! {
    /// §1.8: each player owns the pieces of one colour; the first move is White's
    /// and uses white pieces only, the second Black's with black pieces only,
    /// and a player cannot place the other colour's piece (the engine cites
    /// §3.1, "a piece of the moving player's colour"). Source: constructed for this test.
    fn two_players_own_only_their_colour(R) {
        let start = game::<R>("Base;NotStarted;White[1]");
        assert!(legal(&start)
            .iter()
            .all(|mv| mv.piece().is_some_and(|p| p.color == Color::White)));
        assert_refused(&start, place("bS1", 0, 0), "§3.1");

        let after_one = game::<R>("Base;InProgress;Black[1];wS1");
        assert!(legal(&after_one)
            .iter()
            .all(|mv| mv.piece().is_some_and(|p| p.color == Color::Black)));
        assert_illegal(&after_one, "wS2 wS1-", "§3.1");
        assert_refused(&after_one, place("wA1", 1, 0), "§3.1");
    }
}

on_both_engines! {
    /// §1.2: each colour has exactly Q x1, S x2, B x2, G x3, A x3 in Base. The
    /// reserves of a new game hold exactly these; then both players place pieces in
    /// two lines (White east, Black west) until their reserves are empty: eleven
    /// pieces each are on the board and no placement is legal. Positions: the
    /// start, and a constructed game.
    ///
    /// ```text
    /// bA3 bA2 bA1 bG3 bG2 bG1 bB2 bB1 bS2 bQ bS1 wS1 wQ wS2 wB1 wB2 wG1 wG2 wG3 wA1 wA2 wA3
    /// ```
    fn base_reserve_has_eleven_pieces(R) {
        let new = game::<R>("Base;NotStarted;White[1]");
        for (color, letter) in [(Color::White, "w"), (Color::Black, "b")] {
            let reserve: Vec<String> = new
                .game_type()
                .pieces_of(color)
                .filter(|&p| new.location(p).is_none())
                .map(|p| p.to_string())
                .collect();
            let expected: Vec<String> = [
                "Q", "S1", "S2", "B1", "B2", "G1", "G2", "G3", "A1", "A2", "A3",
            ]
            .iter()
            .map(|name| format!("{letter}{name}"))
            .collect();
            assert_eq!(reserve, expected);
        }

        let g = game::<R>(
            "Base;InProgress;White[12];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wS2 wQ-;bS2 -bQ;\
             wB1 wS2-;bB1 -bS2;wB2 wB1-;bB2 -bB1;wG1 wB2-;bG1 -bB2;wG2 wG1-;bG2 -bG1;\
             wG3 wG2-;bG3 -bG2;wA1 wG3-;bA1 -bG3;wA2 wA1-;bA2 -bA1;wA3 wA2-;bA3 -bA2",
        );
        let mut expected = BTreeMap::new();
        for color in Color::ALL {
            for (bug, n) in [
                (Bug::Queen, 1),
                (Bug::Spider, 2),
                (Bug::Beetle, 2),
                (Bug::Grasshopper, 3),
                (Bug::Ant, 3),
            ] {
                expected.insert((color, bug), n);
            }
        }
        assert_eq!(census(&g), expected);
        // White's reserve is empty: only the free end of the line, wA3, can act.
        assert!(legal(&g).iter().all(|mv| matches!(mv, Move::Move { .. })));
        assert_eq!(legal_for(&g, "wA3"), legal(&g));
        // A fourth ant or third spider does not exist.
        for name in ["wA4", "wS3", "wB3", "wG4"] {
            assert!(parse_piece(name).is_err(), "{name} should not exist");
        }
    }
}

on_both_engines! {
    /// §1.4 (with §1.3): the eight game types, and exactly the expansion pieces
    /// each names. With the standard opening the first move may be the first piece
    /// of every bug of the game type, so the opening moves list the bugs in play;
    /// with the default tournament opening perft(1) is 4 in Base and 7 in Base+MLP.
    /// Positions: the start of each game type, and after a first placement.
    fn eight_game_types(R) {
        let cases: [(&str, &[&str]); 8] = [
            ("Base", &[]),
            ("Base+M", &["wM"]),
            ("Base+L", &["wL"]),
            ("Base+P", &["wP"]),
            ("Base+ML", &["wM", "wL"]),
            ("Base+MP", &["wM", "wP"]),
            ("Base+LP", &["wL", "wP"]),
            ("Base+MLP", &["wM", "wL", "wP"]),
        ];
        let names: Vec<String> = GameType::ALL.iter().map(|t| t.to_string()).collect();
        let listed: Vec<&str> = cases.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, listed, "there are exactly eight game types");
        for (name, extra) in cases {
            let g = game_with::<R>(&format!("{name};NotStarted;White[1]"), STANDARD_OPENING);
            let mut expected = vec!["wQ", "wS1", "wB1", "wG1", "wA1"];
            expected.extend_from_slice(extra);
            assert_legal_moves(&g, &expected);
            // Black's set is the same bugs (§1.8: both colours have the same pieces).
            let g = game_with::<R>(&format!("{name};InProgress;Black[1];wS1"), STANDARD_OPENING);
            for bug in ["bQ", "bS1", "bB1", "bG1", "bA1", "bM", "bL", "bP"] {
                let present = !legal_for(&g, bug).is_empty();
                let expected_present = !bug.ends_with(['M', 'L', 'P'])
                    || extra.contains(&bug.replace('b', "w").as_str());
                assert_eq!(present, expected_present, "{bug} in {name}");
            }
        }
        let mut g = game::<R>("Base;NotStarted;White[1]");
        assert_eq!(perft(&mut g, 1), 4);
        let mut g = game::<R>("Base+MLP;NotStarted;White[1]");
        assert_eq!(perft(&mut g, 1), 7);
    }
}

on_both_engines! {
    /// §1.3: an expansion piece absent from the game type does not exist: a
    /// MoveString naming it is refused when it is read, and the absolute placement
    /// is refused by `play` citing §1.3. `wM` is refused as the first move of Base
    /// and legal in Base+M; `wP` is refused in Base+ML. Positions: the starts of
    /// Base, Base+M and Base+ML, and Base+L after one placement.
    fn expansion_piece_absent_from_other_game_types(R) {
        assert_legal(&game::<R>("Base+M;NotStarted;White[1]"), "wM");
        let base_ml = game::<R>("Base+ML;NotStarted;White[1]");
        assert!(base_ml.parse_move("wP").is_err());
        assert_refused(&base_ml, place("wP", 0, 0), "§1.3");
        assert_legal(&base_ml, "wL");
        assert!(R::load("Base;InProgress;Black[1];wM").is_err());

        let base = game::<R>("Base;NotStarted;White[1]");
        for name in ["wM", "wL", "wP"] {
            let err = base.parse_move(name).expect_err("no expansion in Base");
            assert!(err.to_string().contains("§1.3"), "{err}");
            assert_refused(&base, place(name, 0, 0), "§1.3");
        }
        // In Base+L the ladybug exists but the mosquito and the pillbug do not.
        let ladybug = game::<R>("Base+L;InProgress;Black[1];wL");
        assert_piece_moves(
            &ladybug,
            "bL",
            &["bL \\wL", "bL wL/", "bL wL-", "bL wL\\", "bL /wL", "bL -wL"],
        );
        assert!(ladybug.parse_move("bM wL-").is_err());
        assert_refused(&ladybug, place("bM", 1, 0), "§1.3");
        assert_refused(&ladybug, place("bP", 1, 0), "§1.3");
    }
}

on_both_engines! {
    /// §1.5: pieces are colour + bug + number, the number only for bugs with
    /// several pieces: wS3, wG4, wQ1, wM1 name no piece; wQ, wM, wS2 do. As the
    /// first move `wQ1`, `wS3`, `wG4` and `wM1` (in Base+M) are refused while
    /// `wS1` and `wG1` are legal. Source: spec/sources/rules-notes.md "Components and set-up".
    fn numbered_names_only_for_multi_piece_bugs(R) {
        let start = game::<R>("Base+M;NotStarted;White[1]");
        for bad in ["wQ1", "wS3", "wG4", "wM1"] {
            assert!(start.parse_move(bad).is_err(), "{bad} should be refused");
            let text = format!("Base+M;InProgress;Black[1];{bad}");
            assert!(R::load(&text).is_err(), "{text}");
        }
        assert_legal(&start, "wS1");
        assert_legal(&start, "wG1");

        for bad in [
            "wS3", "wB3", "wG4", "wA4", "wS0", "wQ1", "wM1", "bL1", "bP2", "wS",
        ] {
            assert!(parse_piece(bad).is_err(), "{bad} should name no piece");
            assert!(parse_move(&format!("{bad} wS1-")).is_err(), "{bad}");
        }
        for good in ["wQ", "wM", "wL", "wP", "wS2", "bB2", "bG3", "wA3"] {
            assert_eq!(piece(good).to_string(), good);
        }
        // The white and black pieces are distinct pieces with the same numbers.
        let g = game::<R>("Base;InProgress;Black[1];wA1");
        assert_legal(&g, "bA1 wA1-");
    }
}

on_both_engines! {
    /// §1.6: White makes the first move of every game, whatever the game type: the
    /// TurnString of a new game is White[1], every legal move is White's, and `bS1`
    /// as the first move is refused. Positions: the start of every game type.
    fn white_moves_first(R) {
        for game_type in GameType::ALL {
            let g = game::<R>(&format!("{game_type};NotStarted;White[1]"));
            assert_eq!(g.side_to_move(), Color::White);
            assert_eq!(g.turn().to_string(), "White[1]");
            assert!(legal(&g)
                .iter()
                .all(|mv| mv.piece().is_some_and(|p| p.color == Color::White)));
        }
        let g = game::<R>("Base;NotStarted;White[1]");
        assert_illegal(&g, "bS1", "§3.1");
        assert_refused(&g, place("bG1", 0, 0), "§3.1");
    }
}

on_both_engines! {
    /// §1.7: there is no board; the play area starts empty (no occupied cell, both
    /// reserves full), so the only legal moves of a new game are the first
    /// placements, all on the origin. Positions: the start of Base and of Base+MLP.
    fn play_area_starts_empty(R) {
        let g = game::<R>("Base+MLP;NotStarted;White[1]");
        assert!(g.board_is_empty());
        assert!(board(&g).is_empty());
        assert_eq!(board(&g).occupied_cells().count(), 0);
        assert!(g.game_type().all_pieces().all(|p| g.location(p).is_none()));
        assert_eq!(g.game_type().all_pieces().count(), 28);
        let g = game::<R>("Base;NotStarted;White[1]");
        assert!(board(&g).is_empty());
        assert_eq!(g.game_string(), "Base;NotStarted;White[1]");
        for mv in legal(&g) {
            assert_eq!(mv.destination(), Some(Hex::ORIGIN));
        }
        assert_legal_moves(&g, &["wS1", "wB1", "wG1", "wA1"]);
    }
}

// ---------------------------------------------------------------------------
// 2 Geometry and stacks
// ---------------------------------------------------------------------------

on_both_engines! {
    /// §2.1: the first piece stands at the origin (0,0); q grows east and r
    /// grows south. Source: the worked example of spec/sources/uhp-notes.md section 4.3: wS1 (0,0),
    /// bG1 (-1,0), wA1 (1,-1), bG2 (-2,1).
    ///
    /// ```text
    ///             wA1
    ///    bG1   wS1
    /// bG2
    /// ```
    fn axial_coordinates_of_uhp_example(R) {
        let g = game::<R>("Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1");
        assert_eq!(g.location(piece("wS1")), Some(Hex::ORIGIN));
        assert_eq!(g.location(piece("bG1")), Some(Hex::new(-1, 0)));
        assert_eq!(g.location(piece("wA1")), Some(Hex::new(1, -1)));
        assert_eq!(g.location(piece("bG2")), Some(Hex::new(-2, 1)));
        let g = game::<R>("Base;InProgress;White[2];wG1;bG1 wG1\\");
        assert_eq!(g.location(piece("bG1")), Some(Hex::new(0, 1)));
    }
}

on_both_engines! {
    /// §2.2: the six directions and their glyphs: `X-` E (+1,0), `-X` W (-1,0),
    /// `X/` NE (+1,-1), `/X` SW (-1,+1), `X\` SE (0,+1), `\X` NW (0,-1). Positions:
    /// constructed (wS1 alone, then wS1 and bS1).
    ///
    /// ```text
    ///       \X    X/
    ///    -X    X     X-
    ///       /X    X\
    /// ```
    fn direction_glyphs_match_axial_deltas(R) {
        let cases = [
            ("wS1-", (1, 0)),
            ("-wS1", (-1, 0)),
            ("wS1/", (1, -1)),
            ("/wS1", (-1, 1)),
            ("wS1\\", (0, 1)),
            ("\\wS1", (0, -1)),
        ];
        for (target, (q, r)) in cases {
            let text = format!("bS1 {target}");
            let mut g = game::<R>("Base;InProgress;Black[1];wS1");
            let mv = g.parse_move(&text).expect("resolves");
            assert_eq!(mv, place("bS1", q, r), "{text}");
            g.play(mv).expect("legal second placement");
            assert_eq!(g.location(piece("bS1")), Some(Hex::new(q, r)), "{text}");
        }
        // A glyph is relative to its reference, not to the origin: NE of a piece
        // at (1,0) is (2,-1).
        let g = game::<R>("Base;InProgress;White[2];wS1;bS1 wS1-");
        assert_eq!(g.parse_move("wA1 bS1/"), Ok(place("wA1", 2, -1)));
    }
}

on_both_engines! {
    /// §2.8: adjacency is exactly the six deltas: the second placement may go to
    /// the six neighbours of the first piece and nowhere else; §2.9 two adjacent cells
    /// have exactly two common neighbours (spec example: (0,0) and (1,0) share
    /// (1,-1) and (0,1)).
    ///
    /// ```text
    ///       L=(1,-1)
    ///  a=(0,0)    b=(1,0)
    ///       R=(0,1)
    /// ```
    fn common_neighbours_of_adjacent_cells(R) {
        let g = game::<R>("Base;InProgress;Black[1];wS1");
        assert_piece_moves(
            &g,
            "bA1",
            &[
                "bA1 wS1-",
                "bA1 -wS1",
                "bA1 wS1/",
                "bA1 /wS1",
                "bA1 wS1\\",
                "bA1 \\wS1",
            ],
        );
        let cells: Vec<Hex> = legal_for(&g, "bA1")
            .iter()
            .filter_map(|mv| mv.destination())
            .collect();
        let mut neighbours = Hex::ORIGIN.neighbours().to_vec();
        neighbours.sort();
        assert_eq!(cells, neighbours);
        assert!(cells.iter().all(|&c| c.is_adjacent(Hex::ORIGIN)));
        assert!(!Hex::ORIGIN.is_adjacent(Hex::new(1, 1)));
        assert!(!Hex::ORIGIN.is_adjacent(Hex::new(2, 0)));

        let mut common = Hex::ORIGIN
            .common_neighbours(Hex::new(1, 0))
            .expect("adjacent")
            .to_vec();
        common.sort();
        assert_eq!(common, vec![Hex::new(0, 1), Hex::new(1, -1)]);
        assert_eq!(Hex::ORIGIN.common_neighbours(Hex::new(2, 0)), None);

        // Every direction: in the clockwise order E, SE, SW, W, NW, NE the two
        // common neighbours of a and a + d are a + the directions next to d.
        let clockwise = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
        for a in [Hex::ORIGIN, Hex::new(3, -2)] {
            for i in 0..6 {
                let at = |(dq, dr): (i32, i32)| Hex::new(a.q + dq, a.r + dr);
                let b = at(clockwise[i]);
                let mut expected = vec![at(clockwise[(i + 5) % 6]), at(clockwise[(i + 1) % 6])];
                expected.sort();
                let mut common = a.common_neighbours(b).expect("adjacent").to_vec();
                common.sort();
                assert_eq!(common, expected, "{a} to {b}");
            }
        }
    }
}

/// The position of the spec example under §2.4: the black beetle climbed onto
/// the white spider at (0,0).
///
/// ```text
///  wG2   wA1   wG1   wQ  bB1^2  bS1   bQ
/// ```
const BEETLE_ON_SPIDER: &str = "Base;InProgress;White[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;\
                                wG1 -wQ;bB1 \\bQ;wA1 -wG1;bB1 \\bS1;wG2 -wA1;bB1 wS1";

on_both_engines! {
    /// §2.4: a cell holds a stack, bottom to top; its height counts the pieces,
    /// the last is the top piece and the others are covered. Source: spec example
    /// under §2.4.
    fn stack_records_pieces_bottom_to_top(R) {
        let g = game::<R>(BEETLE_ON_SPIDER);
        assert_eq!(g.stack(Hex::ORIGIN), vec![piece("wS1"), piece("bB1")]);
        assert_eq!(board(&g).height(Hex::ORIGIN), 2);
        assert_eq!(board(&g).top(Hex::ORIGIN), Some(piece("bB1")));
        // The covered spider has no move; the stack's cell counts as occupied.
        assert_piece_moves(&g, "wS1", &[]);
        assert_illegal(&g, "wA2 bB1", "§3.7");
        assert_eq!(board(&g).height(Hex::new(1, -1)), 0);
        assert!(!board(&g).is_occupied(Hex::new(1, -1)));
    }
}

on_both_engines! {
    /// §2.6: no height limit is enforced; the pieces themselves bound a stack at
    /// 7, one ground piece with 4 beetles and 2 mosquitoes, and that stack is
    /// reachable in Base+M: the beetles climb onto wS1, each mosquito climbs by
    /// copying the beetle on top of the stack. Constructed for this test.
    ///
    /// ```text
    ///        wB1>     bB1>
    ///  wQ   [wS1]   bS1   bQ       final stack at (0,0), bottom to top:
    ///     wM>                      wS1 wB1 bB1 wM wB2 bB2 bM
    /// ```
    fn stack_of_seven_is_reachable(R) {
        let g = game::<R>(
            "Base+M;InProgress;White[10];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bB1 \\bQ;\
             wB1 wS1;bB1 \\bS1;wM wQ\\;bB1 wB1;wM bB1;bB2 \\bQ;wB2 \\wM;bB2 \\bS1;wB2 wM;\
             bB2 wB2;wG1 -wQ;bM \\bS1;wG2 -wG1",
        );
        // The last climb, onto a stack of height 6, is legal: no height limit.
        assert_eq!(board(&g).height(Hex::ORIGIN), 6);
        assert_legal(&g, "bM bB2");
        let mut g = g;
        let mv = g.parse_move("bM bB2").expect("resolves");
        g.play(mv).expect("legal");
        let names: Vec<String> = g.stack(Hex::ORIGIN).iter().map(|p| p.to_string()).collect();
        assert_eq!(names, ["wS1", "wB1", "bB1", "wM", "wB2", "bB2", "bM"]);
        assert_eq!(board(&g).height(Hex::ORIGIN), 7);
        // Every beetle and mosquito is in that stack: nothing else could climb it.
        let climbers = board(&g)
            .pieces()
            .filter(|(_, p)| matches!(p.bug, Bug::Beetle | Bug::Mosquito))
            .count();
        assert_eq!(climbers, 6);
    }
}

on_both_engines! {
    /// §2.7: the hive stays connected after every move of a legal game (the
    /// placement rules and One Hive together). Pseudo-random games of Base+MLP
    /// (three fixed seeds, up to 200 plies) are checked after each ply. Positions:
    /// random games from fixed seeds.
    fn hive_stays_connected_after_every_move(R) {
        for start in [0x2545_f491_4f6c_dd1d_u64, 7, 1_000_003] {
            let mut g = game::<R>("Base+MLP;NotStarted;White[1]");
            let mut rng = common::Lcg(start);
            for _ in 0..200 {
                if g.state().is_over() {
                    break;
                }
                // sorted, so that both engines play the same games
                let mut moves: Vec<Move> = g.legal_moves();
                moves.sort();
                let mv = moves[rng.below(moves.len())];
                g.play(mv).expect("a generated move is legal");
                assert!(
                    board(&g).is_connected(),
                    "hive split in {}",
                    g.game_string()
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 3 Placement
// ---------------------------------------------------------------------------

on_both_engines! {
    /// §3.1: a placement puts a piece of the mover's colour from their reserve on
    /// an empty cell, as a stack of height 1. A piece already on the board (its
    /// name then means a movement), or the opponent's piece, cannot be placed.
    /// Positions: the start, and a constructed opening.
    fn placement_from_reserve_onto_empty_cell(R) {
        // After `wS1` the spider has left White's reserve.
        let mut g = game::<R>("Base;NotStarted;White[1]");
        let mv = g.parse_move("wS1").expect("resolves");
        g.play(mv).expect("legal");
        assert_eq!(g.location(piece("wS1")), Some(Hex::ORIGIN));
        let after = game::<R>("Base;InProgress;White[2];wS1;bS1 wS1-");
        assert_eq!(
            after.parse_move("wS1 -wS1"),
            Ok(Move::Move {
                piece: piece("wS1"),
                to: Hex::new(-1, 0)
            })
        );
        assert!(legal_for(&after, "wS1").is_empty());
        // Every placement offered targets an empty cell, and makes a stack of height 1.
        for mv in legal(&after) {
            let Move::Place { to, .. } = mv else { continue };
            assert!(!board(&after).is_occupied(to));
            let mut copy = after.clone();
            copy.play(mv).expect("legal");
            assert_eq!(board(&copy).height(to), 1);
        }

        let mut g = game::<R>("Base;InProgress;White[2];wS1;bS1 wS1-");
        assert_refused(&g, place("wS1", -1, 0), "§3.1");
        assert_refused(&g, place("bA1", -1, 0), "§3.1");
        let mv = g.parse_move("wA1 -wS1").expect("resolves");
        assert_eq!(mv, place("wA1", -1, 0));
        g.play(mv).expect("legal");
        assert_eq!(g.stack(Hex::new(-1, 0)), vec![piece("wA1")]);
    }
}

on_both_engines! {
    /// §3.3: the first placement goes to the origin and nowhere else. Position: the
    /// start.
    fn first_placement_at_origin(R) {
        let g = game::<R>("Base;NotStarted;White[1]");
        assert_refused(&g, place("wS1", 1, 0), "§3.3");
        assert_refused(&g, place("wG1", 3, -7), "§3.3");
        assert_legal_moves(&g, &["wS1", "wB1", "wG1", "wA1"]);
    }
}

on_both_engines! {
    /// §3.4: Black's first placement must touch the first piece (any of its six
    /// neighbours) and is the only placement that may touch an enemy piece.
    /// Source: spec example under §3.4.
    fn second_placement_touches_first(R) {
        let g = game::<R>("Base;InProgress;Black[1];wS1");
        assert_piece_moves(
            &g,
            "bG1",
            &[
                "bG1 wS1-",
                "bG1 -wS1",
                "bG1 wS1/",
                "bG1 /wS1",
                "bG1 wS1\\",
                "bG1 \\wS1",
            ],
        );
        assert_refused(&g, place("bG1", 2, 0), "§3.4");
        assert_refused(&g, place("bG1", 1, 1), "§3.4");
        // Four bugs (the queen excluded by §4.2) on six cells: 24 placements.
        assert_eq!(legal(&g).len(), 24);
        let cells: std::collections::BTreeSet<Hex> =
            legal(&g).iter().filter_map(|mv| mv.destination()).collect();
        assert_eq!(cells, Hex::ORIGIN.neighbours().into_iter().collect());
    }
}

on_both_engines! {
    /// §3.5: later placements must touch a stack of the player's colour: `wA1
    /// bS1-` touches only Black, and a cell away from the hive touches nothing.
    /// Source: spec example under §3.6.
    ///
    /// ```text
    ///        +     x
    ///     +    wS1   bS1
    ///        +     x
    /// ```
    fn placement_must_touch_own_colour(R) {
        let g = game::<R>("Base;InProgress;White[2];wS1;bS1 wS1-");
        assert_piece_moves(&g, "wA1", &["wA1 -wS1", "wA1 /wS1", "wA1 \\wS1"]);
        // East of bS1 touches no white stack (it touches a black one, and the
        // engine names that first).
        assert!(!legal(&g).contains(&place("wA1", 2, 0)));
        assert_refused_citing_one_of(&g, place("wA1", 2, 0), &["§3.5", "§3.6"]);
        assert_refused(&g, place("wA1", -3, 0), "§3.5");
        assert_refused(&g, place("wA1", 0, 5), "§3.5");
        // Black's third-ply cells mirror White's: only cells touching black alone.
        let g = game::<R>("Base;InProgress;Black[2];wS1;bS1 wS1-;wA1 -wS1");
        assert_piece_moves(&g, "bQ", &["bQ bS1-", "bQ bS1/", "bQ bS1\\"]);
    }
}

on_both_engines! {
    /// §3.7: placement is onto an empty ground cell only, never onto a stack,
    /// not even for a beetle or a mosquito. Source: spec example under §2.4
    /// (`bB2 bB1`, `bB2 bS1` after `wG2 bQ-`).
    fn no_placement_on_top_of_stack(R) {
        let g = game::<R>("Base+M;InProgress;White[2];wS1;bS1 wS1-");
        assert_illegal(&g, "wB1 wS1", "§3.7");
        assert_illegal(&g, "wM wS1", "§3.7");
        assert_illegal(&g, "wA1 bS1", "§3.7");
        // Onto a stack of height 2 (the black beetle on wS1, spec §2.4 example).
        let g = game::<R>(BEETLE_ON_SPIDER);
        assert_illegal(&g, "wB1 bB1", "§3.7");
        assert!(legal(&g)
            .iter()
            .all(|mv| !matches!(mv, Move::Place { to, .. } if board(&g).is_occupied(*to))));
        // After `wG2 bQ-` Black may place its beetle neither on the stack nor on bS1.
        let mut g = g;
        let mv = g.parse_move("wG2 bQ-").expect("resolves");
        g.play(mv).expect("legal jump");
        assert_illegal(&g, "bB2 bB1", "§3.7");
        assert_illegal(&g, "bB2 bS1", "§3.7");
        assert!(legal(&g)
            .iter()
            .all(|mv| !matches!(mv, Move::Place { to, .. } if board(&g).is_occupied(*to))));
    }
}

on_both_engines! {
    /// §3.8: freedom to move does not apply to placement: the hole `.` at (1,1),
    /// enclosed by six white pieces, is a legal placement cell although no ant
    /// can slide into it. Source: spec example under §3.8 (spec/sources/rules-notes.md
    /// "Placement", ruling on "edge of the hive").
    ///
    /// ```text
    /// bA3 bA2 bA1 bG2 bQ  bS1 wS1 wQ  wG2
    ///                bG1         wG1  .   wA1
    ///                               wA2 wA3
    /// ```
    fn placement_into_enclosed_hole_is_legal(R) {
        let g = game::<R>(
            "Base;InProgress;White[8];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wG1 wS1\\;bG1 /bQ;\
             wG2 wQ-;bG2 -bQ;wA1 wG2\\;bA1 -bG2;wA2 wG1\\;bA2 -bA1;wA3 wA2-;bA3 -bA2",
        );
        let hole = Hex::new(1, 1);
        assert!(hole.neighbours().iter().all(|&n| board(&g).is_occupied(n)));
        assert_piece_moves(
            &g,
            "wS2",
            &[
                "wS2 wQ\\",
                "wS2 /wA2",
                "wS2 /wG1",
                "wS2 \\wG2",
                "wS2 \\wQ",
                "wS2 wA1-",
                "wS2 wA1/",
                "wS2 wA1\\",
                "wS2 wA2\\",
                "wS2 wA3\\",
                "wS2 wG2/",
            ],
        );
        assert_legal(&g, "wB1 wQ\\");
        assert_legal(&g, "wG3 wQ\\");
        // No sliding piece reaches the hole.
        for ant in ["wA1", "wA2", "wA3"] {
            assert!(legal_for(&g, ant)
                .iter()
                .all(|mv| mv.destination() != Some(hole)));
        }
    }
}

// ---------------------------------------------------------------------------
// 4 The Queen Bee and the opening
// ---------------------------------------------------------------------------

on_both_engines! {
    /// §4.2: with the tournament opening (the default) neither player may place
    /// the queen first; with it off (standard opening) both may. Source:
    /// spec/sources/rules-notes.md "Placement", spec example under §4.2.
    fn tournament_opening_forbids_queen_first(R) {
        let g = game::<R>("Base;NotStarted;White[1]");
        assert_eq!(g.options(), RulesOptions::default());
        assert!(g.options().tournament_opening);
        assert_illegal(&g, "wQ", "§4.2");
        assert_piece_moves(&g, "wQ", &[]);

        let g = game::<R>("Base;InProgress;Black[1];wS1");
        assert_illegal(&g, "bQ wS1-", "§4.2");
        assert_piece_moves(&g, "bQ", &[]);

        // The second placement of each player may be the queen.
        let g = game::<R>("Base;InProgress;White[2];wS1;bS1 wS1-");
        assert_piece_moves(&g, "wQ", &["wQ -wS1", "wQ /wS1", "wQ \\wS1"]);
    }
}

on_both_engines! {
    /// §4.2: with the option off (the standard opening) the queen may be the first
    /// placement of White and of Black. Positions: the start, and after a first
    /// placement.
    fn standard_opening_allows_queen_first(R) {
        let g = game_with::<R>("Base;NotStarted;White[1]", STANDARD_OPENING);
        assert_legal_moves(&g, &["wQ", "wS1", "wB1", "wG1", "wA1"]);
        let g = game_with::<R>("Base;InProgress;Black[1];wQ", STANDARD_OPENING);
        assert_piece_moves(
            &g,
            "bQ",
            &["bQ wQ-", "bQ -wQ", "bQ wQ/", "bQ /wQ", "bQ wQ\\", "bQ \\wQ"],
        );
        let mut g = game_with::<R>("Base;InProgress;Black[1];wQ", STANDARD_OPENING);
        let mv = g.parse_move("bQ wQ-").expect("resolves");
        g.play(mv).expect("legal with the standard opening");
        assert_eq!(g.state(), GameState::InProgress);
        // Black's queen first after a white spider.
        let g = game_with::<R>("Base;InProgress;Black[1];wS1", STANDARD_OPENING);
        assert_legal(&g, "bQ wS1-");
        assert_eq!(legal(&g).len(), 30);
    }
}

on_both_engines! {
    /// §4.2: the published perft counts assume the tournament opening, the
    /// default: Base 1, 4, 96, 1440, 21600 and Base+MLP 1, 7, 294, 6678, 151686
    /// at depths 0 to 4. Source: spec/sources/uhp-notes.md section 5.5,
    /// spec/sources/rules-notes.md "Placement".
    fn perft_from_start_assumes_tournament_opening(R) {
        let mut g = game::<R>("Base;NotStarted;White[1]");
        let counts: Vec<u64> = (0..=4).map(|d| perft(&mut g, d)).collect();
        assert_eq!(counts, [1, 4, 96, 1440, 21600]);
        // the engine's own count (the fast engine counts on its own moves)
        let own: Vec<u64> = (0..=4).map(|d| g.count_leaves(d)).collect();
        assert_eq!(own, counts);
        let mut g = game::<R>("Base+MLP;NotStarted;White[1]");
        let counts: Vec<u64> = (0..=4).map(|d| perft(&mut g, d)).collect();
        assert_eq!(counts, [1, 7, 294, 6678, 151_686]);
        let own: Vec<u64> = (0..=4).map(|d| g.count_leaves(d)).collect();
        assert_eq!(own, counts);
        // With the standard opening the counts differ from the first ply on.
        let mut g = game_with::<R>("Base;NotStarted;White[1]", STANDARD_OPENING);
        assert_eq!(perft(&mut g, 1), 5);
        assert_eq!(perft(&mut g, 2), 5 * 6 * 5);
    }
}

on_both_engines! {
    /// §4.3: until its queen is placed a player moves nothing: White's ant could
    /// otherwise walk round the hive, but White's legal moves are placements
    /// only. Source: spec example under §4.3.
    fn no_movement_before_queen(R) {
        let g = game::<R>("Base;InProgress;White[3];wS1;bS1 wS1-;wA1 -wS1;bQ bS1-");
        assert_piece_moves(&g, "wA1", &[]);
        assert_piece_moves(&g, "wS1", &[]);
        assert!(legal(&g).iter().all(|mv| matches!(mv, Move::Place { .. })));
        assert_illegal(&g, "wA1 bQ-", "§4.3");
        assert_illegal(&g, "wA1 \\wS1", "§4.3");

        // Once the queen is down, the same ant walks.
        let g = game::<R>("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-");
        assert_legal(&g, "wA1 bA1-");
    }
}

on_both_engines! {
    /// §4.4: a player's n-th turn is their n-th ply: the TurnString number is
    /// 1 + floor(plies / 2), so the sixth ply completed is followed by White's
    /// fourth turn. Source: spec example under §4.4.
    fn turn_number_counts_plies_per_player(R) {
        let moves = [
            "wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bA1 bQ-",
        ];
        let mut g = game::<R>("Base;NotStarted;White[1]");
        let mut turns = vec![g.turn().to_string()];
        for text in moves {
            let mv = g.parse_move(text).expect("resolves");
            g.play(mv).expect("legal");
            turns.push(g.turn().to_string());
        }
        assert_eq!(
            turns,
            ["White[1]", "Black[1]", "White[2]", "Black[2]", "White[3]", "Black[3]", "White[4]"]
        );
        assert!(g.game_string().starts_with("Base;InProgress;White[4];"));
    }
}
