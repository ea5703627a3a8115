//! The engine trait that both engines implement, and everything written once
//! against it: loading and printing GameStrings, notation, perft and divide.
//!
//! The trait is deliberately small (the shape of shakmaty's `Position`): an
//! engine provides a position, its legal moves, play and undo; the provided
//! methods are not meant to be overridden.

use std::fmt;

use crate::core::notation::{self, NotationError, Turn};
use crate::core::position_string::{self as position, PositionHeader, Setup, SetupStart};
use crate::core::view::BoardView;
use crate::core::{Color, GameState, GameType, Move, Piece, RulesOptions};

pub(crate) mod setup;

/// Why a move was refused: a sentence and the clauses that forbid it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct IllegalMove {
    /// What is wrong, e.g. "wS2 cannot move: lifting it splits the hive".
    pub reason: String,
    /// The most specific clauses that forbid the move, e.g. `["§5.3"]`.
    pub clauses: Vec<&'static str>,
}

impl IllegalMove {
    /// A refusal with its reason and the clauses that forbid the move.
    pub fn new(reason: impl Into<String>, clauses: &[&'static str]) -> IllegalMove {
        IllegalMove {
            reason: reason.into(),
            clauses: clauses.to_vec(),
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.reason)?;
        if !self.clauses.is_empty() {
            write!(f, " ({})", self.clauses.join(", "))?;
        }
        Ok(())
    }
}

/// Why a GameString or a position string could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// A position string was given with the repetition draw, which counts
    /// the earlier positions a position string does not have (§9.42).
    #[error("a position string has no history, and the repetition draw (§8.7.2) counts earlier positions: give the game's moves as a GameString, or set the position up without the repetition draw")]
    NoHistory,
    /// A position string names a position that no box of the game can
    /// hold or no game can reach (§9.42), with the clause it breaks.
    #[error("impossible position: {problem} ({clause})")]
    Impossible {
        /// The clause the position breaks, e.g. `§2.7`.
        clause: &'static str,
        /// What is wrong, naming the pieces and cells.
        problem: String,
    },
    /// The text is not a GameString (§9.31).
    #[error("{0}")]
    Notation(#[from] NotationError),
    /// A move of the history does not name a move in its position (§9.10, §9.23).
    #[error("move {index} \"{text}\" cannot be read: {error}")]
    Unresolvable {
        /// The move's number in the GameString, from 1.
        index: usize,
        /// The MoveString as written.
        text: String,
        /// Why it names no move.
        error: NotationError,
    },
    /// A move of the history is illegal in its position (§9.34).
    #[error("move {index} \"{text}\" is illegal: {error}")]
    Illegal {
        /// The move's number in the GameString, from 1.
        index: usize,
        /// The MoveString as written.
        text: String,
        /// Why it is illegal.
        error: IllegalMove,
    },
}

/// A Hive rules engine. Both the reference engine and the fast engine implement it.
pub trait Rules: BoardView + Clone + Sized {
    /// A new game with no move played.
    fn new_game(game_type: GameType, options: RulesOptions) -> Self;

    /// The rules options this game is played with.
    fn options(&self) -> RulesOptions;

    /// Appends every legal move of the side to move to `out`, each once (§5.9).
    /// Just `Pass` when nothing else is legal (§7.2); nothing when the game is over (§8.5).
    fn generate_moves(&self, out: &mut Vec<Move>);

    /// Plays a move after checking it; on refusal the position is unchanged.
    fn play(&mut self, mv: Move) -> Result<(), IllegalMove>;

    /// Plays a move that `generate_moves` returned, without checking it again.
    fn play_unchecked(&mut self, mv: Move);

    /// Takes back the last move; `None` at the start of the game.
    fn undo(&mut self) -> Option<Move>;

    /// The game state after the moves played (§8.8).
    fn state(&self) -> GameState;

    /// The moves played so far, passes included.
    fn history(&self) -> &[Move];

