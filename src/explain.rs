//! `hive-oracle explain`: why a move is legal or illegal, as a chain of
//! clauses with the concrete facts of the position, and every legal move of a
//! position with the clause that grants it.
//!
//! The verdict is always the reference engine's: a move is legal exactly when
//! it is in [`ReferenceEngine::legal_move_set`], and a refusal starts with the
//! reason and clauses that [`Rules::play`] gives (from
//! [`crate::reference::explain::why_illegal`]), unchanged. This module only
//! adds facts: which groups a lift leaves, which pieces flank a gate, which
//! heights a height gate compares, which walk reaches a cell. Its searches use
//! the reference engine's own step rules (`reference::movement`), so a fact
//! never contradicts the verdict.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;

use crate::core::notation::parse_game_type;
use crate::core::{Bug, Color, Direction, GameState, Hex, Move, Piece, RulesOptions};
use crate::reference::board::Board;
use crate::reference::bugs::{self, mosquito::copied_bugs, pillbug::pillbug_throws};
use crate::reference::explain::why_illegal;
use crate::reference::movement::{
    self, ground_step_ignoring_gates, ground_step_possible, height_gate_blocks, one_hive_holds,
    step_ignoring_height_gates, step_possible,
};
use crate::reference::{opening, Position, ReferenceEngine};
use crate::render;
use crate::rules::Rules;

/// One link of an explanation: the clauses it rests on and the facts of the
/// position that make them apply. `clauses` is empty for a plain remark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The clauses the fact is about (leaf clauses of the spec).
    pub clauses: Vec<&'static str>,
    /// The fact in a sentence, with the cells and pieces of the position.
    pub text: String,
}

impl Fact {
    fn new(clauses: &[&'static str], text: impl Into<String>) -> Fact {
        Fact {
            clauses: clauses.to_vec(),
            text: text.into(),
        }
    }

    /// The fact as one line: `§5.3 One Hive — lifting wA1 leaves …`.
    pub fn line(&self) -> String {
        if self.clauses.is_empty() {
            return self.text.clone();
        }
        let cited: Vec<String> = self
            .clauses
            .iter()
            .map(|c| match clause_title(c) {
                "" => (*c).to_string(),
                title => format!("{c} {title}"),
            })
            .collect();
        format!("{} — {}", cited.join(", "), self.text)
    }
}

/// The verdict on one move: legal or not, and the chain of facts behind it.
/// For an illegal move, `refusal` is `play`'s message (reason and clauses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the rules allow the move (the reference engine's legal moves).
    pub legal: bool,
    /// For an illegal move: the refusal, exactly as `play` gives it, with its
    /// clause.
    pub refusal: Option<String>,
    /// The facts of the position that grant or forbid the move, clause by
    /// clause.
    pub facts: Vec<Fact>,
}

/// A short name for a clause, shown after its number.
pub fn clause_title(clause: &str) -> &'static str {
    match clause {
        "§1.3" => "game types",
        "§3.1" => "placement from the reserve",
        "§3.2" => "piece order",
        "§3.3" => "first placement",
        "§3.4" => "second placement",
        "§3.5" => "touching one's own colour",
        "§3.6" => "not touching the opponent's colour",
        "§3.7" => "placement on an empty cell",
        "§3.8" => "placement ignores sliding",
        "§4.1" => "queen by the fourth turn",
        "§4.2" => "tournament opening",
        "§4.3" => "no movement before the queen",
        "§5.1" => "movement",
        "§5.2" => "covered pieces",
        "§5.3" => "One Hive",
        "§5.4" => "constant contact",
        "§5.5" => "freedom to move",
        "§5.6" => "freedom to move at height",
        "§5.7" => "a move ends elsewhere",
        "§5.8" => "the piece moved last turn",
        "§5.9" => "one move per piece and cell",
        "§6.1" => "Queen Bee",
        "§6.2.1" => "Beetle",
        "§6.2.2" => "Beetle and height gates",
        "§6.2.3" => "Beetle climbs any height",
        "§6.3.1" => "Grasshopper",
        "§6.3.2" => "Grasshopper jumps over a piece",
        "§6.3.3" => "Grasshopper ignores gates",
        "§6.4.1" => "Spider",
        "§6.4.2" => "Spider never revisits",
        "§6.4.3" => "Spider switches sides",
        "§6.5" => "Soldier Ant",
        "§6.6.1" => "Ladybug",
        "§6.6.2" => "Ladybug and height gates",
        "§6.6.3" => "Ladybug ends on the ground",
        "§6.7.1" => "Mosquito",
        "§6.7.2" => "Mosquito copying a mosquito",
        "§6.7.3" => "Mosquito copies top pieces",
        "§6.7.4" => "Mosquito on the hive",
        "§6.7.5" => "Mosquito copying a pillbug",
        "§6.8.1" => "Pillbug step",
        "§6.8.2" => "Pillbug's ability",
        "§6.8.3" => "thrown piece alone",
        "§6.8.4" => "One Hive for a throw",
        "§6.8.5" => "height gates for a throw",
        "§6.8.6" => "a pinned pillbug throws",
        "§6.8.7" => "a throw moves the thrown piece",
        "§6.8.8" => "throw destination",
        "§7.1" => "turns",
        "§7.2" => "pass",
        "§7.3" => "a pass is a turn",
        "§8.1" => "surrounded queen",
        "§8.2" => "a surround wins",
        "§8.3" => "both queens surrounded",
        "§8.4" => "surrounding one's own queen",
        "§8.5" => "the game is over",
        "§8.7.2" => "repetition draw",
        _ => "",
    }
}

// ---------------------------------------------------------------------------
// Describing cells and pieces
// ---------------------------------------------------------------------------

/// "wB1 at (0, -1)", "bB1 on a stack of 2 at (0, 0)" or "(0, -1), empty".
fn describe(board: &Board, hex: Hex) -> String {
    match board.top(hex) {
        None => format!("{hex}, empty"),
        Some(top) if board.height(hex) >= 2 => {
            format!("{top} on a stack of {} at {hex}", board.height(hex))
        }
        Some(top) => format!("{top} at {hex}"),
    }
}

