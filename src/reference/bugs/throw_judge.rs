//! The judgement of one throw in words: the facts of the throws that move a
//! piece to a cell, or, when none does, the refusal that names the rule the
//! closest attempt breaks. Both read the attempts of `throw.rs`.

use crate::core::{Bug, Color, Hex, Piece};
use crate::reference::board::Board;
use crate::reference::facts::{
    describe, height_fact, lift_fact, stack_fact, step_fact, Fact, Refusal,
};
use crate::reference::movement::one_hive_holds;

use super::throw::{throw_attempts, throwers_next_to, Landings, ThrowAttempt, ThrowBreak, Thrower};

/// Why no throw of the player's moves a piece to a cell: the attempt that
/// came closest, and the refusal that says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ThrowMiss {
    /// The condition the closest attempt breaks.
    pub(crate) broken: ThrowBreak,
    /// Whether its thrower is next to the destination.
    pub(crate) next_to_destination: bool,
    /// The refusal: that attempt's reason first, then each other thrower's.
    pub(crate) refusal: Refusal,
}

impl ThrowMiss {
    /// Whether a throw there was within reach: a pillbug next to the
    /// destination, or a mosquito next to one, would have set the piece
    /// down on that empty cell but for the rule it broke. Then a refusal of
    /// the piece's own movement names this rule too.
    pub(crate) fn within_reach(&self) -> bool {
        self.next_to_destination
            && !matches!(
                self.broken,
                ThrowBreak::MosquitoTouchesNoPillbug | ThrowBreak::Occupied
            )
    }
}

