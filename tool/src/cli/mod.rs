//! The `hive-oracle` command line: the commands and their dispatch
//! (`dispatch.rs`, [`main`]), one module each (or one for the commands that take a single
//! position), and what they share: the engine choice, the rules options and
//! the exit statuses. How a command line names a game is decided by
//! [`input`](crate::input).

use clap::ValueEnum;

use hive_oracle_rules::core::RulesOptions;

pub(crate) mod check;
mod convert;
mod dispatch;
#[cfg(feature = "faults")]
mod faulty_process;
mod manual;
pub(crate) mod output;
mod position;
mod replay;
mod selfcheck;
mod uhp;

pub use dispatch::main;

/// The exit status of bad input and of a command that fails (README).
pub const FAILURE: u8 = 1;
/// The exit status of a usage error in any command: an unknown option, a
/// missing or malformed argument, a value outside its range (README).
pub const USAGE_ERROR: u8 = 2;
/// The exit status of `check` when it cannot run (bad arguments included)
/// and of `replay` when its report cannot be written: their status 1 is a
/// verdict.
pub const COULD_NOT_RUN: u8 = 2;
/// The exit status of `check` and `check-merge` when the verdict was
/// reached but an output file (`--out`, `--write-baseline`, a reproduce
/// file) could not be written: the report is on stdout, its last line the
/// verdict, and each file lost is named on stderr.
pub const OUTPUT_LOST: u8 = 3;

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

/// `--game N`: which game of a record file, with one meaning in every
/// command that takes a record file (`perft`, `validmoves`, `play`,
/// `render`, `explain`, `convert`).
#[derive(clap::Args, Clone, Copy)]
pub struct GameNumber {
    /// Which game of a record file holding several (1 = the first); refused
    /// when the game given is not a record file with that many games.
    #[arg(id = "game_number", long = "game", value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    game: Option<u64>,
}

impl GameNumber {
    /// The game asked for, if any.
    pub fn get(self) -> Option<usize> {
        self.game
            .map(|number| usize::try_from(number).unwrap_or(usize::MAX))
    }
}
