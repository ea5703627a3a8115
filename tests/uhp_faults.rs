//! The deliberate faults of our UHP engine (`hive-oracle uhp --fault NAME`,
//! `src/faults/`), which the checker's tests run against: each rule
//! fault really shows in a concrete position (and the engine without the
//! fault is right there), each notation and protocol fault makes the session
//! misbehave as documented. The faults of the process (crashes, hangs, exits)
//! act in the tool's binary and are tested there (`tool/tests/uhp_faults.rs`). Positions are the verified ones of
//! `tests/cases/*.toml` or are built here move by move.

use std::time::{Duration, Instant};

use hive_oracle_rules::faults::{Fault, FaultySession};
use hive_oracle_rules::uhp::{EngineChoice, LineHandler, Session};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// tests/cases/spider.toml "spider-never-steps-back".
const SPIDER: &str = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wS2 -wQ;bG1 bQ-";
/// tests/cases/beetle.toml "beetle-climb-blocked-by-a-height-gate".
const BEETLE: &str = r"Base;InProgress;White[8];wB1;bS1 wB1-;wQ \wB1;bQ bS1-;wA1 /wQ;bA1 bQ-;wA1 \bS1;bA1 wB1\;wB2 /wQ;bB1 bQ/;wB2 /wB1;bB1 \bQ;wB2 bA1;bB1 wA1";
/// tests/cases/pillbug.toml "queen-just-moved-cannot-be-thrown".
const PILLBUG: &str = r"Base+P;InProgress;White[4];wP;bS1 wP-;wQ -wP;bQ bS1/;wA1 -wQ;bQ \bS1";
/// tests/cases/mosquito.toml "mosquito-next-to-mosquito-only-cannot-move".
const MOSQUITO: &str =
    r"Base+M;InProgress;White[5];wA1;bA1 wA1-;wQ -wA1;bQ bA1-;wM \wA1;bM bQ-;wM bM/;bA2 bQ\";
/// tests/cases/end.toml "surrounding-both-queens-draws" (White moved last).
const DRAW: &str = r"Base;Draw;Black[7];wS1;bS1 wS1-;wQ \wS1;bQ bS1/;wQ -bQ;bG1 bQ-;wG1 -wQ;bG2 \bG1;wG2 \wQ;bG3 bQ\;wA1 /wG1;bA1 bS1\;wA1 -bG2";

/// The first line of the response to `line`, which must end with `ok`.
fn ask(session: &mut dyn LineHandler, line: &str) -> String {
    let reply = session.handle_line(line.as_bytes());
    assert_eq!(
        reply.last().map(String::as_str),
        Some("ok"),
        "{line}: {reply:?}"
    );
    reply.first().cloned().unwrap_or_default()
}

fn valid_moves(session: &mut dyn LineHandler) -> Vec<String> {
    ask(session, "validmoves")
        .split(';')
        .map(str::to_string)
        .collect()
}

/// A session with the fault and one without, both loaded with `game`.
fn sessions(fault: Fault, game: &str) -> (FaultySession, Session) {
    let mut faulty = FaultySession::new(EngineChoice::Fast, fault);
    let mut plain = Session::new(EngineChoice::Fast);
    let both: [&mut dyn LineHandler; 2] = [&mut faulty, &mut plain];
    for session in both {
        let loaded = ask(session, &format!("newgame {game}"));
        assert!(!loaded.starts_with("err"), "{game}: {loaded}");
    }
    (faulty, plain)
}

/// The fault lists and accepts `mv`; the engine without it does neither.
fn assert_extra_move(fault: Fault, game: &str, mv: &str) {
    let (mut faulty, mut plain) = sessions(fault, game);
    let listed = valid_moves(&mut faulty);
    let legal = valid_moves(&mut plain);
    assert!(
        listed.iter().any(|m| m == mv),
        "{fault}: {mv} not in {listed:?}"
    );
    assert!(!legal.iter().any(|m| m == mv), "plain engine lists {mv}");
    // every legal move is still listed: the fault only adds
    assert!(
        legal.iter().all(|m| listed.contains(m)),
        "{fault}: {listed:?}"
    );

    let played = ask(&mut faulty, &format!("play {mv}"));
    assert!(played.ends_with(mv), "{fault}: play {mv} gave {played}");
    let refused = ask(&mut plain, &format!("play {mv}"));
    assert!(refused.starts_with("invalidmove"), "plain: {refused}");

    // the faulty game loads again in a faulty session (a checker replays games)
    let mut again = FaultySession::new(EngineChoice::Fast, fault);
    assert_eq!(ask(&mut again, &format!("newgame {played}")), played);
    // and undo brings the position back
    assert_eq!(ask(&mut faulty, "undo"), game);
}

