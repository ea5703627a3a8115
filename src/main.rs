//! The `hive-oracle` command line.

#![forbid(unsafe_code)]

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};

use hive_oracle::core::notation::{parse_game_type, parse_piece, BoardView};
use hive_oracle::core::{Hex, RulesOptions};
use hive_oracle::fast::FastEngine;
use hive_oracle::reference::ReferenceEngine;
use hive_oracle::render;
use hive_oracle::rules::{divide, perft_threads, Rules};

mod output;
mod selfcheck;

use output::Stop;

/// hive-oracle: the rules of Hive, written down and executable.
#[derive(Parser)]
#[command(name = "hive-oracle", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CheckFormat {
    Text,
    Json,
    Junit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ReplayFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ConvertTarget {
    /// A UHP GameString (§9.31), as every UHP engine reads it.
    Gamestring,
    /// A PGN-style record, as Mzinga writes it.
    Pgn,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EngineChoice {
    /// The fast engine, written for speed and checked against the reference (src/fast/).
    Fast,
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
        /// The deepest ply to count, 1 to 11 (deeper takes weeks).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=PERFT_MAX_DEPTH as i64))]
        depth: u32,
        /// A GameTypeString (start of that game) or a full GameString.
        #[arg(long, default_value = "Base")]
        game: String,
        /// The engine that generates the moves.
        #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
        engine: EngineChoice,
        /// Split the root moves across this many threads (1 to 256).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
        threads: u64,
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
        /// The engine that generates the moves.
        #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
        engine: EngineChoice,
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
        /// The engine that checks and plays the moves.
        #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
        engine: EngineChoice,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Play random games on the fast and the reference engine at once and
    /// compare them at every ply; exit non-zero on a disagreement.
    Selfcheck {
        /// How many games to play (1 to 1,000,000).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=SELFCHECK_MAX_GAMES))]
        games: u64,
        /// The seed of the random games (the same seed plays the same games).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Only this game type (a GameTypeString); all eight in turn by default.
        #[arg(long)]
        game: Option<String>,
        /// Stop a game after this many plies if it has not ended (1 to 10,000).
        #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(u64).range(1..=SELFCHECK_MAX_PLIES as u64))]
        max_plies: u64,
    },
    /// Print an ASCII picture of a position (and write an SVG picture with --svg).
    Render {
        /// The game, as a GameString (or a GameTypeString for a new game).
        game: String,
        /// Also write a standalone SVG picture to this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Cells to highlight, separated by spaces, commas or semicolons: axial
        /// coordinates `q,r` in parentheses or not, or piece names (their cells).
        #[arg(long, value_name = "CELLS")]
        highlight: Option<String>,
        /// A MoveString: highlight its start and destination and draw its arrow.
        #[arg(long = "move", value_name = "MOVE")]
        mv: Option<String>,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Explain a move (legal or illegal, and why, clause by clause) or, with
    /// no move, a position (its state and every legal move with its clause).
    Explain {
        /// The game, as a GameString (or a GameTypeString for a new game).
        game: String,
        /// The MoveString to explain (quote it if it contains a space).
        #[arg(value_name = "MOVE")]
        mv: Option<String>,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Replay game records (PGN-style files and boardspace SGF) move by move:
    /// for each game, legal to its end with the final state checked against
    /// the declared result, or the first illegal ply with its clause. Exit 0:
    /// every game legal and ending as declared, every file read; 1: not so;
    /// 2: nothing to replay.
    Replay {
        /// Record files, or folders searched recursively for .pgn and .sgf files.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<std::path::PathBuf>,
        /// The engine that replays the moves (a refusal is always explained
        /// by the reference engine).
        #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
        engine: EngineChoice,
        /// The report: text (problems and a summary table) or JSON (every game).
        #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
        format: ReplayFormat,
        /// Files replayed at once; the report's order does not depend on it.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        jobs: u64,
    },
    /// Convert a game record (PGN or boardspace SGF) to a UHP GameString, or
    /// a record or a GameString to a PGN record.
    Convert {
        /// A record file, or a UHP GameString.
        input: String,
        /// What to print.
        #[arg(long, value_enum, default_value_t = ConvertTarget::Gamestring)]
        to: ConvertTarget,
        /// Which game of a file holding several (1 = the first).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        game: u64,
    },
    /// Check a UHP engine against the rules: protocol, the case corpus and
    /// seeded random games. Exit 0: it passes (no error, and no advisory
    /// with --strict-notation, that the baseline does not list); 1: it
    /// fails; 2: the check could not run.
    Check(CheckArgs),
    /// Run as a Universal Hive Protocol engine on stdin and stdout, for UHP
    /// viewers and tournament runners (rules options are engine options).
    Uhp {
        /// The engine that holds the game (the `Engine` option can switch it).
        #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
        engine: EngineChoice,
        /// A deliberate fault, for testing the checker (see src/uhp/fault.rs).
        #[arg(long, hide = true, value_name = "NAME", value_parser = parse_fault)]
        fault: Option<hive_oracle::uhp::Fault>,
    },
}

/// Reads the name of a `--fault`.
fn parse_fault(text: &str) -> Result<hive_oracle::uhp::Fault, String> {
    text.parse()
}

/// The most plies `perft` counts: from the Base start, depth 7 takes about a
/// second on the fast engine and each ply multiplies the time by about 15, so
/// depth 11 takes about a day and anything deeper weeks (README, "Perft").
const PERFT_MAX_DEPTH: u32 = 11;
/// The most threads `perft --threads` starts.
const MAX_THREADS: usize = 256;
/// The most games `selfcheck --games` plays: about a day at the default
/// length on the project's 2-core machine.
const SELFCHECK_MAX_GAMES: u64 = 1_000_000;
/// The longest `selfcheck` game, in plies (`--max-plies`).
const SELFCHECK_MAX_PLIES: usize = 10_000;

/// The exit status of bad input and of a command that fails (README).
const FAILURE: u8 = 1;
/// The exit status of `check` when it cannot run (bad arguments included)
/// and of `check` and `replay` when their report cannot be written: their
/// status 1 is a verdict.
const COULD_NOT_RUN: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let printed = e.print();
            return if !e.use_stderr() {
                // --help and --version, on stdout
                output::status_after_report(printed, ExitCode::SUCCESS, FAILURE)
            } else if std::env::args_os()
                .nth(1)
                .is_some_and(|word| word == "check")
            {
                // `check` documents 2 for bad arguments (it could not run)
                ExitCode::from(COULD_NOT_RUN)
            } else {
                // the README promises 1 for bad input; clap would exit 2
                ExitCode::from(FAILURE)
            };
        }
    };
    let stdout = std::io::stdout();
    let out = &mut stdout.lock();
    let result = match cli.command {
        Command::Check(args) => return run_check(args),
        Command::Replay {
            paths,
            engine,
            format,
            jobs,
        } => return run_replay(&paths, engine, format, jobs),
        Command::Selfcheck {
            games,
            seed,
            game,
            max_plies,
        } => return run_selfcheck(games, seed, game.as_deref(), max_plies),
        Command::Convert { input, to, game } => run_convert(out, &input, to, game),
        Command::Perft {
            depth,
            game,
            engine,
            threads,
            divide,
            rules,
        } => match engine {
            EngineChoice::Fast => {
                run_perft::<FastEngine>(out, &game, depth, threads, divide, rules.options())
            }
            EngineChoice::Reference => {
                run_perft::<ReferenceEngine>(out, &game, depth, threads, divide, rules.options())
            }
        },
        Command::Validmoves {
            game,
            engine,
            rules,
        } => match engine {
            EngineChoice::Fast => run_validmoves::<FastEngine>(out, &game, rules.options()),
            EngineChoice::Reference => {
                run_validmoves::<ReferenceEngine>(out, &game, rules.options())
            }
        },
        Command::Play {
            game,
            moves,
            engine,
            rules,
        } => match engine {
            EngineChoice::Fast => run_play::<FastEngine>(out, &game, &moves, rules.options()),
            EngineChoice::Reference => {
                run_play::<ReferenceEngine>(out, &game, &moves, rules.options())
            }
        },
        Command::Uhp { engine, fault } => run_uhp(engine, fault),
        Command::Render {
            game,
            svg,
            highlight,
            mv,
            rules,
        } => run_render(
            out,
            &game,
            svg.as_deref(),
            highlight.as_deref(),
            mv.as_deref(),
            rules.options(),
        ),
        Command::Explain { game, mv, rules } => {
            hive_oracle::explain::explain_command(&game, mv.as_deref(), rules.options())
                .map_err(Stop::Refused)
                .and_then(|text| Ok(out.write_all(text.as_bytes())?))
        }
    };
    // a write error held in the buffer shows at the flush
    let result = result.and_then(|()| Ok(out.flush()?));
    output::exit_status(result, FAILURE)
}

