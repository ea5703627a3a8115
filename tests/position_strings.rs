//! Position strings (spec/notation.md §9.36 to §9.42): a position without
//! its history. The main property: for every position of random games of
//! every game type and of the real records (`tests/records/real/`), the
//! position string of the game gives exactly the game's answers, on both
//! engines: the same legal moves, the same state and turn, the same
//! verdicts of `explain` (legal or not, and the clauses) on the legal moves
//! and on moves the rules refuse. Then the refusals of §9.39, §9.40 and
//! §9.42 with their clauses, and the UHP extension.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::Lcg;
use hive_oracle_rules::core::position_string::parse_position_string;
use hive_oracle_rules::core::{BoardView, GameType, Hex, Move, Piece, RulesOptions};
use hive_oracle_rules::explain::verdict;
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::records::{self, replay::record_options};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::{LoadError, Rules};
use hive_oracle_rules::uhp::{EngineChoice, Session};

/// What is compared of a verdict: legal or not, and the clauses of its
/// facts and refusal (the facts' words name cells, which a position string
/// may translate, §9.40).
fn verdict_clauses(game: &ReferenceEngine, mv: Move) -> (bool, Vec<Vec<&'static str>>) {
    let v = verdict(game, mv);
    (v.legal, v.facts.iter().map(|f| f.clauses.clone()).collect())
}

/// Moves the rules refuse in `game`, for the verdicts: each of the side to
/// move's pieces on the board to a cell next to the hive it cannot reach,
/// and a piece of the reserve placed where it may not be (a few of each).
fn refused_moves(game: &ReferenceEngine) -> Vec<Move> {
    let legal: BTreeSet<Move> = game.legal_moves().into_iter().collect();
    let side = game.side_to_move();
    let occupied: Vec<Hex> = game
        .game_type()
        .all_pieces()
        .filter_map(|p| game.location(p))
        .collect();
    let around: BTreeSet<Hex> = occupied
        .iter()
        .flat_map(|h| h.neighbours())
        .filter(|h| !occupied.contains(h))
        .collect();
    let mut refused = Vec::new();
    for piece in game.game_type().pieces_of(side) {
        for &to in around.iter().take(4) {
            let mv = match game.location(piece) {
                Some(_) => Move::Move { piece, to },
                None => Move::Place { piece, to },
            };
            if !legal.contains(&mv) {
                refused.push(mv);
            }
        }
    }
    refused.truncate(24);
    refused
}

/// Counts of the main property.
#[derive(Default, Debug)]
struct Compared {
    positions: usize,
    verdicts: usize,
}

/// Asserts that the position string of `game` gives `game`'s answers on
/// both engines (§9.36), and that it prints back to itself (§9.41).
fn assert_same_answers(game: &ReferenceEngine, compared: &mut Compared, what: &str) {
    assert_same_answers_with(game, compared, what, true);
}

/// [`assert_same_answers`], the verdicts of explain compared only when
/// `verdicts` (they cost the most).
fn assert_same_answers_with(
    game: &ReferenceEngine,
    compared: &mut Compared,
    what: &str,
    verdicts: bool,
) {
    let text = game.position_string();
    let on_reference = ReferenceEngine::load_with(&text, game.options())
        .unwrap_or_else(|e| panic!("{what}: {text} does not load: {e}"));
    let on_fast = FastEngine::load_with(&text, game.options())
        .unwrap_or_else(|e| panic!("{what}: {text} does not load on the fast engine: {e}"));
    if let Err(broken) = on_fast.check_invariants() {
        panic!("{what}: {text}: the fast engine's set-up breaks {broken:?}");
    }
    assert_eq!(on_reference.position_string(), text, "{what}: printed back");
    assert_eq!(
        (on_reference.state(), on_reference.turn()),
        (game.state(), game.turn()),
        "{what}: {text}"
    );
    assert_eq!(on_fast.state(), game.state(), "{what}: {text}");
    assert_eq!(
        on_reference.valid_move_strings(),
        game.valid_move_strings(),
        "{what}: {text}"
    );
    assert_eq!(
        on_fast.valid_move_strings(),
        game.valid_move_strings(),
        "{what}: {text} (fast)"
    );
    // the verdicts of explain, on the moves translated to the set-up board
    let anchor = game
        .game_type()
        .all_pieces()
        .find_map(|p| Some((game.location(p)?, on_reference.location(p)?)));
    let by = anchor.map_or((0, 0), |(was, is)| (is.q - was.q, is.r - was.r));
    compared.positions += 1;
    if !verdicts {
        return;
    }
    for mv in game.legal_moves().into_iter().chain(refused_moves(game)) {
        assert_eq!(
            verdict_clauses(&on_reference, mv.translated(by.0, by.1)),
            verdict_clauses(game, mv),
            "{what}: {text}: the verdict on {}",
            game.move_string(mv)
        );
        compared.verdicts += 1;
    }
}