#[test]
fn spider_backtracks() {
    assert_extra_move(Fault::SpiderBacktracks, SPIDER, "wS2 /wQ");
    assert_extra_move(Fault::SpiderBacktracks, SPIDER, r"wS2 \wQ");
}

#[test]
fn beetle_ignores_height_gates() {
    assert_extra_move(Fault::BeetleIgnoresHeightGates, BEETLE, "wB1 bS1");
}

#[test]
fn pillbug_throws_last_moved() {
    // wP throws bQ, which has just moved, to its three free neighbours
    for throw in [r"bQ \wP", r"bQ wP\", r"bQ wQ\"] {
        assert_extra_move(Fault::PillbugThrowsLastMoved, PILLBUG, throw);
    }
}

#[test]
fn mosquito_copies_mosquito() {
    assert_extra_move(Fault::MosquitoCopiesMosquito, MOSQUITO, "wM bM-");
}

#[test]
fn queen_first_allowed() {
    let (mut faulty, mut plain) = sessions(Fault::QueenFirstAllowed, "Base");
    assert!(valid_moves(&mut faulty).contains(&"wQ".to_string()));
    assert!(!valid_moves(&mut plain).contains(&"wQ".to_string()));
    assert_eq!(ask(&mut faulty, "play wQ"), "Base;InProgress;Black[1];wQ");
    assert!(ask(&mut plain, "play wQ").starts_with("invalidmove"));
    // Black's first placement may be the queen too
    assert!(valid_moves(&mut faulty).contains(&r"bQ \wQ".to_string()));
    // the standard opening has nothing to add
    let mut standard = FaultySession::new(EngineChoice::Fast, Fault::QueenFirstAllowed);
    ask(&mut standard, "options set TournamentOpening False");
    ask(&mut standard, "newgame Base");
    let mut plain_standard = Session::new(EngineChoice::Fast);
    ask(&mut plain_standard, "options set TournamentOpening False");
    ask(&mut plain_standard, "newgame Base");
    assert_eq!(valid_moves(&mut standard), valid_moves(&mut plain_standard));
}

#[test]
fn simultaneous_surround_wins() {
    let (mut faulty, mut plain) = sessions(Fault::SimultaneousSurroundWins, DRAW);
    assert_eq!(
        faulty.game_string().unwrap(),
        DRAW.replacen("Draw", "WhiteWins", 1)
    );
    assert_eq!(plain.game_string().unwrap(), DRAW);
    // the state printed after the surrounding move, too
    let before = DRAW
        .rsplit_once(';')
        .unwrap()
        .0
        .replacen("Draw", "InProgress", 1);
    let before = before.replacen("Black[7]", "White[7]", 1);
    ask(&mut faulty, &format!("newgame {before}"));
    ask(&mut plain, &format!("newgame {before}"));
    assert!(ask(&mut faulty, "play wA1 -bG2").starts_with("Base;WhiteWins;"));
    assert!(ask(&mut plain, "play wA1 -bG2").starts_with("Base;Draw;"));
}

#[test]
fn drop_one_move() {
    let (mut faulty, mut plain) = sessions(Fault::DropOneMove, SPIDER);
    let mut legal = valid_moves(&mut plain);
    let dropped = legal.pop().unwrap();
    assert_eq!(valid_moves(&mut faulty), legal);
    // the dropped move is still accepted
    assert!(ask(&mut faulty, &format!("play {dropped}")).ends_with(&dropped));
    // a lone move is not dropped
    let (mut faulty, mut plain) = sessions(Fault::DropOneMove, "Base");
    assert_eq!(
        valid_moves(&mut faulty).len(),
        valid_moves(&mut plain).len() - 1
    );
}

#[test]
fn fault_names_round_trip() {
    for fault in Fault::ALL {
        assert_eq!(fault.name().parse::<Fault>(), Ok(fault));
    }
    assert!("no-such-fault".parse::<Fault>().is_err());
}

// ---------------------------------------------------------------------------
// Faults of the notation, of bestmove and of refusals
// ---------------------------------------------------------------------------

