//! The judgement of one move: legal, with the facts that grant it, or
//! illegal, with the first rule it breaks in the order of the specification
//! and the facts behind that rule. `play` reports the refusal's reason and
//! clauses; `explain` prints everything; neither decides anything else.
//!
//! The order is the spec's: the game's end (§8.5) and passing (§7.2) first;
//! for a placement chapter 1 (the piece exists), chapter 3 and the queen
//! rules of chapter 4; for a movement the general rules of chapters 4 and 5,
//! then the bug's own movement (each bug's file, chapter 6) and the
//! pillbug's ability (`bugs/pillbug.rs`). A move is judged legal exactly
//! when a walk, jump, step or throw of those files produces it, the same
//! functions move generation uses, so the judgement agrees with
//! [`Position::legal_move_set`] (`tests/refusals.rs` checks it).

use super::board::Board;
use super::bugs::judge_own_movement;
use super::bugs::throw::{throwers_next_to, ThrowBreak};
use super::bugs::throw_judge::{copied_pillbug_immune, judge_throw, ThrowMiss};
use super::facts::{describe, lift_fact, names, stack_fact, Fact, Refusal};
use super::{end, movement, opening, placement, Position};
use crate::core::view::{move_string, BoardView};
use crate::core::{Bug, Color, GameType, Hex, Move, Piece};
use crate::rules::IllegalMove;

/// The reference rules' judgement of one move in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The move is legal.
    Legal {
        /// The general conditions every movement of one's own piece meets
        /// (§4.3, §5.1, §5.10, §5.3); empty for a placement, a pass or a throw.
        conditions: Vec<Fact>,
        /// The ways the move is granted, one list of facts per way, the
        /// granting clause first: a piece may reach a cell by its own
        /// movement and by a throw (§5.9).
        ways: Vec<Vec<Fact>>,
    },
    /// The move is illegal, and why.
    Illegal(Refusal),
}

/// Judges `mv` in `position`.
pub fn judge(position: &Position, mv: Move) -> Judgement {
    let state = position.state;
    if state.is_over() {
        // §8.5 nothing is legal once the game has ended
        let mut refusal = Refusal::shown(
            format!("the game is over ({state}): no move is legal"),
            &["§8.5"],
            format!("the game is over ({state})"),
        );
        refusal
            .facts
            .extend(end::end_facts(position.board(), state));
        return Judgement::Illegal(refusal);
    }
    let judged = match mv {
        Move::Pass => judge_pass(position),
        Move::Place { piece, to } => judge_placement(position, piece, to),
        Move::Move { piece, to } => return judge_movement(position, piece, to),
    };
    match judged {
        Ok(way) => Judgement::Legal {
            conditions: Vec::new(),
            ways: vec![way],
        },
        Err(refusal) => Judgement::Illegal(refusal),
    }
}

/// Why `mv` is not among the legal moves of `position`: the refusal of
/// [`judge`], which `play` reports.
pub fn why_illegal(position: &Position, mv: Move) -> IllegalMove {
    match judge(position, mv) {
        Judgement::Illegal(refusal) => refusal.illegal,
        // Only a disagreement between the judgement and the legal moves gets here.
        Judgement::Legal { .. } => IllegalMove::new(format!("{mv} is not a legal move"), &[]),
    }
}

/// A pass (§7.2): legal only when nothing else is.
fn judge_pass(position: &Position) -> Result<Vec<Fact>, Refusal> {
    let color = position.side_to_move();
    let moves = position.legal_move_set();
    if moves.contains(&Move::Pass) {
        // why each other move is refused: `pass.rs`, for an explanation
        return Ok(vec![Fact::new(
            &["§7.2"],
            format!(
                "{color} has no legal placement and no legal movement, so passing is the only move"
            ),
        )]);
    }
    let listed: Vec<String> = moves
        .iter()
        .take(5)
        .map(|&m| move_string(position, m))
        .collect();
    let more = if moves.len() > 5 { ", …" } else { "" };
    Err(Refusal::shown(
        "cannot pass: there are legal moves",
        &["§7.2"],
        format!(
            "{color} has {} legal move{}: {}{more}",
            moves.len(),
            if moves.len() == 1 { "" } else { "s" },
            listed.join(", ")
        ),
    ))
}

