//! The Pillbug (§6.8.1–§6.8.8): one ground step, or its special ability.

use std::collections::BTreeSet;

use crate::core::{Bug, Color, Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{describe, height_fact, lift_fact, names, Fact, Refusal};
use crate::reference::movement::{
    ground_steps_from, height_gate_blocks, judge_one_ground_step, one_hive_holds,
};

use super::copied::mosquito_copies_pillbug;

/// Pillbug movement (§6.8.1): one ground step, like the queen.
pub(crate) fn pillbug_destinations(board: &Board, from: Hex) -> BTreeSet<Hex> {
    let lifted = board.with_top_lifted(from);
    ground_steps_from(&lifted, from).into_iter().collect()
}

/// Whether the pillbug at `from` reaches `to` by its own step (§6.8.1): the
/// step's facts, or the first rule the step breaks.
pub(crate) fn judge_pillbug(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Fact>, Refusal> {
    judge_one_ground_step(board, piece, "§6.8.1", from, to)
}

/// Whether the top piece at `at` can use the pillbug's ability: a pillbug
/// (§6.8.2) or a mosquito on the ground next to one (§6.7.5).
pub(crate) fn has_pillbug_ability(board: &Board, piece: Piece, at: Hex) -> bool {
    match piece.bug {
        Bug::Pillbug => true,
        Bug::Mosquito => mosquito_copies_pillbug(board, at),
        _ => false,
    }
}

/// The special ability (§6.8.2) of a pillbug (or a mosquito copying one) at
/// `pillbug_at`: every (piece, destination) pair it may throw. The caller has
/// checked that the thrower itself may act (its queen placed §4.3, not
/// covered §5.2, not immune §5.10); the thrower may be pinned (§6.8.6).
///
/// * CANDIDATES: §6.8.2 each adjacent piece, of either colour, to each empty
///   cell adjacent to the pillbug;
/// * FILTERS: §6.8.3 the target is alone in its cell; §5.10 it is not the piece
///   moved last turn; §6.8.4 lifting it keeps one hive; §6.8.5 the climb onto
///   the pillbug and the drop pass no height gate; §6.8.8 it lands elsewhere.
pub(crate) fn pillbug_throws(
    board: &Board,
    pillbug_at: Hex,
    immune: Option<Piece>,
) -> BTreeSet<(Piece, Hex)> {
    let mut throws = BTreeSet::new();
    for source in pillbug_at.neighbours() {
        // §6.8.3 only an unstacked piece can be thrown
        if board.height(source) != 1 {
            continue;
        }
        let Some(target) = board.top(source) else {
            continue;
        };
        // §5.10 the piece moved last turn cannot be thrown
        if immune == Some(target) {
            continue;
        }
        // §6.8.4 lifting it must not split the hive
        if !one_hive_holds(board, source) {
            continue;
        }
        let lifted = board.with_top_lifted(source);
        // §6.8.5 the climb onto the pillbug passes no height gate
        if height_gate_blocks(&lifted, source, pillbug_at) {
            continue;
        }
        for destination in pillbug_at.neighbours() {
            // §6.8.8 an empty cell next to the pillbug, not where it came from
            if destination == source || lifted.is_occupied(destination) {
                continue;
            }
            // §6.8.5 the drop passes no height gate
            if height_gate_blocks(&lifted, pillbug_at, destination) {
                continue;
            }
            throws.insert((target, destination));
        }
    }
    throws
}

/// Whether a pillbug's ability of `color` moves `piece` (on top at `from`)
/// to `to` (§6.8.2–§6.8.8): one list of facts per thrower whose throws
/// ([`pillbug_throws`]) include it, or why none can. `immune` is the piece
/// moved last turn (§5.10). The general conditions (§4.3, §5.2, §5.10 for the
/// piece) are the caller's.
pub(crate) fn judge_throw(
    board: &Board,
    color: Color,
    immune: Option<Piece>,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Vec<Fact>>, Refusal> {
    // The player's own pillbugs and mosquitoes next to the piece, whether or not they can act.
    let candidates: Vec<(Hex, Piece)> = from
        .neighbours()
        .into_iter()
        .filter_map(|n| board.top(n).map(|p| (n, p)))
        .filter(|(_, p)| p.color == color && matches!(p.bug, Bug::Pillbug | Bug::Mosquito))
        .collect();
    let throwers: Vec<(Hex, Piece)> = candidates
        .iter()
        .copied()
        .filter(|&(at, p)| immune != Some(p) && has_pillbug_ability(board, p, at))
        .collect();
    let ways: Vec<Vec<Fact>> = throwers
        .iter()
        .filter(|&&(at, _)| pillbug_throws(board, at, immune).contains(&(piece, to)))
        .map(|&(at, thrower)| throw_facts(board, color, thrower, at, piece, from, to))
        .collect();
    if !ways.is_empty() {
        return Ok(ways);
    }
    Err(throw_refusal(
        board,
        color,
        immune,
        piece,
        from,
        to,
        &candidates,
        &throwers,
    ))
}

/// The facts of one throw that [`pillbug_throws`] produced.
fn throw_facts(
    board: &Board,
    color: Color,
    thrower: Piece,
    at: Hex,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Vec<Fact> {
    let lifted = board.with_top_lifted(from);
    let mut facts = vec![Fact::new(
        &["§6.8.2"],
        format!(
            "{thrower} at {at} uses the pillbug's ability: it lifts the adjacent {piece} from {from} over itself and sets it down at {to}"
        ),
    )];
    if thrower.bug == Bug::Mosquito {
        let model = at
            .neighbours()
            .into_iter()
            .find(|&n| board.top(n).is_some_and(|p| p.bug == Bug::Pillbug));
        let model = model.map_or_else(String::new, |m| describe(board, m));
        facts.push(Fact::new(
            &["§6.7.5"],
            format!(
                "{thrower} is on the ground next to the pillbug {model}, so it has its ability"
            ),
        ));
    }
    facts.push(Fact::new(
        &["§6.8.3"],
        format!("{piece} is alone in its cell"),
    ));
    facts.push(Fact::new(&["§6.8.4"], lift_fact(board, piece, from)));
    facts.push(Fact::new(
        &["§6.8.5", "§5.6"],
        format!(
            "the climb: {}; the drop: {}",
            height_fact(&lifted, from, at),
            height_fact(&lifted, at, to)
        ),
    ));
    facts.push(Fact::new(
        &["§6.8.8"],
        format!("{to} is empty, next to {thrower}, and not where {piece} came from"),
    ));
    if board.height(at) == 1 && !one_hive_holds(board, at) {
        facts.push(Fact::new(
            &["§6.8.6"],
            format!(
                "{thrower} itself is pinned (lifting it would split the hive), yet it may throw"
            ),
        ));
    }
    if piece.color != color {
        facts.push(Fact::new(
            &["§5.1"],
            format!(
                "{piece} is {}'s piece: only the ability moves it",
                piece.color
            ),
        ));
    }
    facts
}

/// Why no pillbug ability moves `piece` to `to`: the first filter of
/// [`pillbug_throws`] that removes the throw, most specific rule first.
#[allow(clippy::too_many_arguments)]
fn throw_refusal(
    board: &Board,
    color: Color,
    immune: Option<Piece>,
    piece: Piece,
    from: Hex,
    to: Hex,
    candidates: &[(Hex, Piece)],
    throwers: &[(Hex, Piece)],
) -> Refusal {
    if throwers.is_empty() {
        return no_thrower_refusal(board, color, immune, piece, candidates);
    }
    if board.height(from) != 1 {
        // §6.8.3 only a piece alone in its cell
        return Refusal::shown(
            format!("{piece} is on a stack and cannot be thrown"),
            &["§6.8.3"],
            format!(
                "the stack at {from}, bottom to top: {}; {piece} is not alone on top",
                names(board.stack(from))
            ),
        );
    }
    if !one_hive_holds(board, from) {
        // §6.8.4 One Hive for the thrown piece
        return Refusal::shown(
            format!("{piece} cannot be thrown: lifting it splits the hive"),
            &["§6.8.4"],
            lift_fact(board, piece, from),
        );
    }
    landing_refusal(board, color, piece, from, to, throwers)
}

/// Why no candidate next to `piece` may throw it: the first candidate moved
/// last turn (§5.10), or a mosquito on the hive (§6.7.4) or touching no
/// pillbug (§6.7.5); with no candidate at all, the piece is simply not the
/// player's (§1.9).
fn no_thrower_refusal(
    board: &Board,
    color: Color,
    immune: Option<Piece>,
    piece: Piece,
    candidates: &[(Hex, Piece)],
) -> Refusal {
    // Say why the nearest candidate cannot throw.
    if let Some(&(_, p)) = candidates.iter().find(|&&(_, p)| immune == Some(p)) {
        // §5.10 the thrower moved last turn
        return Refusal::plain(
            format!("{p} moved last turn, so it cannot use its ability to move {piece} this turn"),
            &["§5.10"],
        );
    }
    if let Some(&(_, p)) = candidates.iter().find(|&&(at, _)| board.height(at) >= 2) {
        // §6.7.4 a mosquito on the hive is a beetle
        return Refusal::plain(
            format!("{p} is on top of the hive, where a mosquito moves only as a beetle and cannot throw {piece}"),
            &["§6.7.4"],
        );
    }
    if let Some(&(_, p)) = candidates.first() {
        // §6.7.5 a mosquito has the ability only next to a pillbug
        return Refusal::plain(
            format!("{p} touches no pillbug, so it has no ability to move {piece}"),
            &["§6.7.5"],
        );
    }
    Refusal::plain(
        format!("{piece} is not {color}'s piece, and no {color} pillbug or mosquito next to it could move it"),
        &["§1.9", "§6.8.2", "§5.1"],
    )
}

/// Why a piece that may be lifted cannot land on `to`: not next to a
/// thrower, or occupied (§6.8.8), or else a height gate on the climb or the
/// drop (§6.8.5).
fn landing_refusal(
    board: &Board,
    color: Color,
    piece: Piece,
    from: Hex,
    to: Hex,
    throwers: &[(Hex, Piece)],
) -> Refusal {
    // Every thrower with the ability, whether or not it is immune.
    let able: Vec<String> = from
        .neighbours()
        .into_iter()
        .filter(|&n| {
            board
                .top(n)
                .is_some_and(|q| q.color == color && has_pillbug_ability(board, q, n))
        })
        .map(|n| describe(board, n))
        .collect();
    let landing = format!(
        "{to} is {}; the throwers next to the piece: {}",
        if board.is_occupied(to) {
            "occupied"
        } else {
            "empty"
        },
        able.join(", ")
    );
    if !throwers.iter().any(|&(at, _)| at.is_adjacent(to)) {
        // §6.8.8 next to the pillbug
        return Refusal::shown(
            format!("a throw lands next to the pillbug; {to} is not"),
            &["§6.8.8"],
            landing,
        );
    }
    if board.is_occupied(to) {
        // §6.8.8 on an empty cell
        return Refusal::shown(
            format!("a thrown piece lands on an empty cell; {to} is occupied"),
            &["§6.8.8"],
            landing,
        );
    }
    // §6.8.5 what is left: a height gate on the climb or on the drop
    let lifted = board.with_top_lifted(from);
    let gates: Vec<String> = from
        .neighbours()
        .into_iter()
        .filter(|n| n.is_adjacent(to))
        .filter_map(|at| {
            let thrower = board.top(at)?;
            if thrower.color != color || !has_pillbug_ability(board, thrower, at) {
                return None;
            }
            Some(if height_gate_blocks(&lifted, from, at) {
                format!(
                    "the climb of {piece} onto {thrower}: {}",
                    height_fact(&lifted, from, at)
                )
            } else {
                format!(
                    "the drop from {thrower} to {to}: {}",
                    height_fact(&lifted, at, to)
                )
            })
        })
        .collect();
    Refusal::new(
        format!("{piece} cannot be thrown to {to}: a gate of two higher stacks blocks it"),
        &["§6.8.5"],
        gates,
    )
}