/// Whether a throw of the player `color` moves `piece` (on top at `from`)
/// to `to` (§6.8.2–§6.8.8): one list of facts per thrower whose attempt
/// succeeds, or why none does; `Err(None)` when no thrower of the player
/// touches the piece. The general conditions on the piece (§4.3, §5.2,
/// §5.10) are the caller's.
pub(crate) fn judge_throw(
    board: &Board,
    color: Color,
    immune: Option<Piece>,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Result<Vec<Vec<Fact>>, Option<ThrowMiss>> {
    let attempts = throw_attempts(board, color, immune, from, Landings::Only(to));
    let last_thrower = thrower_of_the_last_throw(board, color, immune, piece, from);
    let ways: Vec<Vec<Fact>> = attempts
        .iter()
        .filter(|attempt| attempt.outcome.is_ok())
        .map(|attempt| {
            let mut facts = throw_facts(board, color, immune, attempt.thrower, piece, from, to);
            facts.extend(last_thrower.clone());
            facts
        })
        .collect();
    if !ways.is_empty() {
        return Ok(ways);
    }
    // The attempt reported: by a thrower next to the destination if there
    // is one, and of those the one that got furthest; the first in
    // neighbour order among equals.
    let rank = |attempt: &ThrowAttempt| {
        let broken = attempt.outcome.err();
        (attempt.thrower.at.is_adjacent(to), broken)
    };
    let mut closest: Option<&ThrowAttempt> = None;
    for attempt in &attempts {
        if closest.is_none_or(|best| rank(attempt) > rank(best)) {
            closest = Some(attempt);
        }
    }
    let closest = closest.ok_or(None)?;
    let Err(broken) = closest.outcome else {
        return Err(None);
    };
    let (reason, clauses, mut facts) = break_words(board, piece, from, to, closest.thrower, broken);
    // Each other thrower's attempt, in a sentence.
    for other in attempts.iter().filter(|a| a.thrower != closest.thrower) {
        if let Err(broken) = other.outcome {
            let (reason, clauses, shown) =
                break_words(board, piece, from, to, other.thrower, broken);
            let cells = shown.first().map(|f| f.cells.clone()).unwrap_or_default();
            facts.push(Fact::new(&clauses, reason).with_cells(cells));
        }
    }
    Err(Some(ThrowMiss {
        broken,
        next_to_destination: closest.thrower.at.is_adjacent(to),
        refusal: Refusal::with_facts(reason, &clauses, facts),
    }))
}

/// The exception of §6.8.7 when the piece thrown now may be the pillbug
/// or mosquito that threw last turn: the piece moved last turn (`immune`)
/// is the player's own, so the opponent threw it, with a pillbug or
/// mosquito of theirs next to where it landed; `piece` is one of those.
/// Using the ability is not moving the thrower, so `piece` is not immune.
/// `None` when the last turn was no throw or `piece` could not have made it.
fn thrower_of_the_last_throw(
    board: &Board,
    color: Color,
    immune: Option<Piece>,
    piece: Piece,
    from: Hex,
) -> Option<Fact> {
    let moved = immune.filter(|moved| moved.color == color)?;
    let landed = board.location(moved)?;
    // the opponent's pieces next to the landing that could have thrown it:
    // a pillbug on top of its stack, or a mosquito on the ground (§6.7.4)
    let candidates: Vec<Thrower> = throwers_next_to(board, color.opponent(), landed)
        .into_iter()
        .filter(|t| board.top(t.at) == Some(t.piece))
        .filter(|t| t.piece.bug == Bug::Pillbug || board.height(t.at) == 1)
        .collect();
    if !candidates.iter().any(|t| t.piece == piece && t.at == from) {
        return None;
    }
    let opponent = color.opponent();
    let by = if let [only] = candidates[..] {
        format!("{opponent} threw it with {}, next to it", only.piece)
    } else {
        let listed: Vec<String> = candidates.iter().map(|t| t.piece.to_string()).collect();
        format!(
            "{opponent} threw it with a pillbug or mosquito next to it ({})",
            listed.join(", ")
        )
    };
    Some(
        Fact::exception(
            &["§6.8.7"],
            format!(
                "{moved}, the piece moved last turn, is {color}'s own: {by}; using the ability is not moving the thrower, so {piece} is not immune and may be thrown"
            ),
        )
        .with_cells(candidates.iter().map(|t| t.at)),
    )
}

/// The reason, clauses and facts of one attempt that breaks `broken`: the
/// thrower named, the stacks, groups and heights the rule looked at.
fn break_words(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
    thrower: Thrower,
    broken: ThrowBreak,
) -> (String, Vec<&'static str>, Vec<Fact>) {
    let (reason, clauses, fact) = match thrower_break_words(board, piece, thrower, broken) {
        Some(words) => words,
        None => landing_break_words(board, piece, from, to, thrower, broken),
    };
    (reason, clauses.to_vec(), vec![fact])
}

/// One sentence, its clauses and its fact.
type Words = (String, &'static [&'static str], Fact);

