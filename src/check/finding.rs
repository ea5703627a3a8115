//! What `check` reports: a [`Finding`] is one disagreement seen once; a
//! [`FindingGroup`] is one cause, that is every finding with the same kind,
//! clauses and disputed-move pattern (its [`Finding::fingerprint`]), shown
//! by its shortest instance with the number of times it was seen.
//!
//! Every finding carries what is needed to act on it without rerunning the
//! check: the exact lines sent ([`Finding::sent`]) as a pipe into the engine
//! that ends with `exit` ([`Finding::reproduce`]), the engine's answer
//! quoted, the last lines of its stderr, and `hive-oracle explain` for the
//! disputed move.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::BoardView;
use crate::core::{Move, Piece};
use crate::explain::verdict;
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// The kinds of findings.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// `validmoves` lacks legal moves.
    MissingMoves,
    /// `validmoves` lists illegal moves (or moves that cannot be read).
    ExtraMoves,
    /// The state or turn printed differs from the rules.
    State,
    /// `play` accepted a move the rules forbid.
    AcceptedIllegal,
    /// `play` (or `newgame`) refused a legal move or position.
    RejectedLegal,
    /// `undo` did not bring the earlier position back.
    Undo,
    /// A printed GameString does not replay to the position of the game.
    GameString,
    /// `bestmove` answered an illegal move, or overran its time budget.
    Bestmove,
    /// The answer breaks the protocol (framing, `err`, banner, probes).
    Protocol,
    /// The engine exited.
    Crash,
    /// The engine did not answer in time.
    Timeout,
}

impl Kind {
    /// The kind as written in reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::MissingMoves => "missing-moves",
            Kind::ExtraMoves => "extra-moves",
            Kind::State => "state",
            Kind::AcceptedIllegal => "accepted-illegal",
            Kind::RejectedLegal => "rejected-legal",
            Kind::Undo => "undo",
            Kind::GameString => "game-string",
            Kind::Bestmove => "bestmove",
            Kind::Protocol => "protocol",
            Kind::Crash => "crash",
            Kind::Timeout => "timeout",
        }
    }

    /// Whether the engine failed (a JUnit error rather than a failure).
    pub(crate) fn is_engine_failure(self) -> bool {
        matches!(self, Kind::Crash | Kind::Timeout)
    }
}

/// How much a finding matters to the exit status.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// A rules or protocol violation: the check fails (exit 1).
    Error,
    /// Something an engine MAY do (refusing a lenient spelling of
    /// spec/notation.md, a protocol habit of an established engine): shown,
    /// but the check passes unless `--strict-notation`.
    Advisory,
}

/// One disagreement between the engine and the rules, seen once.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Finding {
    /// What disagrees.
    pub kind: Kind,
    /// Whether it fails the check.
    pub severity: Severity,
    /// The test unit it was seen in (`protocol`, a corpus case id, `game N
    /// (TYPE)`).
    pub test: String,
    /// The game type of the position.
    pub game_type: String,
    /// The reference engine's canonical GameString of the position.
    pub game_string: String,
    /// The moves in dispute, as sent or in canonical notation.
    pub moves: Vec<String>,
    /// The clauses that decide it, as the reference engine cites them.
    pub clauses: Vec<String>,
    /// For a corpus case: the clauses the case pins (its `clauses`, and the
    /// clause of its `illegal` entry).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) case_clauses: Vec<String>,
    /// The disputed-move pattern: for each move its bug and form
    /// (`S move`, `Q place`, `pass`), or the name of the probe.
    pub pattern: String,
    /// What the engine did and what the rules say, in a sentence.
    pub detail: String,
    /// The lines sent to the engine to show it, in order (without `exit`).
    pub sent: Vec<String>,
    /// What the engine answered to the last of them, quoted.
    pub answer: Vec<String>,
    /// The last lines the engine wrote on stderr, if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<String>,
    /// A shell command that pipes `sent` (then `exit`) into the engine.
    pub reproduce: String,
    /// `hive-oracle explain` for the disputed move, or the position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explain: Option<String>,
    /// What the rules say about each move in dispute (at most
    /// [`MAX_VERDICTS`]), as `hive-oracle explain` says it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verdicts: Vec<MoveVerdict>,
    /// For a finding from a random game shrunk to a shorter game: the number
    /// of plies of the game where it was first seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) found_at_ply: Option<usize>,
    /// Set when the shrink was stopped by its wall-clock safety cap rather
    /// than by its work budget: then this finding may differ between runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) shrink_note: Option<String>,
}

