//! The facts of a position that a rule looks at, in words and as data: which
//! groups a lift leaves (§5.3), which pieces flank a gate (§5.5), which
//! heights a height gate compares (§5.6), which cells a step keeps touching
//! (§5.4).
//!
//! The rule files (`movement.rs`, `bugs/*.rs`, `judge.rs`) say *why* a move
//! is granted or refused by returning [`Fact`]s built here; `explain` only
//! prints them. The sentences are computed with the same board functions
//! the rules use (`movement.rs`), so a fact states what the rule saw. Each
//! fact also carries the cells, walk and plies its sentence names
//! ([`Fact::cells`], [`Fact::path`], [`Fact::plies`]), so that a picture or
//! the web page can draw what the sentence says without reading it.

use std::collections::{BTreeSet, VecDeque};

use super::board::Board;
use crate::core::{Direction, Hex, Piece};
use crate::rules::IllegalMove;

/// One link of an explanation: the clauses it rests on and the facts of the
/// position that make them apply. `clauses` is empty for a plain remark.
///
/// The sentence is for a reader; the same fact as data is for a picture:
/// the cells it names, the walk it describes and the plies it counts. Each
/// is empty when the sentence names none.
///
/// ```
/// use hive_oracle_rules::core::Hex;
/// use hive_oracle_rules::explain::verdict;
/// use hive_oracle_rules::reference::ReferenceEngine;
/// use hive_oracle_rules::rules::Rules;
///
/// // §5.5: the ant's way into the pocket passes between wB1 and wS2.
/// let game = ReferenceEngine::load(r"Base;InProgress;White[9];wS1;bS1 -wS1;wQ wS1-;bQ -bS1;wG1 wQ-;bG1 /bQ;wG2 wS1\;bG2 -bQ;wB1 wG1\;bA1 -bG2;wS2 wG2\;bA2 -bA1;wG3 wS1/;bA3 -bA2;wA1 -wS2;bB1 -bA3").unwrap();
/// let refused = verdict(&game, game.parse_move(r"wA1 wQ\").unwrap());
/// let gate = &refused.facts[0];
/// assert_eq!(gate.cells, vec![Hex::new(2, 1), Hex::new(0, 2)]); // the two flanks
/// assert_eq!(gate.path.last(), Some(&Hex::new(1, 1))); // the walk ends in the pocket
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The clauses the fact is about (leaf clauses of the spec).
    pub clauses: Vec<&'static str>,
    /// The fact in a sentence, with the cells and pieces of the position.
    pub text: String,
    /// The cells the sentence names, for a picture to mark: the two flanks
    /// of a gate (§5.5, §5.6), the neighbour a mosquito copies (§6.7.1),
    /// the pillbug that would throw (§6.8.2), the surrounded queens (§8.1).
    pub cells: Vec<Hex>,
    /// The walk the sentence describes, its start first, for a picture to
    /// draw as arrows: a step, a spider's three steps (§6.4.1), an ant's
    /// way (§6.5), a ladybug's climb, crossing and drop (§6.6.1), a
    /// grasshopper's jump (§6.3.1), a throw's climb and drop (§6.8.5).
    pub path: Vec<Hex>,
    /// The plies the sentence counts (ply `n` is the position after the
    /// game's n-th move): the occurrences of a repeated position (§8.7.2).
    pub plies: Vec<usize>,
    /// Whether the fact is an exception the judgement consulted and found
    /// to apply: a clause that grants what a general rule would refuse (a
    /// pillbug that threw is not the piece moved, §6.8.7; a mosquito copies
    /// an immune pillbug, §6.7.5; a beetle climbs a taller stack, §6.2.3),
    /// so that the move is legal because of it.
    pub exception: bool,
}

