//! `hive-oracle check`: drives a UHP engine through protocol probes, the
//! case corpus and seeded random games, compares everything it says with the
//! reference engine, and reports each cause of disagreement once.
//!
//! The check is a list of independent *units*: the protocol probes, each
//! corpus case, each random game. A unit starts from `newgame`, so its
//! result does not depend on the units before it; units run on `--jobs`
//! engine processes (unit `i` on process `i mod jobs`) and their results are
//! merged in unit order. Nothing a unit reports depends on time: the
//! shrinker's budgets count work, game `i`'s moves come from a ChaCha8
//! generator keyed by the seed, the game type and `i` ([`game_rng`](crate::check::run::game_rng)), and
//! timings are kept apart in [`Report::timings`](crate::check::summary::Report::timings). So the same engine, the
//! same arguments and the same version give the same JSON report, whatever
//! the machine's load (a wall-clock safety cap far above the normal cost of
//! a shrink is the one exception, and a finding it touched says so).
//!
//! Moves are always compared as absolute moves (§5.9), resolved in the
//! reference position with [`resolve_moves`](crate::check::client::resolve_moves), never as strings.

use std::time::{Duration, Instant};

use crate::cases::LoadedCase;
use crate::check::baseline::Baseline;
use crate::check::client::{resolve_counted, ClientError, Response};
use crate::check::finding::{clauses_of, pipe, Finding, Kind};
use crate::check::session::Session;
use crate::check::summary::{Summary, TestCase};
use crate::core::notation::{parse_game_state, parse_turn};
use crate::core::{GameState, GameType, Move, RulesOptions, Turn};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// The case corpus a check runs: the cases and where they came from.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// `built-in`, a directory as given, or several joined by `+`.
    pub name: String,
    /// The FNV-1a 64 hash of the corpus files (names and contents), hex.
    pub hash: String,
    /// The cases it holds.
    pub cases: Vec<LoadedCase>,
}

/// Which rules the engine plays, and who said so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclaredRules {
    /// Given with `--rules`.
    Given(RulesOptions),
    /// Read from the engine's `options` (`TournamentOpening`,
    /// `RepetitionDraw`), the standard rules (§4.2 tournament opening, no
    /// repetition draw) for an option it does not list.
    FromEngine,
}

/// What to check and how.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine's command line, in shell syntax.
    pub engine: String,
    /// How many random games.
    pub games: u64,
    /// The seed of the random games; see [`game_rng`](crate::check::run::game_rng).
    pub seed: u64,
    /// The game types of the random games; `None`: every supported one.
    pub game_types: Option<Vec<GameType>>,
    /// A random game stops after this many plies.
    pub max_plies: usize,
    /// The corpus cases to run (already filtered by `--case`).
    pub corpus: Corpus,
    /// The timeout on every command.
    pub timeout: Duration,
    /// The timeout on the start-up banner.
    pub startup_timeout: Duration,
    /// The rules the engine plays.
    pub rules: DeclaredRules,
    /// Advisory findings fail the check too.
    pub strict_notation: bool,
    /// Known findings, which do not fail the check.
    pub baseline: Option<Baseline>,
    /// Engine processes run at once.
    pub jobs: usize,
    /// Show a progress bar (on stderr).
    pub progress: bool,
}

/// The `bestmove time` budget probed, and the grace allowed beyond it.
pub(crate) const BESTMOVE_BUDGET: Duration = Duration::from_secs(1);
/// See [`BESTMOVE_BUDGET`]: an answer later than budget + grace is a finding.
pub(crate) const BESTMOVE_GRACE: Duration = Duration::from_secs(2);

/// A reason to stop a unit early: the finding was recorded.
pub(crate) struct Stop;

/// What the units share: the configuration and what the protocol unit
/// learnt about the engine.
pub(crate) struct Context<'a> {
    pub config: &'a Config,
    /// The rules the engine is judged by.
    pub rules: RulesOptions,
    /// Whether the engine lists both rules options, so that cases with other
    /// options can be run on it.
    pub settable: bool,
    /// The rules the engine's `options` listing shows (standard values for
    /// options it does not list).
    pub engine_rules: RulesOptions,
    pub supported: Vec<GameType>,
    /// The game types of the random games.
    pub types: Vec<GameType>,
}