/// The words of a break of the thrower (who may throw): `None` for a break
/// of the thrown piece or the landing.
fn thrower_break_words(
    board: &Board,
    piece: Piece,
    thrower: Thrower,
    broken: ThrowBreak,
) -> Option<Words> {
    let Thrower { piece: by, at } = thrower;
    Some(match broken {
        ThrowBreak::ThrowerCovered => {
            let top = board.top(at).map_or_else(String::new, |t| t.to_string());
            let clauses = &["§6.8.3", "§5.2"];
            (
                format!("{by} at {at} is covered by {top}, so it cannot throw {piece}"),
                clauses,
                Fact::new(
                    clauses,
                    format!("{}; a covered pillbug does not throw", stack_fact(board, at)),
                )
                .with_cells([at]),
            )
        }
        ThrowBreak::ThrowerImmune => (
            format!("{by} moved last turn, so it cannot use its ability to move {piece} this turn"),
            &["§5.10"],
            Fact::new(&["§5.10"], format!("{by} at {at} is the piece moved last turn"))
                .with_cells([at]),
        ),
        ThrowBreak::MosquitoOnHive => (
            format!("{by} is on top of the hive, where a mosquito moves only as a beetle and cannot throw {piece}"),
            &["§6.7.4"],
            Fact::new(&["§6.7.4"], format!("{by} is on a stack of {} at {at}", board.height(at)))
                .with_cells([at]),
        ),
        ThrowBreak::MosquitoTouchesCoveredPillbug => {
            let covered: Vec<Hex> = board
                .occupied_neighbours(at)
                .filter(|&n| board.stack(n).iter().any(|p| p.bug == Bug::Pillbug))
                .collect();
            let shown: Vec<String> = covered.iter().map(|&n| stack_fact(board, n)).collect();
            let clauses = &["§6.7.3", "§6.7.5"];
            (
                format!("{by} copies only top pieces, and the pillbug it touches is covered: it has no ability to move {piece}"),
                clauses,
                Fact::new(clauses, shown.join("; ")).with_cells(covered),
            )
        }
        ThrowBreak::MosquitoTouchesNoPillbug => {
            let near: Vec<Hex> = board.occupied_neighbours(at).collect();
            let listed: Vec<String> = near.iter().map(|&n| describe(board, n)).collect();
            (
                format!("{by} touches no pillbug, so it has no ability to move {piece}"),
                &["§6.7.5"],
                Fact::new(
                    &["§6.7.5"],
                    format!("the pieces next to {by} at {at}: {}", listed.join(", ")),
                )
                .with_cells(near),
            )
        }
        _ => return None,
    })
}

/// The words of a break of the thrown piece or of the landing.
fn landing_break_words(
    board: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
    thrower: Thrower,
    broken: ThrowBreak,
) -> Words {
    let Thrower { piece: by, at } = thrower;
    let lifted = board.with_top_lifted(from);
    match broken {
        ThrowBreak::PieceStacked => (
            format!("{piece} is on a stack and cannot be thrown"),
            &["§6.8.3"],
            Fact::new(
                &["§6.8.3"],
                format!(
                    "{}; {piece} is not alone in its cell",
                    stack_fact(board, from)
                ),
            )
            .with_cells([from]),
        ),
        ThrowBreak::PieceImmune => (
            format!("{piece} moved last turn, so it cannot be thrown this turn"),
            &["§5.10"],
            Fact::new(
                &["§5.10"],
                format!("{piece} at {from} is the piece moved last turn"),
            )
            .with_cells([from]),
        ),
        ThrowBreak::SplitsHive => (
            format!("{piece} cannot be thrown: lifting it splits the hive"),
            &["§6.8.4"],
            Fact::new(&["§6.8.4"], lift_fact(board, piece, from)).with_cells([from]),
        ),
        ThrowBreak::NotNextToThrower => (
            format!("a throw lands next to the thrower; {to} is not next to {by} at {at}"),
            &["§6.8.8"],
            Fact::new(
                &["§6.8.8"],
                format!("{by} at {at} could set {piece} down only on a cell next to it"),
            )
            .with_cells([at]),
        ),
        ThrowBreak::Occupied => (
            format!("a thrown piece lands on an empty cell; {to} is occupied"),
            &["§6.8.8"],
            Fact::new(
                &["§6.8.8"],
                format!("{} is next to {by}, but occupied", describe(board, to)),
            )
            .with_cells([to]),
        ),
        ThrowBreak::WhereItCameFrom => (
            format!("a thrown piece lands elsewhere than {from}, where it came from"),
            &["§6.8.8"],
            Fact::new(&["§6.8.8"], format!("{piece} would come back to {from}")).with_cells([from]),
        ),
        ThrowBreak::ClimbGated => (
            format!("{piece} cannot be thrown to {to}: a gate of two higher stacks blocks it"),
            &["§6.8.5"],
            step_fact(
                &["§6.8.5", "§5.6"],
                format!(
                    "the climb of {piece} onto {by}: {}",
                    height_fact(&lifted, from, at)
                ),
                from,
                at,
            ),
        ),
        ThrowBreak::DropGated => (
            format!("{piece} cannot be thrown to {to}: a gate of two higher stacks blocks it"),
            &["§6.8.5"],
            step_fact(
                &["§6.8.5", "§5.6"],
                format!(
                    "the drop from {by} to {to}: {}",
                    height_fact(&lifted, at, to)
                ),
                at,
                to,
            ),
        ),
        // The thrower's breaks are put in words by `thrower_break_words`.
        ThrowBreak::ThrowerCovered
        | ThrowBreak::ThrowerImmune
        | ThrowBreak::MosquitoOnHive
        | ThrowBreak::MosquitoTouchesCoveredPillbug
        | ThrowBreak::MosquitoTouchesNoPillbug => (
            format!("{by} at {at} cannot throw {piece}"),
            &["§6.8.2"],
            Fact::new(&["§6.8.2"], format!("{by} at {at} cannot throw {piece}")).with_cells([at]),
        ),
    }
}

