//! Printing a record as a PGN in Mzinga's style (§10.3), which the reader
//! reads back to the same game: `convert --to pgn`, and the round trip the
//! fuzz targets check.

use std::fmt::Write as _;

use super::result::result_word;
use crate::core::{escape_controls, GameType};
use crate::records::{DeclaredResult, Format, Record};

/// The SGF root properties a PGN keeps, under the tag names Mzinga's
/// converter gives them (§10.17): the date as written, the game's name
/// and the result as written.
const SGF_TAGS: [(&str, &str); 3] = [
    ("DT", "SgfDate"),
    ("GN", "SgfGameName"),
    ("RE", "SgfResult"),
];

/// Prints a record as a PGN in Mzinga's style: `[GameType "..."]` first,
/// then `Date`, `Event`, `Site`, `Round`, `White`, `Black` and `Result`
/// (the date, players and result from the record's fields, the others from
/// its tags), then the record's other tags in order (for an SGF record,
/// only `SgfDate`, `SgfGameName` and `SgfResult`, from its `DT`, `GN` and
/// `RE`: §10.17); a blank line; one
/// `N. move` line per ply from [`RecordedMove::uhp`](crate::records::RecordedMove::uhp); and for a decided
/// result a blank line and the result word (`WhiteWins`, `BlackWins`,
/// `Draw`).
///
/// An unfinished result is written `InProgress` (`NotStarted` for a game
/// with no ply); an unknown one writes no `Result` tag. Comments and notes
/// are not written. `read(write(r))` gives the same game type, moves and
/// result, and the players and date as [`written_tag_value`] writes them:
/// the same when they are trimmed, on one line and free of control
/// characters (which are escaped, so that no name reaches a terminal raw).
pub fn write(record: &Record) -> String {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut used = vec![false; record.tags.len()];
    let mut take_tag = |key: &str, tags: &mut Vec<(String, String)>| {
        if let Some(i) = record
            .tags
            .iter()
            .position(|(k, _)| k.eq_ignore_ascii_case(key))
        {
            used[i] = true;
            tags.push((key.to_string(), record.tags[i].1.clone()));
        }
    };
    if let Some(date) = &record.date {
        tags.push(("Date".to_string(), date.clone()));
    }
    for key in ["Event", "Site", "Round"] {
        take_tag(key, &mut tags);
    }
    if let Some(white) = &record.white {
        tags.push(("White".to_string(), white.clone()));
    }
    if let Some(black) = &record.black {
        tags.push(("Black".to_string(), black.clone()));
    }
    let result = match record.result {
        DeclaredResult::WhiteWins => Some("WhiteWins"),
        DeclaredResult::BlackWins => Some("BlackWins"),
        DeclaredResult::Draw => Some("Draw"),
        DeclaredResult::Unfinished if record.moves.is_empty() => Some("NotStarted"),
        DeclaredResult::Unfinished => Some("InProgress"),
        DeclaredResult::Unknown => None,
    };
    if let Some(result) = result {
        tags.push(("Result".to_string(), result.to_string()));
    }
    if record.format == Format::Sgf {
        // §10.17: an SGF's root properties are no PGN tags; the three that
        // say something beyond the fields take Mzinga's names, the others
        // (GM, SU, P0, P1, ...) are the fields already written
        for (property, key) in SGF_TAGS {
            let value = record.tags.iter().find(|(k, _)| k == property);
            if let Some((_, value)) = value.filter(|(_, v)| !v.trim().is_empty()) {
                tags.push((key.to_string(), value.clone()));
            }
        }
    } else {
        let written_from_fields = ["GameType", "Date", "White", "Black", "Result"];
        for (i, (key, value)) in record.tags.iter().enumerate() {
            if used[i]
                || written_from_fields
                    .iter()
                    .any(|k| k.eq_ignore_ascii_case(key))
            {
                continue;
            }
            tags.push((key.clone(), value.clone()));
        }
    }
    let moves: Vec<String> = record.moves.iter().map(|m| m.uhp.clone()).collect();
    write_game(record.game_type, &moves, &tags)
}

/// Prints a game as a PGN in Mzinga's style, for converting a UHP
/// GameString: `[GameType "..."]`, then `tags` in the given order (a
/// `GameType` among them is skipped), a blank line, `N. move` for each of
/// `moves` (MoveStrings, `pass` included), and, when a `Result` tag reads
/// as a decided result (`WhiteWins`, `1-0`, `Draw`, ...), a blank line and
/// that result as a UHP word.
///
/// Tag names are kept to letters, digits and `_` (a tag whose name has no
/// letter first is dropped); values are trimmed, a line break in one
/// becomes a space, so that every tag stays one line, and any other control
/// character but a tab is escaped ([`tag_text`]), so that no tag reaches a
/// terminal raw. A `\` or `"` inside a value is written escaped (`\\`,
/// `\"`), as a strict PGN reader expects (§10.17), and
/// [`read`](super::read) unescapes it, so a value reads back unchanged
/// when it is trimmed and on one line.
pub fn write_game(game_type: GameType, moves: &[String], tags: &[(String, String)]) -> String {
    let mut out = format!("[GameType \"{game_type}\"]\n");
    let mut result = None;
    for (key, value) in tags {
        let key: String = key
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !key.starts_with(|c: char| c.is_ascii_alphabetic())
            || key.eq_ignore_ascii_case("GameType")
        {
            continue;
        }
        let value = written_tag_value(value);
        if key.eq_ignore_ascii_case("Result") {
            result = result_word(&value);
        }
        let _ = writeln!(out, "[{key} \"{}\"]", escaped_quotes(&value));
    }
    out.push('\n');
    for (i, mv) in moves.iter().enumerate() {
        let mv = mv.split_whitespace().collect::<Vec<_>>().join(" ");
        let _ = writeln!(out, "{}. {}", i + 1, escape_controls(&mv));
    }
    let word = match result {
        Some(DeclaredResult::WhiteWins) => Some("WhiteWins"),
        Some(DeclaredResult::BlackWins) => Some("BlackWins"),
        Some(DeclaredResult::Draw) => Some("Draw"),
        _ => None,
    };
    if let Some(word) = word {
        let _ = write!(out, "\n{word}\n");
    }
    out
}

/// A tag value as [`write_game`] writes it, and so as it reads back: line
/// breaks become spaces, the value is trimmed, and control characters are
/// escaped ([`tag_text`]).
pub fn written_tag_value(value: &str) -> String {
    let value: String = value
        .chars()
        .map(|c| if matches!(c, '\n' | '\r') { ' ' } else { c })
        .collect();
    tag_text(value.trim())
}

/// A tag value as written: every control character escaped
/// ([`escape_controls`], `\x1b`) except tabs, which a terminal shows as
/// blank space and a value may hold.
pub fn tag_text(value: &str) -> String {
    value
        .split('\t')
        .map(escape_controls)
        .collect::<Vec<_>>()
        .join("\t")
}

/// A tag value inside its quotes (§10.17): each `\` and `"` escaped with a
/// backslash, as PGN writes them; the reader undoes it.
fn escaped_quotes(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '\\' | '"') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