impl Fact {
    /// A fact resting on `clauses`, naming no cell, walk or ply.
    pub(crate) fn new(clauses: &[&'static str], text: impl Into<String>) -> Fact {
        Fact {
            clauses: clauses.to_vec(),
            text: text.into(),
            cells: Vec::new(),
            path: Vec::new(),
            plies: Vec::new(),
            exception: false,
        }
    }

    /// An exception consulted and found to apply (its field `exception`
    /// set): the move it grants is legal because of it.
    pub(crate) fn exception(clauses: &[&'static str], text: impl Into<String>) -> Fact {
        Fact {
            exception: true,
            ..Fact::new(clauses, text)
        }
    }

    /// The fact with the cells its sentence names.
    pub(crate) fn with_cells(mut self, cells: impl IntoIterator<Item = Hex>) -> Fact {
        self.cells = cells.into_iter().collect();
        self
    }

    /// The fact with the plies its sentence counts.
    pub(crate) fn with_plies(mut self, plies: impl IntoIterator<Item = usize>) -> Fact {
        self.plies = plies.into_iter().collect();
        self
    }

    /// The fact with the walk its sentence describes, start first.
    pub(crate) fn with_path(mut self, path: impl IntoIterator<Item = Hex>) -> Fact {
        self.path = path.into_iter().collect();
        self
    }

    /// The fact as one line, each clause followed by its title from the
    /// spec's label line: `§5.3 One Hive — lifting wA1 leaves …`; an
    /// exception says so before its sentence (`… — exception: …`).
    pub fn line(&self) -> String {
        if self.clauses.is_empty() {
            return self.text.clone();
        }
        let marker = if self.exception { "exception: " } else { "" };
        let cited: Vec<String> = self
            .clauses
            .iter()
            .map(|c| match crate::clauses::clause_title(c) {
                "" => (*c).to_string(),
                title => format!("{c} {title}"),
            })
            .collect();
        format!("{} — {marker}{}", cited.join(", "), self.text)
    }
}

/// Why a move is refused: what `play` says (the reason and its clauses) and
/// the facts of the position behind it. The first fact carries the
/// refusal's own clauses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The refusal as `play` reports it.
    pub illegal: IllegalMove,
    /// The facts behind it, the first resting on the refusal's clauses.
    pub facts: Vec<Fact>,
}

impl Refusal {
    /// A refusal for `reason`, citing `clauses`, shown by the facts `shown`
    /// (each sentence resting on the same clauses); with no sentence, the
    /// reason itself is the fact.
    pub(crate) fn new(
        reason: impl Into<String>,
        clauses: &[&'static str],
        shown: Vec<String>,
    ) -> Refusal {
        let illegal = IllegalMove::new(reason, clauses);
        let mut facts: Vec<Fact> = shown
            .into_iter()
            .map(|text| Fact::new(clauses, text))
            .collect();
        if facts.is_empty() {
            facts.push(Fact::new(clauses, illegal.reason.clone()));
        }
        Refusal { illegal, facts }
    }

    /// A refusal whose reason is its only fact.
    pub(crate) fn plain(reason: impl Into<String>, clauses: &[&'static str]) -> Refusal {
        Refusal::new(reason, clauses, Vec::new())
    }

    /// A refusal shown by `facts`, which the caller has built with their
    /// clauses (the first resting on the refusal's first clause); with no
    /// fact, the reason itself is the fact.
    pub(crate) fn with_facts(
        reason: impl Into<String>,
        clauses: &[&'static str],
        facts: Vec<Fact>,
    ) -> Refusal {
        let mut refusal = Refusal::new(reason, clauses, Vec::new());
        if !facts.is_empty() {
            refusal.facts = facts;
        }
        refusal
    }

    /// A refusal shown by one fact.
    pub(crate) fn shown(
        reason: impl Into<String>,
        clauses: &[&'static str],
        fact: String,
    ) -> Refusal {
        Refusal::new(reason, clauses, vec![fact])
    }

    /// Puts `clause` first and adds `note` to the reason (a rule that
    /// narrows another, such as §6.7.4 for a mosquito moving as a beetle).
    pub(crate) fn narrowed_by(mut self, clause: &'static str, note: &str) -> Refusal {
        let before = self.illegal.reason.clone();
        self.illegal.clauses.insert(0, clause);
        self.illegal.reason.push_str(note);
        for fact in &mut self.facts {
            fact.clauses.clone_from(&self.illegal.clauses);
            if fact.text == before {
                fact.text.clone_from(&self.illegal.reason);
            }
        }
        self
    }
}

/// "wB1 at (0, -1)", "bB1 on a stack of 2 at (0, 0)" or "(0, -1), empty".
pub(crate) fn describe(board: &Board, hex: Hex) -> String {
    match board.top(hex) {
        None => format!("{hex}, empty"),
        Some(top) if board.height(hex) >= 2 => {
            format!("{top} on a stack of {} at {hex}", board.height(hex))
        }
        Some(top) => format!("{top} at {hex}"),
    }
}

/// "wB1 at (0, -1)" or "(0, -1)" for an empty cell.
pub(crate) fn describe_short(board: &Board, hex: Hex) -> String {
    match board.top(hex) {
        None => format!("{hex}"),
        Some(top) => format!("{top} at {hex}"),
    }
}

/// The top piece of a cell, or "nothing".
pub(crate) fn top_name(board: &Board, hex: Hex) -> String {
    board
        .top(hex)
        .map_or_else(|| "nothing".to_string(), |p| p.to_string())
}

/// The compass name of a direction (§2.2).
pub(crate) fn direction_name(direction: Direction) -> &'static str {
    match direction {
        Direction::NorthWest => "north-west",
        Direction::NorthEast => "north-east",
        Direction::East => "east",
        Direction::SouthEast => "south-east",
        Direction::SouthWest => "south-west",
        Direction::West => "west",
    }
}

/// A walk as "(0, 0) → (1, 0) → …".
pub(crate) fn path_text(path: &[Hex]) -> String {
    path.iter()
        .map(Hex::to_string)
        .collect::<Vec<_>>()
        .join(" → ")
}

/// Pieces as "wQ, bA1".
pub(crate) fn names(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(Piece::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The connected groups of occupied cells (§2.7), each as its top pieces,
/// largest first.
pub(crate) fn groups(board: &Board) -> Vec<Vec<Piece>> {
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
pub(crate) fn lift_fact(board: &Board, piece: Piece, from: Hex) -> String {
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

/// The two cells flanking the step from `a` to `b` (their common
/// neighbours, §2.9); none when the cells are not adjacent.
pub(crate) fn flanks(a: Hex, b: Hex) -> Vec<Hex> {
    a.common_neighbours(b)
        .map_or_else(Vec::new, |[l, r]| vec![l, r])
}

/// A fact about the step from `a` to `b`: the sentence, the step as its
/// walk and its two flanks as its cells.
pub(crate) fn step_fact(clauses: &[&'static str], text: String, a: Hex, b: Hex) -> Fact {
    Fact::new(clauses, text)
        .with_path([a, b])
        .with_cells(flanks(a, b))
}

/// The gate between `a` and `b` on the ground (§5.5), on the lifted board.
pub(crate) fn gate_fact(lifted: &Board, a: Hex, b: Hex) -> String {
    let Some([l, r]) = a.common_neighbours(b) else {
        return format!("{a} and {b} are not adjacent");
    };
    format!(
        "the step from {a} to {b} passes between {} and {}, both occupied",
        describe(lifted, l),
        describe(lifted, r)
    )
}

/// The height gate comparison of §5.6 for the step from `a` to `b`.
pub(crate) fn height_fact(lifted: &Board, a: Hex, b: Hex) -> String {
    let Some([l, r]) = a.common_neighbours(b) else {
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

/// Whether a ground step keeps contact (§5.4): the occupied flanks, or the
/// two empty ones it would leave the hive between.
pub(crate) fn contact_fact(lifted: &Board, a: Hex, b: Hex) -> String {
    let Some([l, r]) = a.common_neighbours(b) else {
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

/// The stack at a cell, bottom to top (§2.4).
pub(crate) fn stack_fact(board: &Board, hex: Hex) -> String {
    format!(
        "the stack at {hex}, bottom to top: {}",
        names(board.stack(hex))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::ReferenceEngine;
    use crate::rules::Rules;

    #[test]
    fn groups_after_a_lift_are_listed() {
        // §5.3: lifting the spider of the line splits it in two.
        let game = ReferenceEngine::load("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
            .expect("loads");
        let spider = game.board().top(Hex::ORIGIN).expect("wS1 at the origin");
        let text = lift_fact(game.board(), spider, Hex::ORIGIN);
        assert!(text.contains("two groups: {bQ, bS1} and {wQ}"), "{text}");
    }

    #[test]
    fn a_line_shows_each_clause_with_its_title() {
        // §5.3: the title comes from the spec's label line.
        let fact = Fact::new(&["§5.3"], "lifting wA1 leaves one group");
        assert_eq!(fact.line(), "§5.3 One Hive — lifting wA1 leaves one group");
        assert_eq!(Fact::new(&[], "a remark").line(), "a remark");
    }
}