/// The reference engine's verdict on one move of a finding.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveVerdict {
    /// The move in canonical notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Whether the rules allow it.
    pub legal: bool,
    /// Why it is illegal, or what makes it legal, in sentences.
    pub reason: String,
    /// The clauses behind the verdict.
    pub clauses: Vec<String>,
}

/// At most this many moves of one finding get a verdict.
pub const MAX_VERDICTS: usize = 16;

impl Finding {
    /// A finding of `kind` in `test`, at the position of `game`; the rest is
    /// filled in with the builder methods.
    pub fn new(kind: Kind, test: &str, game: &ReferenceEngine) -> Finding {
        Finding {
            kind,
            severity: Severity::Error,
            test: test.to_string(),
            game_type: game.game_type().to_string(),
            game_string: game.game_string(),
            moves: Vec::new(),
            clauses: Vec::new(),
            case_clauses: Vec::new(),
            pattern: String::new(),
            detail: String::new(),
            sent: Vec::new(),
            answer: Vec::new(),
            stderr: Vec::new(),
            reproduce: String::new(),
            explain: None,
            verdicts: Vec::new(),
            found_at_ply: None,
            shrink_note: None,
        }
    }

    /// What the engine did and what the rules say, in a sentence.
    pub fn detail(mut self, detail: impl Into<String>) -> Finding {
        self.detail = detail.into();
        self
    }

    /// Adds the clauses that decide it (each once); they are part of the fingerprint.
    pub fn clauses<S: AsRef<str>>(mut self, clauses: impl IntoIterator<Item = S>) -> Finding {
        for c in clauses {
            let c = c.as_ref();
            if !self.clauses.iter().any(|x| x == c) {
                self.clauses.push(c.to_string());
            }
        }
        self
    }

    /// The clauses a corpus case pins (not part of the fingerprint, so that
    /// one bug shown by several cases is one cause).
    pub(crate) fn case_clauses<S: AsRef<str>>(
        mut self,
        clauses: impl IntoIterator<Item = S>,
    ) -> Finding {
        for c in clauses {
            let c = c.as_ref();
            if !self.case_clauses.iter().any(|x| x == c) {
                self.case_clauses.push(c.to_string());
            }
        }
        self
    }

    /// The moves in dispute, as sent or in canonical notation.
    pub fn moves(mut self, moves: Vec<String>) -> Finding {
        self.moves = moves;
        self
    }

    /// The disputed-move pattern (`S move`, `Q place`, `pass`, or a probe's name); part of the fingerprint.
    pub fn pattern(mut self, pattern: impl Into<String>) -> Finding {
        self.pattern = pattern.into();
        self
    }

    /// Whether the finding is an error or an advisory.
    pub fn severity(mut self, severity: Severity) -> Finding {
        self.severity = severity;
        self
    }

    /// The position shown, when it is not the one the finding was made in
    /// (the position after a move, for a state).
    pub(crate) fn shown_at(mut self, game_string: String) -> Finding {
        self.game_string = game_string;
        self
    }

    /// The lines sent and the answer; `reproduce` is built from them.
    pub(crate) fn exchange(mut self, sent: Vec<String>, answer: Vec<String>) -> Finding {
        self.sent = sent;
        self.answer = answer;
        self
    }

    /// The `hive-oracle explain` command for the position and, if given, the move.
    pub fn explain(mut self, game_string: &str, mv: Option<&str>) -> Finding {
        self.explain = Some(explain_command(game_string, mv));
        self
    }

