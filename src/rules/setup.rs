//! The physical checks of a set-up position (§9.42): a position that no box
//! of the game can hold, or that no game can reach, is refused with the
//! clause it breaks. Each check is sound: it refuses only what the rules
//! prove impossible, so a real position from a table is never refused.
//! Written once for both engines: the last move is judged by the engine's
//! own legal moves (`legal_moves`, given by `Rules::load_setup`) in each
//! position it could have been played in.

use std::collections::{BTreeMap, BTreeSet};

use crate::core::notation::Turn;
use crate::core::position_string::{Setup, MAX_TURN};
use crate::core::{Bug, Color, Hex, Move, Piece, RulesOptions};

/// Why a set-up position is refused.
pub(crate) enum Refusal {
    /// With the repetition draw, which needs a history (§9.42, §8.7.2).
    NoHistory,
    /// Impossible, with the clause it breaks and what is wrong.
    Impossible(&'static str, String),
}

/// The legal moves of a position set up without checks, on the engine
/// being loaded.
pub(crate) type LegalMoves<'a> = &'a dyn Fn(&Setup, RulesOptions) -> Vec<Move>;

/// Checks a set-up position; the first problem found, in the order of the
/// clauses below, with its clause.
pub(crate) fn check_setup(
    setup: &Setup,
    options: RulesOptions,
    legal_moves: LegalMoves<'_>,
) -> Result<(), Refusal> {
    let impossible = |clause: &'static str, problem: String| Refusal::Impossible(clause, problem);
    // §9.42 a position has no history for the repetition draw to count
    if options.repetition_draw {
        return Err(Refusal::NoHistory);
    }
    // §9.45 a turn number every count of plies can hold
    if setup.turn.number > MAX_TURN {
        return Err(impossible(
            "§9.45",
            format!(
                "turn {} is beyond the largest turn number of a position, {MAX_TURN}",
                setup.turn.number
            ),
        ));
    }
    // §1.4 only the pieces of the game type
    if let Some((piece, _)) = setup
        .pieces
        .iter()
        .find(|(piece, _)| !setup.game_type.all_pieces().any(|p| p == *piece))
    {
        return Err(impossible(
            "§1.4",
            format!("{piece} is not a piece of {}", setup.game_type),
        ));
    }
    // §3.2 the pieces of a bug enter in number order
    if let Some((piece, _)) = setup.pieces.iter().find(|(piece, _)| {
        piece.number > 1
            && !setup.pieces.iter().any(|(p, _)| {
                p.color == piece.color && p.bug == piece.bug && p.number + 1 == piece.number
            })
    }) {
        return Err(impossible(
            "§3.2",
            format!("{piece} is on the board without the lower-numbered piece of its bug: they are placed in number order"),
        ));
    }
    let stacks = setup.stacks();
    one_hive(&stacks).map_err(|problem| impossible("§2.7", problem))?;
    climbers_only(&stacks).map_err(|problem| impossible("§6.2.1", problem))?;
    turns_allow(setup, &stacks).map_err(|(clause, problem)| impossible(clause, problem))?;
    last_move_possible(setup, options, &stacks, legal_moves)
        .map_err(|(clause, problem)| impossible(clause, problem))
}

/// §2.7: the pieces on the board form one group.
pub(crate) fn one_hive(stacks: &BTreeMap<Hex, Vec<Piece>>) -> Result<(), String> {
    let Some(&start) = stacks.keys().next() else {
        return Ok(());
    };
    let mut reached = BTreeSet::from([start]);
    let mut queue = vec![start];
    while let Some(hex) = queue.pop() {
        for n in hex.neighbours() {
            if stacks.contains_key(&n) && reached.insert(n) {
                queue.push(n);
            }
        }
    }
    match stacks.iter().find(|(hex, _)| !reached.contains(hex)) {
        None => Ok(()),
        Some((hex, stack)) => Err(format!(
            "the hive is in more than one group: {} at {hex} touches no piece of the group of {}",
            stack[0], stacks[&start][0]
        )),
    }
}

/// §6.2.1, §6.7.4: only a beetle climbs, and a mosquito that copies one; no
/// other piece is ever above the ground.
fn climbers_only(stacks: &BTreeMap<Hex, Vec<Piece>>) -> Result<(), String> {
    for (hex, stack) in stacks {
        if let Some(piece) = stack
            .iter()
            .skip(1)
            .find(|p| !matches!(p.bug, Bug::Beetle | Bug::Mosquito))
        {
            return Err(format!(
                "{piece} is on top of {} at {hex}: only a beetle, or a mosquito copying one (§6.7.4), climbs onto the hive",
                stack[0]
            ));
        }
    }
    Ok(())
}

/// The turns each player has had before the position: White moves first
/// (§1.6), each turn one placement, movement or pass (§7.1).
fn turns_taken(setup: &Setup, color: Color) -> usize {
    let plies = setup.plies();
    match color {
        Color::White => plies.div_ceil(2),
        Color::Black => plies / 2,
    }
}

/// §7.1, §7.2, §4.3, §4.5: what the turn number allows of each player's
/// pieces.
fn turns_allow(
    setup: &Setup,
    stacks: &BTreeMap<Hex, Vec<Piece>>,
) -> Result<(), (&'static str, String)> {
    for color in Color::ALL {
        let turns = turns_taken(setup, color);
        let on_board = setup
            .pieces
            .iter()
            .filter(|(p, _)| p.color == color)
            .count();
        // §7.1 a turn places at most one piece
        if on_board > turns {
            return Err((
                "§7.1",
                format!(
                    "{color} has {on_board} pieces on the board after {turns} turn{} of its own ({}): a turn places one piece at most",
                    if turns == 1 { "" } else { "s" },
                    setup.turn
                ),
            ));
        }
        // §7.2 a player's first turn always has a placement (§3.3, §3.4),
        // so a player who has had a turn has a piece on the board
        if turns >= 1 && on_board == 0 {
            return Err((
                "§7.2",
                format!(
                    "{color} has had {turns} turn{} and has no piece on the board: its first turn had a legal placement, so it could not pass",
                    if turns == 1 { "" } else { "s" }
                ),
            ));
        }
        let queen = Piece::first(color, Bug::Queen);
        if setup.pieces.iter().any(|(p, _)| *p == queen) {
            continue;
        }
        // §4.3 without its queen a player only places (or passes): no piece
        // of its colour has climbed
        if let Some((hex, _)) = stacks
            .iter()
            .find(|(_, stack)| stack.iter().skip(1).any(|p| p.color == color))
        {
            return Err((
                "§4.3",
                format!("a {color} piece is on a stack at {hex}, but {queen} is not on the board: no piece moves before its queen is placed"),
            ));
        }
        // §4.5 the queen by the fourth turn: a player without one who
        // placed a piece on every turn placed another on its fourth
        if turns >= 4 && on_board == turns {
            return Err((
                "§4.5",
                format!("{color} has had {turns} turns, placed a piece on each and not {queen}: the queen is placed by a player's fourth turn"),
            ));
        }
    }
    Ok(())
}

/// §5.10, §6.8.7: the piece named as moved last can have arrived where it
/// stands on the ply before: placed there from the reserve, or moved or
/// thrown there from some other cell, in a position with that piece
/// elsewhere, as the engine's own legal moves say (with no piece immune
/// then, which only allows more).
fn last_move_possible(
    setup: &Setup,
    options: RulesOptions,
    stacks: &BTreeMap<Hex, Vec<Piece>>,
    legal_moves: LegalMoves<'_>,
) -> Result<(), (&'static str, String)> {
    let Some(piece) = setup.last_moved else {
        return Ok(());
    };
    let Some(&(_, at)) = setup.pieces.iter().find(|(p, _)| *p == piece) else {
        return Err((
            "§5.10",
            format!("{piece} is named as moved last but is not on the board"),
        ));
    };
    if setup.plies() == 0 {
        return Err((
            "§5.10",
            format!("{piece} is named as moved last, but no ply was played"),
        ));
    }
    if stacks[&at].last() != Some(&piece) {
        return Err((
            "§5.2",
            format!("{piece}, named as moved last, is covered at {at}: a piece that just arrived is on top"),
        ));
    }
    if !arrivals(setup, piece, at, options, legal_moves).is_empty() {
        return Ok(());
    }
    Err((
        "§5.10",
        format!(
            "{piece} is named as moved last, but it cannot have arrived at {at} on the ply before: no placement, movement or throw of the position before brings it there"
        ),
    ))
}

/// The positions one ply before `setup` from which `piece`, on top at
/// `at`, arrived there, each with that ply: placed from the reserve (alone
/// in its cell; the first piece of a game anywhere, its board's origin,
/// §3.3), or moved or thrown from an empty cell beside the rest of the hive
/// or, for a piece that climbs (§6.2.1, §6.7.4), from the top of a stack.
/// Each is a legal move of the position before as the engine's
/// `legal_moves` say, with no piece immune there (which only allows more,
/// §5.10); the position before has the turn before and no piece moved last.
pub(crate) fn arrivals(
    setup: &Setup,
    piece: Piece,
    at: Hex,
    options: RulesOptions,
    legal_moves: LegalMoves<'_>,
) -> Vec<(Setup, Move)> {
    let mut before = setup.clone();
    before.turn = Turn::after_plies(setup.plies().saturating_sub(1));
    before.last_moved = None;
    before.pieces.retain(|(p, _)| *p != piece);
    let mut found = Vec::new();
    let alone = !before.pieces.iter().any(|(_, hex)| *hex == at);
    let placed = Move::Place { piece, to: at };
    let placeable = if before.pieces.is_empty() {
        legal_moves(&before, options).contains(&Move::Place {
            piece,
            to: Hex::ORIGIN,
        })
    } else {
        alone && legal_in(&before, options, legal_moves).contains(&placed)
    };
    if placeable {
        found.push((before.clone(), placed));
    }
    let rest: BTreeSet<Hex> = before.pieces.iter().map(|(_, h)| *h).collect();
    let climbs = matches!(piece.bug, Bug::Beetle | Bug::Mosquito);
    let froms: BTreeSet<Hex> = rest
        .iter()
        .flat_map(|h| h.neighbours())
        .filter(|h| !rest.contains(h))
        .chain(rest.iter().copied().filter(|_| climbs))
        .filter(|from| *from != at)
        .collect();
    let arrives = Move::Move { piece, to: at };
    for from in froms {
        let mut earlier = before.clone();
        earlier.pieces.push((piece, from));
        if legal_in(&earlier, options, legal_moves).contains(&arrives) {
            found.push((earlier, arrives));
        }
    }
    found
}

/// The legal moves of a position set up without checks, in the cells of
/// `setup` (the engine puts the first piece at the origin); none when its
/// hive is in several groups (an earlier position the last move cannot
/// have come from, §2.7).
pub(crate) fn legal_in(
    setup: &Setup,
    options: RulesOptions,
    legal_moves: LegalMoves<'_>,
) -> BTreeSet<Move> {
    if one_hive(&setup.stacks()).is_err() {
        return BTreeSet::new();
    }
    let first = setup.pieces.first().map_or(Hex::ORIGIN, |(_, hex)| *hex);
    legal_moves(setup, options)
        .into_iter()
        .map(|mv| mv.translated(first.q, first.r))
        .collect()
}

/// The pieces in an order in which each touches or covers one before it,
/// every stack bottom first (the order the engines build a set-up in),
/// the first at the origin: the same position, translated.
pub(crate) fn connected_order(pieces: &[(Piece, Hex)]) -> Vec<(Piece, Hex)> {
    let mut stacks: BTreeMap<Hex, Vec<Piece>> = BTreeMap::new();
    for &(piece, hex) in pieces {
        stacks.entry(hex).or_default().push(piece);
    }
    let Some((&start, _)) = pieces.first().map(|(p, h)| (h, p)) else {
        return Vec::new();
    };
    let mut order = Vec::with_capacity(pieces.len());
    let mut seen = BTreeSet::from([start]);
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(hex) = queue.pop_front() {
        for piece in &stacks[&hex] {
            order.push((*piece, Hex::new(hex.q - start.q, hex.r - start.r)));
        }
        for n in hex.neighbours() {
            if stacks.contains_key(&n) && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    order
}
