//! Whom an SGF `RE` names as the winner (section 3.9; §10.15): the player
//! whose id stands in the text as a word, else a player whose id matches a
//! word of the text after normalising both (letter case, trailing digits,
//! the localized names of boardspace's guest account), noted; else a draw
//! word; else unknown, noted.

use super::actions::short;
use crate::records::DeclaredResult;

/// The names boardspace gives its guest account in the languages of its
/// interface, lower-cased: `guest1497` in English is `invitado1499` in
/// Spanish (§10.15).
const GUEST_NAMES: [&str; 11] = [
    "guest",
    "invitado",
    "convidado",
    "invité",
    "invite",
    "gast",
    "gäst",
    "gæst",
    "gjest",
    "ospite",
    "гость",
];

/// The words that name a draw in the languages boardspace writes `RE` in.
const DRAW_WORDS: [&str; 10] = [
    "draw",
    "nulle",
    "remis",
    "patta",
    "tablas",
    "empate",
    "unentschieden",
    "gelijkspel",
    "oavgjort",
    "ничья",
];

/// A name as the loose match compares it (§10.15): lower-cased, without
/// trailing digits (`Dumbot0`, `WeakBot1`, `guest1497`), a localized guest
/// name read as `guest`. A name of digits only is kept whole.
pub(super) fn loose_name(name: &str) -> String {
    let lower = name.to_lowercase();
    let stem = lower.trim_end_matches(|c: char| c.is_ascii_digit());
    let stem = if stem.is_empty() {
        lower.as_str()
    } else {
        stem
    };
    if GUEST_NAMES.contains(&stem) {
        "guest".to_string()
    } else {
        stem.to_string()
    }
}

/// The declared result of an `RE` text (section 3.9, §10.15): the player
/// whose id occurs in it as a word wins (the longer id when both occur);
/// else the player whose id matches a word loosely ([`loose_name`]), with
/// a note; else a draw word; else unknown. The note says why a text gave
/// no result, or that a name matched only loosely.
pub(super) fn declared_result(
    re: &str,
    white: Option<&str>,
    black: Option<&str>,
) -> (DeclaredResult, Option<String>) {
    let text = re.to_lowercase();
    // an id counts where it stands as a word: "on" is not found in "won"
    let as_word = |id: &str| {
        text.match_indices(id).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + id.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    };
    let found = |id: Option<&str>| {
        id.map(str::to_lowercase)
            .filter(|id| !id.is_empty() && as_word(id))
            .map(|id| id.chars().count())
    };
    let both_alike = || {
        (
            DeclaredResult::Unknown,
            Some(format!(
                "RE[{}] names both players alike: the result is unknown",
                short(re)
            )),
        )
    };
    match (found(white), found(black)) {
        (Some(w), Some(b)) if w > b => return (DeclaredResult::WhiteWins, None),
        (Some(w), Some(b)) if b > w => return (DeclaredResult::BlackWins, None),
        (Some(_), None) => return (DeclaredResult::WhiteWins, None),
        (None, Some(_)) => return (DeclaredResult::BlackWins, None),
        (Some(_), Some(_)) => return both_alike(),
        (None, None) => {}
    }
    // §10.15: the loose match, word by word
    let words: Vec<String> = re
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(loose_name)
        .collect();
    let loosely = |id: Option<&str>| id.is_some_and(|id| words.contains(&loose_name(id)));
    let winner = match (loosely(white), loosely(black)) {
        (true, true) => return both_alike(),
        (true, false) => white.map(|id| (DeclaredResult::WhiteWins, "White", id)),
        (false, true) => black.map(|id| (DeclaredResult::BlackWins, "Black", id)),
        (false, false) => None,
    };
    if let Some((result, side, id)) = winner {
        let note = format!(
            "RE[{}] names {side} (id \"{}\") only loosely (letter case, trailing digits or a guest name): read as {}",
            short(re),
            short(id),
            result.name()
        );
        return (result, Some(note));
    }
    if DRAW_WORDS.iter().any(|word| text.contains(word)) {
        return (DeclaredResult::Draw, None);
    }
    (
        DeclaredResult::Unknown,
        Some(format!(
            "RE[{}] names neither player nor a draw: the result is unknown",
            short(re)
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results() {
        // section 3.9
        let r = |re: &str| declared_result(re, Some("bob"), Some("bobby")).0;
        assert_eq!(r("Game won by bobby"), DeclaredResult::BlackWins);
        assert_eq!(r("Game won by bob"), DeclaredResult::WhiteWins);
        assert_eq!(r("Partie gagnée par BOB"), DeclaredResult::WhiteWins);
        assert_eq!(r("La partie est nulle"), DeclaredResult::Draw);
        assert_eq!(r("Игру выиграл(а) кто-то."), DeclaredResult::Unknown);
        assert_eq!(
            declared_result("Game won by on", Some("a"), Some("on")).0,
            DeclaredResult::BlackWins
        );
        assert_eq!(
            declared_result("ann and joe", Some("ann"), Some("joe")).0,
            DeclaredResult::Unknown
        );
    }

    #[test]
    fn names_match_loosely_with_a_note() {
        // §10.15, the cases of boardspace's 2020 archive: RE names the bot
        // without the digit its id carries, the guest with its number, or
        // the guest in Spanish.
        let r = |re: &str, white: &str, black: &str| declared_result(re, Some(white), Some(black));
        for (re, white, black, expected) in [
            (
                "Game won by Dumbot",
                "Dumbot0",
                "alice",
                DeclaredResult::WhiteWins,
            ),
            (
                "Game won by WeakBot",
                "bob",
                "WeakBot1",
                DeclaredResult::BlackWins,
            ),
            (
                "Game won by guest1497",
                "Dumbot0",
                "guest",
                DeclaredResult::BlackWins,
            ),
            (
                "Partida ganada por invitado1499",
                "guest",
                "Dumbot0",
                DeclaredResult::WhiteWins,
            ),
            (
                "Game won by GUEST.",
                "Gast",
                "carol",
                DeclaredResult::WhiteWins,
            ),
        ] {
            let (result, note) = r(re, white, black);
            assert_eq!(result, expected, "{re}");
            let note = note.unwrap_or_default();
            assert!(note.contains("only loosely"), "{re}: {note}");
        }
        // an exact word decides before any loose match, without a note
        assert_eq!(
            r("Game won by guest2", "guest", "guest2"),
            (DeclaredResult::BlackWins, None)
        );
        // two players alike once normalised: unknown, noted
        let (result, note) = r("Game won by Dumbot", "Dumbot0", "Dumbot1");
        assert_eq!(result, DeclaredResult::Unknown);
        assert!(note.unwrap_or_default().contains("both players alike"));
        // a text naming nobody stays unknown, noted
        let (result, note) = r("Game won by mallory", "Dumbot0", "guest");
        assert_eq!(result, DeclaredResult::Unknown);
        assert!(note.unwrap_or_default().contains("names neither player"));
        // a loose match needs a whole word: "dumbots" is not "Dumbot0"
        assert_eq!(
            r("dumbots everywhere", "Dumbot0", "x").0,
            DeclaredResult::Unknown
        );
    }

    #[test]
    fn loose_names() {
        // §10.15
        assert_eq!(loose_name("Dumbot0"), "dumbot");
        assert_eq!(loose_name("invitado1499"), "guest");
        assert_eq!(loose_name("Invité"), "guest");
        assert_eq!(loose_name("1234"), "1234");
        assert_eq!(loose_name("Kaur50"), "kaur");
    }
}