/// Loads a GameTypeString (a new game) or a full GameString (§9.15, §9.31).
/// When an engine refuses a GameString, the message is the reference
/// engine's, which names the clause that forbids the move (the fast engine
/// only says that a move is not legal).
fn load_game<R: Rules>(text: &str, options: RulesOptions) -> Result<R, String> {
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

fn run_perft<R: Rules + Send>(
    out: &mut impl Write,
    game_text: &str,
    depth: u32,
    threads: u64,
    show_divide: bool,
    options: RulesOptions,
) -> Result<(), Stop> {
    // clap holds both within their ranges; the cast cannot truncate
    let threads = threads.clamp(1, MAX_THREADS as u64) as usize;
    let depth = depth.clamp(1, PERFT_MAX_DEPTH);
    let mut game = load_game::<R>(game_text, options)?;
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = perft_threads(&game, d, threads);
        let seconds = start.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
        writeln!(out, "{d}\t{nodes}\t{seconds:.3} s\t{rate:.0} nodes/s")?;
        out.flush()?;
    }
    if show_divide {
        for (mv, nodes) in divide(&mut game, depth) {
            writeln!(out, "{mv}\t{nodes}")?;
        }
    }
    Ok(())
}

fn run_validmoves<R: Rules>(
    out: &mut impl Write,
    game_text: &str,
    options: RulesOptions,
) -> Result<(), Stop> {
    let game = load_game::<R>(game_text, options)?;
    let moves = game.valid_move_strings();
    // §8.5 a finished game has no legal moves: print nothing at all
    if !moves.is_empty() {
        writeln!(out, "{}", moves.join(";"))?;
    }
    Ok(())
}

