//! How the faults change what the engine prints and reads: the
//! `validmoves` list (moves added or dropped, listed twice, repeated, junk,
//! escape codes), the GameString printed (glyphs swapped, a draw printed as
//! a win), the letter case of the input it accepts (refuses-lowercase) and
//! the spellings it reads as Mzinga does (mzinga-readings).

use super::rules::{extra_moves, reference_of, surround_won_by_last_mover, white_wins_early};
use super::table::Fault;
use crate::core::notation::{parse_move, MoveSpec, Target};
use crate::core::splitmix::SplitMix64;
use crate::core::{GameState, Hex, Move};
use crate::uhp::reply::quote;
use crate::uhp::Game;

/// Terminal escape codes: clear the screen, set the window title, red text.
pub const ESCAPE_CODES: &str = "\x1b[2J\x1b]0;pwned\x07\x1b[31mwQ";

/// How many entries repeated-moves and junk-moves list.
const JUNK_ENTRIES: usize = 100_000;

/// The `validmoves` list with the fault applied: the moves it adds, and
/// under drop-one-move the last one omitted.
pub(super) fn valid_move_strings(fault: Fault, game: &Game, order_seed: u64) -> Vec<String> {
    let mut moves = game.valid_move_strings();
    let extra = extra_moves(fault, game);
    if !extra.is_empty() {
        moves.retain(|m| m != "pass");
        moves.extend(extra.into_iter().map(|mv| game.move_string(mv)));
        moves.sort();
        moves.dedup();
    }
    if matches!(fault, Fault::DropOneMove | Fault::ShuffledDropOneMove) && moves.len() >= 2 {
        // §5.9 broken: a legal move is not listed
        moves.pop();
    }
    if fault == Fault::ShuffledDropOneMove {
        // the same set in an order drawn from the session's order seed
        // (Fisher–Yates): the process id when run as a process
        let mut rng = SplitMix64::new(order_seed);
        for i in (1..moves.len()).rev() {
            moves.swap(i, rng.below(i + 1));
        }
    }
    match fault {
        // §9.35 broken: every move twice
        Fault::DuplicateMoves => {
            moves = moves.iter().flat_map(|m| [m.clone(), m.clone()]).collect()
        }
        // §9.35 broken: the list repeated to 100,000 entries
        Fault::RepeatedMoves if !moves.is_empty() => {
            let times = JUNK_ENTRIES.div_ceil(moves.len());
            moves = std::iter::repeat_n(moves, times).flatten().collect();
        }
        // §9.29 broken: 100,000 entries that name no move
        Fault::JunkMoves => moves.extend((0..JUNK_ENTRIES).map(|i| format!("junk{i}"))),
        // output that is not protocol: terminal escape codes
        Fault::EscapeCodes => moves.push(ESCAPE_CODES.to_string()),
        _ => {}
    }
    moves
}

/// The GameString printed, with the fault applied to its moves
/// (wrong-game-string) or to its state (simultaneous-surround-wins).
pub(super) fn printed_game_string(fault: Fault, game: &Game) -> String {
    let text = game.game_string();
    match fault {
        Fault::WrongGameString => with_glyphs_swapped(&text),
        Fault::SimultaneousSurroundWins => surround_won_by_last_mover(game, text),
        Fault::ReversedGameType => with_game_type_reversed(&text),
        Fault::RepetitionDrawEarlyWin => white_wins_early(game, text),
        Fault::RepetitionHivegame | Fault::RepetitionNokamute => {
            drawn_by_house_rule(fault, game, text)
        }
        _ => text,
    }
}

/// The state of `game` under the fault's house repetition rule, if the
/// fault plays one.
pub(super) fn house_state(fault: Fault, game: &Game) -> Option<GameState> {
    let house = fault.house_rule()?;
    Some(house.state(&reference_of(game)))
}

/// A GameString with the state `Draw` when the fault's house repetition
/// rule draws the game; any other is as it is.
fn drawn_by_house_rule(fault: Fault, game: &Game, text: String) -> String {
    if game.state().is_over() || house_state(fault, game) != Some(GameState::Draw) {
        return text;
    }
    let mut fields: Vec<&str> = text.split(';').collect();
    if fields.len() > 1 {
        fields[1] = "Draw";
    }
    fields.join(";")
}

