//! Deliberate faults for testing `hive-oracle check`: the hidden option
//! `hive-oracle uhp --fault NAME` makes our own UHP engine wrong in one
//! known way, so that tests can assert the checker finds each fault.
//!
//! The real game is kept; the fault is applied where it shows: the
//! `validmoves` list, what `play` (and `newgame GameString`) accepts, the
//! GameString printed, the `bestmove` answer, the rules options and the
//! `options` lines, what a refused `newgame` leaves behind, and the session
//! loop (framing, exit, hang). A rule fault's extra moves are computed on the
//! reference position with the reference engine's building blocks, printed in
//! canonical notation and, when played, applied without checking
//! (`play_unchecked`). Every fault is deterministic.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use super::{Game, OptionName};
use crate::core::notation::BoardView;
use crate::core::{Bug, Color, GameState, Hex, Move, Piece, RulesOptions};
use crate::reference::board::Board;
use crate::reference::bugs::pillbug::pillbug_throws;
use crate::reference::end::queen_is_surrounded;
use crate::reference::movement::{
    ground_step_possible, ground_steps_from, one_hive_holds, step_ignoring_height_gates,
};
use crate::reference::{opening, ReferenceEngine};
use crate::rules::Rules;
use crate::search::SearchLimits;

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
    /// Breaks §9.4 and §9.12 (the glyphs of §9.6): every GameString printed
    /// (after `newgame`, `play`, `pass`, `undo`) has `/` and `\` swapped in
    /// its moves, so `X/` (north-east) reads `X\` (south-east) and so on;
    /// the game played is the real one.
    WrongGameString,
    /// Breaks uhp.md section 5.6 (the answer is a move the engine would
    /// play): `bestmove depth N` and `bestmove time hh:mm:ss` answer at once
    /// with a well-formed MoveString that is illegal in the position, a
    /// placement of a piece of the side not to move (§3.1), else a placement
    /// onto an occupied cell (§3.7), else a queen move onto an occupied cell.
    BestmoveIllegal,
    /// Breaks uhp.md section 5.6 (`time` is a wall-clock budget):
    /// `bestmove time hh:mm:ss` answers its (legal) move only once twice the
    /// budget plus 2 s have passed; `bestmove depth N` is as usual.
    BestmoveSlow,
    /// Breaks uhp.md section 2.3 (state on error: unchanged): a refused
    /// `newgame` answers `err` and `ok`, but the previous game is replaced
    /// by a new empty game of its type.
    NewgameRefusalLosesGame,
    /// Breaks spec/notation.md, "UHP engine conventions" (a line that is not
    /// UTF-8 is answered `err`): the process exits with status 1, printing
    /// nothing, on such a line.
    ExitOnNonUtf8,
    /// Breaks §5.2 (a covered piece cannot move): a `play` whose moving piece
    /// is covered moves the piece on top of its stack to the target instead,
    /// when that move is legal (`play wQ \wS1` with `wB1` on `wQ` plays
    /// `wB1`'s move); any other `play` is as usual.
    CoveredNameMovesTop,
    /// Breaks §8.7.2 (the repetition draw applies only when the game is set
    /// up with it) and uhp.md section 5.8: the games are played with the
    /// repetition draw on whatever `RepetitionDraw` says, and the engine
    /// does not know that option (`options` omits it, `get` and `set` refuse
    /// it), so it plays the variant without saying so.
    RepetitionDraw,
    /// Breaks §9.1, §9.2, §9.3, §9.5 and §9.6 (input in any letter case): a
    /// `play` move or `newgame` argument whose letters are not exactly in
    /// their canonical case (`play wq`, `play WQ`, `play PASS`, `newgame
    /// base`) is refused with `invalidmove` (play) or `err` (newgame).
    RefusesLowercase,
}