/// Placing `piece` on `to` (chapters 1, 3 and 4): the facts that allow it,
/// or the first rule it breaks.
fn judge_placement(position: &Position, piece: Piece, to: Hex) -> Result<Vec<Fact>, Refusal> {
    let board = position.board();
    let color = position.side_to_move();
    let plies = position.plies;
    let refusal = if !position.game_type.has_bug(piece.bug) {
        // §1.3 the piece is not in this game
        Refusal::plain(
            format!("{piece} does not exist in {}", position.game_type),
            &["§1.3"],
        )
    } else if !placement::is_in_reserve(board, piece) {
        // §3.1 placed from the reserve
        Refusal::plain(format!("{piece} is already on the board"), &["§3.1"])
    } else if piece.color != color {
        // §3.1 one's own reserve
        Refusal::plain(
            format!("{piece} is not {color}'s to place: it is {color}'s turn"),
            &["§3.1"],
        )
    } else if !placement::next_pieces_in_reserve(board, position.game_type, color).contains(&piece)
    {
        // §3.2 the lowest number first
        Refusal::plain(
            format!(
                "{piece} cannot be placed before the lower-numbered {}s",
                piece.bug.name()
            ),
            &["§3.2"],
        )
    } else if opening::queen_is_due(board, color, plies) && piece.bug != Bug::Queen {
        // §4.5 the queen by the fourth turn
        let turn = opening::turn_number(plies);
        Refusal::shown(
            format!("{color} must place the queen on turn {turn}"),
            &["§4.5"],
            format!("it is {color}'s turn {turn} and {color}'s queen is still in the reserve"),
        )
    } else if opening::queen_is_forbidden(board, color, position.options) && piece.bug == Bug::Queen
    {
        // §4.2 the tournament opening
        Refusal::plain(
            "the queen cannot be a player's first placement (tournament opening)",
            &["§4.2"],
        )
    } else if placement::placement_cells(board, color).contains(&to) {
        return Ok(placement_facts(position, piece, to));
    } else {
        cell_refusal(board, color, piece, to)
    };
    Err(refusal)
}

/// Why `to` is not among the placement cells of `color` (§3.3–§3.7): the
/// first rule of [`placement::placement_cells`] it fails.
fn cell_refusal(board: &Board, color: Color, piece: Piece, to: Hex) -> Refusal {
    if board.is_occupied(to) {
        // §3.7 on an empty cell
        Refusal::shown(
            format!("{piece} cannot be placed on a stack: {to} is occupied"),
            &["§3.7"],
            stack_fact(board, to),
        )
    } else if board.is_empty() {
        // §3.3 the first piece at the origin
        Refusal::plain(
            format!("the first piece goes to the origin, not {to}"),
            &["§3.3"],
        )
    } else if board.pieces().count() == 1 {
        // §3.4 the second piece touches the first
        Refusal::plain(
            format!("the second piece must touch the first; {to} does not"),
            &["§3.4"],
        )
    } else if placement::touches_enemy_colour(board, to, color) {
        // §3.6 touching no enemy stack
        let enemy: Vec<String> = to
            .neighbours()
            .into_iter()
            .filter(|&n| board.stack_color(n) == Some(color.opponent()))
            .map(|n| describe(board, n))
            .collect();
        Refusal::shown(
            format!(
                "{piece} cannot be placed at {to}: it would touch a {} stack",
                color.opponent()
            ),
            &["§3.6"],
            format!("{to} touches {}'s {}", color.opponent(), enemy.join(", ")),
        )
    } else {
        // §3.5 touching one's own stack
        let near: Vec<String> = to
            .neighbours()
            .into_iter()
            .filter(|&n| board.is_occupied(n))
            .map(|n| describe(board, n))
            .collect();
        Refusal::shown(
            format!("{piece} cannot be placed at {to}: it touches no {color} stack"),
            &["§3.5"],
            if near.is_empty() {
                format!("{to} touches no stack at all")
            } else {
                format!("the stacks next to {to}: {}", near.join(", "))
            },
        )
    }
}