fn run_play<R: Rules>(
    out: &mut impl Write,
    game_text: &str,
    moves: &[String],
    options: RulesOptions,
) -> Result<(), Stop> {
    let mut game = load_game::<R>(game_text, options)?;
    for text in moves {
        let mv = game.parse_move(text).map_err(|e| e.to_string())?;
        hive_oracle::explain::play_explained(&mut game, mv)
            .map_err(|why| format!("{} is illegal: {why}", text.trim()))?;
    }
    writeln!(out, "{}", game.game_string())?;
    Ok(())
}

/// Reads the `--highlight` list: `q,r` pairs (optionally in parentheses) or
/// piece names standing for their cells. A cell beyond the picture of the
/// position (the hive and `render::MARGIN` cells around it) is refused with
/// the allowed range, whatever the size of its coordinates.
fn parse_cells(game: &ReferenceEngine, text: &str) -> Result<Vec<Hex>, String> {
    let frame = render::Frame::of(game);
    let cleaned: String = text
        .chars()
        .map(|c| if matches!(c, '(' | ')' | ';') { ' ' } else { c })
        .collect();
    let tokens: Vec<&str> = cleaned.split_whitespace().collect();
    let mut cells = Vec::new();
    let mut pending: Option<i64> = None;
    // Numbers come in pairs (`q,r` or `q, r`); anything else is a piece name.
    for token in tokens
        .iter()
        .flat_map(|t| t.split(','))
        .filter(|t| !t.is_empty())
    {
        if let Some(n) = coordinate(token) {
            match pending.take() {
                None => pending = Some(n),
                Some(q) => cells.push(frame.cell(q, n).map_err(|e| format!("--highlight: {e}"))?),
            }
            continue;
        }
        if pending.is_some() {
            return Err(format!("--highlight: \"{token}\" is not a number after q"));
        }
        let piece = parse_piece(token).map_err(|e| format!("--highlight: {e}"))?;
        let at = game
            .location(piece)
            .ok_or_else(|| format!("--highlight: {piece} is not on the board"))?;
        cells.push(at);
    }
    if pending.is_some() {
        return Err("--highlight: a cell needs two coordinates, q,r".to_string());
    }
    Ok(cells)
}