#[test]
fn a_position_string_gives_the_answers_of_every_game_that_reaches_it() {
    // §9.43, §9.36: random games of every game type (the opening rule both ways),
    // every position of each
    let mut rng = Lcg(0x5EED_9360);
    let mut compared = Compared::default();
    let games = crate::common::cases(16);
    for index in 0..games {
        let game_type = GameType::ALL[index as usize % GameType::ALL.len()];
        let options = RulesOptions {
            tournament_opening: index % 3 != 2,
            repetition_draw: false,
        };
        let mut game = ReferenceEngine::new_game(game_type, options);
        let what = format!("random game {index} ({game_type})");
        assert_same_answers(&game, &mut compared, &what);
        for ply in 0..60 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[rng.below(moves.len())]);
            assert_same_answers(&game, &mut compared, &format!("{what} ply {}", ply + 1));
        }
    }
    eprintln!(
        "random games: {games} games, {} positions, {} verdicts",
        compared.positions, compared.verdicts
    );
    assert!(compared.positions > 16 * 40, "{compared:?}");
}

/// The record files under `dir`, sorted.
fn record_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)
            .expect("a folder of records")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn" || e == "sgf") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn a_position_string_gives_the_answers_of_every_position_of_the_real_records() {
    // §9.36 on real games (tests/records/real/, MIT, see its NOTICE): every
    // position of every game, up to its first illegal ply
    let mut compared = Compared::default();
    let mut games = 0;
    let files = record_files(Path::new("tests/records/real"));
    for path in &files {
        let bytes = std::fs::read(path).expect("readable");
        let name = path.display().to_string();
        let Ok(read) = records::read(&name, &bytes) else {
            continue;
        };
        for record in read {
            let mut game = ReferenceEngine::new_game(record.game_type, record_options(&record));
            games += 1;
            for (i, ply) in record.moves.iter().enumerate() {
                let Ok(mv) = game.parse_move(&ply.uhp) else {
                    break;
                };
                if game.play(mv).is_err() {
                    break;
                }
                let what = format!("{name} ply {}", i + 1);
                assert_same_answers_with(&game, &mut compared, &what, i % 8 == 0);
            }
        }
    }
    eprintln!(
        "real records: {} files, {games} games, {} positions, {} verdicts",
        files.len(),
        compared.positions,
        compared.verdicts
    );
    assert!(
        games >= 30 && compared.positions > 1000,
        "{games} games, {compared:?}"
    );
}

#[test]
fn the_examples_of_the_spec_read_and_print_as_shown() {
    // spec/notation.md, "Position strings": the three examples, and §9.41's
    for text in [
        "Base;Position;White[1];last=none",
        r"Base;Position;Black[3];last=wB1;opening=standard;wQ;wB1 wQ;bQ wQ-;bS1 bQ\",
        r"Base+P;Position;White[9];last=wP;wA1;bS1 wA1/;bS2 bS1-;bG1 bS2-;bP bG1/;wP bP\;bQ bP/;wB1 \bQ;wS1 bQ/;wS2 \wB1;wG1 /wS2;wQ wS1-",
    ] {
        let game = ReferenceEngine::load(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.position_string(), text);
    }
    let played = ReferenceEngine::load_with(
        r"Base;InProgress;Black[3];wQ;bQ wQ-;wB1 -wQ;bS1 bQ\;wB1 wQ",
        RulesOptions {
            tournament_opening: false,
            repetition_draw: false,
        },
    )
    .expect("the game of §9.41's example");
    assert_eq!(
        played.position_string(),
        r"Base;Position;Black[3];last=wB1;opening=standard;wQ;wB1 wQ;bQ wQ-;bS1 bQ\"
    );
    // §5.10 in the third: White may not move the piece Black threw
    let thrown = ReferenceEngine::load(r"Base+P;Position;White[9];last=wP;wA1;bS1 wA1/;bS2 bS1-;bG1 bS2-;bP bG1/;wP bP\;bQ bP/;wB1 \bQ;wS1 bQ/;wS2 \wB1;wG1 /wS2;wQ wS1-")
        .expect("loads");
    let wp = Piece::first(
        hive_oracle_rules::core::Color::White,
        hive_oracle_rules::core::Bug::Pillbug,
    );
    assert!(!thrown.legal_moves().iter().any(|mv| mv.piece() == Some(wp)));
}

/// The refusal of a position string: its clause, or the notation error's.
fn refusal(text: &str) -> String {
    match ReferenceEngine::load(text) {
        Ok(_) => panic!("{text} should be refused"),
        Err(LoadError::Impossible { clause, problem }) => format!("{clause}: {problem}"),
        Err(other) => other.to_string(),
    }
}

