//! Why a move is illegal: the first rule, in the order of the specification,
//! that the move breaks, with its clause. This is what `play` reports and
//! the seed of the `explain` command.

use super::board::Board;
use super::{bugs, movement, opening, placement, Position};
use crate::core::{Bug, Direction, Hex, Move, Piece};
use crate::rules::IllegalMove;

/// Explains why `mv` is not among the legal moves of `position`.
pub fn why_illegal(position: &Position, mv: Move) -> IllegalMove {
    let state = position.state;
    if state.is_over() {
        return IllegalMove::new(
            format!("the game is over ({state}): no move is legal"),
            &["§8.5"],
        );
    }
    let reason = match mv {
        Move::Pass => Some(IllegalMove::new(
            "cannot pass: there are legal moves",
            &["§7.2"],
        )),
        Move::Place { piece, to } => placement_problem(position, piece, to),
        Move::Move { piece, to } => movement_problem(position, piece, to),
    };
    reason.unwrap_or_else(|| IllegalMove::new(format!("{mv} is not a legal move"), &[]))
}

/// The first placement rule (chapters 1, 3, 4) that placing `piece` on `to` breaks.
fn placement_problem(position: &Position, piece: Piece, to: Hex) -> Option<IllegalMove> {
    let board = position.board();
    let color = position.side_to_move();
    let plies = position.plies;
    let problem = if !position.game_type.has_bug(piece.bug) {
        IllegalMove::new(
            format!("{piece} does not exist in {}", position.game_type),
            &["§1.3"],
        )
    } else if !placement::is_in_reserve(board, piece) {
        IllegalMove::new(format!("{piece} is already on the board"), &["§3.1"])
    } else if piece.color != color {
        IllegalMove::new(
            format!("{piece} is not {color}'s to place: it is {color}'s turn"),
            &["§3.1"],
        )
    } else if !placement::next_pieces_in_reserve(board, position.game_type, color).contains(&piece)
    {
        IllegalMove::new(
            format!(
                "{piece} cannot be placed before the lower-numbered {}s",
                piece.bug.name()
            ),
            &["§3.2"],
        )
    } else if opening::queen_is_due(board, color, plies) && piece.bug != Bug::Queen {
        IllegalMove::new(
            format!(
                "{color} must place the queen on turn {}",
                opening::turn_number(plies)
            ),
            &["§4.1"],
        )
    } else if opening::queen_is_forbidden(board, color, position.options) && piece.bug == Bug::Queen
    {
        IllegalMove::new(
            "the queen cannot be a player's first placement (tournament opening)",
            &["§4.2"],
        )
    } else if board.is_occupied(to) {
        IllegalMove::new(
            format!("{piece} cannot be placed on a stack: {to} is occupied"),
            &["§3.7"],
        )
    } else if board.is_empty() {
        IllegalMove::new(
            format!("the first piece goes to the origin, not {to}"),
            &["§3.3"],
        )
    } else if board.pieces().count() == 1 {
        IllegalMove::new(
            format!("the second piece must touch the first; {to} does not"),
            &["§3.4"],
        )
    } else if placement::touches_enemy_colour(board, to, color) {
        IllegalMove::new(
            format!(
                "{piece} cannot be placed at {to}: it would touch a {} stack",
                color.opponent()
            ),
            &["§3.6"],
        )
    } else if !placement::touches_own_colour(board, to, color) {
        IllegalMove::new(
            format!("{piece} cannot be placed at {to}: it touches no {color} stack"),
            &["§3.5"],
        )
    } else {
        return None;
    };
    Some(problem)
}

