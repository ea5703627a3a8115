//! What `check` reports: a [`Finding`] is one disagreement seen once; a
//! [`FindingGroup`](crate::check::findings::group::FindingGroup) is one cause, that
//! is every finding with the same kind, clauses and pattern (its
//! [`Finding::fingerprint`]), shown by its shortest instance with the
//! number of times it was seen.
//!
//! Every finding carries what is needed to act on it without rerunning the
//! check: the exact lines sent ([`Finding::sent`]) as a pipe into the engine
//! that ends with `exit` ([`Finding::reproduce`]), the engine's answer
//! quoted, the last lines of its stderr, and `hive-oracle explain` for the
//! disputed move.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::check::findings::quote::{
    escape_controls, explain_command, quote, quote_all, MAX_DETAIL_BYTES, MAX_QUOTED_LINES,
    MAX_QUOTED_MOVES, MAX_QUOTE_BYTES, MAX_SENT_LINE_BYTES,
};
use crate::check::findings::verdict::verdicts_of;
use crate::check::findings::verdict::MoveVerdict;
// in scope for the link in the doc of `Finding::verdicts`, which is also
// the schema's description of `verdicts` (so it names the bound bare)
#[allow(unused_imports)]
use crate::check::findings::verdict::MAX_VERDICTS;
use hive_oracle_rules::core::{BoardView, Move};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

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
    /// `perft N` (which the engine offers beyond UHP) counted other leaves
    /// than the rules give.
    Perft,
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
            Kind::Perft => "perft",
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
    /// What keys its cause with the kind and clauses: the class of the
    /// move in dispute (never its bug), a state claimed for the state the
    /// rules give, or the name of the probe ([`fingerprint_of`]).
    pub pattern: String,
    /// What the engine did and what the rules say, in a sentence.
    pub detail: String,
    /// The lines sent to the engine to show it, in order (without `exit`),
    /// exactly as the engine process read them: the rules options last set
    /// on it, then every line from the last `newgame` it accepted (a
    /// position reloaded after an earlier finding included) to the line in
    /// dispute; never a canonical rewriting. A line that is not UTF-8 is
    /// shown lossily here, and sent exactly by `reproduce`.
    pub sent: Vec<String>,
    /// What the engine answered to the last of them, quoted.
    pub answer: Vec<String>,
    /// The last lines the engine wrote on stderr, if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<String>,
    /// A shell command that pipes `sent` (then `exit`) into the engine;
    /// empty when it did not reproduce on a fresh engine (`reproduced`).
    pub reproduce: String,
    /// Whether `reproduce`, run as printed on a fresh engine process before
    /// the report, showed the finding again: the answer to its last line the
    /// same (`validmoves` lists compared as sets, a printed state by its
    /// state and turn, a refusal as a refusal, anything else line by line),
    /// or the same crash, timeout or flood on its last line. Absent when the
    /// pipe sends no line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduced: Option<bool>,
    /// What the fresh engine did with the pipe, in a sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce_note: Option<String>,
    /// With `--reproduce-dir`, for a pipe that reproduced: the file that
    /// holds what the pipe sends, byte for byte (each line ends in `\n`,
    /// the last is `exit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce_file: Option<String>,
    /// The POSIX shell command that feeds `reproduce_file` to the engine
    /// (`ENGINE < 'FILE'`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce_sh: Option<String>,
    /// The PowerShell command that feeds `reproduce_file` to the engine
    /// (`Get-Content -Raw -LiteralPath 'FILE' | & 'PROGRAM' 'ARG'...`);
    /// absent when the file holds bytes that are not ASCII, which
    /// PowerShell would re-encode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce_powershell: Option<String>,
    /// The engine's answer to the last line sent, unquoted, for the proof
    /// of the pipe (not reported).
    #[serde(skip)]
    pub(crate) raw_answer: Vec<String>,
    /// `sent` byte for byte (a line need not be UTF-8), for the pipe and
    /// the reproduce file (not reported: `sent` shows it).
    #[serde(skip)]
    pub(crate) sent_bytes: Vec<Vec<u8>>,
    /// For a failure of the process (a crash, a timeout, a flood, a
    /// protocol answer), every line since the process started, when more
    /// than `sent`: the proof tries them when `sent` does not show it (not
    /// reported).
    #[serde(skip)]
    pub(crate) sent_from_start: Vec<Vec<u8>>,
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

