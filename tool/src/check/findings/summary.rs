//! What a check's report holds: the run and its arguments, the engine, the
//! counts, the causes, the skips and the timings (the one part that varies
//! between runs), and the verdict the causes give. Its JSON Schema is
//! `spec/check-report.schema.json`; it is rendered by
//! [`crate::reports::check`].

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::check::findings::finding::Severity;
use crate::check::findings::group::FindingGroup;

/// Counts of what was checked (all deterministic).
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    /// Protocol probes run (banner, info, unknown command, options, CRLF, blank line, long line, non-UTF-8, end of input, undo counts, refused newgame).
    pub(crate) protocol_checks: u64,
    /// Corpus cases run.
    pub corpus_cases: u64,
    /// Corpus cases not run (see `skipped` for why).
    pub corpus_cases_skipped: u64,
    /// Random games played.
    pub games: u64,
    /// Random games not played (the engine was unusable).
    pub(crate) games_skipped: u64,
    /// Plies played in random games.
    pub plies: u64,
    /// Times a random game went on after a finding, the engine given the
    /// reference's position again with `newgame GameString`.
    pub game_reloads: u64,
    /// Positions the engine did not load with `newgame GameString` (refused,
    /// or answered with another game) and was brought to by their moves
    /// instead (`newgame GameType` and `play`), so that the unit went on.
    #[serde(default)]
    pub positions_reached_by_moves: u64,
    /// Games of records (`--records`) replayed on the engine.
    #[serde(default)]
    pub record_games: u64,
    /// Record units not run: files that do not read, game types or rules
    /// the engine cannot play (see `skipped` for why).
    #[serde(default)]
    pub record_games_skipped: u64,
    /// Record plies played on the engine.
    #[serde(default)]
    pub record_plies: u64,
    /// `validmoves` answers compared with the rules.
    pub(crate) validmoves_compared: u64,
    /// GameStrings printed by the engine and replayed by the oracle.
    pub(crate) game_strings_replayed: u64,
    /// Illegal moves sent, which the engine had to refuse.
    pub illegal_probes: u64,
    /// `undo` checks.
    pub undo_checks: u64,
    /// `pass` checks (a pass refused when illegal, played when it is the only move).
    pub(crate) pass_checks: u64,
    /// `bestmove` answers checked.
    pub(crate) bestmove_checks: u64,
    /// Findings shrunk, the shorter games built for them (legal or not),
    /// the positions scored by the rebuild search and the games the engine
    /// was asked about.
    pub shrinks: u64,
    /// Findings not shrunk because the baseline lists their cause: they
    /// are reported where they were seen.
    pub shrinks_skipped_known: u64,
    /// Findings of a cause their random game had already shown (a game
    /// goes on after a finding): counted here, not shrunk nor reported
    /// again.
    pub repeated_in_unit: u64,
    /// Shorter games built by the shrinker (legal or not).
    pub(crate) shrink_candidates: u64,
    /// Positions scored by the shrinker's rebuild search.
    pub(crate) shrink_positions: u64,
    /// Shorter games the engine was asked about.
    pub(crate) shrink_engine_checks: u64,
    /// Units that left the engine dead or unusable (it was restarted).
    pub(crate) engine_restarts: u64,
    /// Every instance of a finding, before grouping.
    pub(crate) findings_seen: u64,
    /// Causes (finding groups), by severity and status.
    pub causes: u64,
    /// Causes of severity error.
    pub errors: u64,
    /// Causes of severity advisory.
    pub(crate) advisories: u64,
    /// Causes the baseline lists.
    pub known: u64,
    /// Causes by kind.
    pub(crate) causes_by_kind: BTreeMap<String, u64>,
}

impl Summary {
    /// Adds the counts of one unit.
    pub(crate) fn add(&mut self, other: &Summary) {
        self.protocol_checks += other.protocol_checks;
        self.corpus_cases += other.corpus_cases;
        self.corpus_cases_skipped += other.corpus_cases_skipped;
        self.games += other.games;
        self.games_skipped += other.games_skipped;
        self.plies += other.plies;
        self.game_reloads += other.game_reloads;
        self.positions_reached_by_moves += other.positions_reached_by_moves;
        self.record_games += other.record_games;
        self.record_games_skipped += other.record_games_skipped;
        self.record_plies += other.record_plies;
        self.validmoves_compared += other.validmoves_compared;
        self.game_strings_replayed += other.game_strings_replayed;
        self.illegal_probes += other.illegal_probes;
        self.undo_checks += other.undo_checks;
        self.pass_checks += other.pass_checks;
        self.bestmove_checks += other.bestmove_checks;
        self.shrinks += other.shrinks;
        self.shrinks_skipped_known += other.shrinks_skipped_known;
        self.repeated_in_unit += other.repeated_in_unit;
        self.shrink_candidates += other.shrink_candidates;
        self.shrink_positions += other.shrink_positions;
        self.shrink_engine_checks += other.shrink_engine_checks;
        self.engine_restarts += other.engine_restarts;
    }
}

