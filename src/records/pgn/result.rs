//! The words a PGN record declares a result with (§10.4; the list in
//! spec/sources/records-notes.md section 2.4): on a result line and in a
//! `Result` tag alike.

use crate::records::DeclaredResult;

/// The result a result line or a `Result` tag names, in any letter case:
/// the words of records-notes.md section 2.4, and `Adjudicated` (a hivegame status word
/// that names no winner) as Unknown.
pub(super) fn result_word(text: &str) -> Option<DeclaredResult> {
    const WORDS: [(&str, DeclaredResult); 13] = [
        ("WhiteWins", DeclaredResult::WhiteWins),
        ("1-0", DeclaredResult::WhiteWins),
        ("BlackWins", DeclaredResult::BlackWins),
        ("0-1", DeclaredResult::BlackWins),
        ("Draw", DeclaredResult::Draw),
        ("1/2-1/2", DeclaredResult::Draw),
        ("½-½", DeclaredResult::Draw),
        ("InProgress", DeclaredResult::Unfinished),
        ("NotStarted", DeclaredResult::Unfinished),
        ("*", DeclaredResult::Unfinished),
        ("Unknown", DeclaredResult::Unknown),
        ("Unkown", DeclaredResult::Unknown),
        ("Adjudicated", DeclaredResult::Unknown),
    ];
    let text = text.trim();
    WORDS
        .into_iter()
        .find(|(word, _)| word.eq_ignore_ascii_case(text))
        .map(|(_, result)| result)
}
