//! The lines `check` sends to an engine, built in one place: a move played
//! as written, the way to a position, the rules options set.

use hive_oracle_rules::core::{Move, RulesOptions};

/// The command that plays `mv` (written `text`).
pub(crate) fn play_line(mv: Move, text: &str) -> String {
    if mv == Move::Pass && text == "pass" {
        "pass".to_string()
    } else {
        format!("play {text}")
    }
}

/// The command that plays a move written `text`, as written (`pass` alone).
pub(crate) fn play_line_as_written(text: &str) -> String {
    if text.trim().eq_ignore_ascii_case("pass") {
        text.trim().to_string()
    } else {
        format!("play {text}")
    }
}

/// The commands that set the rules options on an empty game.
pub(crate) fn rules_commands(options: RulesOptions) -> Vec<String> {
    let word = |on: bool| if on { "True" } else { "False" };
    vec![
        "newgame Base".to_string(),
        format!(
            "options set TournamentOpening {}",
            word(options.tournament_opening)
        ),
        format!(
            "options set RepetitionDraw {}",
            word(options.repetition_draw)
        ),
    ]
}

/// The lines of a conversation, as bytes for a reproduce pipe
/// ([`pipe`](crate::check::findings::quote::pipe)).
pub(crate) fn as_bytes(lines: &[String]) -> Vec<Vec<u8>> {
    lines.iter().map(|l| l.as_bytes().to_vec()).collect()
}