    /// A game set up from a position (§9.36) without checks: the stacks
    /// of `setup`, its turn and its piece moved last, no history. The
    /// position is translated so that the first piece of `setup` stands at
    /// the origin (§3.3; a position string puts it there already, §9.40);
    /// pieces not joined to the first one's group are left out (a hive in
    /// several groups is no position, §2.7, and [`Rules::load_setup`]
    /// refuses it). Load a position through [`Rules::load_setup`], which
    /// checks it first.
    fn from_setup(setup: &Setup, options: RulesOptions) -> Self;

    /// Where the game started: `None` from the empty board; for a game set
    /// up from a position string (§9.36), the plies before it and the piece
    /// moved last then. An engine that supports [`Rules::from_setup`]
    /// returns it.
    fn setup_start(&self) -> Option<SetupStart>;

    /// Perft from this position: the number of leaves `depth` plies deep.
    /// The default plays the trait's own moves ([`perft`]); an engine may
    /// override it with the same count computed on its own move
    /// representation, as the fast engine does. Tests check the two agree.
    fn count_leaves(&mut self, depth: u32) -> u64 {
        perft(self, depth)
    }

    // ----- provided methods; not meant to be overridden -----

    /// The number of plies played, passes included (those before a
    /// set-up position too, §9.36).
    fn plies(&self) -> usize {
        self.setup_start().map_or(0, |start| start.plies) + self.history().len()
    }

    /// The piece moved or placed on the last ply, immune on this one
    /// (§5.10); after a throw the thrown piece (§6.8.7); `None` after a
    /// pass (§5.11) or at the start.
    fn last_moved(&self) -> Option<Piece> {
        match self.history().last() {
            Some(mv) => mv.piece(),
            None => self.setup_start().and_then(|start| start.last_moved),
        }
    }

    /// The position string of the current position (§9.41): what the
    /// legal moves depend on, without the history.
    fn position_string(&self) -> String {
        let header = PositionHeader {
            game_type: self.game_type(),
            tournament_opening: self.options().tournament_opening,
            turn: self.turn(),
            last_moved: self.last_moved(),
        };
        let mut stacks = std::collections::BTreeMap::new();
        for piece in self.game_type().all_pieces() {
            if let Some(hex) = self.location(piece) {
                stacks.entry(hex).or_insert_with(|| self.stack(hex));
            }
        }
        position::position_string(&header, &stacks)
    }

    /// The side to move: White after an even number of plies (§1.6, §7.1).
    fn side_to_move(&self) -> Color {
        Turn::after_plies(self.plies()).color
    }

    /// The TurnString of the position (§9.18).
    fn turn(&self) -> Turn {
        Turn::after_plies(self.plies())
    }

    /// The legal moves in a new vector.
    fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.generate_moves(&mut out);
        out
    }

    /// The legal moves as canonical MoveStrings (§9.30), sorted: the line
    /// `validmoves` prints, identical for every engine.
    ///
    /// Black's first placement (§4.2: no queen on a player's first placement,
    /// under the default tournament opening): each of its four other bugs on
    /// each of the six cells next to wS1.
    ///
    /// ```
    /// use hive_oracle_rules::reference::ReferenceEngine;
    /// use hive_oracle_rules::rules::Rules;
    ///
    /// let game = ReferenceEngine::load("Base;InProgress;Black[1];wS1")?;
    /// let moves = game.valid_move_strings();
    /// assert_eq!(moves.len(), 4 * 6);
    /// assert!(moves.contains(&"bA1 wS1-".to_string()));
    /// assert!(!moves.iter().any(|mv| mv.starts_with("bQ")));
    /// // The same moves as values, for an engine's own comparisons.
    /// assert_eq!(game.legal_moves().len(), moves.len());
    /// # Ok::<(), hive_oracle_rules::rules::LoadError>(())
    /// ```
    fn valid_move_strings(&self) -> Vec<String> {
        let mut moves: Vec<String> = self
            .legal_moves()
            .into_iter()
            .map(|mv| self.move_string(mv))
            .collect();
        moves.sort();
        moves
    }