/// The result of one unit.
pub(crate) struct UnitResult {
    pub test: TestCase,
    pub findings: Vec<Finding>,
    pub counts: Summary,
    /// Assertions of the unit that could not run on this engine, and why.
    pub skips: Vec<String>,
    /// Whether the engine crashed or timed out in it.
    pub failed: bool,
    pub reference_time: Duration,
    pub shrink_time: Duration,
}

/// The engine process of one job, and the unit it is running.
pub(crate) struct Worker<'a> {
    pub ctx: &'a Context<'a>,
    pub session: Session,
    /// The unit's name.
    pub test: String,
    pub findings: Vec<Finding>,
    pub counts: Summary,
    /// Assertions of the unit that could not run on this engine, and why.
    pub skips: Vec<String>,
    pub reference_time: Duration,
    pub shrink_time: Duration,
    /// Whether the engine failed in the current unit in a way that counts
    /// toward giving up on it: a crash, a timeout or a flood of output.
    pub engine_failed: bool,
}

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

/// What an engine's `validmoves` shows against the rules, in one position.
pub(crate) struct MoveDiff {
    pub missing: std::collections::BTreeSet<Move>,
    pub extra: std::collections::BTreeSet<Move>,
    pub unresolvable: Vec<String>,
    /// Moves the list names more than once (in one spelling or in two),
    /// with the number of times (§9.35).
    pub duplicates: std::collections::BTreeMap<Move, usize>,
}

impl MoveDiff {
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

    /// Only the part of the difference of `kind`.
    pub fn only(&self, kind: Kind) -> MoveDiff {
        if kind == Kind::Protocol {
            return MoveDiff {
                missing: Default::default(),
                extra: Default::default(),
                unresolvable: Vec::new(),
                duplicates: self.duplicates.clone(),
            };
        }
        let missing = kind == Kind::MissingMoves;
        MoveDiff {
            missing: if missing {
                self.missing.clone()
            } else {
                Default::default()
            },
            extra: if missing {
                Default::default()
            } else {
                self.extra.clone()
            },
            unresolvable: if missing {
                Vec::new()
            } else {
                self.unresolvable.clone()
            },
            duplicates: Default::default(),
        }
    }

    /// The clauses behind the differing moves.
    pub fn clauses(&self, game: &ReferenceEngine) -> Vec<String> {
        if self.missing.is_empty() && self.extra.is_empty() && !self.duplicates.is_empty() {
            // §9.35 each legal move listed once
            return vec!["§9.35".to_string()];
        }
        if self.missing.is_empty() {
            clauses_of(game, &self.extra)
        } else {
            clauses_of(game, &self.missing)
        }
    }
}

/// Whether two clause lists share a clause (or the first is empty: then
/// nothing is required).
pub(crate) fn shares_a_clause(wanted: &[String], found: &[String]) -> bool {
    wanted.is_empty() || wanted.iter().any(|c| found.contains(c))
}

/// The lines of a conversation, as bytes for [`pipe`].
pub(crate) fn as_bytes(lines: &[String]) -> Vec<Vec<u8>> {
    lines.iter().map(|l| l.as_bytes().to_vec()).collect()
}

