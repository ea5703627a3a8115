//! The `hive-oracle` command line.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};

use hive_oracle::core::notation::parse_game_type;
use hive_oracle::core::RulesOptions;
use hive_oracle::reference::ReferenceEngine;
use hive_oracle::rules::{divide, Rules};

/// hive-oracle: the rules of Hive, written down and executable.
#[derive(Parser)]
#[command(name = "hive-oracle", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EngineChoice {
    /// The reference engine, written for the reader (src/reference/).
    Reference,
}

/// Rules options shared by every command that builds a game.
#[derive(clap::Args, Clone, Copy)]
struct RulesArgs {
    /// Allow the queen as a player's first placement (standard opening, §4.2).
    #[arg(long)]
    standard_opening: bool,
    /// Draw on the third occurrence of a position within 32 plies (§8.7.2).
    #[arg(long)]
    repetition_draw: bool,
}

impl RulesArgs {
    fn options(self) -> RulesOptions {
        RulesOptions {
            tournament_opening: !self.standard_opening,
            repetition_draw: self.repetition_draw,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the move tree at each depth from 1 to DEPTH.
    Perft {
        /// The deepest ply to count.
        depth: u32,
        /// A GameTypeString (start of that game) or a full GameString.
        #[arg(long, default_value = "Base")]
        game: String,
        /// The engine that generates the moves.
        #[arg(long, value_enum, default_value_t = EngineChoice::Reference)]
        engine: EngineChoice,
        /// Also print the count below each root move at DEPTH.
        #[arg(long)]
        divide: bool,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Print the legal moves of a GameString, `;`-separated, in canonical notation.
    Validmoves {
        /// The game, as a GameString (or a GameTypeString for a new game).
        game: String,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Play moves on a GameString and print the resulting GameString.
    Play {
        /// The game, as a GameString (or a GameTypeString for a new game).
        game: String,
        /// The moves to play, each a MoveString (quote moves that contain spaces).
        #[arg(required = true)]
        moves: Vec<String>,
        #[command(flatten)]
        rules: RulesArgs,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft {
            depth,
            game,
            engine,
            divide,
            rules,
        } => match engine {
            EngineChoice::Reference => {
                run_perft::<ReferenceEngine>(&game, depth, divide, rules.options())
            }
        },
        Command::Validmoves { game, rules } => {
            run_validmoves::<ReferenceEngine>(&game, rules.options())
        }
        Command::Play { game, moves, rules } => {
            run_play::<ReferenceEngine>(&game, &moves, rules.options())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Loads a GameTypeString (a new game) or a full GameString (§9.1, §9.4).
fn load_game<R: Rules>(text: &str, options: RulesOptions) -> Result<R, String> {
    if !text.contains(';') {
        let game_type = parse_game_type(text).map_err(|e| e.to_string())?;
        return Ok(R::new_game(game_type, options));
    }
    R::load_with(text, options).map_err(|e| e.to_string())
}

fn run_perft<R: Rules>(
    game_text: &str,
    depth: u32,
    show_divide: bool,
    options: RulesOptions,
) -> Result<(), String> {
    let mut game = load_game::<R>(game_text, options)?;
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = game.count_leaves(d);
        let seconds = start.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
        println!("{d}\t{nodes}\t{seconds:.3} s\t{:.0} nodes/s", rate);
    }
    if show_divide && depth > 0 {
        for (mv, nodes) in divide(&mut game, depth) {
            println!("{mv}\t{nodes}");
        }
    }
    Ok(())
}

fn run_validmoves<R: Rules>(game_text: &str, options: RulesOptions) -> Result<(), String> {
    let game = load_game::<R>(game_text, options)?;
    let mut moves: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|mv| game.move_string(mv))
        .collect();
    moves.sort();
    // §8.5 a finished game has no legal moves: print nothing at all
    if !moves.is_empty() {
        println!("{}", moves.join(";"));
    }
    Ok(())
}

fn run_play<R: Rules>(
    game_text: &str,
    moves: &[String],
    options: RulesOptions,
) -> Result<(), String> {
    let mut game = load_game::<R>(game_text, options)?;
    for text in moves {
        let mv = game.parse_move(text).map_err(|e| e.to_string())?;
        game.play(mv)
            .map_err(|e| format!("{} is illegal: {e}", text.trim()))?;
    }
    println!("{}", game.game_string());
    Ok(())
}