/// The first movement rule (chapters 4–6) that moving `piece` to `to` breaks.
fn movement_problem(position: &Position, piece: Piece, to: Hex) -> Option<IllegalMove> {
    let board = position.board();
    let color = position.side_to_move();
    let Some(from) = board.location(piece) else {
        return Some(IllegalMove::new(
            format!("{piece} is not on the board, so it cannot move"),
            &["§5.1"],
        ));
    };
    if from == to {
        return Some(IllegalMove::new(
            format!("{piece} must end somewhere other than where it starts"),
            &["§5.7"],
        ));
    }
    if !opening::may_move_pieces(board, color) {
        return Some(IllegalMove::new(
            format!("{color} cannot move pieces before placing the queen"),
            &["§4.3"],
        ));
    }
    // §5.1 another player's piece moves only by a pillbug's ability (§6.8.2)
    let thrower_nearby = from.neighbours().into_iter().any(|n| {
        board
            .top(n)
            .is_some_and(|p| p.color == color && matches!(p.bug, Bug::Pillbug | Bug::Mosquito))
    });
    if piece.color != color && !thrower_nearby {
        return Some(IllegalMove::new(
            format!("{piece} is not {color}'s piece, and no {color} pillbug or mosquito next to it could move it"),
            &["§5.1", "§6.8.2"],
        ));
    }
    if board.top(from) != Some(piece) {
        return Some(IllegalMove::new(
            format!("{piece} is covered, so it cannot move or be thrown"),
            &["§5.2"],
        ));
    }
    if position.immune_piece() == Some(piece) {
        return Some(IllegalMove::new(
            format!("{piece} moved last turn, so it cannot move or be thrown this turn"),
            &["§5.8"],
        ));
    }
    let own_reason = (piece.color == color).then(|| own_movement_problem(board, piece, from, to));
    let throw_reason = throw_problem(position, piece, from, to);
    // Prefer the reason about the piece's own movement; mention the throw only
    // when no thrower is next to it.
    match (own_reason.flatten(), throw_reason) {
        // A pinned piece next to its own pillbug can be neither moved nor
        // thrown: name both rules (§5.3 for the move, §6.8.4 for the throw).
        (Some(mut own), Some(throw)) if own.clauses == ["§5.3"] && throw.clauses == ["§6.8.4"] => {
            own.reason
                .push_str(", so it can neither move nor be thrown");
            own.clauses.push("§6.8.4");
            Some(own)
        }
        (Some(own), _) => Some(own),
        (None, Some(throw)) => Some(throw),
        (None, None) => None,
    }
}

/// Why `piece` (the mover's own, on top at `from`) cannot reach `to` by its own movement.
fn own_movement_problem(board: &Board, piece: Piece, from: Hex, to: Hex) -> Option<IllegalMove> {
    if !movement::one_hive_holds(board, from) {
        return Some(IllegalMove::new(
            format!("{piece} cannot move: lifting it splits the hive"),
            &["§5.3"],
        ));
    }
    if bugs::own_movement(piece.bug, board, from).contains(&to) {
        return None;
    }
    Some(bug_problem(board, piece, piece.bug, from, to))
}

