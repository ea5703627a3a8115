//! The `notation` target: arbitrary text read as GameStrings and MoveStrings.

use std::fmt;

use arbitrary::Arbitrary;

use crate::core::notation::{move_spec_text, parse_game_string, parse_move, GameRecord};
use crate::core::{GameType, RulesOptions};
use crate::fast::FastEngine;
use crate::reference::ReferenceEngine;
use crate::rules::{LoadError, Rules};

/// Bytes of a `notation` input beyond this are ignored.
pub const MAX_NOTATION_BYTES: usize = 2048;
/// Lines of a `notation` input beyond this are ignored.
pub const MAX_NOTATION_LINES: usize = 32;

/// The input of the `notation` target: text, split into lines at `\n`
/// (invalid UTF-8 replaced by U+FFFD), each line read both as a GameString
/// and as a MoveString. A seed file is plain text: a GameString on the
/// first line and MoveStrings for its position on the next ones.
#[derive(Arbitrary)]
pub struct NotationInput<'a> {
    /// The text, as raw bytes.
    pub text: &'a [u8],
}

impl NotationInput<'_> {
    /// The lines read, within the caps.
    pub fn lines(&self) -> Vec<String> {
        let used = &self.text[..self.text.len().min(MAX_NOTATION_BYTES)];
        String::from_utf8_lossy(used)
            .split('\n')
            .take(MAX_NOTATION_LINES)
            .map(str::to_string)
            .collect()
    }
}

impl fmt::Debug for NotationInput<'_> {
    /// The lines: the first is the GameString of the position in which every
    /// line is also read as a MoveString.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("NotationInput").field(&self.lines()).finish()
    }
}

/// The property of the `notation` target: reading any line as a GameString
/// or a MoveString never panics, and whatever reads prints and reads back
/// to the same value. In detail, for every line:
///
/// * a GameString record prints (as written) and parses back to the same
///   record (§9.31); both engines load it alike (the same game, or a refusal
///   at the same move for the same kind of reason), and the canonical
///   GameString of a loaded game loads again to the same game;
/// * a MoveString prints and parses back to the same move description
///   (§9.21); resolved in the position (the first line's game if it loads,
///   else a new Base+MLP game) both engines read the same absolute move or
///   the same error, and the canonical MoveString of that move (§9.30)
///   reads back to it on both engines.
///
/// Panics with the offending line when the property fails.
pub fn check_notation(input: NotationInput<'_>) {
    let lines = input.lines();
    let mut position = None;
    for (i, line) in lines.iter().enumerate() {
        let game = game_string_round_trips(line);
        if i == 0 {
            position = game;
        }
        move_description_round_trips(line);
    }
    let (fast, reference) = position.unwrap_or_else(|| {
        (
            FastEngine::new_game(GameType::BASE_MLP, RulesOptions::default()),
            ReferenceEngine::new_game(GameType::BASE_MLP, RulesOptions::default()),
        )
    });
    for line in &lines {
        move_resolves_alike(&fast, &reference, line);
    }
}

/// A GameString record as written: the fields it holds, `;`-separated (§9.31).
fn record_text(record: &GameRecord) -> String {
    let mut out = format!(
        "{};{};{}",
        record.game_type, record.stated_state, record.stated_turn
    );
    for mv in &record.moves {
        out.push(';');
        out.push_str(mv);
    }
    out
}