/// The facts of a placement that breaks no rule of [`judge_placement`].
fn placement_facts(position: &Position, piece: Piece, to: Hex) -> Vec<Fact> {
    let board = position.board();
    let color = piece.color;
    let cell = match board.pieces().count() {
        0 => Fact::new(
            &["§3.3"],
            format!("the first piece of the game goes to the origin {to}"),
        ),
        1 => {
            let first = board.occupied_cells().next().unwrap_or(Hex::ORIGIN);
            Fact::new(
                &["§3.4"],
                format!(
                    "the second piece touches the first, {}",
                    describe(board, first)
                ),
            )
        }
        _ => {
            let own: Vec<String> = to
                .neighbours()
                .into_iter()
                .filter(|&n| board.stack_color(n) == Some(color))
                .map(|n| describe(board, n))
                .collect();
            Fact::new(
                &["§3.5", "§3.6"],
                format!(
                    "{to} touches {} of {color}'s stacks ({}) and none of {}'s",
                    own.len(),
                    own.join(", "),
                    color.opponent()
                ),
            )
        }
    };
    let mut facts = vec![
        cell,
        Fact::new(
            &["§3.1"],
            format!("{piece} is in {color}'s reserve and {to} is empty"),
        ),
    ];
    if piece.bug.is_numbered() && piece.number > 1 {
        facts.push(Fact::new(
            &["§3.2"],
            format!(
                "the lower-numbered {}s of {color} are already on the board",
                piece.bug.name()
            ),
        ));
    }
    let plies = position.plies;
    if piece.bug == Bug::Queen && opening::queen_is_due(board, color, plies) {
        facts.push(Fact::new(
            &["§4.5"],
            format!(
                "it is {color}'s turn {} and the queen must be placed now",
                opening::turn_number(plies)
            ),
        ));
    } else if piece.bug == Bug::Queen && position.options.tournament_opening {
        facts.push(Fact::new(
            &["§4.2"],
            format!(
                "{color} has placed a piece already, so the tournament opening allows the queen"
            ),
        ));
    }
    facts
}

/// Moving `piece` to `to` (chapters 4 to 6): the general rules in spec
/// order, then the piece's own movement and the pillbug's ability.
fn judge_movement(position: &Position, piece: Piece, to: Hex) -> Judgement {
    // PRECONDITIONS: §5.1, §5.7, §4.3, §1.9, §5.2, §5.10
    let from = match movement_preconditions(position, piece, to) {
        Ok(from) => from,
        Err(refusal) => return refusal,
    };
    let board = position.board();
    let color = position.side_to_move();
    // WAYS: the piece's own movement, if lifting it keeps one hive (§5.3)
    let own = (piece.color == color).then(|| {
        if movement::one_hive_holds(board, from) {
            judge_own_movement(piece.bug, board, piece, from, to).map_err(OwnRefusal::Movement)
        } else {
            // §5.3 One Hive
            Err(OwnRefusal::SplitsHive(Refusal::shown(
                format!("{piece} cannot move: lifting it splits the hive"),
                &["§5.3"],
                lift_fact(board, piece, from),
            )))
        }
    });
    // WAYS: a throw by a pillbug of the player's, or a mosquito copying one (§6.8.2)
    let throw = judge_throw(board, color, position.immune_piece(), piece, from, to);
    let mut ways = Vec::new();
    let own_way = matches!(own, Some(Ok(_)));
    let own_refusal = match own {
        Some(Ok(mut way)) => {
            // §6.7.5 a mosquito stepping as a pillbug that is immune itself
            let copied_pillbug = way
                .first()
                .filter(|fact| fact.clauses.contains(&"§6.7.5"))
                .and_then(|fact| fact.cells.first().copied());
            way.extend(copied_pillbug_immune(
                board,
                position.immune_piece(),
                piece,
                copied_pillbug,
            ));
            ways.push(way);
            None
        }
        Some(Err(refusal)) => Some(refusal),
        None => None,
    };
    let throw_miss = match throw {
        Ok(throws) => {
            ways.extend(throws);
            None
        }
        Err(miss) => miss,
    };
    if !ways.is_empty() {
        return Judgement::Legal {
            conditions: movement_conditions(position, piece, from, own_way),
            ways,
        };
    }
    // REFUSAL: the piece's own rule, the throw's, or both
    Judgement::Illegal(movement_refusal(piece, to, own_refusal, throw_miss))
}