    /// The verdicts on the moves in dispute, and their pattern when none was
    /// given.
    pub fn verdicts(mut self, game: &ReferenceEngine, moves: &BTreeSet<Move>) -> Finding {
        self.verdicts = verdicts_of(game, moves);
        if self.pattern.is_empty() {
            self.pattern = move_pattern(game, moves);
        }
        self
    }

    /// The key that groups findings of one cause: kind, clauses and
    /// pattern. Also the key of a baseline entry.
    pub fn fingerprint(&self) -> String {
        let mut clauses = self.clauses.clone();
        clauses.sort();
        format!(
            "{} [{}] {}",
            self.kind.name(),
            clauses.join(","),
            self.pattern
        )
    }

    /// The number of plies of the position shown (for choosing the shortest
    /// instance of a group).
    pub fn plies(&self) -> usize {
        self.game_string.split(';').count().saturating_sub(3)
    }
}

/// The most bytes of one quoted piece of engine output (a line of an
/// answer or of stderr, a move): the rest is left out, and counted.
pub const MAX_QUOTE_BYTES: usize = 300;
/// The most lines of an answer quoted in a finding.
pub const MAX_QUOTED_LINES: usize = 20;
/// The most disputed moves listed in a finding.
pub const MAX_QUOTED_MOVES: usize = 32;
/// The most bytes of a finding's detail (a sentence that may quote the
/// engine), and of its `explain` command.
pub const MAX_DETAIL_BYTES: usize = 1000;

/// `text` with every control character escaped (`\x1b`, `\u{9b}`), so
/// that no report passes an engine's terminal escapes or stray carriage
/// returns on, and no JUnit file holds a character XML forbids.
pub fn escape_controls(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Engine output as quoted in reports: at most `limit` bytes of it (cut at
/// a character boundary, with the number of bytes left out), control
/// characters escaped.
pub fn quote(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return escape_controls(text);
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}… ({} more bytes)",
        escape_controls(&text[..end]),
        text.len() - end
    )
}

/// At most `limit` items of `items`, each quoted, with the number left out.
fn quote_all(items: &[String], limit: usize, what: &str) -> Vec<String> {
    let mut out: Vec<String> = items
        .iter()
        .take(limit)
        .map(|item| quote(item, MAX_QUOTE_BYTES))
        .collect();
    if items.len() > limit {
        out.push(format!("… ({} more {what})", items.len() - limit));
    }
    out
}

impl Finding {
    /// The finding with what it quotes of the engine bounded and escaped:
    /// at most [`MAX_QUOTED_LINES`] lines of answer and [`MAX_QUOTED_MOVES`]
    /// moves, each cut at [`MAX_QUOTE_BYTES`], the detail and `explain` at
    /// [`MAX_DETAIL_BYTES`], every control character escaped in every field
    /// (the reproduce pipe already writes bytes as `printf` escapes).
    pub(crate) fn bounded(mut self) -> Finding {
        self.answer = quote_all(&self.answer, MAX_QUOTED_LINES, "lines");
        self.stderr = quote_all(&self.stderr, MAX_QUOTED_LINES, "lines");
        self.moves = quote_all(&self.moves, MAX_QUOTED_MOVES, "moves");
        self.detail = quote(&self.detail, MAX_DETAIL_BYTES);
        self.explain = self.explain.map(|e| quote(&e, MAX_DETAIL_BYTES));
        self.sent = self.sent.iter().map(|l| escape_controls(l)).collect();
        self.reproduce = escape_controls(&self.reproduce);
        self.pattern = quote(&self.pattern, MAX_QUOTE_BYTES);
        self.test = escape_controls(&self.test);
        self.game_string = escape_controls(&self.game_string);
        self
    }
}

