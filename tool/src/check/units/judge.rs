//! Judging what an engine says against the reference engine: its move
//! list in one position ([`MoveDiff`], and the findings it shows), the state
//! and turn it prints, the GameString it prints, and the clauses that
//! decide each.

use std::collections::{BTreeMap, BTreeSet};

use crate::check::findings::finding::{fingerprint_of, Finding, Kind};
use crate::check::findings::leniency::{reference_reading, ReferenceReading, Shape};
use crate::check::findings::verdict::reason_of;
use hive_oracle_rules::core::notation::{parse_game_state, parse_turn};
use hive_oracle_rules::core::{BoardView, GameState, Move, Turn};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The state and turn fields of a GameString printed by an engine.
pub(crate) fn state_and_turn(line: &str) -> Option<(GameState, Turn)> {
    let fields: Vec<&str> = line.trim().split(';').collect();
    if fields.len() < 3 {
        return None;
    }
    let state = parse_game_state(fields[1]).ok()?;
    let turn = parse_turn(fields[2]).ok()?;
    Some((state, turn))
}

/// The clauses that decide a disputed state or turn: the rule that gives the
/// reference's state (§8.3 a double surround, §8.2 a single one, §8.7.2 a
/// repetition, §8.8 otherwise), and §9.18 when only the turn differs.
pub(crate) fn state_clauses(game: &ReferenceEngine, state_differs: bool) -> Vec<String> {
    use hive_oracle_rules::core::Color;
    use hive_oracle_rules::reference::end::queen_is_surrounded;
    if !state_differs {
        return vec!["§9.18".to_string()];
    }
    let board = game.board();
    let clause = match game.state() {
        GameState::Draw
            if queen_is_surrounded(board, Color::White)
                && queen_is_surrounded(board, Color::Black) =>
        {
            "§8.3"
        }
        GameState::Draw => "§8.7.2",
        GameState::WhiteWins | GameState::BlackWins => "§8.2",
        GameState::NotStarted | GameState::InProgress => "§8.8",
    };
    vec![clause.to_string()]
}

/// The pattern of a state cause: where it is seen (`origin`: the corpus
/// case, or `play` in a random game) and the state claimed for the state
/// the rules give, so that a different wrong state is a different cause
/// (a `WhiteWins` declared early is not a repetition `Draw`). When only the
/// turn differs: whose turn, or the turn number.
pub(crate) fn state_pattern(
    origin: &str,
    claimed: (GameState, Turn),
    expected: (GameState, Turn),
) -> String {
    let what = if claimed.0 != expected.0 {
        format!("{} for {}", claimed.0, expected.0)
    } else if claimed.1.color != expected.1.color {
        format!("{} to move for {}", claimed.1.color, expected.1.color)
    } else {
        "turn number".to_string()
    };
    format!("{origin}: {what}")
}

/// Where a state was printed, for [`state_pattern`]: the command word of
/// the line it answered (`newgame`, `play`, `pass`, `undo`).
pub(crate) fn state_origin(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("start")
}

/// Whether the engine, asked to load `asked` with `newgame GameString`,
/// answered `printed`, the GameString of another game: another number of
/// moves, or another game type. `None` when it may be the game asked (a
/// wrong state or a wrong spelling of its moves is judged as what it is,
/// not as another game; [`printed_again`] is the doubtful case);
/// otherwise what was printed, in words.
pub(crate) fn another_game(asked: &ReferenceEngine, printed: &str) -> Option<String> {
    use hive_oracle_rules::core::notation::parse_game_type;
    let printed = printed.trim();
    state_and_turn(printed)?;
    let fields: Vec<&str> = printed.split(';').collect();
    let moves = fields.len().saturating_sub(3);
    let other_type = parse_game_type(fields[0]).is_ok_and(|t| t != asked.game_type());
    (moves != asked.plies() || other_type).then(|| {
        format!(
            "the GameString of another game ({} with {moves} move(s), not {} with {}): the engine did not load the game asked",
            fields[0],
            asked.game_type(),
            asked.plies()
        )
    })
}

