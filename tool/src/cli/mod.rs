//! The `hive-oracle` command line: the commands and their dispatch
//! ([`main`]), one module each (or one for the commands that take a single
//! position), and what they share: the engine choice, the rules options and
//! the exit statuses. How a command line names a game is decided by
//! [`input`](crate::input).

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use hive_oracle_rules::core::RulesOptions;

pub(crate) mod check;
mod convert;
#[cfg(feature = "faults")]
mod faulty_process;
mod manual;
pub(crate) mod output;
mod position;
mod replay;
mod selfcheck;
mod stdin;
mod uhp;

use output::Stop;

/// The exit status of bad input and of a command that fails (README).
pub const FAILURE: u8 = 1;
/// The exit status of a usage error in any command: an unknown option, a
/// missing or malformed argument, a value outside its range (README).
pub const USAGE_ERROR: u8 = 2;
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

/// What `--version` and `-V` print after the name: the version, the commit
/// it was built from ("unknown" outside a git checkout) and the enabled
/// features (build.rs).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("HIVE_ORACLE_BUILD"),
    ")"
);

/// hive-oracle: the rules of Hive, written down and executable.
#[derive(Parser)]
#[command(name = "hive-oracle", version = VERSION, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the move tree at each depth from 1 to DEPTH.
    Perft(position::PerftArgs),
    /// Print the legal moves of a GameString, `;`-separated, in canonical notation.
    Validmoves(position::ValidmovesArgs),
    /// Play moves on a GameString and print the resulting GameString.
    Play(position::PlayArgs),
    /// Play random games on the fast and the reference engine at once and
    /// compare them at every ply; exit non-zero on a disagreement.
    Selfcheck(selfcheck::SelfcheckArgs),
    /// Print an ASCII picture of a position (and write an SVG picture with --svg).
    Render(position::RenderArgs),
    /// Explain a move (legal or illegal, and why, clause by clause) or, with
    /// no move, a position (its state and every legal move with its clause).
    Explain(position::ExplainArgs),
    /// Replay game records (PGN-style files and boardspace SGF) move by move:
    /// for each game, legal to its end with the final state checked against
    /// the declared result, or the first illegal ply with its clause. Exit 0:
    /// every game legal and ending as declared, every file read; 1: not so;
    /// 2: nothing to replay.
    Replay(replay::ReplayArgs),
    /// Convert a game record (PGN or boardspace SGF) to a UHP GameString, or
    /// a record or a GameString to a PGN record.
    Convert(convert::ConvertArgs),
    /// Check a UHP engine against the rules: protocol, the case corpus and
    /// seeded random games. Exit 0: it passes (no error, and no advisory
    /// with --strict-notation, that the baseline does not list); 1: it
    /// fails; 2: the check could not run.
    Check(Box<check::CheckArgs>),
    /// Merge the JSON reports of the shards of one check (`check --shard
    /// I/N`) into the report of the whole check. Exit 0: it passes; 1: it
    /// fails; 2: the reports are not the shards of one check.
    CheckMerge(check::MergeArgs),
    /// Run as a Universal Hive Protocol engine on stdin and stdout, for UHP
    /// viewers and tournament runners (rules options are engine options).
    Uhp(uhp::UhpArgs),
    /// Print the completion script of a shell (bash, elvish, fish,
    /// powershell, zsh) for hive-oracle's commands and options.
    Completions(manual::CompletionsArgs),
    /// Print the manual page (roff) of hive-oracle, or of one of its
    /// commands: `hive-oracle man check | man -l -`.
    Man(manual::ManArgs),
}

/// Runs the command line on this process's arguments (`tool/src/main.rs`).
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap quotes the arguments it refuses: escaped like every message
            let text = e.render().to_string();
            let text = hive_oracle_rules::core::escape_controls_in_lines(&text);
            let printed = if e.use_stderr() {
                output::say_lines(&text);
                Ok(())
            } else {
                output::write_stdout(&text)
            };
            return if e.use_stderr() {
                // a usage error in any command (a mistyped option, a missing
                // or malformed argument, a value out of its range): 2, so
                // that it is never taken for a verdict or a refusal (1)
                ExitCode::from(USAGE_ERROR)
            } else {
                // --help and --version, on stdout
                output::status_after_report(printed, ExitCode::SUCCESS, FAILURE)
            };
        }
    };
    let stdout = std::io::stdout();
    let out = &mut stdout.lock();
    let result: Result<(), Stop> = match cli.command {
        Command::Check(args) => return check::run(*args),
        Command::CheckMerge(args) => return check::run_merge(args),
        Command::Replay(args) => return replay::run(args),
        Command::Selfcheck(args) => return selfcheck::run_command(args),
        Command::Convert(args) => convert::convert(out, args),
        Command::Perft(args) => position::perft(out, args),
        Command::Validmoves(args) => position::validmoves(out, args),
        Command::Play(args) => position::play(out, args),
        Command::Render(args) => position::render(out, args),
        Command::Explain(args) => position::explain(out, args),
        Command::Uhp(args) => uhp::run(args),
        Command::Completions(args) => manual::completions(out, args, Cli::command()),
        Command::Man(args) => manual::man(out, args, Cli::command()),
    };
    // a write error held in the buffer shows at the flush
    let result = result.and_then(|()| Ok(std::io::Write::flush(out)?));
    output::exit_status(result, FAILURE)
}