/// §9.15 broken: the expansion letters of the game type in reverse order
/// (`Base+PLM` for `Base+MLP`); the rest of the GameString is right.
fn with_game_type_reversed(text: &str) -> String {
    match text.split_once(';') {
        Some((game_type, rest)) => match game_type.split_once('+') {
            Some((base, letters)) => {
                let reversed: String = letters.chars().rev().collect();
                format!("{base}+{reversed};{rest}")
            }
            None => text.to_string(),
        },
        None => text.to_string(),
    }
}

/// §9.31, §9.29 broken: the GameString with `/` and `\` swapped in every
/// move (the fields after the type, the state and the turn).
fn with_glyphs_swapped(text: &str) -> String {
    let fields: Vec<String> = text
        .split(';')
        .enumerate()
        .map(|(i, field)| {
            if i < 3 {
                return field.to_string();
            }
            field
                .chars()
                .map(|c| match c {
                    '/' => '\\',
                    '\\' => '/',
                    other => other,
                })
                .collect()
        })
        .collect();
    fields.join(";")
}

/// Under refuses-lowercase, the refusal of a `play` move whose letters are
/// not in canonical case (§9.20 declined); `None` otherwise.
pub(super) fn move_case_refusal(fault: Fault, text: &str) -> Option<String> {
    case_refusal(fault, text, move_in_canonical_case)
}

/// Under refuses-lowercase, the refusal of a `newgame` argument (a
/// GameTypeString or a GameString) whose letters are not in canonical case
/// (§9.20 declined); `None` otherwise.
pub(super) fn game_case_refusal(fault: Fault, text: &str) -> Option<String> {
    case_refusal(fault, text, game_in_canonical_case)
}

/// Under refuses-lowercase, the refusal of `text` when `in_canonical_case`
/// says its letters are not as printed; `None` otherwise.
fn case_refusal(fault: Fault, text: &str, in_canonical_case: fn(&str) -> bool) -> Option<String> {
    if fault != Fault::RefusesLowercase || in_canonical_case(text) {
        return None;
    }
    Some(format!(
        "{} is not written in canonical letter case",
        quote(text.trim())
    ))
}

/// Whether the letters of a MoveString are as printed (§9.19, §9.21): `pass`
/// lower-case, and in each piece name a lower-case colour letter and an
/// upper-case bug letter. Tokens of no such form are left to the parser.
fn move_in_canonical_case(text: &str) -> bool {
    text.split_whitespace().all(|token| {
        if token.eq_ignore_ascii_case("pass") {
            return token == "pass";
        }
        let name = token.trim_matches(|c| matches!(c, '-' | '/' | '\\'));
        let mut letters = name.chars();
        let colour = letters.next().is_none_or(|c| !c.is_ascii_uppercase());
        let bug = letters.next().is_none_or(|c| !c.is_ascii_lowercase());
        colour && bug
    })
}

/// Whether the letters of a GameTypeString or a GameString are as printed
/// (§9.15, §9.17, §9.18, and §9.19, §9.21 for the moves). Fields of no known
/// form are left to the parser.
fn game_in_canonical_case(text: &str) -> bool {
    let fields: Vec<&str> = text.split(';').map(str::trim).collect();
    fields.iter().enumerate().all(|(i, field)| match i {
        0 => game_type_in_canonical_case(field),
        1 => GameState::ALL
            .into_iter()
            .find(|state| state.name().eq_ignore_ascii_case(field))
            .is_none_or(|state| state.name() == *field),
        2 => ["White", "Black"].into_iter().all(|word| {
            field
                .get(..word.len())
                .is_none_or(|head| !head.eq_ignore_ascii_case(word) || head == word)
        }),
        _ => move_in_canonical_case(field),
    })
}

/// `Base` with a capital B only, expansion letters upper-case (§9.15).
fn game_type_in_canonical_case(field: &str) -> bool {
    match field.get(..4) {
        Some(head) if head.eq_ignore_ascii_case("base") => {
            head == "Base" && !field[4..].bytes().any(|b| b.is_ascii_lowercase())
        }
        _ => true,
    }
}