impl<'a> Worker<'a> {
    pub(crate) fn new(ctx: &'a Context<'a>) -> Worker<'a> {
        let config = ctx.config;
        Worker {
            ctx,
            session: Session::new(&config.engine, config.startup_timeout, config.timeout),
            test: String::new(),
            findings: Vec::new(),
            counts: Summary::default(),
            skips: Vec::new(),
            reference_time: Duration::ZERO,
            shrink_time: Duration::ZERO,
            engine_failed: false,
        }
    }

    /// Starts a unit.
    pub fn begin(&mut self, test: &str) {
        self.test = test.to_string();
        self.session.transcript.clear();
        self.findings.clear();
        self.counts = Summary::default();
        self.skips.clear();
        self.reference_time = Duration::ZERO;
        self.shrink_time = Duration::ZERO;
        self.engine_failed = false;
    }

    /// Ends a unit: its result. A unit that leaves the engine down counts a
    /// restart, and the engine is dropped so the next unit starts afresh.
    pub(crate) fn end(&mut self, class: &str, seconds: f64, skipped: Option<String>) -> UnitResult {
        let failed = self.engine_failed || self.findings.iter().any(|f| f.kind.is_engine_failure());
        if skipped.is_none() && self.session.is_down() {
            self.counts.engine_restarts += 1;
            self.session.drop_engine();
        }
        UnitResult {
            test: TestCase {
                class: class.to_string(),
                name: self.test.clone(),
                seconds,
                skipped,
            },
            findings: std::mem::take(&mut self.findings),
            counts: std::mem::take(&mut self.counts),
            skips: std::mem::take(&mut self.skips),
            failed,
            reference_time: self.reference_time,
            shrink_time: self.shrink_time,
        }
    }

    /// Records a finding: the reproduce pipe is built from what it sent,
    /// and the engine's stderr is attached; what it quotes of the engine is
    /// cut and escaped ([`Finding::bounded`]).
    pub fn add(&mut self, mut finding: Finding) {
        if finding.reproduce.is_empty() {
            finding.reproduce = pipe(&self.ctx.config.engine, &as_bytes(&finding.sent));
        }
        if finding.stderr.is_empty() {
            finding.stderr = self.session.stderr_tail();
        }
        self.findings.push(finding.bounded());
    }

    /// Records a failure to talk to the engine (crash, timeout, protocol)
    /// after `sent`.
    pub fn engine_failure(
        &mut self,
        game: &ReferenceEngine,
        error: ClientError,
        sent: Vec<String>,
    ) -> Stop {
        let (kind, answer) = match &error {
            ClientError::Timeout { partial_output, .. } => (Kind::Timeout, partial_output.clone()),
            ClientError::Exited { partial_output, .. }
            | ClientError::OutputHeldOpen { partial_output, .. } => {
                (Kind::Crash, partial_output.clone())
            }
            ClientError::Flood { partial_output, .. } => (Kind::Protocol, partial_output.clone()),
            _ => (Kind::Protocol, Vec::new()),
        };
        if matches!(error, ClientError::Flood { .. }) {
            self.engine_failed = true;
        }
        let stderr = self.session.stderr_tail();
        let command = sent.last().cloned().unwrap_or_default();
        let word = command.split_whitespace().next().unwrap_or("start-up");
        let pattern = match &error {
            ClientError::Flood { .. } => format!("flood on {word}"),
            _ => word.to_string(),
        };
        let mut finding = Finding::new(kind, &self.test, game)
            .clauses(["uhp"])
            .pattern(pattern)
            .detail(error.to_string())
            .exchange(sent, answer);
        finding.stderr = stderr;
        self.add(finding);
        self.session.drop_engine();
        Stop
    }

    /// The engine's legal moves against the reference's, in `game`.
    pub fn compare_moves(&mut self, game: &ReferenceEngine, texts: &[String]) -> MoveDiff {
        let start = Instant::now();
        let legal = game.legal_move_set();
        self.reference_time += start.elapsed();
        self.compare_moves_with(game, texts, &legal)
    }

    /// [`Worker::compare_moves`] with the reference's legal moves of `game`
    /// already computed.
    pub fn compare_moves_with(
        &mut self,
        game: &ReferenceEngine,
        texts: &[String],
        legal: &std::collections::BTreeSet<Move>,
    ) -> MoveDiff {
        let start = Instant::now();
        let (counted, unresolvable) = resolve_counted(game, texts);
        let engine_moves: std::collections::BTreeSet<Move> = counted.keys().copied().collect();
        self.reference_time += start.elapsed();
        self.counts.validmoves_compared += 1;
        MoveDiff {
            missing: legal.difference(&engine_moves).copied().collect(),
            extra: engine_moves.difference(legal).copied().collect(),
            unresolvable,
            // §9.35 each move once, compared as moves, not as strings
            duplicates: counted.into_iter().filter(|&(_, n)| n > 1).collect(),
        }
    }

    /// Records the findings of a move comparison in `game`, shown by the
    /// lines `sent` (the last one `validmoves`) and the engine's `answer`.
    pub fn report_diff(
        &mut self,
        game: &ReferenceEngine,
        diff: &MoveDiff,
        case_clauses: &[String],
        sent: Vec<String>,
        answer: &[String],
        found_at_ply: Option<usize>,
    ) {
        let game_string = game.game_string();
        for kind in diff.kinds() {
            if kind == Kind::Protocol {
                self.report_duplicates(
                    game,
                    diff,
                    case_clauses,
                    sent.clone(),
                    answer,
                    found_at_ply,
                );
                continue;
            }
            let names = |moves: &std::collections::BTreeSet<Move>| {
                let mut out: Vec<String> = moves.iter().map(|&mv| game.move_string(mv)).collect();
                out.sort();
                out
            };
            let (set, mut moves, mut detail) = if kind == Kind::MissingMoves {
                let moves = names(&diff.missing);
                let detail = format!(
                    "the engine's validmoves lacks {} legal move(s): {}",
                    moves.len(),
                    moves.join("; ")
                );
                (&diff.missing, moves, detail)
            } else {
                let moves = names(&diff.extra);
                let detail = format!(
                    "the engine's validmoves has {} illegal move(s): {}",
                    moves.len(),
                    moves.join("; ")
                );
                (&diff.extra, moves, detail)
            };
            if kind == Kind::ExtraMoves && !diff.unresolvable.is_empty() {
                detail.push_str(&format!(
                    "; unreadable in this position: {}",
                    diff.unresolvable.join("; ")
                ));
                moves.extend(diff.unresolvable.iter().cloned());
            }
            let mut finding = Finding::new(kind, &self.test, game)
                .case_clauses(case_clauses)
                .clauses(clauses_of(game, set))
                .detail(detail)
                .explain(&game_string, moves.first().map(String::as_str))
                .exchange(sent.clone(), answer.to_vec())
                .verdicts(game, set);
            if set.is_empty() {
                finding = finding.pattern("unreadable move");
            }
            finding.moves = moves;
            finding.found_at_ply = found_at_ply;
            self.add(finding);
        }
    }

    /// Records a `validmoves` list that names a move more than once (§9.35),
    /// compared after resolving spellings, as a protocol finding.
    fn report_duplicates(
        &mut self,
        game: &ReferenceEngine,
        diff: &MoveDiff,
        case_clauses: &[String],
        sent: Vec<String>,
        answer: &[String],
        found_at_ply: Option<usize>,
    ) {
        let mut named: Vec<(String, usize)> = diff
            .duplicates
            .iter()
            .map(|(&mv, &n)| (game.move_string(mv), n))
            .collect();
        named.sort();
        let listed: Vec<String> = named
            .iter()
            .map(|(name, n)| format!("{name} ({n} times)"))
            .collect();
        let moves: std::collections::BTreeSet<Move> = diff.duplicates.keys().copied().collect();
        let mut finding = Finding::new(Kind::Protocol, &self.test, game)
            .case_clauses(case_clauses)
            // §9.35 each legal move listed once
            .clauses(["§9.35"])
            .pattern("move listed twice")
            .detail(format!(
                "the engine's validmoves names {} move(s) more than once, where each legal move is listed once: {}",
                listed.len(),
                listed.join("; ")
            ))
            .explain(&game.game_string(), named.first().map(|(n, _)| n.as_str()))
            .exchange(sent, answer.to_vec())
            .verdicts(game, &moves);
        finding.moves = named.into_iter().map(|(name, _)| name).collect();
        finding.found_at_ply = found_at_ply;
        self.add(finding);
    }

    /// Checks a GameString the engine printed in answer to the last line of
    /// `sent`: the state and turn against the reference, then the whole
    /// string replayed by the oracle (§9.31): it must be the position of
    /// `game`.
    pub fn compare_game_string(
        &mut self,
        game: &ReferenceEngine,
        response: &Response,
        sent: impl Fn() -> Vec<String>,
    ) -> Result<(), Stop> {
        let line = response.last_line().unwrap_or("");
        let sent_lines = || sent();
        let after = || sent().last().cloned().unwrap_or_default();
        match state_and_turn(line) {
            None => {
                self.add(
                    Finding::new(Kind::Protocol, &self.test, game)
                        .clauses(["§9.31"])
                        .pattern("GameString expected")
                        .detail(format!(
                            "after {}, expected a GameString, got \"{line}\"",
                            after()
                        ))
                        .exchange(sent_lines(), response.lines.clone()),
                );
                Err(Stop)
            }
            Some((state, turn)) if state != game.state() || turn != game.turn() => {
                self.add(
                    Finding::new(Kind::State, &self.test, game)
                        .clauses(state_clauses(game, state != game.state()))
                        .pattern("state")
                        .detail(format!(
                            "after {}, the engine says {state};{turn}, the rules say {};{}",
                            after(),
                            game.state(),
                            game.turn()
                        ))
                        .exchange(sent_lines(), response.lines.clone())
                        .explain(&game.game_string(), None),
                );
                Err(Stop)
            }
            Some(_) => {
                self.counts.game_strings_replayed += 1;
                let start = Instant::now();
                // The fast engine replays it (it agrees with the reference on
                // every position, tests/differential.rs); the reference says
                // why when it does not replay to the same moves.
                let same = crate::fast::FastEngine::load_with(line.trim(), game.options())
                    .is_ok_and(|r| r.history() == game.history());
                if same {
                    self.reference_time += start.elapsed();
                    return Ok(());
                }
                let replayed = ReferenceEngine::load_with(line.trim(), game.options());
                self.reference_time += start.elapsed();
                let why = match replayed {
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
                };
                self.add(
                    Finding::new(Kind::GameString, &self.test, game)
                        .clauses(["§9.31", "§9.29"])
                        .pattern("printed GameString")
                        .detail(format!(
                            "after {}, the engine printed \"{line}\": {why}; the position is {}",
                            after(),
                            game.game_string()
                        ))
                        .exchange(sent_lines(), response.lines.clone()),
                );
                Err(Stop)
            }
        }
    }

    /// Sets the engine's rules options when they differ from the last ones
    /// set (`newgame`, then `options set`); false when the engine refuses.
    pub fn set_rules(&mut self, options: RulesOptions) -> bool {
        if self.session.options == Some(options) {
            return true;
        }
        let commands = rules_commands(options);
        let ok = commands
            .iter()
            .all(|c| matches!(self.session.command(c), Ok(r) if !r.is_error()));
        self.session.options = ok.then_some(options);
        ok
    }

    /// The lines that set `options` on the engine, for reproduce pipes; none
    /// when the engine cannot set options or already plays them by default.
    pub fn rules_lines(&self, options: RulesOptions) -> Vec<String> {
        if self.ctx.settable && options != self.ctx.engine_rules {
            rules_commands(options)
        } else {
            Vec::new()
        }
    }
}