fn top_name(board: &Board, hex: Hex) -> String {
    board
        .top(hex)
        .map_or_else(|| "nothing".to_string(), |p| p.to_string())
}

/// The compass name of a direction (§2.2).
fn direction_name(direction: Direction) -> &'static str {
    match direction {
        Direction::NorthWest => "north-west",
        Direction::NorthEast => "north-east",
        Direction::East => "east",
        Direction::SouthEast => "south-east",
        Direction::SouthWest => "south-west",
        Direction::West => "west",
    }
}

fn path_text(path: &[Hex]) -> String {
    path.iter()
        .map(Hex::to_string)
        .collect::<Vec<_>>()
        .join(" → ")
}

fn names(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(Piece::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The connected groups of occupied cells, each as its top pieces, largest first.
fn groups(board: &Board) -> Vec<Vec<Piece>> {
    let mut unseen: BTreeSet<Hex> = board.occupied_cells().collect();
    let mut out = Vec::new();
    while let Some(&start) = unseen.iter().next() {
        unseen.remove(&start);
        let mut queue = VecDeque::from([start]);
        let mut group = Vec::new();
        while let Some(hex) = queue.pop_front() {
            group.extend(board.top(hex));
            for n in board.occupied_neighbours(hex) {
                if unseen.remove(&n) {
                    queue.push_back(n);
                }
            }
        }
        group.sort();
        out.push(group);
    }
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    out
}

/// What lifting the top piece at `from` does to the hive (§5.3).
fn lift_fact(board: &Board, piece: Piece, from: Hex) -> String {
    if board.height(from) >= 2 {
        return format!(
            "{piece} is on a stack of {} at {from}: its cell stays occupied, so lifting it cannot split the hive",
            board.height(from)
        );
    }
    let parts = groups(&board.with_top_lifted(from));
    let listed: Vec<String> = parts.iter().map(|g| format!("{{{}}}", names(g))).collect();
    match parts.len() {
        0 | 1 => format!("lifting {piece} from {from} leaves one group"),
        2 => format!(
            "lifting {piece} from {from} leaves two groups: {}",
            listed.join(" and ")
        ),
        n => format!(
            "lifting {piece} from {from} leaves {n} groups: {}",
            listed.join(", ")
        ),
    }
}

/// The two cells flanking the edge from `a` to `b` (§2.3).
fn flanks(a: Hex, b: Hex) -> Option<[Hex; 2]> {
    a.common_neighbours(b)
}

/// The gate between `a` and `b` on the ground (§5.5), on the lifted board.
fn gate_fact(lifted: &Board, a: Hex, b: Hex) -> String {
    let Some([l, r]) = flanks(a, b) else {
        return format!("{a} and {b} are not adjacent");
    };
    format!(
        "the step from {a} to {b} passes between {} and {}, both occupied",
        describe(lifted, l),
        describe(lifted, r)
    )
}

/// The height gate comparison of §5.6 for the step from `a` to `b`.
fn height_fact(lifted: &Board, a: Hex, b: Hex) -> String {
    let Some([l, r]) = flanks(a, b) else {
        return format!("{a} and {b} are not adjacent");
    };
    let (hl, hr) = (lifted.height(l), lifted.height(r));
    let (ha, hb) = (lifted.height(a), lifted.height(b));
    let (low, high) = (hl.min(hr), ha.max(hb));
    let sign = if low > high { ">" } else { "≤" };
    format!(
        "the step from {a} to {b}: L = {} (height {hl}), R = {} (height {hr}); min(L, R) = {low} {sign} max(h(a), h(b)) = max({ha}, {hb}) = {high}",
        describe_short(lifted, l),
        describe_short(lifted, r),
    )
}

fn describe_short(board: &Board, hex: Hex) -> String {
    match board.top(hex) {
        None => format!("{hex}"),
        Some(top) => format!("{top} at {hex}"),
    }
}

/// Why a ground step keeps contact (§5.4): the occupied flanks.
fn contact_fact(lifted: &Board, a: Hex, b: Hex) -> String {
    let Some([l, r]) = flanks(a, b) else {
        return String::new();
    };
    let touching: Vec<String> = [l, r]
        .into_iter()
        .filter(|&h| lifted.is_occupied(h))
        .map(|h| describe(lifted, h))
        .collect();
    if touching.is_empty() {
        format!(
            "the step from {a} to {b} has both common neighbours, {l} and {r}, empty: it would leave the hive"
        )
    } else {
        format!(
            "the step from {a} to {b} keeps touching {}",
            touching.join(" and ")
        )
    }
}

// ---------------------------------------------------------------------------
// Walks (with the reference engine's own step rules)
// ---------------------------------------------------------------------------

/// A shortest ant walk from `from` to `to` whose steps `step` allows.
fn ant_path(board: &Board, from: Hex, to: Hex) -> Option<Vec<Hex>> {
    let lifted = board.with_top_lifted(from);
    let mut parent: BTreeMap<Hex, Hex> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    let mut seen = BTreeSet::from([from]);
    while let Some(here) = queue.pop_front() {
        if here == to {
            let mut path = vec![to];
            let mut at = to;
            while let Some(&p) = parent.get(&at) {
                path.push(p);
                at = p;
            }
            path.reverse();
            return Some(path);
        }
        for next in here.neighbours() {
            if ground_step_possible(&lifted, here, next) && seen.insert(next) {
                parent.insert(next, here);
                queue.push_back(next);
            }
        }
    }
    None
}

/// A walk (its cells) and the steps on it that a rule refuses.
type Walk = (Vec<Hex>, Vec<(Hex, Hex)>);

/// A walk from `from` to `to` by steps that `relaxed` allows, with the fewest
/// steps that `strict` refuses (0-1 breadth-first search); returns the walk and
/// the refused steps on it.
fn fewest_blocked_walk(
    lifted: &Board,
    from: Hex,
    to: Hex,
    relaxed: &movement::StepRule,
    strict: &movement::StepRule,
) -> Option<Walk> {
    let mut cost: BTreeMap<Hex, usize> = BTreeMap::from([(from, 0)]);
    let mut parent: BTreeMap<Hex, Hex> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(here) = queue.pop_front() {
        let c = cost[&here];
        for next in here.neighbours() {
            if !relaxed(lifted, here, next) {
                continue;
            }
            let blocked = usize::from(!strict(lifted, here, next));
            let nc = c + blocked;
            if cost.get(&next).is_none_or(|&old| nc < old) {
                cost.insert(next, nc);
                parent.insert(next, here);
                if blocked == 0 {
                    queue.push_front(next);
                } else {
                    queue.push_back(next);
                }
            }
        }
    }
    cost.get(&to)?;
    let mut path = vec![to];
    let mut at = to;
    while let Some(&p) = parent.get(&at) {
        path.push(p);
        at = p;
        if path.len() > 10_000 {
            return None;
        }
    }
    path.reverse();
    let refused = path
        .windows(2)
        .filter(|w| !strict(lifted, w[0], w[1]))
        .map(|w| (w[0], w[1]))
        .collect();
    Some((path, refused))
}

/// Every spider walk (§6.4.1, §6.4.2) from `from` to `to` whose steps `step`
/// allows, in neighbour order.
fn spider_paths(lifted: &Board, from: Hex, to: Hex, step: &movement::StepRule) -> Vec<Vec<Hex>> {
    fn walk(
        lifted: &Board,
        step: &movement::StepRule,
        to: Hex,
        path: &mut Vec<Hex>,
        out: &mut Vec<Vec<Hex>>,
    ) {
        let Some(&here) = path.last() else { return };
        if path.len() == 4 {
            if here == to {
                out.push(path.clone());
            }
            return;
        }
        for next in here.neighbours() {
            if path.contains(&next) || !step(lifted, here, next) {
                continue;
            }
            path.push(next);
            walk(lifted, step, to, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(lifted, step, to, &mut vec![from], &mut out);
    out
}

/// Every ladybug walk (§6.6.1) from `from` to `to` whose steps `step` allows.
fn ladybug_paths(lifted: &Board, from: Hex, to: Hex, step: &movement::StepRule) -> Vec<[Hex; 4]> {
    let mut out = Vec::new();
    for first in from.neighbours() {
        if !lifted.is_occupied(first) || !step(lifted, from, first) {
            continue;
        }
        for second in first.neighbours() {
            if !lifted.is_occupied(second) || !step(lifted, first, second) {
                continue;
            }
            if second.is_adjacent(to)
                && !lifted.is_occupied(to)
                && to != from
                && step(lifted, second, to)
            {
                out.push([from, first, second, to]);
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// What grants a legal move
// ---------------------------------------------------------------------------

/// The facts granting a step of one cell by a queen or pillbug (§5.4, §5.5).
fn ground_step_facts(lifted: &Board, clause: &'static str, bug: Bug, a: Hex, b: Hex) -> Vec<Fact> {
    let mut facts = vec![Fact::new(
        &[clause],
        format!(
            "a {} moves one ground step: {a} → {b}, an empty cell",
            bug.name()
        ),
    )];
    facts.push(Fact::new(&["§5.4"], contact_fact(lifted, a, b)));
    if let Some([l, r]) = flanks(a, b) {
        facts.push(Fact::new(
            &["§5.5"],
            format!(
                "no gate: of the flanking cells {} and {}, at most one is occupied",
                describe_short(lifted, l),
                describe_short(lifted, r)
            ),
        ));
    }
    facts
}

/// How the top piece at `from`, moving as `bug`, reaches `to` by its own
/// movement; `None` when it cannot (chapter 6).
fn own_way(board: &Board, piece: Piece, bug: Bug, from: Hex, to: Hex) -> Option<Vec<Fact>> {
    if !bugs::own_movement(bug, board, from).contains(&to) {
        return None;
    }
    let lifted = board.with_top_lifted(from);
    let facts = match bug {
        Bug::Queen => ground_step_facts(&lifted, "§6.1", bug, from, to),
        Bug::Pillbug => ground_step_facts(&lifted, "§6.8.1", bug, from, to),
        Bug::Beetle => {
            let (ha, hb) = (lifted.height(from), lifted.height(to));
            let what = match (ha, hb) {
                (0, 0) => format!("a ground step {from} → {to}"),
                (0, h) => format!(
                    "a climb from {from} onto the stack of {} at {to} (height {h} → {})",
                    top_name(&lifted, to),
                    h + 1
                ),
                (h, 0) => format!(
                    "a step down from the top of the stack at {from} (height {}) to the empty cell {to}",
                    h + 1
                ),
                (_, h) => format!(
                    "a step across the top of the hive from {from} onto {} at {to} (height {h} → {})",
                    top_name(&lifted, to),
                    h + 1
                ),
            };
            let mut facts = vec![Fact::new(
                &["§6.2.1"],
                format!("a beetle moves one step in any direction: {what}"),
            )];
            if ha == 0 && hb == 0 {
                facts.push(Fact::new(&["§5.4"], contact_fact(&lifted, from, to)));
            }
            facts.push(Fact::new(
                &["§6.2.2", "§5.6"],
                height_fact(&lifted, from, to),
            ));
            if hb >= 2 {
                facts.push(Fact::new(
                    &["§6.2.3"],
                    format!("the beetle may climb a stack of any height, here {hb}"),
                ));
            }
            facts
        }
        Bug::Grasshopper => {
            let direction = Direction::ALL.into_iter().find(|&d| {
                let mut cell = from.neighbour(d);
                if !board.is_occupied(cell) {
                    return false;
                }
                while board.is_occupied(cell) {
                    cell = cell.neighbour(d);
                }
                cell == to
            })?;
            let mut over = Vec::new();
            let mut cell = from.neighbour(direction);
            while board.is_occupied(cell) {
                over.extend(board.top(cell));
                cell = cell.neighbour(direction);
            }
            vec![
                Fact::new(
                    &["§6.3.1"],
                    format!(
                        "a grasshopper jumps in a straight line ({}) over {} cell{} ({}) to the first empty cell, {to}",
                        direction_name(direction),
                        over.len(),
                        if over.len() == 1 { "" } else { "s" },
                        names(&over)
                    ),
                ),
                Fact::new(
                    &["§6.3.2"],
                    format!(
                        "the first cell of the line, {}, is occupied",
                        describe(board, from.neighbour(direction))
                    ),
                ),
                Fact::new(&["§6.3.3"], "no gate and no contact rule applies to a jump"),
            ]
        }
        Bug::Spider => {
            let paths = spider_paths(&lifted, from, to, &ground_step_possible);
            let path = paths.first()?;
            vec![
                Fact::new(
                    &["§6.4.1"],
                    format!(
                        "a spider moves exactly three ground steps: {}",
                        path_text(path)
                    ),
                ),
                Fact::new(
                    &["§6.4.2"],
                    "the walk visits three distinct cells, none of them its start",
                ),
                Fact::new(
                    &["§5.4", "§5.5"],
                    "each step keeps touching the hive and passes no gate",
                ),
            ]
        }
        Bug::Ant => {
            let path = ant_path(board, from, to)?;
            vec![
                Fact::new(
                    &["§6.5"],
                    format!(
                        "a soldier ant moves any number of ground steps; the shortest way takes {}: {}",
                        path.len() - 1,
                        path_text(&path)
                    ),
                ),
                Fact::new(
                    &["§5.4", "§5.5"],
                    "each step keeps touching the hive and passes no gate",
                ),
            ]
        }
        Bug::Ladybug => {
            let paths = ladybug_paths(&lifted, from, to, &step_possible);
            let [a, up, across, down] = *paths.first()?;
            vec![
                Fact::new(
                    &["§6.6.1"],
                    format!(
                        "a ladybug moves up, across and down: {a} → onto {} → onto {} → down to {down}",
                        describe(&lifted, up),
                        describe(&lifted, across)
                    ),
                ),
                Fact::new(
                    &["§6.6.2", "§5.6"],
                    "no step of the walk passes a height gate",
                ),
                Fact::new(&["§6.6.3"], format!("it ends on the ground, at {down}")),
            ]
        }
        Bug::Mosquito => {
            if board.height(from) >= 2 {
                let mut facts = vec![Fact::new(
                    &["§6.7.4"],
                    format!(
                        "{piece} is on top of the hive (height {}), where a mosquito moves only as a beetle",
                        board.height(from)
                    ),
                )];
                facts.extend(own_way(board, piece, Bug::Beetle, from, to)?);
                return Some(facts);
            }
            let copied = copied_bugs(board, from);
            let bug = copied
                .iter()
                .copied()
                .find(|&b| bugs::own_movement(b, board, from).contains(&to))?;
            let model = from
                .neighbours()
                .into_iter()
                .find(|&n| board.top(n).is_some_and(|p| p.bug == bug))?;
            let mut facts = vec![Fact::new(
                &["§6.7.1"],
                format!(
                    "{piece} on the ground copies the {} {} and moves as a {}",
                    bug.name(),
                    describe(board, model),
                    bug.name()
                ),
            )];
            if bug == Bug::Pillbug {
                facts[0].clauses.push("§6.7.5");
            }
            facts.extend(own_way(board, piece, bug, from, to)?);
            facts
        }
    };
    Some(facts)
}

/// Whether the top piece at `at` can use the pillbug's ability (§6.8.2, §6.7.5).
fn has_ability(board: &Board, piece: Piece, at: Hex) -> bool {
    match piece.bug {
        Bug::Pillbug => true,
        Bug::Mosquito => copied_bugs(board, at).contains(&Bug::Pillbug),
        _ => false,
    }
}

/// The throws of `piece` to `to`, one list of facts per thrower (§6.8.2–§6.8.8).
fn throw_ways(game: &ReferenceEngine, piece: Piece, to: Hex) -> Vec<Vec<Fact>> {
    let board = game.board();
    let color = game.side_to_move();
    let immune = game.immune_piece();
    let Some(from) = board.location(piece) else {
        return Vec::new();
    };
    let mut ways = Vec::new();
    for at in from.neighbours() {
        let Some(thrower) = board.top(at) else {
            continue;
        };
        if thrower.color != color
            || immune == Some(thrower)
            || !has_ability(board, thrower, at)
            || !pillbug_throws(board, at, immune).contains(&(piece, to))
        {
            continue;
        }
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
                format!("{thrower} itself is pinned (lifting it would split the hive), yet it may throw"),
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
        ways.push(facts);
    }
    ways
}

/// The ways a legal move is granted: one list of facts per way (a piece may
/// reach a cell by its own movement and by a throw, §5.9), the granting
/// clause first in each. Empty for a move that is not legal.
pub fn grants(game: &ReferenceEngine, mv: Move) -> Vec<Vec<Fact>> {
    if !game.legal_move_set().contains(&mv) {
        return Vec::new();
    }
    ways_of(game, mv)
}

/// The ways of a move known to be legal (see [`grants`]).
fn ways_of(game: &ReferenceEngine, mv: Move) -> Vec<Vec<Fact>> {
    let board = game.board();
    let color = game.side_to_move();
    match mv {
        Move::Pass => vec![vec![Fact::new(
            &["§7.2"],
            format!(
                "{color} has no legal placement and no legal movement, so passing is the only move"
            ),
        )]],
        Move::Place { piece, to } => vec![placement_facts(game, piece, to)],
        Move::Move { piece, to } => {
            let mut ways = Vec::new();
            if let Some(from) = board.location(piece) {
                if piece.color == color {
                    if let Some(facts) = own_way(board, piece, piece.bug, from, to) {
                        ways.push(facts);
                    }
                }
            }
            ways.extend(throw_ways(game, piece, to));
            ways
        }
    }
}

/// Why placing `piece` on `to` is legal (chapter 3, §4.1, §4.2).
fn placement_facts(game: &ReferenceEngine, piece: Piece, to: Hex) -> Vec<Fact> {
    let board = game.board();
    let color = piece.color;
    let count = board.pieces().count();
    let mut facts = Vec::new();
    let cell = match count {
        0 => Fact::new(
            &["§3.3"],
            format!("the first piece of the game goes to the origin {to}"),
        ),
        1 => Fact::new(
            &["§3.4"],
            format!("the second piece touches the first, {}", {
                let first = board.occupied_cells().next().unwrap_or(Hex::ORIGIN);
                describe(board, first)
            }),
        ),
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
    facts.push(cell);
    facts.push(Fact::new(
        &["§3.1"],
        format!("{piece} is in {color}'s reserve and {to} is empty"),
    ));
    if piece.bug.is_numbered() && piece.number > 1 {
        facts.push(Fact::new(
            &["§3.2"],
            format!(
                "the lower-numbered {}s of {color} are already on the board",
                piece.bug.name()
            ),
        ));
    }
    let plies = game.plies();
    if piece.bug == Bug::Queen && opening::queen_is_due(board, color, plies) {
        facts.push(Fact::new(
            &["§4.1"],
            format!(
                "it is {color}'s turn {} and the queen must be placed now",
                opening::turn_number(plies)
            ),
        ));
    } else if piece.bug == Bug::Queen && game.options().tournament_opening {
        facts.push(Fact::new(
            &["§4.2"],
            format!(
                "{color} has placed a piece already, so the tournament opening allows the queen"
            ),
        ));
    }
    facts
}

/// The general conditions that every movement of the player's own piece
/// meets (§4.3, §5.1, §5.3, §5.8), before its bug's movement.
fn movement_preconditions(game: &ReferenceEngine, piece: Piece, own_move: bool) -> Vec<Fact> {
    let board = game.board();
    let color = game.side_to_move();
    let mut facts = Vec::new();
    let Some(from) = board.location(piece) else {
        return facts;
    };
    facts.push(Fact::new(
        &["§4.3"],
        format!("{color}'s queen is on the board, so {color} may move pieces"),
    ));
    if own_move {
        facts.push(Fact::new(
            &["§5.1"],
            format!("{piece} is {color}'s own piece, the top piece of its stack at {from}"),
        ));
    }
    let last = match game.immune_piece() {
        Some(last) => format!("{piece} was not moved last turn ({last} was)"),
        None => format!("{piece} was not moved last turn"),
    };
    facts.push(Fact::new(&["§5.8"], last));
    if own_move {
        facts.push(Fact::new(&["§5.3"], lift_fact(board, piece, from)));
    }
    facts
}

/// The verdict on `mv` in `game`: legal (with the clauses that grant it) or
/// illegal (with `play`'s refusal, unchanged, and the facts behind it).
pub fn verdict(game: &ReferenceEngine, mv: Move) -> Verdict {
    let ways = grants(game, mv);
    if ways.is_empty() {
        let refusal = why_illegal(&game.position(), mv);
        let facts = refusal_facts(game, mv, &refusal.reason, &refusal.clauses);
        return Verdict {
            legal: false,
            refusal: Some(refusal.to_string()),
            facts,
        };
    }
    let mut facts = Vec::new();
    if let Move::Move { piece, .. } = mv {
        let own = piece.color == game.side_to_move()
            && ways
                .first()
                .is_some_and(|w| !w.iter().any(|f| f.clauses.contains(&"§6.8.2")));
        facts.extend(movement_preconditions(game, piece, own));
    }
    let several = ways.len() > 1;
    for (i, way) in ways.into_iter().enumerate() {
        if several {
            facts.push(Fact::new(&[], format!("way {}:", i + 1)));
        }
        facts.extend(way);
    }
    if several {
        facts.push(Fact::new(
            &["§5.9"],
            "these ways end in the same cell with the same piece: they are one move",
        ));
    }
    Verdict {
        legal: true,
        refusal: None,
        facts,
    }
}

// ---------------------------------------------------------------------------
// Facts behind a refusal
// ---------------------------------------------------------------------------

/// Facts that show the refusal of `mv` in this position. The first fact
/// always carries the refusal's own clauses.
fn refusal_facts(
    game: &ReferenceEngine,
    mv: Move,
    reason: &str,
    clauses: &[&'static str],
) -> Vec<Fact> {
    let board = game.board();
    let color = game.side_to_move();
    let first = clauses.first().copied().unwrap_or("");
    let has = |c: &str| clauses.contains(&c);
    let mut facts = Vec::new();
    let (piece, to) = match mv {
        Move::Place { piece, to } | Move::Move { piece, to } => (Some(piece), Some(to)),
        Move::Pass => (None, None),
    };
    let from = piece.and_then(|p| board.location(p));
    let main = |text: String| Fact {
        clauses: clauses.to_vec(),
        text,
    };
    match (first, piece, from, to) {
        ("§8.5", ..) => {
            facts.push(main(format!("the game is over ({})", game.state())));
            facts.extend(end_facts(game));
        }
        ("§7.2", ..) => {
            let moves = game.legal_moves();
            let listed: Vec<String> = moves.iter().take(5).map(|&m| game.move_string(m)).collect();
            let more = if moves.len() > 5 { ", …" } else { "" };
            facts.push(main(format!(
                "{color} has {} legal move{}: {}{more}",
                moves.len(),
                if moves.len() == 1 { "" } else { "s" },
                listed.join(", ")
            )));
        }
        ("§5.3", Some(p), Some(f), _) | ("§6.8.4", Some(p), Some(f), _) => {
            facts.push(main(lift_fact(board, p, f)));
        }
        ("§5.5", Some(_), Some(f), Some(t)) if f.is_adjacent(t) => {
            facts.push(main(gate_fact(&board.with_top_lifted(f), f, t)));
        }
        ("§5.4", Some(_), Some(f), Some(t)) => {
            facts.push(main(contact_fact(&board.with_top_lifted(f), f, t)));
        }
        ("§5.2", Some(p), Some(f), _) | ("§6.8.3", Some(p), Some(f), _) => {
            let stack = board.stack(f);
            facts.push(main(format!(
                "the stack at {f}, bottom to top: {}; {p} is not alone on top",
                names(stack)
            )));
        }
        ("§3.7", _, _, Some(t)) => {
            facts.push(main(format!(
                "the stack at {t}, bottom to top: {}",
                names(board.stack(t))
            )));
        }
        ("§3.6", Some(_), _, Some(t)) => {
            let enemy: Vec<String> = t
                .neighbours()
                .into_iter()
                .filter(|&n| board.stack_color(n) == Some(color.opponent()))
                .map(|n| describe(board, n))
                .collect();
            facts.push(main(format!(
                "{t} touches {}'s {}",
                color.opponent(),
                enemy.join(", ")
            )));
        }
        ("§3.5", Some(_), _, Some(t)) => {
            let near: Vec<String> = t
                .neighbours()
                .into_iter()
                .filter(|&n| board.is_occupied(n))
                .map(|n| describe(board, n))
                .collect();
            facts.push(main(if near.is_empty() {
                format!("{t} touches no stack at all")
            } else {
                format!("the stacks next to {t}: {}", near.join(", "))
            }));
        }
        ("§4.1", ..) => {
            facts.push(main(format!(
                "it is {color}'s turn {} and {color}'s queen is still in the reserve",
                opening::turn_number(game.plies())
            )));
        }
        ("§6.8.5", Some(p), Some(f), Some(t)) => {
            let lifted = board.with_top_lifted(f);
            for at in f.neighbours().into_iter().filter(|n| n.is_adjacent(t)) {
                let Some(thrower) = board.top(at) else {
                    continue;
                };
                if thrower.color != color || !has_ability(board, thrower, at) {
                    continue;
                }
                let climb = height_gate_blocks(&lifted, f, at);
                let half = if climb {
                    format!(
                        "the climb of {p} onto {thrower}: {}",
                        height_fact(&lifted, f, at)
                    )
                } else {
                    format!(
                        "the drop from {thrower} to {t}: {}",
                        height_fact(&lifted, at, t)
                    )
                };
                facts.push(main(half));
            }
        }
        ("§6.8.8", Some(_), Some(f), Some(t)) => {
            let throwers: Vec<String> = f
                .neighbours()
                .into_iter()
                .filter(|&n| {
                    board
                        .top(n)
                        .is_some_and(|q| q.color == color && has_ability(board, q, n))
                })
                .map(|n| describe(board, n))
                .collect();
            facts.push(main(format!(
                "{t} is {}; the throwers next to the piece: {}",
                if board.is_occupied(t) {
                    "occupied"
                } else {
                    "empty"
                },
                throwers.join(", ")
            )));
        }
        (_, Some(p), Some(f), Some(t)) if has("§5.5") => {
            let lifted = board.with_top_lifted(f);
            let relaxed: &movement::StepRule = &ground_step_ignoring_gates;
            let strict: &movement::StepRule = &ground_step_possible;
            let walk = if p.bug == Bug::Spider || first == "§6.4.1" {
                spider_paths(&lifted, f, t, relaxed)
                    .into_iter()
                    .map(|path| {
                        let refused: Vec<(Hex, Hex)> = path
                            .windows(2)
                            .filter(|w| !strict(&lifted, w[0], w[1]))
                            .map(|w| (w[0], w[1]))
                            .collect();
                        (path, refused)
                    })
                    .min_by_key(|(_, refused)| refused.len())
            } else {
                fewest_blocked_walk(&lifted, f, t, relaxed, strict)
            };
            match walk {
                Some((path, refused)) => {
                    let gates: Vec<String> = refused
                        .iter()
                        .map(|&(a, b)| gate_fact(&lifted, a, b))
                        .collect();
                    facts.push(main(format!(
                        "the nearest way, {}, is gated: {}",
                        path_text(&path),
                        gates.join("; ")
                    )));
                }
                None => facts.push(main(reason.to_string())),
            }
        }
        (_, Some(_), Some(f), Some(t)) if has("§5.6") => {
            facts.push(main(height_fact(&board.with_top_lifted(f), f, t)));
        }
        ("§6.6.2", Some(_), Some(f), Some(t)) => {
            let lifted = board.with_top_lifted(f);
            let walks = ladybug_paths(&lifted, f, t, &step_ignoring_height_gates);
            let blocked = walks.iter().find_map(|w| {
                w.windows(2)
                    .find(|s| !step_possible(&lifted, s[0], s[1]))
                    .map(|s| (w, s[0], s[1]))
            });
            match blocked {
                Some((w, a, b)) => facts.push(main(format!(
                    "for example the walk {} is blocked at {}",
                    path_text(w),
                    height_fact(&lifted, a, b)
                ))),
                None => facts.push(main(reason.to_string())),
            }
        }
        _ => facts.push(main(reason.to_string())),
    }
    // Where the piece could go instead, for a refused movement of the player's own piece.
    if let (Move::Move { piece, .. }, Some(_)) = (mv, from) {
        if piece.color == color && !game.state().is_over() {
            let options: Vec<String> = game
                .legal_move_set()
                .into_iter()
                .filter(|m| m.piece() == Some(piece))
                .map(|m| game.move_string(m))
                .collect();
            facts.push(Fact::new(
                &[],
                if options.is_empty() {
                    format!("{piece} has no legal move here")
                } else {
                    format!("the legal moves of {piece} here: {}", options.join(", "))
                },
            ));
        }
    }
    facts
}

/// Why the game is over: the surrounded queens and the result (§8.1–§8.4,
/// §8.7.2).
fn end_facts(game: &ReferenceEngine) -> Vec<Fact> {
    let mut facts = surround_facts(game.board());
    let text = match (game.state(), facts.len()) {
        (GameState::Draw, 2) => Some((&["§8.3"], "both queens are surrounded: a draw".to_string())),
        (GameState::Draw, _) => Some((
            &["§8.7.2"],
            "the position has occurred for the third time within 32 plies: a draw".to_string(),
        )),
        (GameState::WhiteWins, _) => Some((
            &["§8.2"],
            "only Black's queen is surrounded: White wins".to_string(),
        )),
        (GameState::BlackWins, _) => Some((
            &["§8.2"],
            "only White's queen is surrounded: Black wins".to_string(),
        )),
        _ => None,
    };
    if let Some((clauses, text)) = text {
        facts.push(Fact::new(clauses, text));
    }
    facts
}

/// The surrounded queens of a position (§8.1).
fn surround_facts(board: &Board) -> Vec<Fact> {
    let mut facts = Vec::new();
    for color in Color::ALL {
        let queen = Piece::first(color, Bug::Queen);
        let Some(at) = board.location(queen) else {
            continue;
        };
        let around = board.occupied_neighbours(at).count();
        if around == 6 {
            facts.push(Fact::new(
                &["§8.1"],
                format!("{queen} at {at} has all six neighbours occupied: it is surrounded"),
            ));
        }
    }
    facts
}

// ---------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------

/// The cells a picture of `mv` highlights: where the piece starts (for a
/// movement) and where it ends.
pub fn move_cells(game: &ReferenceEngine, mv: Move) -> Vec<Hex> {
    match mv {
        Move::Pass => Vec::new(),
        Move::Place { to, .. } => vec![to],
        Move::Move { piece, to } => {
            let mut cells: Vec<Hex> = game.board().location(piece).into_iter().collect();
            if !cells.contains(&to) {
                cells.push(to);
            }
            cells
        }
    }
}

/// The explanation of one move: `legal: …` or `illegal: …` with `play`'s
/// refusal, the chain of clauses with their facts, one per line, and the
/// ASCII picture with the from and to cells highlighted.
pub fn explain_move(game: &ReferenceEngine, mv: Move) -> String {
    let name = game.move_string(mv);
    let verdict = verdict(game, mv);
    let mut out = String::new();
    match &verdict.refusal {
        None => {
            let _ = writeln!(out, "legal: {name} ({mv})");
        }
        Some(refusal) => {
            let _ = writeln!(out, "illegal: {name} ({mv}): {refusal}");
        }
    }
    for fact in &verdict.facts {
        let _ = writeln!(out, "  {}", fact.line());
    }
    out.push('\n');
    out.push_str(&render::ascii(game, &move_cells(game, mv)));
    out
}

/// The short grant of a legal move for the list of a position: the first
/// fact of each way, joined.
fn short_grant(game: &ReferenceEngine, mv: Move) -> String {
    let ways = ways_of(game, mv);
    ways.iter()
        .filter_map(|way| way.first())
        .map(Fact::line)
        .collect::<Vec<_>>()
        .join("; or ")
}

/// The explanation of a position: its state, the side to move and every
/// legal move grouped by piece, each with the clause that grants it, then
/// the ASCII picture.
pub fn explain_position(game: &ReferenceEngine) -> String {
    let board = game.board();
    let state = game.state();
    let mut out = String::new();
    let _ = writeln!(out, "game: {}", game.game_string());
    let _ = writeln!(out, "state: {state}");
    if state.is_over() {
        let _ = writeln!(
            out,
            "  {}",
            Fact::new(&["§8.5"], "the game is over: no move is legal").line()
        );
        for fact in end_facts(game) {
            let _ = writeln!(out, "  {}", fact.line());
        }
    } else {
        let turn = game.turn();
        let _ = writeln!(
            out,
            "to move: {} (turn {}, ply {})",
            turn.color,
            opening::turn_number(game.plies()),
            game.plies() + 1
        );
        if let Some(last) = game.immune_piece() {
            let _ = writeln!(
                out,
                "  {}",
                Fact::new(
                    &["§5.8"],
                    format!("{last} was moved or placed last turn and is immune")
                )
                .line()
            );
        }
        let moves = game.legal_move_set();
        let _ = writeln!(out, "legal moves: {}", moves.len());
        let color = game.side_to_move();
        // Placements: every placeable piece on every placement cell (§3.1–§3.8).
        let placements: Vec<(Piece, Hex)> = moves
            .iter()
            .filter_map(|m| match *m {
                Move::Place { piece, to } => Some((piece, to)),
                _ => None,
            })
            .collect();
        if !placements.is_empty() {
            let pieces: BTreeSet<Piece> = placements.iter().map(|&(p, _)| p).collect();
            let cells: BTreeSet<Hex> = placements.iter().map(|&(_, h)| h).collect();
            let _ = writeln!(
                out,
                "placements ({} piece{} × {} cell{} = {} moves):",
                pieces.len(),
                if pieces.len() == 1 { "" } else { "s" },
                cells.len(),
                if cells.len() == 1 { "" } else { "s" },
                placements.len()
            );
            let listed: Vec<Piece> = pieces.iter().copied().collect();
            let _ = writeln!(
                out,
                "  pieces: {}",
                Fact::new(
                    &["§3.1", "§3.2"],
                    format!(
                        "{}: the lowest-numbered piece of each bug in {color}'s reserve",
                        names(&listed)
                    )
                )
                .line()
            );
            let queen = Piece::first(color, Bug::Queen);
            let plies = game.plies();
            if opening::queen_is_due(board, color, plies) {
                let _ = writeln!(
                    out,
                    "  {}",
                    Fact::new(
                        &["§4.1"],
                        format!(
                            "turn {} without the queen on the board: only {queen} may be placed",
                            opening::turn_number(plies)
                        )
                    )
                    .line()
                );
            } else if board.location(queen).is_none() && !pieces.contains(&queen) {
                let _ = writeln!(
                    out,
                    "  {}",
                    Fact::new(
                        &["§4.2"],
                        format!("{queen} may not be {color}'s first placement")
                    )
                    .line()
                );
            }
            let sample = listed[0];
            let mut rows: Vec<(String, Hex)> = cells
                .iter()
                .map(|&to| {
                    let text = game.move_string(Move::Place { piece: sample, to });
                    let target = text
                        .strip_prefix(&sample.to_string())
                        .unwrap_or(&text)
                        .trim()
                        .to_string();
                    (target, to)
                })
                .collect();
            rows.sort();
            let width = rows
                .iter()
                .map(|(t, _)| t.chars().count())
                .max()
                .unwrap_or(0);
            for (target, to) in rows {
                let grant = placement_facts(game, sample, to)
                    .first()
                    .map(Fact::line)
                    .unwrap_or_default();
                let target = if target.is_empty() {
                    "(first)".to_string()
                } else {
                    target
                };
                let _ = writeln!(out, "  {target:<width$}  {:<9}  {grant}", to.to_string());
            }
        }
        // Movements, grouped by the piece that moves (its own or thrown).
        let mut by_piece: BTreeMap<Piece, Vec<Move>> = BTreeMap::new();
        for &mv in &moves {
            if let Move::Move { piece, .. } = mv {
                by_piece.entry(piece).or_default().push(mv);
            }
        }
        for (piece, group) in by_piece {
            let at = board
                .location(piece)
                .map_or_else(|| piece.to_string(), |h| describe(board, h));
            let _ = writeln!(
                out,
                "{at} ({} move{}):",
                group.len(),
                if group.len() == 1 { "" } else { "s" }
            );
            let mut rows: Vec<(String, Move)> =
                group.iter().map(|&m| (game.move_string(m), m)).collect();
            rows.sort();
            let width = rows
                .iter()
                .map(|(s, _)| s.chars().count())
                .max()
                .unwrap_or(0);
            for (text, mv) in rows {
                let dest = mv.destination().map_or_else(String::new, |h| h.to_string());
                let _ = writeln!(
                    out,
                    "  {text:<width$}  {dest:<9}  {}",
                    short_grant(game, mv)
                );
            }
        }
        if moves.contains(&Move::Pass) {
            let _ = writeln!(out, "pass:");
            let _ = writeln!(out, "  pass  {}", short_grant(game, Move::Pass));
        }
    }
    out.push('\n');
    out.push_str(&render::ascii(game, &[]));
    out
}

/// Loads a GameTypeString (a new game) or a GameString (§9.1, §9.4).
pub fn load(text: &str, options: RulesOptions) -> Result<ReferenceEngine, String> {
    if !text.contains(';') {
        let game_type = parse_game_type(text).map_err(|e| e.to_string())?;
        return Ok(ReferenceEngine::new_game(game_type, options));
    }
    ReferenceEngine::load_with(text, options).map_err(|e| e.to_string())
}

/// The `explain` command: the explanation of a move, or of the position when
/// no move is given. An unreadable game or move is an error, never a panic.
pub fn explain_command(
    game_text: &str,
    move_text: Option<&str>,
    options: RulesOptions,
) -> Result<String, String> {
    let game = load(game_text, options)?;
    match move_text {
        None => Ok(explain_position(&game)),
        Some(text) => {
            let mv = game.parse_move(text).map_err(|e| e.to_string())?;
            Ok(explain_move(&game, mv))
        }
    }
}

/// Plays `mv` on any engine; a refusal is explained by the reference engine
/// in the same position, with the clause that forbids the move (the fast
/// engine's own refusals cite none). Used by the CLI and the UHP server.
///
/// The reference rules judge the move on a copy of the engine's position
/// ([`Position::of_game`]): its board, plies, last move and state, which is
/// all a refusal depends on. That costs one reference move generation (tens
/// of microseconds in a midgame), where replaying the game's history on the
/// reference engine, as [`play_explained_slow`] does, costs one per ply.
pub fn play_explained<R: Rules>(game: &mut R, mv: Move) -> Result<(), String> {
    let Err(refusal) = game.play(mv) else {
        return Ok(());
    };
    let position = Position::of_game(game);
    // The reference rules must refuse the move too: a disagreement is a bug.
    if position.legal_move_set().contains(&mv) {
        return Err(format!(
            "{refusal} (the reference engine accepts this move: please report it)"
        ));
    }
    Err(why_illegal(&position, mv).to_string())
}

/// [`play_explained`] the long way, kept as its oracle (`tests/refusals.rs`):
/// the game's GameString is reloaded on the reference engine, replaying and
/// checking every move of its history, and the move is played there. A
/// history the reference engine refuses leaves the engine's own refusal.
pub fn play_explained_slow<R: Rules>(game: &mut R, mv: Move) -> Result<(), String> {
    let Err(refusal) = game.play(mv) else {
        return Ok(());
    };
    let reference = ReferenceEngine::load_with(&game.game_string(), game.options())
        .ok()
        .map(|mut reference| reference.play(mv));
    Err(match reference {
        Some(Err(why)) => why.to_string(),
        Some(Ok(())) => {
            format!("{refusal} (the reference engine accepts this move: please report it)")
        }
        None => refusal.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::movement::keeps_contact;

    #[test]
    fn every_title_names_a_clause_shape() {
        // §5.3: the title of a cited clause is shown after it.
        assert_eq!(clause_title("§5.3"), "One Hive");
        assert_eq!(clause_title("nothing"), "");
    }

    #[test]
    fn keeps_contact_matches_the_contact_fact() {
        // §5.4: the fact says "leave the hive" exactly when contact is lost.
        let game = ReferenceEngine::load("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
            .expect("loads");
        let from = Hex::new(-1, 0);
        let lifted = game.board().with_top_lifted(from);
        for to in from.neighbours() {
            let text = contact_fact(&lifted, from, to);
            assert_eq!(
                text.contains("leave the hive"),
                !keeps_contact(&lifted, from, to),
                "{text}"
            );
        }
    }

    #[test]
    fn groups_after_a_lift_are_listed() {
        // §5.3: lifting the spider of the line splits it in two.
        let game = ReferenceEngine::load("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
            .expect("loads");
        let text = lift_fact(
            game.board(),
            game.board().top(Hex::ORIGIN).unwrap(),
            Hex::ORIGIN,
        );
        assert!(text.contains("two groups: {bQ, bS1} and {wQ}"), "{text}");
    }
}