/// Checks a line read as a GameString; returns the game when both engines load it.
fn game_string_round_trips(line: &str) -> Option<(FastEngine, ReferenceEngine)> {
    let record = parse_game_string(line).ok()?;
    let printed = record_text(&record);
    match parse_game_string(&printed) {
        Ok(again) if again == record => {}
        Ok(again) => panic!(
            "the GameString {line:?} prints as {printed:?}, which reads as {again:?}, not {record:?}"
        ),
        Err(e) => panic!("the GameString {line:?} prints as {printed:?}, which is refused: {e}"),
    }
    let (fast, reference) = load_on_both(line).ok()?;
    let canonical = reference.game_string();
    match load_on_both(&canonical) {
        Ok((fast_again, reference_again)) => {
            assert!(
                reference_again.history() == reference.history()
                    && fast_again.history() == fast.history(),
                "{line:?} loads, but its canonical GameString {canonical:?} loads to another game"
            );
            assert_eq!(
                reference_again.game_string(),
                canonical,
                "the canonical GameString of {line:?} is not canonical"
            );
        }
        Err(why) => {
            panic!("{line:?} loads, but its canonical GameString {canonical:?} does not: {why}")
        }
    }
    Some((fast, reference))
}

/// Loads a GameString on both engines with the default options. `Err` when
/// both refuse it; panics when one engine loads it and the other does not,
/// when they refuse it at different moves or for different kinds of reason,
/// or when they load different games.
fn load_on_both(text: &str) -> Result<(FastEngine, ReferenceEngine), LoadError> {
    let fast = FastEngine::load(text);
    let reference = ReferenceEngine::load(text);
    match (fast, reference) {
        (Ok(fast), Ok(reference)) => {
            assert_eq!(
                fast.history(),
                reference.history(),
                "the engines load {text:?} as different games"
            );
            assert_eq!(
                fast.game_string(),
                reference.game_string(),
                "the engines print {text:?} differently"
            );
            Ok((fast, reference))
        }
        (Err(fast), Err(reference)) => {
            assert_eq!(
                refusal_point(&fast),
                refusal_point(&reference),
                "the engines refuse {text:?} differently: the fast engine: {fast}; the reference: {reference}"
            );
            Err(reference)
        }
        (Ok(_), Err(reference)) => {
            panic!("the fast engine loads {text:?}, the reference refuses it: {reference}")
        }
        (Err(fast), Ok(_)) => {
            panic!("the reference loads {text:?}, the fast engine refuses it: {fast}")
        }
    }
}

/// Where and why a load stopped, without the engine's wording.
fn refusal_point(error: &LoadError) -> (&'static str, usize) {
    match error {
        LoadError::Notation(_) => ("notation", 0),
        LoadError::Unresolvable { index, .. } => ("unresolvable", *index),
        LoadError::Illegal { index, .. } => ("illegal", *index),
        // §9.42 the clause a set-up position breaks
        LoadError::Impossible { clause, .. } => (clause, 0),
        LoadError::NoHistory => ("no history", 0),
    }
}

fn move_description_round_trips(line: &str) {
    let Ok(spec) = parse_move(line) else {
        return;
    };
    let printed = move_spec_text(spec);
    match parse_move(&printed) {
        Ok(again) => assert_eq!(
            again, spec,
            "the MoveString {line:?} prints as {printed:?}, which reads differently"
        ),
        Err(e) => panic!("the MoveString {line:?} prints as {printed:?}, which is refused: {e}"),
    }
}

fn move_resolves_alike(fast: &FastEngine, reference: &ReferenceEngine, line: &str) {
    let position = reference.game_string();
    let resolved = reference.parse_move(line);
    assert_eq!(
        fast.parse_move(line),
        resolved,
        "the engines read the MoveString {line:?} differently in {position}"
    );
    let Ok(mv) = resolved else {
        return;
    };
    let canonical = reference.move_string(mv);
    assert_eq!(
        fast.move_string(mv),
        canonical,
        "the engines print {line:?} ({mv}) differently in {position}"
    );
    assert_eq!(
        reference.parse_move(&canonical),
        Ok(mv),
        "{line:?} reads as {mv}, printed {canonical:?}, which reads differently in {position}"
    );
    assert_eq!(
        fast.parse_move(&canonical),
        Ok(mv),
        "{line:?} reads as {mv}, printed {canonical:?}, which the fast engine reads differently in {position}"
    );
}