#[test]
fn impossible_positions_are_refused_with_the_clause_they_break() {
    // §9.42, each position constructed to break one rule and nothing before it
    for (text, clause) in [
        // a mosquito in the base game
        ("Base;Position;Black[2];last=wM;wQ;bQ wQ-;wM -wQ", "§1.4"),
        // wA2 without wA1
        ("Base;Position;Black[3];last=wA2;wQ;bQ wQ-;wA2 -wQ;bA1 bQ-;wS1 \\wQ", "§3.2"),
        // a spider on a stack
        ("Base;Position;Black[4];last=wS1;wQ;bQ wQ-;wA1 -wQ;bA1 bQ-;wS1 wA1", "§6.2.1"),
        // three White pieces after two White turns
        ("Base;Position;White[3];last=none;wQ;bQ wQ-;wA1 -wQ;bA1 bQ-;wG1 \\wQ", "§7.1"),
        // a White beetle on a stack without White's queen
        ("Base;Position;White[4];last=none;wA1;bQ wA1-;wB1 wA1;bA1 bQ-;wG1 \\wA1;bS1 bQ\\", "§4.3"),
        // four White placements and no queen
        ("Base;Position;Black[4];last=wS1;wA1;bQ wA1-;wA2 -wA1;bA1 bQ-;wG1 \\wA1;bS1 bQ\\;wS1 \\wA2", "§4.5"),
        // the last-moved piece is not on the board, or covered
        ("Base;Position;Black[2];last=wA1;wQ;bQ wQ-;wS1 -wQ", "§5.10"),
        ("Base;Position;White[4];last=bQ;wQ;bQ wQ-;bB1 bQ;wA1 -wQ;wS1 \\wQ", "§5.2"),
        // a queen named as moved last, though Black's ant beside it touches
        // nothing else: neither placed nor moved there, the ant would have
        // stood alone the ply before
        ("Base;Position;White[3];last=bQ;wQ;bQ wQ-;wA1 -wQ;bA1 bQ-", "§5.10"),
        // the repetition draw needs the history (below, with the option)
        // White passed its first turn, when a placement was legal
        ("Base;Position;Black[1];last=none;bQ", "§7.2"),
        ("Base;Position;White[2];last=none", "§7.2"),
        // a turn number no count of plies holds (it wrapped around before)
        ("Base;Position;White[18446744073709551615];last=none", "§9.45"),
        ("Base;Position;White[1000000001];last=none;wQ", "§9.45"),
        // notation: a piece twice, an unknown reference, a taken cell
        ("Base;Position;White[2];last=none;wQ;wQ -wQ", "§9.39"),
        ("Base;Position;White[2];last=none;wQ;bQ bS1-", "§9.40"),
        ("Base;Position;White[2];last=none;wQ;bQ wQ-;bB1 wQ-", "§9.40"),
        ("Base;Position;White[2];wQ;bQ wQ-", "§9.37"),
    ] {
        let why = refusal(text);
        assert!(why.contains(clause), "{text}: {why}");
    }
    let with_repetition = RulesOptions {
        tournament_opening: true,
        repetition_draw: true,
    };
    match ReferenceEngine::load_with("Base;Position;White[1];last=none", with_repetition) {
        // §9.42: the repetition draw needs the history, which a position lacks
        Err(LoadError::NoHistory) => {}
        other => panic!("the repetition draw must be refused: {other:?}"),
    }
}

#[test]
fn the_opening_field_turns_the_tournament_opening_off() {
    // §9.38, §4.2: the queen as White's first placement
    let wq = Move::Place {
        piece: Piece::first(
            hive_oracle_rules::core::Color::White,
            hive_oracle_rules::core::Bug::Queen,
        ),
        to: Hex::ORIGIN,
    };
    let standard =
        ReferenceEngine::load("Base;Position;White[1];last=none;opening=standard").expect("loads");
    assert!(standard.legal_moves().contains(&wq));
    assert_eq!(
        standard.position_string(),
        "Base;Position;White[1];last=none;opening=standard"
    );
    for text in [
        "Base;Position;White[1];last=none",
        "Base;Position;White[1];last=none;opening=tournament",
    ] {
        let tournament = ReferenceEngine::load(text).expect("loads");
        assert!(!tournament.legal_moves().contains(&wq), "{text}");
        assert_eq!(
            tournament.position_string(),
            "Base;Position;White[1];last=none"
        );
    }
}