/// Why a piece moving as `bug` from `from` cannot reach `to` (chapter 6).
fn bug_problem(board: &Board, piece: Piece, bug: Bug, from: Hex, to: Hex) -> IllegalMove {
    let lifted = board.with_top_lifted(from);
    let name = bug.name();
    match bug {
        Bug::Queen | Bug::Pillbug => {
            let clause = if bug == Bug::Queen {
                "§6.1"
            } else {
                "§6.8.1"
            };
            if !from.is_adjacent(to) {
                IllegalMove::new(
                    format!("{piece} cannot reach {to}: a {name} moves one cell"),
                    &[clause],
                )
            } else if lifted.is_occupied(to) {
                IllegalMove::new(
                    format!("{piece} cannot climb: a {name} moves on the ground"),
                    &[clause],
                )
            } else {
                step_problem(&lifted, piece, from, to, clause)
            }
        }
        Bug::Beetle => {
            if !from.is_adjacent(to) {
                IllegalMove::new(
                    format!("{piece} cannot reach {to}: a beetle moves one cell"),
                    &["§6.2.1"],
                )
            } else if movement::height_gate_blocks(&lifted, from, to) {
                let on_ground = lifted.height(from) == 0 && lifted.height(to) == 0;
                let what = if on_ground {
                    "slide between two occupied cells (a gate)"
                } else {
                    "pass between two higher stacks (a gate)"
                };
                IllegalMove::new(
                    format!("{piece} cannot {what} to {to}"),
                    &["§6.2.2", "§5.6"],
                )
            } else {
                IllegalMove::new(
                    format!("{piece} would lose contact with the hive moving to {to}"),
                    &["§5.4"],
                )
            }
        }
        Bug::Grasshopper => {
            let direction = Direction::ALL.into_iter().find(|&d| in_line(from, to, d));
            match direction {
                None => IllegalMove::new(
                    format!("{piece} can only jump in a straight line"),
                    &["§6.3.1"],
                ),
                Some(d) if !board.is_occupied(from.neighbour(d)) => IllegalMove::new(
                    format!("{piece} must jump over at least one piece"),
                    &["§6.3.2"],
                ),
                Some(_) => IllegalMove::new(
                    format!("{piece} must land on the first empty cell of its line, not {to}"),
                    &["§6.3.1"],
                ),
            }
        }
        Bug::Spider => {
            let without_gates =
                bugs::spider::spider_walk_ends(board, from, &movement::ground_step_ignoring_gates);
            if without_gates.contains(&to) {
                IllegalMove::new(
                    format!("{piece} cannot reach {to}: every three-step walk there slides through a gate"),
                    &["§6.4.1", "§5.5"],
                )
            } else {
                IllegalMove::new(
                    format!("{piece} cannot reach {to}: no walk of exactly three ground steps, without revisiting a cell, ends there"),
                    &["§6.4.1", "§6.4.2"],
                )
            }
        }
        Bug::Ant => {
            let without_gates =
                bugs::ant::ant_walk_ends(board, from, &movement::ground_step_ignoring_gates);
            if without_gates.contains(&to) {
                IllegalMove::new(
                    format!("{piece} cannot reach {to}: every way there passes through a gate"),
                    &["§6.5", "§5.5"],
                )
            } else {
                IllegalMove::new(
                    format!("{piece} cannot reach {to} by sliding around the hive"),
                    &["§6.5"],
                )
            }
        }
        Bug::Ladybug => {
            let without_gates = bugs::ladybug::ladybug_walk_ends(
                board,
                from,
                &movement::step_ignoring_height_gates,
            );
            if lifted.is_occupied(to) {
                IllegalMove::new(
                    format!("{piece} cannot end on top of the hive at {to}"),
                    &["§6.6.3"],
                )
            } else if without_gates.contains(&to) {
                IllegalMove::new(
                    format!("{piece} cannot reach {to}: a height gate blocks each way there"),
                    &["§6.6.2"],
                )
            } else {
                IllegalMove::new(
                    format!("{piece} cannot reach {to}: a ladybug goes two steps over the hive and one down"),
                    &["§6.6.1"],
                )
            }
        }
        Bug::Mosquito => {
            if board.height(from) >= 2 {
                let mut beetle = bug_problem(board, piece, Bug::Beetle, from, to);
                beetle.clauses.insert(0, "§6.7.4");
                beetle
                    .reason
                    .push_str(" (a mosquito on the hive moves as a beetle)");
                return beetle;
            }
            let copied = bugs::mosquito::copied_bugs(board, from);
            if copied.is_empty() {
                IllegalMove::new(format!("{piece} touches no bug it can copy"), &["§6.7.2"])
            } else {
                let names: Vec<&str> = copied.iter().map(|b| b.name()).collect();
                IllegalMove::new(
                    format!(
                        "{piece} cannot reach {to} moving as any bug it touches ({})",
                        names.join(", ")
                    ),
                    &["§6.7.1"],
                )
            }
        }
    }
}