/// The facts of one legal throw: `thrower` lifts `piece` from `from` over
/// itself and sets it down on `to`.
pub(crate) fn throw_facts(
    board: &Board,
    color: Color,
    immune: Option<Piece>,
    thrower: Thrower,
    piece: Piece,
    from: Hex,
    to: Hex,
) -> Vec<Fact> {
    let Thrower { piece: by, at } = thrower;
    let lifted = board.with_top_lifted(from);
    let mut facts = vec![Fact::new(
        &["§6.8.2"],
        format!(
            "{by} at {at} uses the pillbug's ability: it lifts the adjacent {piece} from {from} over itself and sets it down at {to}"
        ),
    )
    .with_cells([at])
    .with_path([from, at, to])];
    if by.bug == Bug::Mosquito {
        let model = at
            .neighbours()
            .into_iter()
            .find(|&n| board.top(n).is_some_and(|p| p.bug == Bug::Pillbug));
        let named = model.map_or_else(String::new, |m| describe(board, m));
        facts.push(
            Fact::new(
                &["§6.7.5"],
                format!("{by} is on the ground next to the pillbug {named}, so it has its ability"),
            )
            .with_cells(model),
        );
        facts.extend(copied_pillbug_immune(board, immune, by, model));
    }
    facts.push(Fact::new(
        &["§6.8.3"],
        format!("{piece} is alone in its cell"),
    ));
    facts.push(Fact::new(&["§6.8.4"], lift_fact(board, piece, from)));
    facts.push(
        Fact::new(
            &["§6.8.5", "§5.6"],
            format!(
                "the climb: {}; the drop: {}",
                height_fact(&lifted, from, at),
                height_fact(&lifted, at, to)
            ),
        )
        .with_path([from, at, to]),
    );
    facts.push(Fact::new(
        &["§6.8.8"],
        format!("{to} is empty, next to {by}, and not where {piece} came from"),
    ));
    if board.height(at) == 1 && !one_hive_holds(board, at) {
        facts.push(Fact::exception(
            &["§6.8.6"],
            format!("{by} itself is pinned (lifting it would split the hive), yet it may throw"),
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

/// The exception of §6.7.5 when the pillbug a mosquito copies is the piece
/// moved last turn: that pillbug may not act (§5.10), yet the mosquito has
/// its step and its ability all the same, its own immunity alone deciding.
/// `None` when the copied pillbug is not immune.
pub(crate) fn copied_pillbug_immune(
    board: &Board,
    immune: Option<Piece>,
    mosquito: Piece,
    model: Option<Hex>,
) -> Option<Fact> {
    let model = model?;
    let pillbug = board.top(model).filter(|&p| Some(p) == immune)?;
    Some(
        Fact::exception(
            &["§6.7.5"],
            format!(
                "{pillbug} at {model} was moved last turn and may not move or throw itself (§5.10), yet {mosquito} copies it all the same: the copied pillbug's immunity does not bind the mosquito"
            ),
        )
        .with_cells([model]),
    )
}