/// Whether `printed`, the answer to `newgame GameString` of `asked`, is
/// the GameString the engine printed before it (`previous`) and does not
/// replay to `asked`: the engine kept its game, or it loaded `asked` and
/// spells it wrongly, which only its answer at the position reached by
/// its moves can tell ([`ANOTHER_GAME_PRINTED_AGAIN`] when it differs).
pub(crate) fn printed_again(
    asked: &ReferenceEngine,
    printed: &str,
    previous: Option<&str>,
) -> bool {
    let printed = printed.trim();
    previous.is_some_and(|p| p.trim() == printed)
        && state_and_turn(printed).is_some()
        && replay_problem(asked, printed).is_some()
}

/// What an engine that printed its previous GameString again for a
/// `newgame GameString` printed, once its position reached by its moves
/// shows another GameString ([`printed_again`]).
pub(crate) const ANOTHER_GAME_PRINTED_AGAIN: &str = "the GameString it printed before, which is not this game (it prints another one once the position is reached by its moves): the engine did not load the game asked";

/// Mzinga's reading of the MUST-refuse spelling `text` in `game`
/// ([`reference_reading`]), when the engine accepted it and `printed` the
/// GameString of the game after that reading: with the move as this tool
/// writes it, or, for a bare name, as Mzinga prints it (the name alone).
pub(crate) fn read_as_reference(
    game: &ReferenceEngine,
    text: &str,
    printed: &str,
) -> Option<ReferenceReading> {
    let reading = reference_reading(game, text)?;
    let mut after = game.clone();
    after.play_unchecked(reading.mv);
    if replay_problem(&after, printed).is_none() {
        return Some(reading);
    }
    // Mzinga prints a bare name as it was read: the same game, its last
    // move written as the name
    let (head, last) = printed.trim().rsplit_once(';')?;
    let as_written = format!("{head};{}", game.move_string(reading.mv));
    (reading.shape == Shape::BareName
        && last == text.trim()
        && replay_problem(&after, &as_written).is_none())
    .then_some(reading)
}

/// The advisory of the MUST-refuse spelling `text`, accepted in `game` as
/// Mzinga reads it (`reading`, [`read_as_reference`]), in unit `test`;
/// the caller adds the exchange that shows it.
pub(crate) fn reference_reading_finding(
    test: &str,
    game: &ReferenceEngine,
    text: &str,
    reading: ReferenceReading,
) -> Finding {
    let canonical = game.move_string(reading.mv);
    Finding::new(Kind::AcceptedIllegal, test, game)
        .severity(reading.severity())
        .clauses([reading.clause])
        .pattern(format!("Mzinga's reading: {}", reading.what))
        .moves(vec![text.to_string()])
        .detail(format!(
            "the engine accepted `{text}`, which {} forbids, as `{canonical}` ({}), as the protocol's reference implementation (Mzinga, MzingaCpp) does: every engine MUST refuse it, but an engine that reads it as Mzinga does is advisory",
            reading.clause, reading.what
        ))
}

/// Why a GameString an engine printed is not the position of `game`: it
/// does not replay, or replays to another position; `None` when it is.
pub(crate) fn replay_problem(game: &ReferenceEngine, line: &str) -> Option<String> {
    // The fast engine replays it (it agrees with the reference on every
    // position, tests/differential.rs); the reference says why when it does
    // not replay to the same moves.
    let same = hive_oracle_rules::fast::FastEngine::load_with(line.trim(), game.options())
        .is_ok_and(|r| r.history() == game.history());
    if same {
        return None;
    }
    Some(
        match ReferenceEngine::load_with(line.trim(), game.options()) {
            Err(e) => format!("it does not replay: {e}"),
            Ok(r) => {
                let at = r
                    .history()
                    .iter()
                    .zip(game.history())
                    .position(|(a, b)| a != b)
                    .unwrap_or(r.plies().min(game.plies()));
                format!(
                    "it replays to another position ({} plies, first different at move {})",
                    r.plies(),
                    at + 1
                )
            }
        },
    )
}

/// What an engine's `validmoves` shows against the rules, in one position.
pub(crate) struct MoveDiff {
    pub missing: BTreeSet<Move>,
    pub extra: BTreeSet<Move>,
    pub unresolvable: Vec<String>,
    /// Moves the list names more than once (in one spelling or in two),
    /// with the number of times (§9.35).
    pub duplicates: BTreeMap<Move, usize>,
}