/// Why the player's own piece does not get somewhere by its own movement:
/// lifting it splits the hive (§5.3), or its bug's movement does not reach
/// the cell (chapter 6).
enum OwnRefusal {
    /// §5.3: the piece is pinned.
    SplitsHive(Refusal),
    /// Chapter 6: no walk, jump or step of its bug gets there.
    Movement(Refusal),
}

/// The rules any movement of `piece` must meet before its own movement or a
/// throw is considered, in spec order: on the board (§5.1), ending elsewhere
/// (§5.7), the queen placed (§4.3), the player's own piece unless a pillbug
/// or mosquito of theirs is next to it (§1.9, §6.8.2), uncovered (§5.2; and
/// so not thrown, §6.8.3), not moved last turn (§5.10). The piece's cell,
/// or the refusal.
fn movement_preconditions(position: &Position, piece: Piece, to: Hex) -> Result<Hex, Judgement> {
    let board = position.board();
    let color = position.side_to_move();
    let Some(from) = board.location(piece) else {
        // §5.1 only a piece on the board moves
        return Err(refused(
            format!("{piece} is not on the board, so it cannot move"),
            &["§5.1"],
        ));
    };
    if from == to {
        // §5.7 a move ends elsewhere
        return Err(refused(
            format!("{piece} must end somewhere other than where it starts"),
            &["§5.7"],
        ));
    }
    if !opening::may_move_pieces(board, color) {
        // §4.3 no movement before the queen
        return Err(refused(
            format!("{color} cannot move pieces before placing the queen"),
            &["§4.3"],
        ));
    }
    // §5.1 another player's piece moves only by a pillbug's ability (§6.8.2)
    let throwers = throwers_next_to(board, color, from);
    if piece.color != color && throwers.is_empty() {
        return Err(refused(
            format!("{piece} is not {color}'s piece, and no {color} pillbug or mosquito next to it could move it"),
            // §1.9 forbids it, §6.8.2 is the exception that does not apply,
            // §5.1 the general rule of movement
            &["§1.9", "§6.8.2", "§5.1"],
        ));
    }
    if board.top(from) != Some(piece) {
        // §5.2 a covered piece neither moves nor is thrown; §6.8.3 when a
        // thrower of the player's touches it
        let (clauses, by): (&[&'static str], String) = match throwers.first() {
            Some(thrower) => (
                &["§5.2", "§6.8.3"],
                format!(
                    "; {} at {} throws only a piece alone in its cell",
                    thrower.piece, thrower.at
                ),
            ),
            None => (&["§5.2"], String::new()),
        };
        return Err(Judgement::Illegal(Refusal::with_facts(
            format!("{piece} is covered, so it cannot move or be thrown"),
            clauses,
            vec![Fact::new(
                clauses,
                format!(
                    "the stack at {from}, bottom to top: {}; {piece} is not alone on top{by}",
                    names(board.stack(from))
                ),
            )
            .with_cells([from])],
        )));
    }
    if position.immune_piece() == Some(piece) {
        // §5.10 the piece moved last turn
        return Err(refused(
            format!("{piece} moved last turn, so it cannot move or be thrown this turn"),
            &["§5.10"],
        ));
    }
    Ok(from)
}

/// The refusal of a movement that has no way: the piece's own rule, the
/// throw's, or both when a throw was within reach
/// ([`ThrowMiss::within_reach`]) or the piece is pinned for both (§5.3,
/// §6.8.4).
fn movement_refusal(
    piece: Piece,
    to: Hex,
    own: Option<OwnRefusal>,
    throw: Option<ThrowMiss>,
) -> Refusal {
    match (own, throw) {
        // A pinned piece next to its own pillbug can be neither moved nor
        // thrown: name both rules (§5.3 for the move, §6.8.4 for the throw).
        (Some(OwnRefusal::SplitsHive(mut both)), Some(miss))
            if miss.broken == ThrowBreak::SplitsHive =>
        {
            both.illegal
                .reason
                .push_str(", so it can neither move nor be thrown");
            both.illegal.clauses.push("§6.8.4");
            for fact in &mut both.facts {
                fact.clauses.clone_from(&both.illegal.clauses);
            }
            both
        }
        // Neither its own movement nor a throw in reach gets it there: the
        // piece's own rule first, then the throw's.
        (Some(OwnRefusal::SplitsHive(own) | OwnRefusal::Movement(own)), Some(miss))
            if miss.within_reach() =>
        {
            let throw = miss.refusal;
            let mut both = own;
            both.illegal.reason = format!(
                "{}, and it cannot be thrown there either: {}",
                both.illegal.reason, throw.illegal.reason
            );
            for clause in throw.illegal.clauses {
                if !both.illegal.clauses.contains(&clause) {
                    both.illegal.clauses.push(clause);
                }
            }
            both.facts.extend(throw.facts);
            both
        }
        // Otherwise the reason about the piece's own movement; the throw's
        // reason stands only when the piece is not the mover's own.
        (Some(OwnRefusal::SplitsHive(own) | OwnRefusal::Movement(own)), _) => own,
        (None, Some(miss)) => miss.refusal,
        // Not the mover's piece and no thrower of theirs next to it: the
        // preconditions refuse that first (§1.9).
        (None, None) => Refusal::plain(
            format!("{piece} cannot reach {to}"),
            &["§1.9", "§6.8.2", "§5.1"],
        ),
    }
}

/// An illegal move whose reason is its only fact.
fn refused(reason: String, clauses: &[&'static str]) -> Judgement {
    Judgement::Illegal(Refusal::plain(reason, clauses))
}

/// The general conditions a legal movement of `piece` meets (§4.3, §5.1,
/// §5.10, §5.3); `own_move` when it moves by its own movement, not a throw.
fn movement_conditions(position: &Position, piece: Piece, from: Hex, own_move: bool) -> Vec<Fact> {
    let board = position.board();
    let color = position.side_to_move();
    let mut facts = vec![Fact::new(
        &["§4.3"],
        format!("{color}'s queen is on the board, so {color} may move pieces"),
    )];
    if own_move {
        facts.push(Fact::new(
            &["§5.1"],
            format!("{piece} is {color}'s own piece, the top piece of its stack at {from}"),
        ));
    }
    let last = match position.immune_piece() {
        Some(last) => format!("{piece} was not moved last turn ({last} was)"),
        None => format!("{piece} was not moved last turn"),
    };
    facts.push(Fact::new(&["§5.10"], last));
    if own_move {
        facts.push(Fact::new(&["§5.3"], lift_fact(board, piece, from)));
    }
    facts
}

/// The notation reads a position as it reads an engine's board (§9.21).
impl BoardView for Position<'_> {
    fn game_type(&self) -> GameType {
        self.game_type
    }

    fn location(&self, piece: Piece) -> Option<Hex> {
        self.board.location(piece)
    }

    fn stack(&self, hex: Hex) -> Vec<Piece> {
        Board::stack(&self.board, hex).to_vec()
    }

    fn board_is_empty(&self) -> bool {
        self.board.is_empty()
    }
}
