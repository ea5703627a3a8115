//! Deliberate faults for testing `hive-oracle check`: the hidden option
//! `hive-oracle uhp --fault NAME` makes our own UHP engine wrong in one
//! known way, so that tests can assert the checker finds each fault.
//!
//! The real game is kept; the fault is applied where it shows: the
//! `validmoves` list, what `play` (and `newgame GameString`) accepts, the
//! state in the GameString printed, and the output framing of the session
//! loop. A rule fault's extra moves are computed on the reference position
//! with the reference engine's building blocks, printed in canonical notation
//! and, when played, applied without checking (`play_unchecked`). Every
//! fault is deterministic.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::Game;
use crate::core::notation::BoardView;
use crate::core::{Bug, Color, GameState, Hex, Move, RulesOptions};
use crate::reference::board::Board;
use crate::reference::bugs::pillbug::pillbug_throws;
use crate::reference::end::queen_is_surrounded;
use crate::reference::movement::{
    ground_step_possible, ground_steps_from, one_hive_holds, step_ignoring_height_gates,
};
use crate::reference::{opening, ReferenceEngine};
use crate::rules::Rules;

/// A deliberate deviation from the rules or from the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// Breaks §6.4.2: the spider's moves also include the ends of three
    /// ground steps that revisit a cell (its start included).
    SpiderBacktracks,
    /// Breaks §6.2.2 (§5.6): beetle steps that only the height gate rule
    /// forbids (a climb, a step on top or a drop) are listed and accepted.
    BeetleIgnoresHeightGates,
    /// Breaks §5.8: a pillbug may throw the piece moved on the previous turn.
    PillbugThrowsLastMoved,
    /// Breaks §6.7.2: a mosquito on the ground whose neighbours are all
    /// mosquitoes moves as a queen (one ground step).
    MosquitoCopiesMosquito,
    /// Breaks §8.3: when both queens are surrounded the state printed is a
    /// win for the player who moved last instead of `Draw`.
    SimultaneousSurroundWins,
    /// Breaks §4.2: the queen may be a player's first placement although
    /// `TournamentOpening` is `True`.
    QueenFirstAllowed,
    /// Breaks §5.9 (any move clause): `validmoves` silently omits the last
    /// move in sorted order whenever it lists at least two (`play` still
    /// accepts it).
    DropOneMove,
    /// Breaks the UHP framing (uhp.md section 2.3): the response to the
    /// sixth command (the first after five) has no `ok` line.
    MissingOk,
    /// Breaks the protocol: the process exits with status 101, printing
    /// nothing, on the first `play` (or `pass`) after six plies.
    CrashMidGame,
    /// Breaks the protocol: once four plies are played, `validmoves` never
    /// answers (the process blocks forever).
    Hang,
}

impl Fault {
    /// Every fault, in the order of their names in the documentation.
    pub const ALL: [Fault; 10] = [
        Fault::SpiderBacktracks,
        Fault::BeetleIgnoresHeightGates,
        Fault::PillbugThrowsLastMoved,
        Fault::MosquitoCopiesMosquito,
        Fault::SimultaneousSurroundWins,
        Fault::QueenFirstAllowed,
        Fault::DropOneMove,
        Fault::MissingOk,
        Fault::CrashMidGame,
        Fault::Hang,
    ];

    /// The name given to `--fault`.
    pub fn name(self) -> &'static str {
        match self {
            Fault::SpiderBacktracks => "spider-backtracks",
            Fault::BeetleIgnoresHeightGates => "beetle-ignores-height-gates",
            Fault::PillbugThrowsLastMoved => "pillbug-throws-last-moved",
            Fault::MosquitoCopiesMosquito => "mosquito-copies-mosquito",
            Fault::SimultaneousSurroundWins => "simultaneous-surround-wins",
            Fault::QueenFirstAllowed => "queen-first-allowed",
            Fault::DropOneMove => "drop-one-move",
            Fault::MissingOk => "missing-ok",
            Fault::CrashMidGame => "crash-mid-game",
            Fault::Hang => "hang",
        }
    }

    /// Whether the fault changes the rules (the moves or the state), as
    /// opposed to the protocol.
    pub fn is_rule_fault(self) -> bool {
        !matches!(self, Fault::MissingOk | Fault::CrashMidGame | Fault::Hang)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Fault {
    type Err = String;

    fn from_str(text: &str) -> Result<Fault, String> {
        Fault::ALL
            .into_iter()
            .find(|fault| fault.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Fault::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown fault {}: the faults are {}",
                    super::quote(text),
                    names.join(", ")
                )
            })
    }
}

