//! The commands of the `hive-oracle` binary, one module each (or one for the
//! commands that take a single position), and what they share: the engine
//! choice, the rules options, the exit statuses and how a command line names
//! a game.

use clap::ValueEnum;

use hive_oracle::core::notation::parse_game_type;
use hive_oracle::core::RulesOptions;
use hive_oracle::reference::ReferenceEngine;
use hive_oracle::rules::Rules;

pub mod check;
pub mod output;
pub mod position;
pub mod replay;
pub mod selfcheck;
pub mod uhp;

/// The exit status of bad input and of a command that fails (README).
pub const FAILURE: u8 = 1;
/// The exit status of `check` when it cannot run (bad arguments included)
/// and of `check` and `replay` when their report cannot be written: their
/// status 1 is a verdict.
pub const COULD_NOT_RUN: u8 = 2;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EngineChoice {
    /// The fast engine, written for speed and checked against the reference (src/fast/).
    Fast,
    /// The reference engine, written for the reader (src/reference/).
    Reference,
}

/// Rules options shared by every command that builds a game.
#[derive(clap::Args, Clone, Copy)]
pub struct RulesArgs {
    /// Allow the queen as a player's first placement (standard opening, §4.2).
    #[arg(long)]
    standard_opening: bool,
    /// Draw on the third occurrence of a position within 32 plies (§8.7.2).
    #[arg(long)]
    repetition_draw: bool,
}

impl RulesArgs {
    pub fn options(self) -> RulesOptions {
        RulesOptions {
            tournament_opening: !self.standard_opening,
            repetition_draw: self.repetition_draw,
        }
    }
}

/// Loads a GameTypeString (a new game) or a full GameString (§9.15, §9.31).
/// When an engine refuses a GameString, the message is the reference
/// engine's, which names the clause that forbids the move (the fast engine
/// only says that a move is not legal).
pub fn load_game<R: Rules>(text: &str, options: RulesOptions) -> Result<R, String> {
    hive_oracle::explain::check_game_string_length(text)?;
    if !text.contains(';') {
        if let Ok(game_type) = parse_game_type(text) {
            return Ok(R::new_game(game_type, options));
        }
        if std::path::Path::new(text).is_file() {
            // a game record: its first game, under its own opening
            let (_, reference) = hive_oracle::explain::load_record(text, 1, None)?;
            return R::load_with(&reference.game_string(), reference.options())
                .map_err(|e| e.to_string());
        }
        let game_type = parse_game_type(text).map_err(|e| e.to_string())?;
        return Ok(R::new_game(game_type, options));
    }
    R::load_with(text, options).map_err(|e| match ReferenceEngine::load_with(text, options) {
        Err(explained) => explained.to_string(),
        Ok(_) => format!("{e} (the reference engine accepts this game: please report it)"),
    })
}