/// Time spent, the one part of a report that varies between runs.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct Timings {
    /// The whole check.
    pub seconds: f64,
    /// Waiting for the engine's answers (summed over processes).
    pub(crate) engine_seconds: f64,
    /// In the reference engine (legal moves, resolving, clauses).
    pub(crate) reference_seconds: f64,
    /// Shrinking findings (engine and oracle time included).
    pub(crate) shrink_seconds: f64,
}

/// The rules the check judged by.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RulesInfo {
    /// §4.2: the queen may not be a player's first placement.
    pub tournament_opening: bool,
    /// §8.7.2: threefold repetition within 32 plies draws.
    pub repetition_draw: bool,
    /// The house repetition rule the engine plays instead of §8.7.2, by
    /// its `--rules` word (spec/rulings.md#house-repetition-rules); absent
    /// for the spec's rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub house_repetition: Option<String>,
    /// `--rules`, `engine options` or `standard` (the engine lists neither).
    pub source: String,
}

/// The corpus of a check.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CorpusInfo {
    /// `built-in`, the folders given, joined by `+`, or `none (--no-corpus)`.
    pub name: String,
    /// The FNV-1a 64 hash of the corpus files' names and texts.
    pub hash: String,
    /// The cases run or skipped (after `--case`).
    pub cases: usize,
}

/// What was run, with which arguments: enough to run it again.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RunInfo {
    /// `hive-oracle` and its version.
    pub(crate) tool: String,
    /// The version of hive-oracle.
    pub version: String,
    /// The engine's command line (shell syntax), as given.
    pub engine: String,
    /// `--seed`.
    pub seed: u64,
    /// How game `i`'s moves are drawn from the seed.
    pub(crate) seed_derivation: String,
    /// `--games`.
    pub games: u64,
    /// The game types of the random games (those asked for that the engine supports).
    pub game_types: Vec<String>,
    /// `--max-plies`.
    pub max_plies: usize,
    /// The corpus.
    pub corpus: CorpusInfo,
    /// `--records`: the record files and folders, as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub records: Vec<String>,
    /// The rules the engine was judged by.
    pub rules: RulesInfo,
    /// `--timeout-ms`: the limit on every command.
    pub timeout_ms: u64,
    /// `--startup-timeout-ms`: the limit on the start-up banner.
    pub startup_timeout_ms: u64,
    /// `--strict-notation`: advisory causes fail the check too.
    pub strict_notation: bool,
    /// The baseline's name and number of entries, when one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// `--jobs`: engine processes run at once (the report does not depend on it).
    pub jobs: usize,
}

/// The engine as it introduced itself.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct EngineInfo {
    /// Its `id` line, without `id `.
    pub id: String,
    /// The expansions of its capabilities line.
    pub capabilities: Vec<String>,
    /// Its `options` listing, as printed.
    pub options: Vec<String>,
}

/// A unit that was not run, and why.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Skip {
    /// The unit.
    pub test: String,
    /// Why it was not run.
    pub reason: String,
}

/// One test unit, for JUnit.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct TestCase {
    /// `protocol`, `corpus` or `games`.
    pub class: String,
    /// The unit's name.
    pub name: String,
    /// How long it took, in seconds.
    pub seconds: f64,
    /// Why it was not run, if it was not.
    pub skipped: Option<String>,
}

/// What a shard's report adds so that it can be merged.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ShardInfo {
    /// The slice, from 1.
    pub index: usize,
    /// The number of slices.
    pub count: usize,
    /// The name of every unit of the whole check, in unit order (the
    /// protocol unit first); this shard ran those at positions `k` with
    /// `k mod count = index - 1`.
    pub units: Vec<String>,
    /// The test units this shard ran, in unit order (for the JUnit report
    /// of the merge).
    pub tests: Vec<TestCase>,
}

/// The format version of the JSON report, `MAJOR.MINOR`
/// ([`Report::format_version`]); `check-merge` reads the reports of its
/// major version only ([`crate::reports::frame`]).
pub const REPORT_FORMAT_VERSION: &str = "1.1";