    /// Reads a MoveString in this position (§9.21, §9.13).
    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        crate::core::view::parse_and_resolve(self, text)
    }

    /// Prints a move in canonical notation for this position (§9.30).
    fn move_string(&self, mv: Move) -> String {
        crate::core::view::move_string(self, mv)
    }

    /// The canonical GameString of the game so far (§9.31); for a game set
    /// up from a position, which has no GameString, its position string
    /// (§9.41).
    fn game_string(&self) -> String {
        if self.setup_start().is_some() {
            return self.position_string();
        }
        let mut replay = Self::new_game(self.game_type(), self.options());
        let mut moves = Vec::with_capacity(self.plies());
        for &mv in self.history() {
            moves.push(replay.move_string(mv));
            replay.play_unchecked(mv);
        }
        notation::game_string(self.game_type(), self.state(), self.plies(), &moves)
    }

    /// Loads a GameString with the given options, replaying and checking every
    /// move (§9.34). The stated state and turn are recomputed, not checked
    /// (§9.33).
    fn load_with(text: &str, options: RulesOptions) -> Result<Self, LoadError> {
        // §9.43 a position string wherever a GameString is taken
        if position::is_position_string(text) {
            let setup = position::parse_position_string(text)?;
            return Self::load_setup(&setup, options);
        }
        let record = notation::parse_game_string(text)?;
        let mut game = Self::new_game(record.game_type, options);
        for (i, move_text) in record.moves.iter().enumerate() {
            let index = i + 1;
            let mv = game
                .parse_move(move_text)
                .map_err(|error| LoadError::Unresolvable {
                    index,
                    text: move_text.clone(),
                    error,
                })?;
            game.play(mv).map_err(|error| LoadError::Illegal {
                index,
                text: move_text.clone(),
                error,
            })?;
        }
        Ok(game)
    }

    /// Loads a GameString with the default rules options.
    fn load(text: &str) -> Result<Self, LoadError> {
        Self::load_with(text, RulesOptions::default())
    }

    /// Sets up a position (§9.36) after checking that a box of the game
    /// can hold it and a game can reach it (§9.42): the refusal names the
    /// clause it breaks. The opening rule is the position's own; the
    /// repetition draw, which needs the history, is refused (§9.42).
    fn load_setup(setup: &Setup, options: RulesOptions) -> Result<Self, LoadError> {
        let options = RulesOptions {
            tournament_opening: setup.tournament_opening,
            ..options
        };
        let legal_moves = |setup: &Setup, options| Self::from_setup(setup, options).legal_moves();
        match setup::check_setup(setup, options, &legal_moves) {
            Ok(()) => Ok(Self::from_setup(setup, options)),
            Err(setup::Refusal::NoHistory) => Err(LoadError::NoHistory),
            Err(setup::Refusal::Impossible(clause, problem)) => {
                Err(LoadError::Impossible { clause, problem })
            }
        }
    }
}

/// Counts the leaves of the game tree `depth` plies deep (bulk counting at the last ply).
///
/// The published counts from the Base start (tournament opening, §4.2), on
/// the fast engine; [`divide`] splits a count by root move.
///
/// ```
/// use hive_oracle_rules::core::{GameType, RulesOptions};
/// use hive_oracle_rules::fast::FastEngine;
/// use hive_oracle_rules::rules::{divide, perft, Rules};
///
/// let mut game = FastEngine::new_game(GameType::BASE, RulesOptions::default());
/// assert_eq!(perft(&mut game, 1), 4);
/// assert_eq!(perft(&mut game, 4), 21_600);
/// let by_root_move = divide(&mut game, 2);
/// assert_eq!(by_root_move.len(), 4);
/// assert_eq!(by_root_move.iter().map(|(_, n)| n).sum::<u64>(), 96);
/// ```
pub fn perft<R: Rules>(game: &mut R, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for mv in moves {
        game.play_unchecked(mv);
        nodes += perft(game, depth - 1);
        game.undo();
    }
    nodes
}

/// The depth of the subtrees [`perft_until`] counts in one go, between two
/// looks at its stop: three plies below even a wide midgame position (some
/// 80 moves a ply) are about half a million leaves, counted in milliseconds.
const UNSTOPPED_DEPTH: u32 = 3;