/// `text` with `/` and `\` swapped.
fn swapped(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '/' => '\\',
            '\\' => '/',
            other => other,
        })
        .collect()
}

#[test]
fn wrong_game_string() {
    let (mut faulty, mut plain) = sessions(Fault::WrongGameString, "Base");
    // no glyph to swap yet: the same GameStrings
    assert_eq!(ask(&mut faulty, "play wS1"), ask(&mut plain, "play wS1"));
    // §9.21: bS1 wS1/ is north-east of wS1; the faulty GameString says south-east
    for line in ["play bS1 wS1/", "play wQ -wS1", "undo"] {
        let printed = ask(&mut faulty, line);
        let right = ask(&mut plain, line);
        assert!(right.contains("bS1 wS1/"), "{right}");
        assert_eq!(printed, swapped(&right), "{line}");
    }
    // the game underneath is the real one
    assert_eq!(valid_moves(&mut faulty), valid_moves(&mut plain));
    let right = ask(&mut plain, "play wQ -wS1");
    assert_eq!(ask(&mut faulty, "play wQ -wS1"), swapped(&right));
    // a GameString read by newgame is printed swapped too
    let game = r"Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/;bG2 /bG1";
    assert_eq!(ask(&mut faulty, &format!("newgame {game}")), swapped(game));
    assert_eq!(faulty.game_string().unwrap(), swapped(game));
    // and the string printed names another position than the game played
    let mut reader = Session::new(EngineChoice::Fast);
    ask(&mut reader, &format!("newgame {}", swapped(game)));
    ask(&mut plain, &format!("newgame {game}"));
    assert_ne!(valid_moves(&mut reader), valid_moves(&mut plain));
}

/// The faulty `bestmove` answer in the current position: a MoveString that
/// the engine without the fault reads but refuses (illegal by the rules),
/// leaving its game as it was. Returns the clauses of the refusal.
fn assert_illegal_best_move(
    faulty: &mut FaultySession,
    plain: &mut Session,
    limit: &str,
) -> String {
    let answer = ask(faulty, &format!("bestmove {limit}"));
    let before = plain.game_string();
    let refusal = ask(plain, &format!("play {answer}"));
    assert!(refusal.starts_with("invalidmove "), "{answer}: {refusal}");
    assert!(
        !refusal.contains("invalid MoveString"),
        "{answer} does not read: {refusal}"
    );
    assert_eq!(plain.game_string(), before);
    assert!(!valid_moves(plain).contains(&answer));
    let clauses = refusal.rsplit_once('(').map_or("", |(_, c)| c);
    clauses.trim_end_matches(')').to_string()
}

#[test]
fn bestmove_illegal() {
    // §3.1: at the start, Black's spider on the origin
    let (mut faulty, mut plain) = sessions(Fault::BestmoveIllegal, "Base");
    assert_eq!(ask(&mut faulty, "bestmove depth 1"), "bS1");
    assert_eq!(
        assert_illegal_best_move(&mut faulty, &mut plain, "depth 1"),
        "§3.1"
    );
    // a time search answers at once, as illegally: with a budget of ten
    // minutes, an answer within one minute (a bound only a search reaches)
    let (mut faulty, mut plain) = sessions(Fault::BestmoveIllegal, SPIDER);
    let started = Instant::now();
    assert_illegal_best_move(&mut faulty, &mut plain, "time 00:10:00");
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_illegal_best_move(&mut faulty, &mut plain, "depth 3");
    // the game itself is untouched: without bestmove it plays like the plain engine
    assert_eq!(valid_moves(&mut faulty), valid_moves(&mut plain));
}

#[test]
fn bestmove_illegal_in_random_games() {
    // Seeded random games, every ply: the answer is always illegal, and once
    // a reserve is empty the other candidates (§3.7, the queen) take over.
    let mut rng = StdRng::seed_from_u64(20261130);
    let mut clauses = std::collections::BTreeSet::new();
    for game_type in ["Base", "Base+MLP", "Base"] {
        let (mut faulty, mut plain) = sessions(Fault::BestmoveIllegal, game_type);
        for _ in 0..160 {
            clauses.insert(assert_illegal_best_move(&mut faulty, &mut plain, "depth 1"));
            let moves = valid_moves(&mut plain);
            let mv = &moves[rng.random_range(0..moves.len())];
            let played = ask(&mut plain, &format!("play {mv}"));
            assert_eq!(ask(&mut faulty, &format!("play {mv}")), played);
            if !played.contains(";InProgress;") {
                break;
            }
        }
    }
    // the three candidates: §3.1, §3.7, and the queen's move, refused by
    // §6.1 (or first by §5.2, §5.3 when it is covered or pinned)
    assert!(clauses.contains("§3.1"), "{clauses:?}");
    assert!(clauses.contains("§3.7"), "{clauses:?}");
    assert!(clauses.len() >= 3, "only {clauses:?}");
}