/// Under lax-piece-numbers, the MoveString this engine plays for `text`
/// whose piece name carries a number that no piece of the game has, as the
/// rules library of a popular online Hive server does (§1.5 broken): a
/// single piece numbered 1 (`wM1`, `wQ1`) is that piece, and a third spider
/// or beetle (`wS3`) is the first of its bug that can make the move. `None`
/// for any other text or fault (a fourth grasshopper or ant, `wG4`, ends
/// the process: the tool's part of the fault).
pub(super) fn lax_piece_text(fault: Fault, game: &Game, text: &str) -> Option<String> {
    if fault != Fault::LaxPieceNumbers {
        return None;
    }
    let (name, rest) = match text.split_once(' ') {
        Some((name, rest)) => (name, Some(rest)),
        None => (text, None),
    };
    let bytes = name.as_bytes();
    if bytes.len() != 3 || !matches!(bytes[0], b'w' | b'b') {
        return None;
    }
    // both bytes matched below are ASCII, so the name's first two bytes
    // are whole characters
    let kind = || String::from_utf8_lossy(&bytes[..2]).into_owned();
    let candidates = match (bytes[1], bytes[2]) {
        (b'Q' | b'M' | b'L' | b'P', b'1') => vec![kind()],
        (b'S' | b'B', b'3') => vec![format!("{}1", kind()), format!("{}2", kind())],
        _ => return None,
    };
    let legal = game.legal_moves();
    candidates
        .into_iter()
        .map(|piece| match rest {
            Some(rest) => format!("{piece} {rest}"),
            None => piece,
        })
        .find(|text| game.parse_move(text).is_ok_and(|mv| legal.contains(&mv)))
}

/// Under mzinga-readings, the MoveString this engine plays for `text` where
/// Mzinga reads a spelling every engine MUST refuse (spec/sources/uhp-notes.md
/// sections 3.6 and 4.5): a target read up to its first glyph, so that a
/// glyph on both sides is read by the first (§9.22 broken) and text after
/// the glyph is ignored (§9.21 broken), and a bare piece name after the
/// first move as a move to the origin (§9.10 broken). `None` for any other
/// text or fault.
pub(super) fn mzinga_move_text(fault: Fault, game: &Game, text: &str) -> Option<String> {
    if fault != Fault::MzingaReadings {
        return None;
    }
    let glyph = |c: char| matches!(c, '-' | '/' | '\\');
    if let Some((mover, target)) = text.split_once(' ') {
        // Mzinga's reader: a glyph before the reference if there is one,
        // then the name up to the first glyph after it, and nothing more
        // (§9.22 and §9.21 broken: `-wQ-` read as `-wQ`, `wS1-/` and
        // `wS1-zzz` as `wS1-`)
        let before = target.starts_with(glyph);
        let start = usize::from(before);
        let end = start + target[start..].find(glyph)?;
        let read = if before {
            &target[..end]
        } else {
            &target[..=end]
        };
        return (read != target).then(|| format!("{mover} {read}"));
    }
    match text.split(' ').collect::<Vec<_>>().as_slice() {
        [name] if game.plies() > 0 && *name != "pass" => {
            let MoveSpec::Piece {
                piece,
                target: Target::Origin,
            } = parse_move(name).ok()?
            else {
                return None;
            };
            let placed = game
                .history()
                .iter()
                .any(|mv| matches!(mv, Move::Place { piece: p, .. } if *p == piece));
            let to = Hex::ORIGIN;
            let mv = if placed {
                Move::Move { piece, to }
            } else {
                Move::Place { piece, to }
            };
            Some(game.move_string(mv))
        }
        _ => None,
    }
}

/// Under mzinga-readings, the refusal of a line ending in CRLF: the `\r` is
/// kept as part of the command, which names no command then. `None` for
/// any other line or fault.
pub(super) fn crlf_refusal(fault: Fault, line: &[u8]) -> Option<String> {
    let kept = line.strip_suffix(b"\n").unwrap_or(line);
    (fault == Fault::MzingaReadings && kept.ends_with(b"\r"))
        .then(|| format!("unknown command {}", quote(&String::from_utf8_lossy(kept))))
}