/// Perft like [`Rules::count_leaves`], for a count that someone may stop:
/// `stop` is asked before each subtree [`UNSTOPPED_DEPTH`] plies deep (and
/// before the whole count, when it is no deeper), and once it answers true
/// the count ends and `None` is returned. The count, when it ends, is the
/// same as `count_leaves`'s.
///
/// ```
/// use hive_oracle_rules::core::{GameType, RulesOptions};
/// use hive_oracle_rules::fast::FastEngine;
/// use hive_oracle_rules::rules::{perft_until, Rules};
///
/// let mut game = FastEngine::new_game(GameType::BASE, RulesOptions::default());
/// assert_eq!(perft_until(&mut game, 4, &mut || false), Some(21_600));
/// assert_eq!(perft_until(&mut game, 8, &mut || true), None);
/// ```
pub fn perft_until<R: Rules>(
    game: &mut R,
    depth: u32,
    stop: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    if stop() {
        return None;
    }
    if depth <= UNSTOPPED_DEPTH {
        return Some(game.count_leaves(depth));
    }
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let mut nodes = 0;
    for mv in moves {
        game.play_unchecked(mv);
        let below = perft_until(game, depth - 1, stop);
        game.undo();
        nodes += below?;
    }
    Some(nodes)
}

/// Perft split by root move, as canonical MoveStrings with their counts, sorted by move string.
pub fn divide<R: Rules>(game: &mut R, depth: u32) -> Vec<(String, u64)> {
    let mut rows = Vec::new();
    if depth == 0 {
        return rows;
    }
    for mv in game.legal_moves() {
        let name = game.move_string(mv);
        game.play_unchecked(mv);
        rows.push((name, game.count_leaves(depth - 1)));
        game.undo();
    }
    rows.sort();
    rows
}

/// How many lines of moves each thread should have to choose from: with
/// many more lines than threads, a thread that finishes a short line takes
/// the next one while another works through a long one, so the threads end
/// nearly together.
const LINES_PER_THREAD: usize = 32;

/// Perft split across `threads` threads (at least one); the sum equals
/// `game.count_leaves(depth)`.
///
/// The work items are the lines of moves a few plies deep: the root moves,
/// or, when the root has too few of them to share evenly (4 at the start
/// of Base), the lines two or more plies deep, until there are
/// [`LINES_PER_THREAD`] per thread. The threads take lines from a shared
/// queue, each on its own copy of the game, and count the leaves below each
/// with [`Rules::count_leaves`].
pub fn perft_threads<R: Rules + Send>(game: &R, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return game.clone().count_leaves(depth);
    }
    let lines = split_lines(game, depth, threads * LINES_PER_THREAD);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = threads.min(lines.len()).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let mut copy = game.clone();
                let (lines, next) = (&lines, &next);
                scope.spawn(move || {
                    let mut nodes = 0;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(line) = lines.get(i) else {
                            return nodes;
                        };
                        for &mv in line {
                            copy.play_unchecked(mv);
                        }
                        nodes += copy.count_leaves(depth - line.len() as u32);
                        for _ in line {
                            copy.undo();
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .sum()
    })
}

/// The lines of moves from `game`, all of one length below `depth`,
/// lengthened a ply at a time until there are at least `wanted` of them. A
/// line that ends the game has no leaves below it (§8.5) and is dropped.
fn split_lines<R: Rules>(game: &R, depth: u32, wanted: usize) -> Vec<Vec<Move>> {
    let mut lines: Vec<Vec<Move>> = vec![Vec::new()];
    let mut copy = game.clone();
    let mut plies = 0;
    while lines.len() < wanted && plies + 1 < depth {
        let mut longer = Vec::new();
        for line in &lines {
            for &mv in line {
                copy.play_unchecked(mv);
            }
            let moves = copy.legal_moves();
            for _ in line {
                copy.undo();
            }
            for mv in moves {
                let mut next = line.clone();
                next.push(mv);
                longer.push(next);
            }
        }
        lines = longer;
        plies += 1;
    }
    lines
}