#[test]
fn bestmove_slow() {
    let (mut faulty, mut plain) = sessions(Fault::BestmoveSlow, SPIDER);
    let legal = valid_moves(&mut plain);
    // a depth search is as usual (the same answer; the fault waits only
    // on a time search)
    let answer = ask(&mut faulty, "bestmove depth 1");
    assert_eq!(answer, ask(&mut plain, "bestmove depth 1"));
    // a 1 s budget is answered, legally, after 2 × 1 s + 2 s: the wait the
    // fault itself makes is the lower bound; the upper one only a hang
    // reaches (a machine's load is not asserted on)
    let started = Instant::now();
    let answer = ask(&mut faulty, "bestmove time 00:00:01");
    let elapsed = started.elapsed();
    assert!(elapsed >= Duration::from_secs(4), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    assert!(legal.contains(&answer), "{answer}");
}

#[test]
fn newgame_refusal_loses_game() {
    let (mut faulty, mut plain) = sessions(Fault::NewgameRefusalLosesGame, SPIDER);
    for refused in ["newgame Base;InProgress;garbage", "newgame Hive"] {
        let both: [&mut dyn LineHandler; 2] = [&mut faulty, &mut plain];
        for session in both {
            ask(session, &format!("newgame {SPIDER}"));
            assert!(ask(session, refused).starts_with("err "), "{refused}");
        }
        // spec/sources/uhp-notes.md section 2.3: the plain engine keeps its game, the faulty one
        // has a new empty game of the same type
        assert_eq!(plain.game_string().unwrap(), SPIDER);
        assert_eq!(
            faulty.game_string().unwrap(),
            "Base;NotStarted;White[1]",
            "{refused}"
        );
    }
    let (mut faulty, _) = sessions(Fault::NewgameRefusalLosesGame, "Base+MP");
    ask(&mut faulty, "play wS1");
    ask(
        &mut faulty,
        r"newgame Base+MP;InProgress;White[2];wS1;bQ wS1-",
    );
    assert_eq!(faulty.game_string().unwrap(), "Base+MP;NotStarted;White[1]");
    // with no game yet there is nothing to lose
    let mut fresh = FaultySession::new(EngineChoice::Fast, Fault::NewgameRefusalLosesGame);
    ask(&mut fresh, "newgame Hive");
    assert_eq!(fresh.game_string(), None);
    // an accepted newgame is as usual
    assert_eq!(ask(&mut fresh, &format!("newgame {SPIDER}")), SPIDER);
}

/// wB1 climbed onto wQ; White to move.
const COVERED_QUEEN: &str =
    r"Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \wQ;bG1 bQ-;wB1 wQ;bG2 bG1-";

#[test]
fn covered_name_moves_top() {
    let (mut faulty, mut plain) = sessions(Fault::CoveredNameMovesTop, COVERED_QUEEN);
    assert_eq!(valid_moves(&mut faulty), valid_moves(&mut plain));
    // §5.2: wQ is covered; the faulty engine moves wB1, on top of it, to
    // /wS1 (south-east of the queen's cell) instead of refusing
    let refused = ask(&mut plain, r"play wQ /wS1");
    assert!(
        refused.starts_with("invalidmove") && refused.contains("§5.2"),
        "{refused}"
    );
    let played = ask(&mut faulty, r"play wQ /wS1");
    assert!(played.ends_with(r";bG2 bG1-;wB1 wQ\"), "{played}");
    // which is exactly wB1's own move
    assert_eq!(ask(&mut plain, r"play wB1 /wS1"), played);
    assert_eq!(ask(&mut faulty, "undo"), COVERED_QUEEN);
    // a target the top piece cannot reach is refused as usual
    let refused = ask(&mut faulty, "play wQ bG2-");
    assert!(
        refused.starts_with("invalidmove") && refused.contains("§5.2"),
        "{refused}"
    );
    // and an uncovered mover plays as usual
    ask(&mut plain, "undo");
    assert_eq!(
        ask(&mut faulty, r"play wS2 -wB1"),
        ask(&mut plain, r"play wS2 -wB1")
    );
}

/// The queens shuffle until the position after ply 12 occurs a third time
/// (tests/uhp/options.txt): a draw under §8.7.2, in progress without it.
const REPEATED: &str = r"Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wQ \wS1;bQ bS1/;wQ -wS1;bQ bS1-;wQ \wS1;bQ bS1/;wQ -wS1;bQ bS1-";

#[test]
fn repetition_draw() {
    let mut faulty = FaultySession::new(EngineChoice::Fast, Fault::RepetitionDraw);
    let mut plain = Session::new(EngineChoice::Fast);
    // spec/sources/uhp-notes.md section 5.8: the engine does not say that it plays the variant
    let options = faulty.handle_line(b"options");
    let plain_options = plain.handle_line(b"options");
    assert!(plain_options.contains(&"RepetitionDraw;bool;False;False".to_string()));
    let expected: Vec<&String> = plain_options
        .iter()
        .filter(|l| !l.starts_with("RepetitionDraw;"))
        .collect();
    assert_eq!(options.iter().collect::<Vec<_>>(), expected);
    for line in [
        "options get RepetitionDraw",
        "options set RepetitionDraw False",
    ] {
        assert!(
            ask(&mut faulty, line).starts_with("err unknown option"),
            "{line}"
        );
    }
    // §8.7.2: the third occurrence draws for the faulty engine only
    let before = REPEATED
        .rsplit_once(';')
        .unwrap()
        .0
        .replace("White[7]", "Black[6]");
    let both: [&mut dyn LineHandler; 2] = [&mut faulty, &mut plain];
    for session in both {
        ask(session, &format!("newgame {before}"));
    }
    assert!(ask(&mut faulty, "play bQ bS1-").starts_with("Base;Draw;White[7];"));
    assert_eq!(ask(&mut plain, "play bQ bS1-"), REPEATED);
    assert_eq!(
        ask(&mut faulty, &format!("newgame {REPEATED}")),
        REPEATED.replace("InProgress", "Draw")
    );
    // exactly the variant: the plain engine with RepetitionDraw on agrees
    ask(&mut plain, "newgame Base");
    assert!(ask(&mut plain, "options set RepetitionDraw True").ends_with(";True;False"));
    assert_eq!(
        ask(&mut plain, &format!("newgame {REPEATED}")),
        faulty.game_string().unwrap()
    );
    // the other rules option still works
    ask(&mut faulty, "newgame Base");
    ask(&mut faulty, "options set TournamentOpening False");
    assert_eq!(ask(&mut faulty, "play wQ"), "Base;InProgress;Black[1];wQ");
}

/// The plies of a constructed record of `tests/records/house-rules/`
/// (`N. MoveString` lines).
fn house_record_plies(name: &str) -> Vec<String> {
    let path = std::path::Path::new("tests/records/house-rules").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|line| line.split_once(". "))
        .filter(|(number, _)| number.parse::<usize>().is_ok())
        .map(|(_, ply)| ply.trim().to_string())
        .collect()
}

#[test]
fn house_repetition_rules_draw_where_the_house_rule_does() {
    // rulings.md#house-repetition-rules, on tests/records/house-rules: hivegame.com's
    // rule (whole game, rotations and mirror images folded) draws after ply 28
    // of the twenty-ply record, nokamute's after ply 30 of the six-ply one;
    // the real rules (no repetition draw by default) play on. Once drawn, a
    // move, validmoves and bestmove are refused and undo plays on; the
    // RepetitionDraw option is hidden, as an engine with its own rule has none.
    for (fault, record, draw_at) in [
        (
            Fault::RepetitionHivegame,
            "house-repetition-twenty-ply-cycle.pgn",
            28,
        ),
        (
            Fault::RepetitionNokamute,
            "house-repetition-six-ply-cycle.pgn",
            30,
        ),
    ] {
        let plies = house_record_plies(record);
        let (mut faulty, mut plain) = sessions(fault, "Base");
        for (i, ply) in plies[..draw_at].iter().enumerate() {
            let printed = ask(&mut faulty, &format!("play {ply}"));
            let real = ask(&mut plain, &format!("play {ply}"));
            if i + 1 < draw_at {
                assert_eq!(printed, real, "{fault:?} ply {}", i + 1);
            } else {
                assert_eq!(
                    printed,
                    real.replacen(";InProgress;", ";Draw;", 1),
                    "{fault:?}"
                );
            }
        }
        for line in [
            "validmoves",
            "bestmove depth 1",
            &format!("play {}", plies[draw_at]),
        ] {
            assert!(
                ask(&mut faulty, line).starts_with("err the game is over (Draw)"),
                "{fault:?} {line}"
            );
        }
        assert!(
            ask(&mut faulty, "undo").contains(";InProgress;"),
            "{fault:?}"
        );
        let options = faulty.handle_line(b"options");
        assert!(
            !options.iter().any(|l| l.starts_with("RepetitionDraw;")),
            "{options:?}"
        );
        // a GameString that goes on past the draw does not load
        let past = format!("Base;InProgress;White[1];{}", plies[..=draw_at].join(";"));
        assert!(
            ask(&mut faulty, &format!("newgame {past}")).starts_with("err"),
            "{fault:?}"
        );
    }
}

#[test]
fn refuses_lowercase() {
    let (mut faulty, mut plain) = sessions(Fault::RefusesLowercase, "Base");
    // §9.20: piece names are read in either case; the faulty engine refuses them
    for line in ["play ws1", "play WS1", "play Ws1"] {
        let refused = ask(&mut faulty, line);
        assert!(refused.starts_with("invalidmove "), "{line}: {refused}");
        assert_eq!(faulty.game_string().unwrap(), "Base;NotStarted;White[1]");
        let mut lenient = Session::new(EngineChoice::Fast);
        ask(&mut lenient, "newgame Base");
        assert_eq!(ask(&mut lenient, line), "Base;InProgress;Black[1];wS1");
    }
    assert_eq!(ask(&mut faulty, "play wS1"), ask(&mut plain, "play wS1"));
    for line in ["play bs1 wS1-", "play bS1 WS1-", "play bS1 -Ws1"] {
        assert!(ask(&mut faulty, line).starts_with("invalidmove "), "{line}");
        assert!(ask(&mut plain, "undo").starts_with("Base;NotStarted"));
        ask(&mut plain, "play wS1");
        assert!(!ask(&mut plain, line).starts_with("invalidmove"), "{line}");
        ask(&mut plain, "undo");
    }
    // §9.15, §9.17, §9.18, §9.31: newgame arguments, a GameTypeString or a GameString
    for line in [
        "newgame base",
        "newgame BASE",
        "newgame Base+mlp",
        "newgame Base;inprogress;Black[1];wS1",
        "newgame Base;InProgress;black[1];wS1",
        "newgame Base;InProgress;White[2];wS1;bS1 ws1-",
    ] {
        assert!(ask(&mut faulty, line).starts_with("err "), "{line}");
        assert!(!ask(&mut plain, line).starts_with("err"), "{line}");
    }
    // canonical input works as usual
    for line in [
        "newgame Base+LM",
        "newgame Base;InProgress;White[2];wS1;bS1 wS1-",
    ] {
        assert_eq!(ask(&mut faulty, line), ask(&mut plain, line), "{line}");
    }
    assert_eq!(valid_moves(&mut faulty), valid_moves(&mut plain));
}

#[test]
fn lax_piece_numbers_plays_pieces_the_game_lacks_and_refuses_the_rest_without_a_panic() {
    // §1.5 broken as the rules library of an online Hive server breaks it
    // (src/faults/table.rs, lax-piece-numbers): `wM1` is played as `wM` and
    // `wS3` as a spider in hand. A three-byte name whose second character
    // is not ASCII (`wé`) once made the fault slice it inside a character
    // and panic; it is refused like any unknown piece.
    let (mut faulty, mut plain) = sessions(Fault::LaxPieceNumbers, "Base+M");
    assert_eq!(ask(&mut faulty, "play wM1"), ask(&mut plain, "play wM"));
    ask(&mut faulty, "undo");
    assert!(ask(&mut faulty, "play wS3").ends_with(";wS1"));
    let refused = ask(&mut faulty, "play wé");
    assert!(
        refused.starts_with("invalidmove") || refused.starts_with("err"),
        "{refused}"
    );
}