/// The result of a check. Readers must ignore fields they do not know: a
/// new minor format version may add some (the schema allows them).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// The report's format version, `MAJOR.MINOR` (now "1.1"). A new minor
    /// version only adds fields, which readers of an older one ignore; a
    /// new major version renames, removes or changes the meaning of a
    /// field, and readers refuse a major version they do not know.
    pub format_version: String,
    /// What was run, with which arguments.
    pub run: RunInfo,
    /// For a shard of a check (`--shard I/N`): which, and what the merge
    /// (`check-merge`) needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
    /// The engine as it introduced itself.
    pub engine: EngineInfo,
    /// Whether the check passes: no error (and, with `--strict-notation`,
    /// no advisory) that the baseline does not list, and nothing in
    /// `incomplete`.
    pub passed: bool,
    /// Why the check cannot pass whatever its findings: it gave up on the
    /// engine, compared no move set, checked none of the record games it
    /// was given or could not read a record file ([`incompleteness`]).
    /// Empty when the check ran as asked. (Format 1.1.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incomplete: Vec<String>,
    /// Counts of what was checked.
    pub summary: Summary,
    /// One entry per cause, in the order first seen.
    pub findings: Vec<FindingGroup>,
    /// Every unit not run, with its reason.
    pub skipped: Vec<Skip>,
    /// Remarks on the run (an unsupported game type, a stale baseline entry...).
    pub notes: Vec<String>,
    /// Wall-clock times: the only field that differs between two runs.
    pub timings: Timings,
    #[serde(skip)]
    /// The test units, for the JUnit report (not part of the JSON report).
    pub tests: Vec<TestCase>,
}

impl Report {
    /// Whether the check passes (exit status 0).
    pub fn clean(&self) -> bool {
        self.passed
    }
}

/// A check that compared no `validmoves` answer with the rules.
pub(crate) const NO_MOVE_SET_COMPARED: &str =
    "no move set was compared with the rules: nothing of the rules was checked";
/// A check given records (`--records`) that checked none of their games.
pub(crate) const NO_RECORD_GAME_CHECKED: &str =
    "none of the record games given (--records) was checked";
/// A check asked for random games of game types the engine has none of.
pub(crate) const NO_GAME_TYPE_PLAYED: &str =
    "the engine supports none of the game types asked for (--game-types): no random game was played";

/// Why a check with these arguments and counts cannot pass, from the counts
/// alone (so that `check-merge` finds the same of the merged counts): no move
/// set compared, none of the record games given checked, random games asked
/// for and none possible. A PASS must mean that something was checked.
pub(crate) fn incompleteness(run: &RunInfo, summary: &Summary) -> Vec<String> {
    let mut reasons = Vec::new();
    if summary.validmoves_compared == 0 {
        reasons.push(NO_MOVE_SET_COMPARED.to_string());
    }
    if !run.records.is_empty() && summary.record_games == 0 {
        reasons.push(NO_RECORD_GAME_CHECKED.to_string());
    }
    if run.games > 0 && run.game_types.is_empty() {
        reasons.push(NO_GAME_TYPE_PLAYED.to_string());
    }
    reasons
}

/// Whether `reason` is one that [`incompleteness`] derives from the counts.
pub(crate) fn is_derived_incompleteness(reason: &str) -> bool {
    [
        NO_MOVE_SET_COMPARED,
        NO_RECORD_GAME_CHECKED,
        NO_GAME_TYPE_PLAYED,
    ]
    .contains(&reason)
}

/// Counts the causes in `summary`: by severity, known, and by kind.
pub(crate) fn count_causes(groups: &[FindingGroup], summary: &mut Summary) {
    summary.causes = 0;
    summary.errors = 0;
    summary.advisories = 0;
    summary.known = 0;
    summary.causes_by_kind.clear();
    for g in groups {
        summary.causes += 1;
        match g.severity {
            Severity::Error => summary.errors += 1,
            Severity::Advisory => summary.advisories += 1,
        }
        if g.known {
            summary.known += 1;
        }
        *summary
            .causes_by_kind
            .entry(g.kind.name().to_string())
            .or_default() += 1;
    }
}

/// Whether the causes let the check pass: no error (and, with
/// `strict_notation`, no advisory) that the baseline does not list.
pub(crate) fn passes(groups: &[FindingGroup], strict_notation: bool) -> bool {
    !groups
        .iter()
        .any(|g| !g.known && (g.severity == Severity::Error || strict_notation))
}