/// The pattern of a set of moves: each move's bug and form, deduplicated.
pub(crate) fn move_pattern(game: &ReferenceEngine, moves: &BTreeSet<Move>) -> String {
    let letter = |piece: Piece| piece.bug.letter();
    let forms: BTreeSet<String> = moves
        .iter()
        .map(|&mv| match mv {
            Move::Pass => "pass".to_string(),
            Move::Place { piece, .. } => format!("{} place", letter(piece)),
            Move::Move { piece, to } => {
                let climbs = game.board().height(to) > 0;
                let form = if climbs { "climb" } else { "move" };
                format!("{} {form}", letter(piece))
            }
        })
        .collect();
    forms.into_iter().collect::<Vec<_>>().join(", ")
}

/// The verdicts on `moves` in `game`, in the order of their names.
pub(crate) fn verdicts_of(game: &ReferenceEngine, moves: &BTreeSet<Move>) -> Vec<MoveVerdict> {
    let mut named: Vec<(String, Move)> =
        moves.iter().map(|&mv| (game.move_string(mv), mv)).collect();
    named.sort();
    named
        .into_iter()
        .take(MAX_VERDICTS)
        .map(|(name, mv)| {
            let v = verdict(game, mv);
            let mut clauses: Vec<String> = Vec::new();
            let mut texts: Vec<String> = Vec::new();
            for fact in &v.facts {
                for c in &fact.clauses {
                    if !clauses.iter().any(|x| x == c) {
                        clauses.push(c.to_string());
                    }
                }
                texts.push(fact.text.clone());
            }
            let reason = match v.refusal {
                Some(refusal) => refusal,
                None => texts.join("; "),
            };
            MoveVerdict {
                mv: name,
                legal: v.legal,
                reason,
                clauses,
            }
        })
        .collect()
}

/// The clauses behind the verdict on each move (at most eight moves),
/// deduplicated, in order.
pub(crate) fn clauses_of(game: &ReferenceEngine, moves: &BTreeSet<Move>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for &mv in moves.iter().take(8) {
        let v = verdict(game, mv);
        let mut cited: Vec<&str> = Vec::new();
        if !v.legal {
            cited.extend(
                game.clone()
                    .play(mv)
                    .err()
                    .into_iter()
                    .flat_map(|e| e.clauses),
            );
        }
        cited.extend(v.facts.iter().flat_map(|f| f.clauses.iter().copied()));
        for clause in cited {
            if !out.iter().any(|c| c == clause) {
                out.push(clause.to_string());
            }
        }
    }
    out
}

/// Quotes a word for a POSIX shell.
pub(crate) fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// `hive-oracle explain` for a position and, when given, a move.
pub fn explain_command(game_string: &str, mv: Option<&str>) -> String {
    match mv {
        Some(mv) => format!(
            "hive-oracle explain {} {}",
            shell_quote(game_string),
            shell_quote(mv)
        ),
        None => format!("hive-oracle explain {}", shell_quote(game_string)),
    }
}

/// A shell pipe that sends `lines` and then `exit` to `engine` (a command
/// line in shell syntax, as given to `--engine`): one `printf` whose format
/// holds every line, with `%` and `\` escaped and every byte that is not
/// printable ASCII written as an octal escape, so that CRLF, non-UTF-8
/// bytes and blank lines are sent exactly.
pub fn pipe(engine: &str, lines: &[Vec<u8>]) -> String {
    let mut format = String::new();
    for line in lines.iter().map(Vec::as_slice).chain([b"exit".as_slice()]) {
        for &byte in line {
            match byte {
                b'%' => format.push_str("%%"),
                b'\\' => format.push_str("\\\\"),
                b'\'' => format.push_str("'\\''"),
                b' '..=b'~' => format.push(byte as char),
                _ => format.push_str(&format!("\\{byte:03o}")),
            }
        }
        format.push_str("\\n");
    }
    format!("printf '{format}' | {engine}")
}