/// A coordinate of `--highlight`: an optional sign and decimal digits, of any
/// length (one too large for an `i64` is taken as the largest, which is
/// refused as outside the picture all the same).
fn coordinate(token: &str) -> Option<i64> {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(token.parse::<i64>().unwrap_or(if token.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

fn run_render(
    out: &mut impl Write,
    game_text: &str,
    svg_file: Option<&std::path::Path>,
    highlight: Option<&str>,
    move_text: Option<&str>,
    options: RulesOptions,
) -> Result<(), Stop> {
    let game = hive_oracle::explain::load(game_text, options)?;
    let mut cells = match highlight {
        Some(text) => parse_cells(&game, text)?,
        None => Vec::new(),
    };
    let mut arrow = None;
    if let Some(text) = move_text {
        let mv = game.parse_move(text).map_err(|e| e.to_string())?;
        let ends = hive_oracle::explain::move_cells(&game, mv);
        if let [from, to] = ends[..] {
            arrow = Some((from, to));
        }
        cells.extend(ends);
    }
    if let Some(path) = svg_file {
        std::fs::write(path, render::svg(&game, &cells, arrow))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    out.write_all(render::ascii(&game, &cells).as_bytes())?;
    Ok(())
}

/// `uhp`: a closed stdout (the client went away) ends the session quietly
/// with status 0, as the end of the input does; another I/O error on the
/// streams is one line on stderr and status 1.
fn run_uhp(engine: EngineChoice, fault: Option<hive_oracle::uhp::Fault>) -> Result<(), Stop> {
    let engine = match engine {
        EngineChoice::Fast => hive_oracle::uhp::EngineChoice::Fast,
        EngineChoice::Reference => hive_oracle::uhp::EngineChoice::Reference,
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let result = match fault {
        // A deliberate fault wraps the real session (src/uhp/fault.rs).
        Some(fault) => hive_oracle::uhp::run_with_fault(stdin.lock(), stdout.lock(), engine, fault),
        // stdin is read on a thread of its own, so that the end of the
        // input stops a time search (hive_oracle::uhp::run_with_reader)
        None => {
            hive_oracle::uhp::run_with_reader(std::io::BufReader::new(stdin), stdout.lock(), engine)
        }
    };
    match result {
        Ok(()) => Ok(()),
        // The client closed its end of the pipe: nothing is left to answer.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Stop::ClosedPipe),
        Err(e) => Err(Stop::Refused(format!("uhp: {e}"))),
    }
}

/// `selfcheck`: 0 when the engines agree, 1 on a disagreement (after its
/// report) or on bad input.
fn run_selfcheck(games: u64, seed: u64, game: Option<&str>, max_plies: u64) -> ExitCode {
    let game_type = match game.map(parse_game_type).transpose() {
        Ok(game_type) => game_type,
        Err(e) => return output::exit_status(Err(Stop::Refused(e.to_string())), FAILURE),
    };
    let config = selfcheck::Config {
        games: games.clamp(1, SELFCHECK_MAX_GAMES),
        seed,
        game_type,
        max_plies: (max_plies as usize).clamp(1, SELFCHECK_MAX_PLIES),
    };
    let (agreed, written) = selfcheck::run(&config);
    let verdict = if agreed {
        ExitCode::SUCCESS
    } else {
        if written.is_ok() {
            output::say("error: the fast engine disagrees with the reference engine (see above)");
        }
        ExitCode::from(FAILURE)
    };
    output::status_after_report(written, verdict, FAILURE)
}

/// The options of `check`.
#[derive(clap::Args)]
struct CheckArgs {
    /// The engine's command line, in shell syntax (quotes, backslashes);
    /// this executable's `uhp` by default.
    #[arg(long)]
    engine: Option<String>,
    /// How many random games to play (20; 0 with --case).
    #[arg(long)]
    games: Option<u64>,
    /// The seed of the random games: game i of type T draws its moves from
    /// a ChaCha8 generator keyed by (seed, i, T), so two seeds share no game.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The game types of the random games, separated by commas
    /// (e.g. `Base,Base+MLP`); every supported one by default.
    #[arg(long, value_name = "LIST")]
    game_types: Option<String>,
    /// A random game stops after this many plies.
    #[arg(long, default_value_t = 100)]
    max_plies: usize,
    /// A case corpus folder (*.toml, spec/cases.md), or `builtin` for the
    /// corpus built into this binary (the default). Repeat to combine.
    #[arg(long, value_name = "DIR")]
    corpus: Vec<String>,
    /// Run no corpus case (protocol probes and random games only).
    #[arg(long, conflicts_with_all = ["corpus", "cases"])]
    no_corpus: bool,
    /// Run only this corpus case (`file.toml::name`, or the name alone);
    /// repeat for several.
    #[arg(long = "case", value_name = "NAME")]
    cases: Vec<String>,
    /// The rules the engine plays, separated by commas: `tournament-opening`
    /// or `standard-opening`, and `repetition-draw` or `no-repetition-draw`
    /// (a word left out takes its standard value). Without it, the engine's
    /// own `TournamentOpening` and `RepetitionDraw` options are read.
    #[arg(long, value_name = "LIST")]
    rules: Option<String>,
    /// Refusing a lenient spelling (spec/notation.md, an advisory finding)
    /// fails the check too.
    #[arg(long)]
    strict_notation: bool,
    /// Findings listed in this file (written by --write-baseline) are known:
    /// shown, but they do not fail the check.
    #[arg(long, value_name = "FILE")]
    baseline: Option<std::path::PathBuf>,
    /// Write this run's findings to a baseline file.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<std::path::PathBuf>,
    /// Engine processes run at once (independent cases and games), 1 to 64;
    /// the report is the same for every value.
    #[arg(long, default_value_t = 1)]
    jobs: u64,
    /// The timeout on every engine command, in milliseconds (at least 1).
    #[arg(long, default_value_t = 5000)]
    timeout_ms: u64,
    /// The timeout on the engine's start-up banner, in milliseconds (at
    /// least 1).
    #[arg(long, default_value_t = 10000)]
    startup_timeout_ms: u64,
    /// The report format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
    /// Also write the report to this file (checked before the run).
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// Print the JSON Schema of the JSON report and exit.
    #[arg(long)]
    print_schema: bool,
}

/// Reads `--rules`.
fn parse_rules(list: &str) -> Result<hive_oracle::core::RulesOptions, String> {
    let mut rules = hive_oracle::core::RulesOptions::default();
    for word in list
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty())
    {
        match word.to_ascii_lowercase().as_str() {
            "tournament-opening" => rules.tournament_opening = true,
            "standard-opening" => rules.tournament_opening = false,
            "repetition-draw" => rules.repetition_draw = true,
            "no-repetition-draw" => rules.repetition_draw = false,
            _ => {
                return Err(format!(
                    "unknown rule `{word}`: expected tournament-opening, standard-opening, repetition-draw or no-repetition-draw"
                ))
            }
        }
    }
    Ok(rules)
}

/// The corpus of `check`: the built-in one and folders, in the order given,
/// read from regular files only; every case run is first validated against
/// the reference engine (a bad case is an error naming it).
fn check_corpus(
    sources: &[String],
    selected: &[String],
) -> Result<hive_oracle::check::checker::Corpus, String> {
    use hive_oracle::cases::BUILTIN_CORPUS;
    use hive_oracle::check::corpus::{read_folder, validate};
    let sources: Vec<String> = if sources.is_empty() {
        vec!["builtin".to_string()]
    } else {
        sources.to_vec()
    };
    let mut names = Vec::new();
    let mut bytes = Vec::new();
    let mut cases = Vec::new();
    for source in &sources {
        let files: Vec<(String, String, Vec<hive_oracle::cases::LoadedCase>)> = if source
            == "builtin"
        {
            let mut out = Vec::new();
            for (file, text) in BUILTIN_CORPUS {
                let parsed =
                    hive_oracle::cases::parse_corpus_file(file, text, &format!("built-in {file}"))?;
                out.push((file.to_string(), text.to_string(), parsed));
            }
            names.push("built-in".to_string());
            out
        } else {
            let files = read_folder(std::path::Path::new(source))?;
            if files.iter().all(|(_, _, c)| c.is_empty()) {
                return Err(format!(
                    "--corpus {source}: the folder holds no case (*.toml)"
                ));
            }
            names.push(source.clone());
            files
        };
        for (file, text, parsed) in files {
            bytes.extend(file.as_bytes());
            bytes.push(0);
            bytes.extend(text.as_bytes());
            bytes.push(0);
            cases.extend(parsed);
        }
    }
    if !selected.is_empty() {
        for name in selected {
            if !cases
                .iter()
                .any(|c| &c.id() == name || &c.case.name == name)
            {
                return Err(format!("--case {name}: no such case in the corpus"));
            }
        }
        cases.retain(|c| selected.iter().any(|n| *n == c.id() || *n == c.case.name));
    }
    for case in &cases {
        validate(case)?;
    }
    Ok(hive_oracle::check::checker::Corpus {
        name: names.join("+"),
        hash: format!("fnv1a64:{:016x}", hive_oracle::check::run::fnv1a64(&bytes)),
        cases,
    })
}

/// Opens a file for writing before the run, so that a path that cannot be
/// written fails at once rather than after the check. Only a regular file
/// (or a new one) is written: opening a FIFO would block until a reader
/// comes, and a device is not a report.
fn writable(path: &std::path::Path, what: &str) -> Result<std::fs::File, String> {
    let shown = path.display();
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(format!(
                "{what} {shown}: cannot write: not a regular file ({})",
                hive_oracle::check::corpus::file_kind(&meta)
            ))
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("{what} {shown}: cannot write: {e}")),
    }
    std::fs::File::create(path).map_err(|e| format!("{what} {shown}: cannot write: {e}"))
}

/// `check`: exit 0 when it passes, 1 with findings that fail it, 2 when it
/// cannot run.
fn run_check(args: CheckArgs) -> ExitCode {
    use hive_oracle::check::baseline::Baseline;
    use hive_oracle::check::checker::{self, DeclaredRules};
    use hive_oracle::check::report;
    use std::io::{IsTerminal, Write};
    let fail = |message: String| {
        output::say(&format!("error: {message}"));
        ExitCode::from(2)
    };
    if args.print_schema {
        let written = output::write_stdout(&report::schema());
        return output::status_after_report(written, ExitCode::SUCCESS, 2);
    }
    let engine = match args.engine {
        Some(engine) => engine,
        None => match std::env::current_exe() {
            Ok(exe) => format!("{} uhp", shell_words::quote(&exe.display().to_string())),
            Err(e) => return fail(format!("cannot find this executable: {e}")),
        },
    };
    match hive_oracle::check::client::split_command_line(&engine) {
        Err(e) => return fail(format!("--engine: {e}")),
        Ok(words) if words.is_empty() => return fail("--engine: empty command line".to_string()),
        Ok(_) => {}
    }
    if !(1..=64).contains(&args.jobs) {
        return fail(format!("--jobs {}: expected 1 to 64", args.jobs));
    }
    if args.timeout_ms == 0 {
        return fail("--timeout-ms 0: the timeout on a command must be at least 1 ms".to_string());
    }
    if args.startup_timeout_ms == 0 {
        return fail(
            "--startup-timeout-ms 0: the timeout on the start-up banner must be at least 1 ms"
                .to_string(),
        );
    }
    let game_types = match &args.game_types {
        None => None,
        Some(list) => {
            let mut types = Vec::new();
            for word in list
                .split([',', ' '])
                .map(str::trim)
                .filter(|w| !w.is_empty())
            {
                match parse_game_type(word) {
                    Ok(t) => types.push(t),
                    Err(e) => return fail(format!("--game-types: {e}")),
                }
            }
            Some(types)
        }
    };
    let rules = match &args.rules {
        None => DeclaredRules::FromEngine,
        Some(list) => match parse_rules(list) {
            Ok(rules) => DeclaredRules::Given(rules),
            Err(e) => return fail(format!("--rules: {e}")),
        },
    };
    let corpus = if args.no_corpus {
        checker::Corpus {
            name: "none (--no-corpus)".to_string(),
            hash: format!("fnv1a64:{:016x}", hive_oracle::check::run::fnv1a64(b"")),
            cases: Vec::new(),
        }
    } else {
        match check_corpus(&args.corpus, &args.cases) {
            Ok(corpus) => corpus,
            Err(e) => return fail(e),
        }
    };
    let baseline = match &args.baseline {
        None => None,
        Some(path) => match Baseline::read(path) {
            Ok(b) => Some(b),
            Err(e) => return fail(e),
        },
    };
    let mut out_file = match &args.out {
        None => None,
        Some(path) => match writable(path, "--out") {
            Ok(f) => Some(f),
            Err(e) => return fail(e),
        },
    };
    let mut baseline_file = match &args.write_baseline {
        None => None,
        Some(path) => match writable(path, "--write-baseline") {
            Ok(f) => Some(f),
            Err(e) => return fail(e),
        },
    };
    let games = args
        .games
        .unwrap_or(if args.cases.is_empty() { 20 } else { 0 });
    let config = checker::Config {
        engine,
        games,
        seed: args.seed,
        game_types,
        max_plies: args.max_plies,
        corpus,
        timeout: std::time::Duration::from_millis(args.timeout_ms),
        startup_timeout: std::time::Duration::from_millis(args.startup_timeout_ms),
        rules,
        strict_notation: args.strict_notation,
        baseline,
        jobs: args.jobs as usize,
        progress: std::io::stderr().is_terminal(),
    };
    let result = match hive_oracle::check::run::run(&config) {
        Ok(result) => result,
        Err(e) => return fail(e),
    };
    let text = match args.format {
        CheckFormat::Text => report::text(&result),
        CheckFormat::Json => report::json(&result),
        CheckFormat::Junit => report::junit(&result),
    };
    if let (Some(file), Some(path)) = (baseline_file.as_mut(), &args.write_baseline) {
        let written = Baseline::of(&result.findings).to_json();
        if let Err(e) = file.write_all(written.as_bytes()) {
            return fail(format!("cannot write {}: {e}", path.display()));
        }
    }
    let shown = match (out_file.as_mut(), &args.out) {
        (Some(file), Some(path)) => {
            if let Err(e) = file.write_all(text.as_bytes()) {
                return fail(format!("cannot write {}: {e}", path.display()));
            }
            if args.format == CheckFormat::Text {
                text
            } else {
                // The summary on stdout; the full report is in the file.
                report::text(&result)
            }
        }
        _ => text,
    };
    let verdict = if result.clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    // a closed stdout keeps the verdict; another write error is status 2
    output::status_after_report(output::write_stdout(&shown), verdict, 2)
}

/// `hive-oracle replay`: exit 0 when every game is legal and ends as
/// declared, 1 otherwise, 2 when there is nothing to replay.
fn run_replay(
    paths: &[std::path::PathBuf],
    engine: EngineChoice,
    format: ReplayFormat,
    jobs: u64,
) -> ExitCode {
    use hive_oracle::records::command::{json_report, record_files, replay_files, ReplayEngine};
    use std::io::IsTerminal;
    let files = match record_files(paths) {
        Ok(files) => files,
        Err(message) => {
            output::say(&format!("error: {message}"));
            return ExitCode::from(COULD_NOT_RUN);
        }
    };
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(files.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} files ({elapsed}, eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let engine = match engine {
        EngineChoice::Fast => ReplayEngine::Fast,
        EngineChoice::Reference => ReplayEngine::Reference,
    };
    let started = Instant::now();
    let report = replay_files(&files, engine, jobs as usize, &|| bar.inc(1));
    bar.finish_and_clear();
    let text = match format {
        ReplayFormat::Text => report.text(),
        ReplayFormat::Json => {
            let json = json_report(&report);
            match serde_json::to_string_pretty(&json) {
                Ok(text) => text + "\n",
                Err(e) => {
                    output::say(&format!("error: the report cannot be written as JSON: {e}"));
                    return ExitCode::from(COULD_NOT_RUN);
                }
            }
        }
    };
    let written = output::write_stdout(&text);
    if format == ReplayFormat::Text && written.is_ok() {
        let (total, _) = report.counts();
        let seconds = started.elapsed().as_secs_f64();
        output::say(&format!(
            "replayed {} games ({} plies) from {} files in {seconds:.2} s ({:.0} games a minute)",
            total.games,
            total.plies,
            files.len(),
            total.games as f64 * 60.0 / seconds.max(1e-9)
        ));
    }
    let verdict = if report.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    };
    output::status_after_report(written, verdict, COULD_NOT_RUN)
}

/// `hive-oracle convert`: a record (or a GameString) as a GameString or a PGN.
fn run_convert(
    out: &mut impl Write,
    input: &str,
    to: ConvertTarget,
    game: u64,
) -> Result<(), Stop> {
    let index = usize::try_from(game).unwrap_or(usize::MAX);
    let (record, reference) = hive_oracle::explain::load_record_or_game(input, index)?;
    match to {
        ConvertTarget::Gamestring => writeln!(out, "{}", reference.game_string())?,
        ConvertTarget::Pgn => {
            out.write_all(hive_oracle::records::pgn::write(&record).as_bytes())?
        }
    }
    Ok(())
}