/// Where a move comparison was made, for its findings: the unit, the
/// position, the clauses a case pins, the lines sent (the last one
/// `validmoves`) and the engine's answer.
pub(crate) struct Shown<'a> {
    pub test: &'a str,
    pub game: &'a ReferenceEngine,
    pub case_clauses: &'a [String],
    pub sent: Vec<String>,
    pub answer: &'a [String],
    /// For a shrunk game: the plies of the game where it was first seen.
    pub found_at_ply: Option<usize>,
}

impl MoveDiff {
    /// A difference with nothing in it.
    pub fn empty() -> MoveDiff {
        MoveDiff {
            missing: BTreeSet::new(),
            extra: BTreeSet::new(),
            unresolvable: Vec::new(),
            duplicates: BTreeMap::new(),
        }
    }

    /// The kinds of findings it shows.
    pub fn kinds(&self) -> Vec<Kind> {
        let mut kinds = Vec::new();
        if !self.missing.is_empty() {
            kinds.push(Kind::MissingMoves);
        }
        if !self.extra.is_empty() || !self.unresolvable.is_empty() {
            kinds.push(Kind::ExtraMoves);
        }
        if !self.duplicates.is_empty() {
            kinds.push(Kind::Protocol);
        }
        kinds
    }

    /// Whether it shows nothing.
    pub fn is_empty(&self) -> bool {
        self.kinds().is_empty()
    }

    /// The difference split into its causes, each of one kind and one
    /// reason: the missing moves by the clause that grants them, the extra
    /// moves by the clauses that forbid them ([`reason_of`]), the entries
    /// that name no move, the moves listed twice. So an engine that both
    /// lists a spider's backtracks and misses a pillbug's throws in one
    /// position shows two causes, each the same as where it shows alone.
    pub fn causes(&self, game: &ReferenceEngine) -> Vec<DiffCause> {
        let mut causes = Vec::new();
        for (reason, moves) in by_reason(game, &self.missing) {
            let mut part = MoveDiff::empty();
            part.missing = moves;
            causes.push(DiffCause {
                kind: Kind::MissingMoves,
                reason,
                diff: part,
            });
        }
        for (reason, moves) in by_reason(game, &self.extra) {
            let mut part = MoveDiff::empty();
            part.extra = moves;
            causes.push(DiffCause {
                kind: Kind::ExtraMoves,
                reason,
                diff: part,
            });
        }
        if !self.unresolvable.is_empty() {
            let mut part = MoveDiff::empty();
            part.unresolvable = self.unresolvable.clone();
            causes.push(DiffCause {
                kind: Kind::ExtraMoves,
                reason: Vec::new(),
                diff: part,
            });
        }
        if !self.duplicates.is_empty() {
            let mut part = MoveDiff::empty();
            part.duplicates = self.duplicates.clone();
            causes.push(DiffCause {
                kind: Kind::Protocol,
                // §9.35 each legal move listed once
                reason: vec!["§9.35".to_string()],
                diff: part,
            });
        }
        causes
    }

    /// The findings of the difference, one per cause ([`MoveDiff::causes`]).
    pub fn findings(&self, shown: &Shown<'_>) -> Vec<Finding> {
        self.causes(shown.game)
            .into_iter()
            .map(|cause| cause.finding(shown))
            .collect()
    }
}

/// One cause of a move difference: its kind, its reason (the clauses that
/// grant the missing moves or forbid the extra ones; none for entries that
/// name no move) and its part of the difference.
pub(crate) struct DiffCause {
    pub kind: Kind,
    pub reason: Vec<String>,
    pub diff: MoveDiff,
}

impl DiffCause {
    /// Whether `other` is the same cause: the same kind and reason.
    pub fn same_as(&self, other: &DiffCause) -> bool {
        self.kind == other.kind && self.reason == other.reason
    }