/// One cause: the findings of one fingerprint, shown by the shortest.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindingGroup {
    /// Kind, clauses and pattern: the key of the group and of a baseline.
    pub(crate) fingerprint: String,
    /// The kind of its findings.
    pub kind: Kind,
    /// The severity of its findings.
    pub severity: Severity,
    /// How many times it was seen.
    pub occurrences: usize,
    /// Every place it was seen, in check order: the test unit and the
    /// plies of the position shown there (the text report lists the first
    /// [`MAX_SEEN_IN`]).
    pub seen_in: Vec<Seen>,
    /// Whether the baseline (`--baseline`) lists it: a known finding, which
    /// does not fail the check.
    pub known: bool,
    /// The shortest instance (fewest plies, then first seen).
    pub shortest: Finding,
}

/// One instance of a cause.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Seen {
    /// The test unit.
    pub test: String,
    /// The plies of the position shown (after shrinking, for a random game).
    pub plies: usize,
}

impl Seen {
    fn of(finding: &Finding) -> Seen {
        Seen {
            test: finding.test.clone(),
            plies: finding.plies(),
        }
    }
}

/// The text report lists at most this many instances of a cause.
pub const MAX_SEEN_IN: usize = 10;

/// The tests of a group's instances, for text.
pub(crate) fn seen_text(group: &FindingGroup) -> String {
    let mut out: Vec<String> = group
        .seen_in
        .iter()
        .take(MAX_SEEN_IN)
        .map(|s| format!("{} ({} plies)", s.test, s.plies))
        .collect();
    if group.seen_in.len() > MAX_SEEN_IN {
        out.push(format!("and {} more", group.seen_in.len() - MAX_SEEN_IN));
    }
    out.join("; ")
}

/// Groups findings by fingerprint, in the order each cause was first seen.
pub fn group(findings: Vec<Finding>) -> Vec<FindingGroup> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<String, FindingGroup> = BTreeMap::new();
    for finding in findings {
        let key = finding.fingerprint();
        match groups.get_mut(&key) {
            Some(group) => {
                group.occurrences += 1;
                group.seen_in.push(Seen::of(&finding));
                if finding.plies() < group.shortest.plies() {
                    group.shortest = finding;
                }
            }
            None => {
                order.push(key.clone());
                groups.insert(
                    key.clone(),
                    FindingGroup {
                        fingerprint: key,
                        kind: finding.kind,
                        severity: finding.severity,
                        occurrences: 1,
                        seen_in: vec![Seen::of(&finding)],
                        known: false,
                        shortest: finding,
                    },
                );
            }
        }
    }
    order
        .into_iter()
        .filter_map(|key| groups.remove(&key))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_cut_and_escaped() {
        // Issue 16: an engine's terminal escapes reached the text report,
        // and a 1 GB line was quoted whole in every finding.
        assert_eq!(
            escape_controls("a\x1b[2Jb\r\u{9b}"),
            "a\\x1b[2Jb\\x0d\\u{9b}"
        );
        assert_eq!(quote("wQ \\wS1", 300), "wQ \\wS1");
        let long = "é".repeat(400);
        let quoted = quote(&long, 301);
        assert!(quoted.starts_with(&"é".repeat(150)));
        assert!(quoted.ends_with("… (500 more bytes)"), "{quoted}");
        let items: Vec<String> = (0..40).map(|i| i.to_string()).collect();
        let all = quote_all(&items, 32, "moves");
        assert_eq!(all.len(), 33);
        assert_eq!(all[32], "… (8 more moves)");
    }

    #[test]
    fn pipes_escape_everything_a_shell_or_printf_would_read() {
        let lines = vec![
            b"play wA1 \\wS1".to_vec(),
            b"newgame 100%".to_vec(),
            vec![b'x', 0xff, b'\r'],
            Vec::new(),
            b"it's".to_vec(),
        ];
        assert_eq!(
            pipe("eng --uhp", &lines),
            "printf 'play wA1 \\\\wS1\\nnewgame 100%%\\nx\\377\\015\\n\\nit'\\''s\\nexit\\n' | eng --uhp"
        );
    }
}