/// The game on the reference engine, replayed without checks (the faulty
/// game may hold moves the real rules refuse).
fn reference_of(game: &Game) -> ReferenceEngine {
    if let Game::Reference(g) = game {
        return g.clone();
    }
    let mut reference = ReferenceEngine::new_game(game.game_type(), game.options());
    for &mv in game.history() {
        reference.play_unchecked(mv);
    }
    reference
}

/// The moves the fault adds to the legal moves of the position (none that
/// the rules allow, none for a protocol fault or a finished game).
pub(crate) fn extra_moves(fault: Fault, game: &Game) -> BTreeSet<Move> {
    if !fault.is_rule_fault() || game.state().is_over() {
        return BTreeSet::new();
    }
    let reference = reference_of(game);
    let mut extra = match fault {
        Fault::SpiderBacktracks => own_bug_moves(&reference, Bug::Spider, backtracking_walk_ends),
        Fault::BeetleIgnoresHeightGates => {
            own_bug_moves(&reference, Bug::Beetle, steps_through_height_gates)
        }
        Fault::MosquitoCopiesMosquito => {
            own_bug_moves(&reference, Bug::Mosquito, mosquito_as_queen)
        }
        Fault::PillbugThrowsLastMoved => throws_of_last_moved(&reference),
        Fault::QueenFirstAllowed => queen_first(&reference),
        _ => BTreeSet::new(),
    };
    let legal = reference.legal_move_set();
    extra.retain(|mv| !legal.contains(mv));
    extra
}

/// The side to move's pieces of `bug` that may act (queen placed §4.3, on
/// top §5.2, not immune §5.8, lifting them keeps one hive §5.3), each with
/// the destinations `destinations` gives.
fn own_bug_moves(
    reference: &ReferenceEngine,
    bug: Bug,
    destinations: fn(&Board, Hex) -> BTreeSet<Hex>,
) -> BTreeSet<Move> {
    let board = reference.board();
    let color = reference.side_to_move();
    let mut moves = BTreeSet::new();
    if !opening::may_move_pieces(board, color) {
        return moves;
    }
    for from in board.occupied_cells() {
        let Some(piece) = board.top(from) else {
            continue;
        };
        if piece.color != color || piece.bug != bug || reference.immune_piece() == Some(piece) {
            continue;
        }
        if !one_hive_holds(board, from) {
            continue;
        }
        for to in destinations(board, from) {
            if to != from {
                moves.insert(Move::Move { piece, to });
            }
        }
    }
    moves
}

/// §6.4.2 broken: the ends of every walk of three ground steps, revisits allowed.
fn backtracking_walk_ends(board: &Board, from: Hex) -> BTreeSet<Hex> {
    if board.height(from) != 1 {
        return BTreeSet::new();
    }
    let lifted = board.with_top_lifted(from);
    let mut cells = BTreeSet::from([from]);
    for _ in 0..3 {
        let mut next_cells = BTreeSet::new();
        for &here in &cells {
            for next in here.neighbours() {
                if ground_step_possible(&lifted, here, next) {
                    next_cells.insert(next);
                }
            }
        }
        cells = next_cells;
    }
    cells
}

/// §6.2.2 broken: one-cell beetle steps with the height gate rule ignored,
/// except ground-to-ground steps (whose gate is §5.5, not §5.6).
fn steps_through_height_gates(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    from.neighbours()
        .into_iter()
        .filter(|&to| lifted.height(from) > 0 || lifted.height(to) > 0)
        .filter(|&to| step_ignoring_height_gates(&lifted, from, to))
        .collect()
}

/// §6.7.2 broken: a ground mosquito touching only mosquitoes steps like a queen.
fn mosquito_as_queen(board: &Board, from: Hex) -> BTreeSet<Hex> {
    if board.height(from) != 1 {
        return BTreeSet::new();
    }
    let tops: Vec<_> = from
        .neighbours()
        .into_iter()
        .filter_map(|n| board.top(n))
        .collect();
    if tops.is_empty() || tops.iter().any(|top| top.bug != Bug::Mosquito) {
        return BTreeSet::new();
    }
    let lifted = board.with_top_lifted(from);
    ground_steps_from(&lifted, from).into_iter().collect()
}

