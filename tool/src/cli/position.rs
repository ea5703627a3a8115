//! The commands that take one position: `perft`, `validmoves`, `play`,
//! `render`, `explain`, `position` and `convert`. Each takes a GameString
//! or a position string (§9.36), told apart by its form.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use crate::input::{self, stdin, GameInput, InputError};
use crate::output_file::{refuse_same_files, NamedInput, PendingFile};
use hive_oracle_rules::core::notation::parse_piece;
use hive_oracle_rules::core::position_string::parse_position_string;
use hive_oracle_rules::core::view::BoardView;
use hive_oracle_rules::core::{escape_controls, escape_controls_in_lines, Hex, RulesOptions};
use hive_oracle_rules::explain::{
    explain_move, explain_position, explain_typed_move, move_cells, play_explained,
};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::history::{find_history, HistorySearch};
use hive_oracle_rules::records::{GameTextError, RecordPly};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::render;
use hive_oracle_rules::rules::{divide, perft_threads, Rules};

use super::output::Stop;
use super::{EngineChoice, GameNumber, RulesArgs};

/// The most plies `perft` counts: from the Base start, depth 7 takes about a
/// second on the fast engine and each ply multiplies the time by about 15, so
/// depth 11 takes about a day and anything deeper weeks (README, "Perft").
const PERFT_MAX_DEPTH: u32 = 11;
/// The most threads `perft --threads` starts.
const MAX_THREADS: usize = 256;

/// The options of `perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// The deepest ply to count, 1 to 11 (deeper takes weeks).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=PERFT_MAX_DEPTH as i64))]
    depth: u32,
    /// The game: a GameTypeString (the start of that game; Base by
    /// default), a GameString, a record file, or `-` to read one of them
    /// from stdin.
    #[arg(value_name = "GAME")]
    position: Option<String>,
    /// Which game of a record file holding several (1 = the first). Before
    /// 0.3.0 `--game` named the game itself (`perft 5 --game Base+MLP`):
    /// that spelling is still read, with a warning, until 0.4.0.
    #[arg(long, value_name = "N", value_parser = parse_perft_game)]
    game: Option<PerftGame>,
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
}