impl Finding {
    /// A finding of `kind` in `test`, at the position of `game`; the rest is
    /// filled in with the builder methods.
    pub(crate) fn new(kind: Kind, test: &str, game: &ReferenceEngine) -> Finding {
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
            reproduced: None,
            reproduce_note: None,
            reproduce_file: None,
            reproduce_sh: None,
            reproduce_powershell: None,
            raw_answer: Vec::new(),
            sent_bytes: Vec::new(),
            sent_from_start: Vec::new(),
            explain: None,
            verdicts: Vec::new(),
            found_at_ply: None,
            shrink_note: None,
        }
    }

    /// What the engine did and what the rules say, in a sentence.
    pub(crate) fn detail(mut self, detail: impl Into<String>) -> Finding {
        self.detail = detail.into();
        self
    }

    /// Adds the clauses that decide it (each once); they are part of the fingerprint.
    pub(crate) fn clauses<S: AsRef<str>>(
        mut self,
        clauses: impl IntoIterator<Item = S>,
    ) -> Finding {
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
    pub(crate) fn moves(mut self, moves: Vec<String>) -> Finding {
        self.moves = moves;
        self
    }

    /// The pattern (a move's class, a state claimed, a probe's name); part of the fingerprint.
    pub(crate) fn pattern(mut self, pattern: impl Into<String>) -> Finding {
        self.pattern = pattern.into();
        self
    }

    /// Whether the finding is an error or an advisory.
    pub(crate) fn severity(mut self, severity: Severity) -> Finding {
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
        self.sent_bytes = sent.iter().map(|l| l.as_bytes().to_vec()).collect();
        self.sent = sent;
        self.answer = answer;
        self
    }

    /// The lines sent exactly as written (a line need not be UTF-8), and
    /// the answer; `reproduce` is built from them.
    pub(crate) fn exchange_exact(mut self, sent: Vec<Vec<u8>>, answer: Vec<String>) -> Finding {
        self.sent = sent
            .iter()
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect();
        self.sent_bytes = sent;
        self.answer = answer;
        self
    }

    /// The `hive-oracle explain` command for the position and, if given, the move.
    pub(crate) fn explain(mut self, game_string: &str, mv: Option<&str>) -> Finding {
        self.explain = Some(explain_command(game_string, mv));
        self
    }

    /// The verdicts on the moves in dispute.
    pub(crate) fn verdicts(mut self, game: &ReferenceEngine, moves: &BTreeSet<Move>) -> Finding {
        self.verdicts = verdicts_of(game, moves);
        self
    }

    /// The key that groups findings of one cause ([`fingerprint_of`] its
    /// kind, clauses and pattern). Also the key of a baseline entry.
    pub fn fingerprint(&self) -> String {
        fingerprint_of(self.kind, &self.clauses, &self.pattern)
    }

    /// The number of plies of the position shown (for choosing the shortest
    /// instance of a group).
    pub fn plies(&self) -> usize {
        self.game_string.split(';').count().saturating_sub(3)
    }
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
        // a probe's 1 MiB line among the lines sent is quoted, not copied:
        // the pipe and the reproduce file keep every byte (`sent_bytes`)
        self.sent = self
            .sent
            .iter()
            .map(|l| quote(l, MAX_SENT_LINE_BYTES))
            .collect();
        self.reproduce = escape_controls(&self.reproduce);
        self.pattern = quote(&self.pattern, MAX_QUOTE_BYTES);
        self.test = escape_controls(&self.test);
        self.game_string = escape_controls(&self.game_string);
        self
    }
}

/// The fingerprint of a cause: `KIND [CLAUSES] PATTERN`, the clauses
/// sorted. It never holds the position, the seed, the game or the bug that
/// moves: a move in dispute is keyed by its class and the clauses that
/// forbid or grant it (`verdict::move_class`), a state by where it was
/// printed and the state claimed for the state expected
/// (`judge::state_pattern`), a probe by its name.
pub fn fingerprint_of(kind: Kind, clauses: &[String], pattern: &str) -> String {
    let mut clauses = clauses.to_vec();
    clauses.sort();
    clauses.dedup();
    format!("{} [{}] {}", kind.name(), clauses.join(","), pattern)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hive_oracle_rules::core::{GameType, RulesOptions};
    use hive_oracle_rules::rules::Rules;

    #[test]
    fn a_line_of_a_mebibyte_sent_is_quoted_in_the_finding_and_kept_for_its_pipe() {
        // Root cause of a flaky test (tool/tests/hostile_engines.rs,
        // random_crashes_end_with_a_report_and_no_process_left): an engine
        // that crashed, at a command drawn from its pid, after the protocol
        // probe of a 1 MiB line had that line copied whole into its crash
        // finding's `sent`, and the report weighed 1 MB against its bound of
        // 256 KiB.
        let game = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
        let long = format!("play {}", "A".repeat(1 << 20));
        let finding = Finding::new(Kind::Crash, "protocol", &game)
            .exchange(
                vec!["info".to_string(), long.clone(), "validmoves".to_string()],
                Vec::new(),
            )
            .bounded();
        assert!(
            finding.sent[1].len() <= MAX_SENT_LINE_BYTES + 40,
            "{}",
            finding.sent[1].len()
        );
        assert!(finding.sent[1].ends_with("more bytes)"));
        assert_eq!(finding.sent[2], "validmoves");
        assert_eq!(finding.sent_bytes[1], long.as_bytes());
    }
}