impl Fault {
    /// Every fault, in the order of their names in the documentation.
    pub const ALL: [Fault; 18] = [
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
        Fault::WrongGameString,
        Fault::BestmoveIllegal,
        Fault::BestmoveSlow,
        Fault::NewgameRefusalLosesGame,
        Fault::ExitOnNonUtf8,
        Fault::CoveredNameMovesTop,
        Fault::RepetitionDraw,
        Fault::RefusesLowercase,
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
            Fault::WrongGameString => "wrong-game-string",
            Fault::BestmoveIllegal => "bestmove-illegal",
            Fault::BestmoveSlow => "bestmove-slow",
            Fault::NewgameRefusalLosesGame => "newgame-refusal-loses-game",
            Fault::ExitOnNonUtf8 => "exit-on-non-utf8",
            Fault::CoveredNameMovesTop => "covered-name-moves-top",
            Fault::RepetitionDraw => "repetition-draw",
            Fault::RefusesLowercase => "refuses-lowercase",
        }
    }

    /// Whether the fault changes the rules of the game (chapters 1 to 8: the
    /// moves listed or accepted, or the state), as opposed to the notation
    /// (chapter 9) or the protocol.
    pub fn is_rule_fault(self) -> bool {
        matches!(
            self,
            Fault::SpiderBacktracks
                | Fault::BeetleIgnoresHeightGates
                | Fault::PillbugThrowsLastMoved
                | Fault::MosquitoCopiesMosquito
                | Fault::SimultaneousSurroundWins
                | Fault::QueenFirstAllowed
                | Fault::DropOneMove
                | Fault::CoveredNameMovesTop
                | Fault::RepetitionDraw
        )
    }

    /// Whether the fault's game is held by the reference engine, which can be
    /// made to play any move: the first seven faults of the rules, whose
    /// moves or state are computed on the reference position. The others
    /// play on the engine the session is given.
    pub(crate) fn needs_reference_engine(self) -> bool {
        self.is_rule_fault() && !matches!(self, Fault::CoveredNameMovesTop | Fault::RepetitionDraw)
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
    let adds_moves = matches!(
        fault,
        Fault::SpiderBacktracks
            | Fault::BeetleIgnoresHeightGates
            | Fault::MosquitoCopiesMosquito
            | Fault::PillbugThrowsLastMoved
            | Fault::QueenFirstAllowed
    );
    if !adds_moves || game.state().is_over() {
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
/// unchecked, a covered mover may hand its move to the top of its stack
/// (covered-name-moves-top), any other move goes to the real engine.
pub(crate) fn play(fault: Option<Fault>, game: &mut Game, mv: Move) -> Result<(), String> {
    if let Some(fault) = fault {
        if extra_moves(fault, game).contains(&mv) {
            game.play_unchecked(mv);
            return Ok(());
        }
        if fault == Fault::CoveredNameMovesTop {
            if let Some(instead) = top_of_covered_mover(game, mv) {
                return game.play(instead);
            }
        }
    }
    game.play(mv)
}

/// §5.2 broken: when `mv` moves a covered piece, the same move by the piece
/// on top of its stack, if that move is legal.
fn top_of_covered_mover(game: &Game, mv: Move) -> Option<Move> {
    let Move::Move { piece, to } = mv else {
        return None;
    };
    let reference = reference_of(game);
    let board = reference.board();
    let top = board.top(board.location(piece)?)?;
    if top == piece {
        return None;
    }
    let instead = Move::Move { piece: top, to };
    game.legal_moves().contains(&instead).then_some(instead)
}

/// The GameString printed, with the fault applied to its moves
/// (wrong-game-string) or to its state (simultaneous-surround-wins).
pub(crate) fn game_string(fault: Option<Fault>, game: &Game) -> String {
    let text = game.game_string();
    if fault == Some(Fault::WrongGameString) {
        return with_glyphs_swapped(&text);
    }
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

/// §9.4, §9.12 broken: the GameString with `/` and `\` swapped in every
/// move (the fields after the type, the state and the turn).
fn with_glyphs_swapped(text: &str) -> String {
    let fields: Vec<String> = text
        .split(';')
        .enumerate()
        .map(|(i, field)| {
            if i < 3 {
                return field.to_string();
            }
            field
                .chars()
                .map(|c| match c {
                    '/' => '\\',
                    '\\' => '/',
                    other => other,
                })
                .collect()
        })
        .collect();
    fields.join(";")
}

/// The answer of `bestmove` under bestmove-illegal: a MoveString that reads
/// in the position but names a move the rules refuse (uhp.md section 5.6
/// broken). `None` under any other fault, or in the unlikely position where
/// none of the candidates is illegal.
pub(crate) fn illegal_best_move(fault: Option<Fault>, game: &Game) -> Option<String> {
    if fault != Some(Fault::BestmoveIllegal) {
        return None;
    }
    let reference = reference_of(game);
    let board = reference.board();
    let game_type = reference.game_type();
    let mover = reference.side_to_move();
    let in_reserve = |color: Color| -> Vec<Piece> {
        // the lowest-numbered piece of each bug still in the reserve (§3.2),
        // the queen last so that only one rule is broken where possible
        let mut pieces: Vec<Piece> = Vec::new();
        for piece in game_type.pieces_of(color) {
            let first_of_bug = !pieces.iter().any(|p| p.bug == piece.bug);
            if board.location(piece).is_none() && first_of_bug {
                pieces.push(piece);
            }
        }
        pieces.sort_by_key(|p| p.bug == Bug::Queen);
        pieces
    };
    let occupied: Vec<Hex> = board.occupied_cells().collect();
    let empty_cell = if board.is_empty() {
        Some(Hex::ORIGIN)
    } else {
        board.empty_cells_touching_hive().into_iter().next()
    };
    let mut candidates: Vec<Move> = Vec::new();
    // §3.1 broken: a placement of a piece of the side not to move
    if let Some(to) = empty_cell {
        for piece in in_reserve(mover.opponent()) {
            candidates.push(Move::Place { piece, to });
        }
    }
    // §3.7 broken: a placement onto an occupied cell
    let own_reserve = in_reserve(mover);
    for &to in &occupied {
        for &piece in &own_reserve {
            candidates.push(Move::Place { piece, to });
        }
    }
    // §6.1 broken: the queen, which never climbs, moved onto another stack
    let queen = Piece::first(mover, Bug::Queen);
    if let Some(from) = board.location(queen) {
        for &to in occupied.iter().filter(|&&to| to != from) {
            candidates.push(Move::Move { piece: queen, to });
        }
    }
    let legal = reference.legal_move_set();
    candidates
        .into_iter()
        .find(|mv| !legal.contains(mv))
        .map(|mv| game.move_string(mv))
}

/// Under bestmove-slow, waits until twice the time budget plus 2 s have
/// passed since `started` (uhp.md section 5.6 broken); returns at once for a
/// depth search or under any other fault.
pub(crate) fn delay_best_move(fault: Option<Fault>, limits: &SearchLimits, started: Instant) {
    let Some(budget) = limits.time else {
        return;
    };
    if fault != Some(Fault::BestmoveSlow) {
        return;
    }
    let total = budget
        .saturating_mul(2)
        .saturating_add(Duration::from_secs(2));
    std::thread::sleep(total.saturating_sub(started.elapsed()));
}

/// What is left after a refused `newgame`: under newgame-refusal-loses-game
/// a new empty game of the previous game's type (uhp.md section 2.3
/// broken), otherwise `None` (the previous game is kept).
pub(crate) fn game_after_refused_newgame(
    fault: Option<Fault>,
    game: Option<&Game>,
) -> Option<Game> {
    if fault != Some(Fault::NewgameRefusalLosesGame) {
        return None;
    }
    let game = game?;
    Some(Game::new(game.engine(), game.game_type(), game.options()))
}

/// The rules options a game is played with: under repetition-draw the
/// repetition draw is always on (§8.7.2 broken).
pub(crate) fn rules(fault: Option<Fault>, rules: RulesOptions) -> RulesOptions {
    match fault {
        Some(Fault::RepetitionDraw) => RulesOptions {
            repetition_draw: true,
            ..rules
        },
        _ => rules,
    }
}

/// Whether the engine does not know the option: under repetition-draw,
/// `RepetitionDraw` (uhp.md section 5.8: the variant it plays is not listed).
pub(crate) fn hides_option(fault: Option<Fault>, name: OptionName) -> bool {
    fault == Some(Fault::RepetitionDraw) && name == OptionName::RepetitionDraw
}

/// Under refuses-lowercase, the refusal of a `play` move whose letters are
/// not in canonical case (§9.5, §9.6 broken); `None` otherwise.
pub(crate) fn move_case_refusal(fault: Option<Fault>, text: &str) -> Option<String> {
    if fault != Some(Fault::RefusesLowercase) || move_in_canonical_case(text) {
        return None;
    }
    Some(format!(
        "{} is not written in canonical letter case",
        super::quote(text.trim())
    ))
}

/// Under refuses-lowercase, the refusal of a `newgame` argument (a
/// GameTypeString or a GameString) whose letters are not in canonical case
/// (§9.1 to §9.6 broken); `None` otherwise.
pub(crate) fn game_case_refusal(fault: Option<Fault>, text: &str) -> Option<String> {
    if fault != Some(Fault::RefusesLowercase) || game_in_canonical_case(text) {
        return None;
    }
    Some(format!(
        "{} is not written in canonical letter case",
        super::quote(text.trim())
    ))
}

/// Whether the letters of a MoveString are as printed (§9.5, §9.6): `pass`
/// lower-case, and in each piece name a lower-case colour letter and an
/// upper-case bug letter. Tokens of no such form are left to the parser.
fn move_in_canonical_case(text: &str) -> bool {
    text.split_whitespace().all(|token| {
        if token.eq_ignore_ascii_case("pass") {
            return token == "pass";
        }
        let name = token.trim_matches(|c| matches!(c, '-' | '/' | '\\'));
        let mut letters = name.chars();
        let colour = letters.next().is_none_or(|c| !c.is_ascii_uppercase());
        let bug = letters.next().is_none_or(|c| !c.is_ascii_lowercase());
        colour && bug
    })
}

/// Whether the letters of a GameTypeString or a GameString are as printed
/// (§9.1, §9.2, §9.3, and §9.5, §9.6 for the moves). Fields of no known
/// form are left to the parser.
fn game_in_canonical_case(text: &str) -> bool {
    let fields: Vec<&str> = text.split(';').map(str::trim).collect();
    fields.iter().enumerate().all(|(i, field)| match i {
        0 => game_type_in_canonical_case(field),
        1 => GameState::ALL
            .into_iter()
            .find(|state| state.name().eq_ignore_ascii_case(field))
            .is_none_or(|state| state.name() == *field),
        2 => ["White", "Black"].into_iter().all(|word| {
            field
                .get(..word.len())
                .is_none_or(|head| !head.eq_ignore_ascii_case(word) || head == word)
        }),
        _ => move_in_canonical_case(field),
    })
}

/// `Base` with a capital B only, expansion letters upper-case (§9.1).
fn game_type_in_canonical_case(field: &str) -> bool {
    match field.get(..4) {
        Some(head) if head.eq_ignore_ascii_case("base") => {
            head == "Base" && !field[4..].bytes().any(|b| b.is_ascii_lowercase())
        }
        _ => true,
    }
}

/// Whether the response to the `count`-th command (from 1) loses its `ok`.
pub(crate) fn drops_ok(fault: Option<Fault>, count: usize) -> bool {
    fault == Some(Fault::MissingOk) && count == 6
}

/// The protocol faults that act before a command is answered: exit with
/// status 101 (crash-mid-game), block forever (hang) or exit with status 1
/// on a line that is not UTF-8 (exit-on-non-utf8). Returns otherwise.
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
        Some(Fault::ExitOnNonUtf8) if std::str::from_utf8(line).is_err() => std::process::exit(1),
        _ => {}
    }
}