/// §5.8 broken: the side to move's pillbugs also throw the piece moved last turn.
fn throws_of_last_moved(reference: &ReferenceEngine) -> BTreeSet<Move> {
    let board = reference.board();
    let color = reference.side_to_move();
    let mut moves = BTreeSet::new();
    let Some(immune) = reference.immune_piece() else {
        return moves;
    };
    if !opening::may_move_pieces(board, color) {
        return moves;
    }
    for from in board.occupied_cells() {
        let Some(piece) = board.top(from) else {
            continue;
        };
        if piece.color != color || piece.bug != Bug::Pillbug || piece == immune {
            continue;
        }
        for (target, to) in pillbug_throws(board, from, None) {
            if target == immune {
                moves.insert(Move::Move { piece: target, to });
            }
        }
    }
    moves
}

/// §4.2 broken: the queen placements a standard opening would allow.
fn queen_first(reference: &ReferenceEngine) -> BTreeSet<Move> {
    if !reference.options().tournament_opening {
        return BTreeSet::new();
    }
    let standard = RulesOptions {
        tournament_opening: false,
        ..reference.options()
    };
    let mut replay = ReferenceEngine::new_game(reference.game_type(), standard);
    for &mv in reference.history() {
        replay.play_unchecked(mv);
    }
    replay
        .legal_move_set()
        .into_iter()
        .filter(|mv| matches!(mv, Move::Place { piece, .. } if piece.bug == Bug::Queen))
        .collect()
}

/// The `validmoves` list with the fault applied.
pub(crate) fn valid_move_strings(fault: Option<Fault>, game: &Game) -> Vec<String> {
    let mut moves = game.valid_move_strings();
    let Some(fault) = fault else {
        return moves;
    };
    let extra = extra_moves(fault, game);
    if !extra.is_empty() {
        moves.retain(|m| m != "pass");
        moves.extend(extra.into_iter().map(|mv| game.move_string(mv)));
        moves.sort();
        moves.dedup();
    }
    if fault == Fault::DropOneMove && moves.len() >= 2 {
        moves.pop();
    }
    moves
}

/// Plays a move with the fault applied: a move the fault adds is applied
/// unchecked, any other goes to the real engine.
pub(crate) fn play(fault: Option<Fault>, game: &mut Game, mv: Move) -> Result<(), String> {
    if let Some(fault) = fault {
        if extra_moves(fault, game).contains(&mv) {
            game.play_unchecked(mv);
            return Ok(());
        }
    }
    game.play(mv)
}

/// The GameString printed, with the fault applied to its state.
pub(crate) fn game_string(fault: Option<Fault>, game: &Game) -> String {
    let text = game.game_string();
    if fault != Some(Fault::SimultaneousSurroundWins) || game.state() != GameState::Draw {
        return text;
    }
    let reference = reference_of(game);
    let board = reference.board();
    if !(queen_is_surrounded(board, Color::White) && queen_is_surrounded(board, Color::Black)) {
        return text;
    }
    // §8.3 broken: the player who made the last move is declared the winner
    let mover = match reference.history().len() % 2 {
        1 => GameState::WhiteWins,
        _ => GameState::BlackWins,
    };
    let mut fields: Vec<String> = text.split(';').map(str::to_string).collect();
    if fields.len() >= 2 {
        fields[1] = mover.to_string();
    }
    fields.join(";")
}

/// Whether the response to the `count`-th command (from 1) loses its `ok`.
pub(crate) fn drops_ok(fault: Option<Fault>, count: usize) -> bool {
    fault == Some(Fault::MissingOk) && count == 6
}

/// The protocol faults that act before a command is answered: exit with
/// status 101 (crash-mid-game) or block forever (hang). Returns otherwise.
pub(crate) fn before_command(fault: Option<Fault>, line: &[u8], plies: usize) {
    let keyword = line
        .trim_ascii()
        .split(|b| b.is_ascii_whitespace())
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    match fault {
        Some(Fault::CrashMidGame) if plies >= 6 && (keyword == b"play" || keyword == b"pass") => {
            std::process::exit(101)
        }
        Some(Fault::Hang) if plies >= 4 && keyword == b"validmoves" => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        _ => {}
    }
}