/// The options of `validmoves`.
#[derive(clap::Args)]
pub struct ValidmovesArgs {
    /// The game: a GameString, a GameTypeString (a new game), a record file,
    /// or `-` to read one of them from stdin.
    game: String,
    /// The engine that generates the moves.
    #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
    engine: EngineChoice,
    #[command(flatten)]
    number: GameNumber,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The options of `position`.
#[derive(clap::Args)]
pub struct PositionArgs {
    /// The game: a GameString, a position string, a GameTypeString (a new
    /// game), a record file, or `-` to read one of them from stdin.
    game: String,
    #[command(flatten)]
    number: GameNumber,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The options of `history`.
#[derive(clap::Args)]
pub struct HistoryArgs {
    /// The position: a position string (or a GameString, a record file, `-`).
    game: String,
    /// The most positions the search looks at (1 to 10,000,000).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    budget: u64,
    #[command(flatten)]
    number: GameNumber,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The options of `play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// The game: a GameString, a GameTypeString (a new game), a record file,
    /// or `-` to read one of them from stdin.
    game: String,
    /// The moves to play, each a MoveString (quote moves that contain spaces).
    #[arg(required = true)]
    moves: Vec<String>,
    /// The engine that checks and plays the moves.
    #[arg(long, value_enum, default_value_t = EngineChoice::Fast)]
    engine: EngineChoice,
    #[command(flatten)]
    number: GameNumber,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The options of `render`.
#[derive(clap::Args)]
pub struct RenderArgs {
    /// The game: a GameString, a GameTypeString (a new game), a record file,
    /// or `-` to read one of them from stdin.
    game: String,
    /// Also write a standalone SVG picture to this file (replaced whole once
    /// drawn; never the record drawn).
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
    number: GameNumber,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The options of `explain`.
#[derive(clap::Args)]
pub struct ExplainArgs {
    /// The game: a GameString, a GameTypeString (a new game), a record file,
    /// or `-` to read one of them from stdin.
    game: String,
    /// The MoveString to explain (quote it if it contains a space).
    #[arg(value_name = "MOVE")]
    mv: Option<String>,
    #[command(flatten)]
    number: GameNumber,
    #[command(flatten)]
    rules: RulesArgs,
}

/// `perft`: one line per depth, then the divide of the last one if asked.
pub fn perft(out: &mut impl Write, args: PerftArgs) -> Result<(), Stop> {
    let options = args.rules.options();
    match args.engine {
        EngineChoice::Fast => run_perft::<FastEngine>(out, &args, options),
        EngineChoice::Reference => run_perft::<ReferenceEngine>(out, &args, options),
    }
}

/// `validmoves`: the legal moves, `;`-separated.
pub fn validmoves(out: &mut impl Write, args: ValidmovesArgs) -> Result<(), Stop> {
    let options = args.rules.options();
    let game = args.number.get();
    match args.engine {
        EngineChoice::Fast => run_validmoves::<FastEngine>(out, &args.game, game, options),
        EngineChoice::Reference => {
            run_validmoves::<ReferenceEngine>(out, &args.game, game, options)
        }
    }
}

/// `position`: the position string of the game's position (§9.41): what
/// its legal moves depend on, without its history.
pub fn position(out: &mut impl Write, args: PositionArgs) -> Result<(), Stop> {
    let game = load_game::<ReferenceEngine>(&args.game, args.number.get(), args.rules.options())?;
    writeln!(out, "{}", game.position_string())?;
    Ok(())
}

/// `history`: a legal game that reaches the position, searched within a
/// budget of positions (§9.44): its GameString, checked by replaying it; or
/// that none was found within the budget (exit 1), which does not say the
/// position is unreachable.
pub fn history(out: &mut impl Write, args: HistoryArgs) -> Result<(), Stop> {
    let game = load_game::<ReferenceEngine>(&args.game, args.number.get(), args.rules.options())?;
    if game.setup_start().is_none() {
        // a game given with its moves has its history already
        writeln!(out, "found: {}", game.game_string())?;
        return Ok(());
    }
    let setup = parse_position_string(&game.position_string()).map_err(|e| e.to_string())?;
    let budget = args.budget as usize;
    match find_history(&setup, game.options(), budget).map_err(|e| e.to_string())? {
        HistorySearch::Found {
            game_string,
            positions,
        } => {
            writeln!(out, "found: {game_string}")?;
            writeln!(out, "(after {positions} positions of a budget of {budget})")?;
            Ok(())
        }
        HistorySearch::NoneWithin { positions } => Err(Stop::Refused(format!(
            "none found within {positions} positions (--budget): the position may still be reachable; a search from it backwards found no legal game from the empty board"
        ))),
    }
}

/// `play`: the GameString after the moves, or the first refusal.
pub fn play(out: &mut impl Write, args: PlayArgs) -> Result<(), Stop> {
    let options = args.rules.options();
    let game = args.number.get();
    match args.engine {
        EngineChoice::Fast => run_play::<FastEngine>(out, &args.game, game, &args.moves, options),
        EngineChoice::Reference => {
            run_play::<ReferenceEngine>(out, &args.game, game, &args.moves, options)
        }
    }
}

/// `explain`: a move's verdict with its clauses, or a position's moves.
pub fn explain(out: &mut impl Write, args: ExplainArgs) -> Result<(), Stop> {
    let game = args.number.get();
    let text = explanation(&args.game, game, args.mv.as_deref(), args.rules.options())
        .map_err(|e| input_stop(e, game))?;
    Ok(out.write_all(escape_controls_in_lines(&text).as_bytes())?)
}

/// The text of `explain`: the explanation of a move, or of the position
/// when no move is given. With a record file, a move given as a number N
/// explains the N-th ply of the record's game (the first, or `--game G`)
/// in the position before it (`explain game.pgn --game 2 37`).
fn explanation(
    game_text: &str,
    game_number: Option<usize>,
    move_text: Option<&str>,
    options: RulesOptions,
) -> Result<String, InputError> {
    let number = move_text.and_then(|t| t.trim().parse::<usize>().ok());
    if game_text == stdin::DASH {
        let given = stdin::read()?;
        if let Some(ply) = number.and_then(|number| given.record_ply(game_number, number)) {
            return Ok(explain_record_ply(stdin::NAME, ply?));
        }
        let game: ReferenceEngine = given.load(game_number, options)?;
        return explain_game(&game, move_text);
    }
    let input = GameInput::of_argument(game_text);
    if let (Ok(GameInput::RecordFile(path)), Some(number)) = (&input, number) {
        return Ok(explain_record_ply(
            game_text,
            input::record_ply(path, game_number.unwrap_or(1), number)?,
        ));
    }
    let game: ReferenceEngine = input?.load_numbered(game_number, options)?;
    explain_game(&game, move_text)
}

/// The explanation of a record's ply in the position before it.
fn explain_record_ply(game_text: &str, ply: RecordPly) -> String {
    let game = if ply.record.index > 1 {
        format!(" game {}", ply.record.index)
    } else {
        String::new()
    };
    format!(
        "ply {} of {}{game} (line {}): {}\n{}",
        ply.number,
        escape_controls(game_text),
        ply.ply.line,
        escape_controls(&ply.ply.written),
        explain_move(&ply.game, ply.mv)
    )
}

/// The explanation of a move in `game`, or of the position without one.
fn explain_game(game: &ReferenceEngine, move_text: Option<&str>) -> Result<String, InputError> {
    Ok(match move_text {
        None => explain_position(game),
        Some(text) => explain_typed_move(game, game.parse_move(text)?, text),
    })
}

/// `render`: the ASCII picture, and the SVG one with `--svg`.
pub fn render(out: &mut impl Write, args: RenderArgs) -> Result<(), Stop> {
    run_render(
        out,
        (&args.game, args.number.get()),
        args.svg.as_deref(),
        args.highlight.as_deref(),
        args.mv.as_deref(),
        args.rules.options(),
    )
}

/// The game a command's argument names, on the engine `R`
/// (`crate::input`), or game `game` of a record file (`--game N`);
/// `-` reads it from stdin.
fn load_game<R: Rules>(text: &str, game: Option<usize>, options: RulesOptions) -> Result<R, Stop> {
    let loaded = if text == stdin::DASH {
        stdin::read().and_then(|given| given.load(game, options))
    } else {
        input::load_numbered_game(text, game, options)
    };
    loaded.map_err(|e| input_stop(e, game))
}

/// How a command stops on an input that gives no game: `--game N` asked of
/// a game that is not a record file with N games (a zip archive included)
/// is a usage error (exit 2); anything else is refused input (exit 1).
pub fn input_stop(error: InputError, game: Option<usize>) -> Stop {
    match (&error, game) {
        (
            InputError::Text(GameTextError::NotARecord { .. } | GameTextError::NoSuchGame { .. })
            | InputError::ZipArchive { .. },
            Some(number),
        ) => Stop::Usage(format!("--game {number}: {error}")),
        _ => Stop::from(error),
    }
}

/// What perft's `--game` holds: a game number, or (before 0.3.0) the game.
#[derive(Clone, Debug)]
pub enum PerftGame {
    /// Which game of a record file, from 1.
    Number(usize),
    /// The game itself, as `--game` took it before 0.3.0.
    Deprecated(String),
}

/// Reads perft's `--game`: digits are a game number (from 1); anything
/// else is the game itself, the spelling before 0.3.0 (no GameTypeString,
/// GameString or record file name starts a number alone but a file named
/// with digits only, which is taken as a number).
fn parse_perft_game(text: &str) -> Result<PerftGame, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(PerftGame::Deprecated(text.to_string()));
    }
    match text.parse::<usize>() {
        Ok(number) if number >= 1 => Ok(PerftGame::Number(number)),
        Ok(_) => Err("games are numbered from 1".to_string()),
        Err(_) => Err(format!("{text} is not a game number")),
    }
}

/// The game perft counts from and the game number asked for, from its
/// argument and `--game`: the old `--game GAME` is read with a warning.
fn perft_game(args: &PerftArgs) -> Result<(String, Option<usize>), Stop> {
    let given = args.position.clone();
    match &args.game {
        Some(PerftGame::Deprecated(old)) => match given {
            Some(_) => Err(Stop::Usage(format!(
                "--game takes a game number (which game of a record file, from 1), and {old} is not one: the game is the argument after the depth"
            ))),
            None => {
                super::output::say(&format!(
                    "warning: `perft --game GAME` is deprecated and will be removed in 0.4.0: give the game as an argument (`perft {} {}`); `--game N` now picks the N-th game of a record file",
                    args.depth,
                    shell_words::quote(old)
                ));
                Ok((old.clone(), None))
            }
        },
        Some(PerftGame::Number(number)) => {
            Ok((given.unwrap_or_else(|| "Base".to_string()), Some(*number)))
        }
        None => Ok((given.unwrap_or_else(|| "Base".to_string()), None)),
    }
}

fn run_perft<R: Rules + Send>(
    out: &mut impl Write,
    args: &PerftArgs,
    options: RulesOptions,
) -> Result<(), Stop> {
    // clap holds both within their ranges; the cast cannot truncate
    let threads = args.threads.clamp(1, MAX_THREADS as u64) as usize;
    let depth = args.depth.clamp(1, PERFT_MAX_DEPTH);
    let show_divide = args.divide;
    let (position, number) = perft_game(args)?;
    let mut game = load_game::<R>(&position, number, options)?;
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
    number: Option<usize>,
    options: RulesOptions,
) -> Result<(), Stop> {
    let game = load_game::<R>(game_text, number, options)?;
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
    number: Option<usize>,
    moves: &[String],
    options: RulesOptions,
) -> Result<(), Stop> {
    let mut game = load_game::<R>(game_text, number, options)?;
    for text in moves {
        let mv = game.parse_move(text).map_err(|e| e.to_string())?;
        play_explained(&mut game, mv)
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
    if cells.is_empty() {
        return Err("--highlight: the list is empty: give at least one cell".to_string());
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
    (game_text, number): (&str, Option<usize>),
    svg_file: Option<&Path>,
    highlight: Option<&str>,
    move_text: Option<&str>,
    options: RulesOptions,
) -> Result<(), Stop> {
    // the picture's file: never the record drawn, checked before any work
    // and replaced whole once the picture is drawn
    let svg = match svg_file {
        Some(path) => Some(svg_output(path, game_text)?),
        None => None,
    };
    let game = load_game::<ReferenceEngine>(game_text, number, options)?;
    let mut cells = match highlight {
        Some(text) => parse_cells(&game, text)?,
        None => Vec::new(),
    };
    let mut arrow = None;
    if let Some(text) = move_text {
        let mv = game.parse_move(text).map_err(|e| e.to_string())?;
        let ends = move_cells(&game, mv);
        if let [from, to] = ends[..] {
            arrow = Some((from, to));
        }
        cells.extend(ends);
    }
    if let Some(file) = svg {
        file.commit(render::svg(&game, &cells, arrow).as_bytes())
            .map_err(|e| e.to_string())?;
    }
    out.write_all(render::ascii(&game, &cells).as_bytes())?;
    Ok(())
}

/// The file of `render --svg`, checked writable: refused (status 2) when it
/// is the record file the game is read from.
fn svg_output(path: &Path, game_text: &str) -> Result<PendingFile, Stop> {
    let record = NamedInput {
        what: "the game record drawn".to_string(),
        path: game_text.into(),
    };
    refuse_same_files(&[("--svg", path)], &[record])
        .map_err(|e| Stop::CouldNotRun(e.to_string()))?;
    PendingFile::create(path, "--svg").map_err(|e| Stop::Refused(e.to_string()))
}
