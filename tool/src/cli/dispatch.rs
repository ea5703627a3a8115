//! The commands of `hive-oracle` and their dispatch: the command line as
//! clap reads it, each command handed to its module.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use super::output::{self, Stop};
use super::{check, convert, manual, position, replay, selfcheck, uhp, FAILURE, USAGE_ERROR};
use crate::check::given::CheckOptions;

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
    /// Print the position string of a game (§9.41): its position without
    /// its history, for a dispute over a board.
    Position(position::PositionArgs),
    /// Search, within a budget of positions, for a legal game that reaches
    /// a set-up position, and print its GameString (§9.44).
    History(position::HistoryArgs),
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
    Check(Box<CheckOptions>),
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
        Command::Position(args) => position::position(out, args),
        Command::History(args) => position::history(out, args),
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