    /// Its pattern: entries that name no move, a move listed twice, else
    /// none (the kind and the reason are the cause; the bugs that move are
    /// shown in the detail and the verdicts).
    pub fn pattern(&self) -> &'static str {
        if !self.diff.unresolvable.is_empty() {
            "unreadable move"
        } else if !self.diff.duplicates.is_empty() {
            "move listed twice"
        } else {
            ""
        }
    }

    /// Its fingerprint, the same as its finding's.
    pub fn fingerprint(&self) -> String {
        fingerprint_of(self.kind, &self.reason, self.pattern())
    }

    /// Its finding.
    pub fn finding(&self, shown: &Shown<'_>) -> Finding {
        match self.kind {
            Kind::Protocol => self.diff.duplicates_finding(shown),
            kind => self.diff.moves_finding(kind, &self.reason, shown),
        }
    }
}

/// Moves grouped by their reason ([`reason_of`]), in the order of the
/// reasons.
fn by_reason(
    game: &ReferenceEngine,
    moves: &BTreeSet<Move>,
) -> BTreeMap<Vec<String>, BTreeSet<Move>> {
    let mut groups: BTreeMap<Vec<String>, BTreeSet<Move>> = BTreeMap::new();
    for &mv in moves {
        groups.entry(reason_of(game, mv)).or_default().insert(mv);
    }
    groups
}

impl MoveDiff {
    /// The finding of the missing moves or of the extra (and unreadable)
    /// ones.
    fn moves_finding(&self, kind: Kind, reason: &[String], shown: &Shown<'_>) -> Finding {
        let game = shown.game;
        let names = |moves: &BTreeSet<Move>| {
            let mut out: Vec<String> = moves.iter().map(|&mv| game.move_string(mv)).collect();
            out.sort();
            out
        };
        let (set, mut moves, mut detail) = if kind == Kind::MissingMoves {
            let moves = names(&self.missing);
            let detail = format!(
                "the engine's validmoves lacks {} legal move(s): {}",
                moves.len(),
                moves.join("; ")
            );
            (&self.missing, moves, detail)
        } else {
            let moves = names(&self.extra);
            let detail = format!(
                "the engine's validmoves has {} illegal move(s): {}",
                moves.len(),
                moves.join("; ")
            );
            (&self.extra, moves, detail)
        };
        if kind == Kind::ExtraMoves && !self.unresolvable.is_empty() {
            detail.push_str(&format!(
                "; unreadable in this position: {}",
                self.unresolvable.join("; ")
            ));
            moves.extend(self.unresolvable.iter().cloned());
        }
        let mut finding = Finding::new(kind, shown.test, game)
            .case_clauses(shown.case_clauses)
            .clauses(reason)
            .detail(detail)
            .explain(&game.game_string(), moves.first().map(String::as_str))
            .exchange(shown.sent.clone(), shown.answer.to_vec())
            .verdicts(game, set);
        // the cause is the kind and the reason (DiffCause::pattern): the
        // bugs that move are shown in the detail and the verdicts
        finding.pattern = if set.is_empty() {
            "unreadable move".to_string()
        } else {
            String::new()
        };
        finding.moves = moves;
        finding.found_at_ply = shown.found_at_ply;
        finding
    }

    /// The finding of a list that names a move more than once (§9.35),
    /// compared after resolving spellings: a protocol finding.
    fn duplicates_finding(&self, shown: &Shown<'_>) -> Finding {
        let game = shown.game;
        let mut named: Vec<(String, usize)> = self
            .duplicates
            .iter()
            .map(|(&mv, &n)| (game.move_string(mv), n))
            .collect();
        named.sort();
        let listed: Vec<String> = named
            .iter()
            .map(|(name, n)| format!("{name} ({n} times)"))
            .collect();
        let moves: BTreeSet<Move> = self.duplicates.keys().copied().collect();
        let mut finding = Finding::new(Kind::Protocol, shown.test, game)
            .case_clauses(shown.case_clauses)
            // §9.35 each legal move listed once
            .clauses(["§9.35"])
            .pattern("move listed twice")
            .detail(format!(
                "the engine's validmoves names {} move(s) more than once, where each legal move is listed once: {}",
                listed.len(),
                listed.join("; ")
            ))
            .explain(&game.game_string(), named.first().map(|(n, _)| n.as_str()))
            .exchange(shown.sent.clone(), shown.answer.to_vec())
            .verdicts(game, &moves);
        finding.moves = named.into_iter().map(|(name, _)| name).collect();
        finding.found_at_ply = shown.found_at_ply;
        finding
    }
}