#[test]
fn a_hive_in_two_groups_is_refused() {
    // §2.7: a position string cannot write one (each piece is placed next
    // to one before it, §9.40), but a set-up built from cells can
    use hive_oracle_rules::core::notation::Turn;
    use hive_oracle_rules::core::{Bug, Color, Setup};
    let piece = |color, bug| Piece::first(color, bug);
    let setup = Setup {
        game_type: GameType::BASE,
        tournament_opening: true,
        turn: Turn::after_plies(4),
        last_moved: None,
        pieces: vec![
            (piece(Color::White, Bug::Queen), Hex::new(0, 0)),
            (piece(Color::Black, Bug::Queen), Hex::new(1, 0)),
            (piece(Color::White, Bug::Spider), Hex::new(-3, 0)),
        ],
    };
    match ReferenceEngine::load_setup(&setup, RulesOptions::default()) {
        Err(LoadError::Impossible {
            clause: "§2.7",
            problem,
        }) => {
            assert!(problem.contains("more than one group"), "{problem}")
        }
        other => panic!("a split hive must be refused: {other:?}"),
    }
}

#[test]
fn possible_positions_that_look_odd_are_accepted() {
    // §9.42 refuses only what the rules prove impossible: a beetle that
    // just climbed onto its own queen, a placed piece named last, a player
    // with fewer pieces than turns (it moved or passed)
    for text in [
        "Base;Position;White[6];last=bB1;wQ;bQ wQ-;bB1 bQ;wB1 -wQ;bA1 bQ-;wA1 \\wQ;bS1 bA1\\;wS1 /wB1",
        "Base;Position;White[2];last=bS1;wS1;bS1 wS1-",
        // §9.45: the largest turn number itself
        "Base;Position;White[1000000000];last=none;wQ;bQ wQ-",
        "Base;Position;White[5];last=bA1;wQ;bQ wQ-;wA1 -wQ;bA1 bQ/;wS1 \\wQ",
    ] {
        if let Err(e) = ReferenceEngine::load(text) {
            panic!("{text}: {e}");
        }
    }
}

#[test]
fn uhp_newgame_takes_a_position_string_only_when_asked() {
    // §9.36: an extension of this engine, off unless asked for
    let text = r"Base;Position;Black[3];last=wB1;opening=standard;wQ;wB1 wQ;bQ wQ-;bS1 bQ\";
    let mut plain = Session::new(EngineChoice::Fast);
    let reply = plain.handle_line(format!("newgame {text}").as_bytes());
    assert!(
        reply[0].starts_with("err") && reply[0].contains("--position-strings"),
        "{reply:?}"
    );
    for engine in [EngineChoice::Fast, EngineChoice::Reference] {
        let mut session = Session::new(engine).with_position_strings(true);
        let reply = session.handle_line(format!("newgame {text}").as_bytes());
        assert_eq!(reply, [text, "ok"], "{engine:?}");
        let moved = session.handle_line(b"play bS1 -wB1");
        assert!(
            moved[0].starts_with("Base;Position;White[4];last=bS1;"),
            "{moved:?}"
        );
        assert_eq!(session.handle_line(b"undo"), [text, "ok"]);
        // no move before the set-up position to take back
        let reply = session.handle_line(b"undo");
        assert!(reply[0].starts_with("err nothing to undo"), "{reply:?}");
    }
    // the last move parsed from the string is the one the session holds
    let setup = parse_position_string(text).expect("reads");
    assert_eq!(setup.plies(), 5);
}

#[test]
fn a_history_found_replays_to_the_position_and_none_found_claims_nothing() {
    // §9.44: the game the history search finds is legal and ends at the
    // position (the search replays it; here it is replayed again); a budget
    // that runs out says so with the count, and no more
    use hive_oracle_rules::history::{find_history, HistorySearch};
    let text = r"Base+P;Position;White[5];last=wQ;wP;bP wP/;wQ bP\;bQ wQ/;bS1 bQ/";
    let setup = parse_position_string(text).expect("reads");
    let found = find_history(&setup, RulesOptions::default(), 20_000).expect("loads");
    let HistorySearch::Found {
        game_string,
        positions,
    } = found
    else {
        panic!("no history for {text}: {found:?}");
    };
    assert!(positions <= 20_000);
    let replayed = ReferenceEngine::load(&game_string).expect("the history is legal");
    assert_eq!(replayed.position_string(), text, "{game_string}");
    // the budget counts positions, not seconds: 50 are too few here
    assert_eq!(
        find_history(&setup, RulesOptions::default(), 50).expect("loads"),
        HistorySearch::NoneWithin { positions: 50 }
    );
    // a position that does not load is refused before any search
    let impossible = parse_position_string(
        "Base;Position;White[3];last=none;wQ;bQ wQ-;wA1 -wQ;bA1 bQ-;wG1 \\wQ",
    )
    .expect("reads");
    assert!(matches!(
        find_history(&impossible, RulesOptions::default(), 10),
        Err(LoadError::Impossible {
            clause: "§7.1", ..
        })
    ));
}