/// The commands that set the rules options on an empty game.
fn rules_commands(options: RulesOptions) -> Vec<String> {
    let word = |on: bool| if on { "True" } else { "False" };
    vec![
        "newgame Base".to_string(),
        format!(
            "options set TournamentOpening {}",
            word(options.tournament_opening)
        ),
        format!(
            "options set RepetitionDraw {}",
            word(options.repetition_draw)
        ),
    ]
}

/// The clauses that decide a disputed state or turn: the rule that gives the
/// reference's state (§8.3 a double surround, §8.2 a single one, §8.7.2 a
/// repetition, §8.8 otherwise), and §9.18 when only the turn differs.
pub(crate) fn state_clauses(game: &ReferenceEngine, state_differs: bool) -> Vec<String> {
    use crate::core::Color;
    use crate::reference::end::queen_is_surrounded;
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

/// The rules declared by the engine's `options` listing: `TournamentOpening`
/// and `RepetitionDraw` as booleans (spec/sources/uhp-notes.md section 5.8), with the standard
/// value for one it does not list. Also whether it lists both.
pub(crate) fn rules_from_options(lines: &[String]) -> (RulesOptions, bool, bool) {
    let value = |name: &str| {
        lines.iter().find_map(|line| {
            let fields: Vec<&str> = line.split(';').collect();
            (fields.len() >= 3
                && fields[0].eq_ignore_ascii_case(name)
                && fields[1].eq_ignore_ascii_case("bool"))
            .then(|| fields[2].eq_ignore_ascii_case("true"))
        })
    };
    let standard = RulesOptions::default();
    let tournament = value("TournamentOpening");
    let repetition = value("RepetitionDraw");
    let listed_any = tournament.is_some() || repetition.is_some();
    (
        RulesOptions {
            tournament_opening: tournament.unwrap_or(standard.tournament_opening),
            repetition_draw: repetition.unwrap_or(standard.repetition_draw),
        },
        tournament.is_some() && repetition.is_some(),
        listed_any,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_read_from_an_options_listing() {
        let lines = vec![
            "TournamentOpening;bool;False;True".to_string(),
            "RepetitionDraw;bool;True;False".to_string(),
        ];
        let (rules, both, any) = rules_from_options(&lines);
        assert!(!rules.tournament_opening && rules.repetition_draw && both && any);
        let (rules, both, any) = rules_from_options(&[]);
        assert_eq!(rules, RulesOptions::default());
        assert!(!both && !any);
    }
}