/// Why a ground step from `from` to the adjacent empty `to` fails (§5.4, §5.5).
fn step_problem(
    lifted: &Board,
    piece: Piece,
    from: Hex,
    to: Hex,
    clause: &'static str,
) -> IllegalMove {
    if movement::ground_gate_blocks(lifted, from, to) {
        IllegalMove::new(
            format!("{piece} cannot slide through the gap to {to}: it is a gate"),
            &["§5.5"],
        )
    } else if !movement::keeps_contact(lifted, from, to) {
        IllegalMove::new(
            format!("{piece} would lose contact with the hive sliding to {to}"),
            &["§5.4"],
        )
    } else {
        IllegalMove::new(format!("{piece} cannot reach {to}"), &[clause])
    }
}

/// Whether `to` lies on the straight line from `from` in direction `d`.
fn in_line(from: Hex, to: Hex, d: Direction) -> bool {
    let (dq, dr) = d.delta();
    let (q, r) = (to.q - from.q, to.r - from.r);
    let steps = if dq != 0 { q / dq } else { r / dr };
    steps >= 1 && (dq * steps, dr * steps) == (q, r)
}

/// Why no pillbug ability can move `piece` to `to` (§6.8.2–§6.8.8); `None`
/// when some thrower can.
fn throw_problem(position: &Position, piece: Piece, from: Hex, to: Hex) -> Option<IllegalMove> {
    let board = position.board();
    let color = position.side_to_move();
    let immune = position.immune_piece();
    // The player's own pillbugs and mosquitoes next to the piece, whether or not they can act.
    let candidates: Vec<(Hex, Piece)> = from
        .neighbours()
        .into_iter()
        .filter_map(|n| board.top(n).map(|p| (n, p)))
        .filter(|(_, p)| p.color == color && matches!(p.bug, Bug::Pillbug | Bug::Mosquito))
        .collect();
    let throwers: Vec<Hex> = candidates
        .iter()
        .filter(|&&(at, p)| immune != Some(p) && position.has_pillbug_ability(p, at))
        .map(|&(at, _)| at)
        .collect();
    if throwers.is_empty() {
        // Say why the nearest candidate cannot throw, most specific rule first.
        if let Some(&(_, p)) = candidates.iter().find(|&&(_, p)| immune == Some(p)) {
            return Some(IllegalMove::new(
                format!(
                    "{p} moved last turn, so it cannot use its ability to move {piece} this turn"
                ),
                &["§5.8"],
            ));
        }
        if let Some(&(_, p)) = candidates.iter().find(|&&(at, _)| board.height(at) >= 2) {
            return Some(IllegalMove::new(
                format!("{p} is on top of the hive, where a mosquito moves only as a beetle and cannot throw {piece}"),
                &["§6.7.4"],
            ));
        }
        if let Some(&(_, p)) = candidates.first() {
            return Some(IllegalMove::new(
                format!("{p} touches no pillbug, so it has no ability to move {piece}"),
                &["§6.7.5"],
            ));
        }
        return Some(IllegalMove::new(
            format!("{piece} is not {color}'s piece, and no {color} pillbug or mosquito next to it could move it"),
            &["§5.1", "§6.8.2"],
        ));
    }
    if throwers
        .iter()
        .any(|&at| bugs::pillbug::pillbug_throws(board, at, immune).contains(&(piece, to)))
    {
        return None;
    }
    if board.height(from) != 1 {
        return Some(IllegalMove::new(
            format!("{piece} is on a stack and cannot be thrown"),
            &["§6.8.3"],
        ));
    }
    if !movement::one_hive_holds(board, from) {
        return Some(IllegalMove::new(
            format!("{piece} cannot be thrown: lifting it splits the hive"),
            &["§6.8.4"],
        ));
    }
    if !throwers.iter().any(|&at| at.is_adjacent(to)) {
        return Some(IllegalMove::new(
            format!("a throw lands next to the pillbug; {to} is not"),
            &["§6.8.8"],
        ));
    }
    if board.is_occupied(to) {
        return Some(IllegalMove::new(
            format!("a thrown piece lands on an empty cell; {to} is occupied"),
            &["§6.8.8"],
        ));
    }
    Some(IllegalMove::new(
        format!("{piece} cannot be thrown to {to}: a gate of two higher stacks blocks it"),
        &["§6.8.5"],
    ))
}
