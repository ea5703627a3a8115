//! `hive-oracle check`: drives a UHP engine through protocol checks, the
//! case corpus and seeded random games, compares everything it says with the
//! reference engine, and records each disagreement as a [`Finding`].
//!
//! Moves are always compared as absolute moves (§5.9), resolved in the
//! reference position with [`resolve_moves`], never as strings. A
//! disagreement found in a random game is shrunk ([`crate::check::shrink`]):
//! shorter legal games are loaded with `newgame <GameString>` and the
//! shortest one that still shows the same kind of disagreement, citing one
//! of the same clauses, is reported.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::cases::{load_corpus, LoadedCase};
use crate::check::client::{resolve_moves, ClientError, Response, UhpClient};
use crate::check::shrink::{shrink, Budget, Shows, Shrunk};
use crate::core::notation::{parse_game_state, parse_piece, parse_turn, BoardView};
use crate::core::{GameState, GameType, Move, RulesOptions, Turn};
use crate::explain::verdict;
use crate::reference::placement::next_pieces_in_reserve;
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// What to check and how.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine's command line (program and arguments).
    pub engine: String,
    /// How many random games.
    pub games: u64,
    /// The seed of the random games: game `i` uses seed `seed + i`.
    pub seed: u64,
    /// The game types of the random games; `None`: every supported one.
    pub game_types: Option<Vec<GameType>>,
    /// A random game stops after this many plies.
    pub max_plies: usize,
    /// The corpus directory; `None`: no corpus checks.
    pub corpus: Option<PathBuf>,
    /// The timeout on every command.
    pub timeout: Duration,
    /// Show a progress bar (on stderr).
    pub progress: bool,
}

/// The kinds of findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    MissingMoves,
    ExtraMoves,
    State,
    AcceptedIllegal,
    RejectedLegal,
    Undo,
    Protocol,
    Crash,
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
            Kind::Protocol => "protocol",
            Kind::Crash => "crash",
            Kind::Timeout => "timeout",
        }
    }
}

/// One disagreement between the engine and the rules.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub kind: Kind,
    /// The test case it belongs to (`protocol`, a corpus case id, `game N`).
    pub test: String,
    pub game_type: String,
    /// The reference engine's canonical GameString of the position.
    pub game_string: String,
    /// The moves involved, in canonical notation.
    pub moves: Vec<String>,
    /// The clauses that decide the differing moves.
    pub clauses: Vec<String>,
    pub detail: String,
    /// A command line that reproduces the finding: for a position, the
    /// engine given the position and the question in dispute.
    pub reproduce: String,
    /// A command line that shows what the rules say about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<String>,
    /// What the rules say about each move in dispute (at most
    /// [`MAX_VERDICTS`]), as `hive-oracle explain` says it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub verdicts: Vec<MoveVerdict>,
    /// For a finding from a random game shrunk to a shorter prefix: the
    /// number of plies of the game where it was first seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found_at_ply: Option<usize>,
}

/// The reference engine's verdict on one move of a finding.
#[derive(Clone, Debug, Serialize)]
pub struct MoveVerdict {
    /// The move in canonical notation.
    #[serde(rename = "move")]
    pub mv: String,
    pub legal: bool,
    /// Why it is illegal, or what makes it legal, in sentences.
    pub reason: String,
    /// The clauses behind the verdict.
    pub clauses: Vec<String>,
}

/// At most this many moves of one finding get a verdict.
pub const MAX_VERDICTS: usize = 16;

/// The verdicts on `moves` in `game`, in the order of their names.
fn verdicts_of(game: &ReferenceEngine, moves: &BTreeSet<Move>) -> Vec<MoveVerdict> {
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

/// One test case of the report (JUnit: one per corpus case and per game).
#[derive(Clone, Debug, Serialize)]
pub struct TestCase {
    /// `protocol`, `corpus` or `games`.
    pub class: String,
    pub name: String,
    pub seconds: f64,
    /// Why the case was not run, if it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

/// Counts of what was checked.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub engine_id: String,
    pub capabilities: Vec<String>,
    pub protocol_checks: u64,
    pub corpus_cases: u64,
    pub corpus_cases_skipped: u64,
    pub corpus_skip_reasons: BTreeMap<String, u64>,
    pub games: u64,
    pub plies: u64,
    pub validmoves_compared: u64,
    pub illegal_probes: u64,
    pub undo_checks: u64,
    pub pass_checks: u64,
    /// Findings shrunk, the shorter games built for them by removing turns
    /// (legal or not), the positions scored by the rebuild search and the
    /// games the engine was asked about.
    pub shrinks: u64,
    pub shrink_candidates: u64,
    pub shrink_positions: u64,
    pub shrink_engine_checks: u64,
    pub engine_restarts: u64,
    pub findings: u64,
    pub findings_by_kind: BTreeMap<String, u64>,
    pub seconds: f64,
    /// Time spent waiting for the engine's answers.
    pub engine_seconds: f64,
    /// Time spent in the reference engine (legal moves, resolving, clauses).
    pub reference_seconds: f64,
    /// Time spent shrinking findings (engine and oracle time included).
    pub shrink_seconds: f64,
    pub notes: Vec<String>,
}

/// The result of a check.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub engine: String,
    pub summary: Summary,
    pub findings: Vec<Finding>,
    #[serde(skip)]
    pub tests: Vec<TestCase>,
}

impl Report {
    /// Whether the engine agreed everywhere.
    pub fn clean(&self) -> bool {
        self.findings.is_empty()
    }
}

/// After this many test units in a row whose engine failed (crash, timeout,
/// protocol error), the rest is skipped: the engine is unusable.
const MAX_CONSECUTIVE_FAILURES: u32 = 3;

/// A reason to stop a test unit early: the finding was recorded.
struct Stop;

/// The engine, restarted on demand after a failure.
struct Session {
    command: String,
    timeout: Duration,
    client: Option<UhpClient>,
    restarts: u64,
    engine_time: Duration,
}

impl Session {
    fn client(&mut self) -> Result<&mut UhpClient, ClientError> {
        if self.client.as_ref().is_some_and(|c| c.defunct().is_some()) {
            self.client = None;
        }
        if self.client.is_none() {
            let start = Instant::now();
            let spawned = UhpClient::spawn(&self.command, self.timeout);
            self.engine_time += start.elapsed();
            self.restarts += 1;
            self.client = Some(spawned?);
        }
        Ok(self.client.as_mut().expect("spawned above"))
    }

    fn command(&mut self, line: &str) -> Result<Response, ClientError> {
        let client = self.client()?;
        let start = Instant::now();
        let result = client.command(line);
        self.engine_time += start.elapsed();
        result
    }

    /// `validmoves` in the position of `game`. Once the game is over, a
    /// refusal is as good as an empty list: no move is legal (§8.5).
    fn validmoves(&mut self, game: &ReferenceEngine) -> Result<Vec<String>, ClientError> {
        let client = self.client()?;
        let start = Instant::now();
        let result = client.validmoves();
        self.engine_time += start.elapsed();
        match result {
            Err(ClientError::Refused { .. }) if game.state().is_over() => Ok(Vec::new()),
            other => other,
        }
    }

    fn shutdown(&mut self) {
        if let Some(client) = self.client.take() {
            client.exit();
        }
    }
}

/// The running check: the engine, the findings and the counts.
struct Checker<'a> {
    config: &'a Config,
    session: Session,
    findings: Vec<Finding>,
    tests: Vec<TestCase>,
    summary: Summary,
    reference_time: Duration,
    shrink_time: Duration,
    consecutive_failures: u32,
}

/// The state and turn fields of a GameString printed by an engine.
fn state_and_turn(line: &str) -> Option<(GameState, Turn)> {
    let fields: Vec<&str> = line.trim().split(';').collect();
    if fields.len() < 3 {
        return None;
    }
    let state = parse_game_state(fields[1]).ok()?;
    let turn = parse_turn(fields[2]).ok()?;
    Some((state, turn))
}

/// Canonical names of moves in `game`, sorted.
fn names(game: &ReferenceEngine, moves: &BTreeSet<Move>) -> Vec<String> {
    let mut out: Vec<String> = moves.iter().map(|&mv| game.move_string(mv)).collect();
    out.sort();
    out
}

/// The clauses behind the verdict on each move, deduplicated, in order.
fn clauses_of(game: &ReferenceEngine, moves: &BTreeSet<Move>) -> Vec<String> {
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
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

fn explain_command(game_string: &str, mv: Option<&str>) -> String {
    match mv {
        Some(mv) => format!(
            "hive-oracle explain {} {}",
            shell_quote(game_string),
            shell_quote(mv)
        ),
        None => format!("hive-oracle explain {}", shell_quote(game_string)),
    }
}

/// The legal moves of the reference position.
fn reference_moves(game: &ReferenceEngine) -> BTreeSet<Move> {
    game.legal_move_set()
}

/// A move the reference refuses, chosen among plausible ones: a piece of
/// the reserve placed on a cell touching the hive, or a piece of the side to
/// move moved to such a cell, that is not a legal move. With its canonical
/// text (when it round-trips).
fn illegal_candidate(
    game: &ReferenceEngine,
    legal: &BTreeSet<Move>,
    rng: &mut StdRng,
) -> Option<(Move, String)> {
    let board = game.board();
    let color = game.side_to_move();
    let cells: Vec<_> = board.empty_cells_touching_hive().into_iter().collect();
    if cells.is_empty() {
        return None;
    }
    let mut candidates = Vec::new();
    for piece in next_pieces_in_reserve(board, game.game_type(), color) {
        for &to in &cells {
            candidates.push(Move::Place { piece, to });
        }
    }
    for (_, piece) in board.pieces() {
        if piece.color == color && board.is_on_top(piece) {
            for &to in &cells {
                candidates.push(Move::Move { piece, to });
            }
        }
    }
    candidates.retain(|mv| !legal.contains(mv));
    for _ in 0..8 {
        if candidates.is_empty() {
            return None;
        }
        let mv = candidates.swap_remove(rng.random_range(0..candidates.len()));
        let text = game.move_string(mv);
        if game.parse_move(&text) != Ok(mv) {
            continue;
        }
        if game.clone().play(mv).is_err() {
            return Some((mv, text));
        }
    }
    None
}

/// What an engine's `validmoves` shows against the rules, in one position.
struct MoveDiff {
    missing: BTreeSet<Move>,
    extra: BTreeSet<Move>,
    unresolvable: Vec<String>,
}

impl MoveDiff {
    fn kinds(&self) -> Vec<Kind> {
        let mut kinds = Vec::new();
        if !self.missing.is_empty() {
            kinds.push(Kind::MissingMoves);
        }
        if !self.extra.is_empty() || !self.unresolvable.is_empty() {
            kinds.push(Kind::ExtraMoves);
        }
        kinds
    }
}

impl<'a> Checker<'a> {
    fn new(config: &'a Config) -> Checker<'a> {
        Checker {
            config,
            session: Session {
                command: config.engine.clone(),
                timeout: config.timeout,
                client: None,
                restarts: 0,
                engine_time: Duration::ZERO,
            },
            findings: Vec::new(),
            tests: Vec::new(),
            summary: Summary::default(),
            reference_time: Duration::ZERO,
            shrink_time: Duration::ZERO,
            consecutive_failures: 0,
        }
    }

    fn check_command(&self, seed: u64, game_type: GameType) -> String {
        format!(
            "hive-oracle check --engine {} --games 1 --seed {seed} --game-types {game_type} --max-plies {}",
            shell_quote(&self.config.engine),
            self.config.max_plies
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        kind: Kind,
        test: &str,
        game_type: GameType,
        game_string: String,
        moves: Vec<String>,
        clauses: Vec<String>,
        detail: String,
        reproduce: String,
    ) {
        self.findings.push(Finding {
            kind,
            test: test.to_string(),
            game_type: game_type.to_string(),
            game_string,
            moves,
            clauses,
            detail,
            reproduce,
            explain: None,
            verdicts: Vec::new(),
            found_at_ply: None,
        });
    }

    /// Records a failure to talk to the engine and drops the engine.
    fn engine_failure(
        &mut self,
        test: &str,
        game: &ReferenceEngine,
        error: ClientError,
        reproduce: String,
    ) -> Stop {
        let kind = match &error {
            ClientError::Timeout { .. } => Kind::Timeout,
            ClientError::Exited { .. } => Kind::Crash,
            _ => Kind::Protocol,
        };
        if kind != Kind::Protocol || matches!(error, ClientError::Defunct { .. }) {
            self.consecutive_failures += 1;
        }
        self.add(
            kind,
            test,
            game.game_type(),
            game.game_string(),
            Vec::new(),
            Vec::new(),
            error.to_string(),
            reproduce,
        );
        Stop
    }

    /// The engine's legal moves against the reference's, in `game`.
    fn compare_moves(&mut self, game: &ReferenceEngine, texts: &[String]) -> MoveDiff {
        let start = Instant::now();
        let (engine_moves, unresolvable) = resolve_moves(game, texts);
        let legal = reference_moves(game);
        self.reference_time += start.elapsed();
        self.summary.validmoves_compared += 1;
        MoveDiff {
            missing: legal.difference(&engine_moves).copied().collect(),
            extra: engine_moves.difference(&legal).copied().collect(),
            unresolvable,
        }
    }

    /// Records the findings of a move comparison.
    fn report_diff(
        &mut self,
        test: &str,
        game: &ReferenceEngine,
        diff: &MoveDiff,
        reproduce: Option<String>,
        found_at_ply: Option<usize>,
    ) {
        let game_string = game.game_string();
        for kind in diff.kinds() {
            let (moves, clauses, detail) = if kind == Kind::MissingMoves {
                let moves = names(game, &diff.missing);
                let detail = format!(
                    "the engine's validmoves lacks {} legal move(s): {}",
                    moves.len(),
                    moves.join("; ")
                );
                (moves, clauses_of(game, &diff.missing), detail)
            } else {
                let mut moves = names(game, &diff.extra);
                let mut detail = format!(
                    "the engine's validmoves has {} illegal move(s): {}",
                    moves.len(),
                    moves.join("; ")
                );
                if !diff.unresolvable.is_empty() {
                    detail.push_str(&format!(
                        "; unreadable in this position: {}",
                        diff.unresolvable.join("; ")
                    ));
                    moves.extend(diff.unresolvable.iter().cloned());
                }
                (moves, clauses_of(game, &diff.extra), detail)
            };
            let explain = explain_command(&game_string, moves.first().map(String::as_str));
            let reproduce = reproduce.clone().unwrap_or_else(|| {
                self.engine_command(&[format!("newgame {game_string}"), "validmoves".into()])
            });
            self.add(
                kind,
                test,
                game.game_type(),
                game_string.clone(),
                moves,
                clauses,
                detail,
                reproduce,
            );
            let verdicts = if kind == Kind::MissingMoves {
                verdicts_of(game, &diff.missing)
            } else {
                verdicts_of(game, &diff.extra)
            };
            let finding = self.findings.last_mut().expect("just added");
            finding.explain = Some(explain);
            finding.verdicts = verdicts;
            finding.found_at_ply = found_at_ply;
        }
    }

    /// Checks the GameString an engine printed against the reference.
    fn compare_game_string(
        &mut self,
        test: &str,
        game: &ReferenceEngine,
        response: &Response,
        after: &str,
        reproduce: &str,
    ) -> Result<(), Stop> {
        let line = response.last_line().unwrap_or("");
        match state_and_turn(line) {
            None => {
                self.add(
                    Kind::Protocol,
                    test,
                    game.game_type(),
                    game.game_string(),
                    Vec::new(),
                    Vec::new(),
                    format!("after {after}, expected a GameString, got \"{line}\""),
                    reproduce.to_string(),
                );
                Err(Stop)
            }
            Some((state, turn)) => {
                if state != game.state() || turn != game.turn() {
                    self.add(
                        Kind::State,
                        test,
                        game.game_type(),
                        game.game_string(),
                        Vec::new(),
                        state_clauses(game, state != game.state()),
                        format!(
                            "after {after}, the engine says {state};{turn}, the rules say {};{}",
                            game.state(),
                            game.turn()
                        ),
                        reproduce.to_string(),
                    );
                    return Err(Stop);
                }
                Ok(())
            }
        }
    }

    fn protocol(&mut self) -> Result<(), String> {
        let start = Instant::now();
        let test = "protocol";
        let base = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
        let reproduce = format!("{} (then type: info)", self.config.engine);
        let client = match self.session.client() {
            Ok(client) => client,
            Err(e @ ClientError::Spawn { .. }) => return Err(e.to_string()),
            Err(e) => {
                self.summary.protocol_checks += 1;
                self.engine_failure(test, &base, e, reproduce);
                self.tests.push(TestCase {
                    class: "protocol".into(),
                    name: test.into(),
                    seconds: start.elapsed().as_secs_f64(),
                    skipped: None,
                });
                return Ok(());
            }
        };
        let banner = client.banner().to_vec();
        self.summary.engine_id = client.id().to_string();
        let caps = client.capabilities().clone();
        self.summary.capabilities = [
            ("Mosquito", caps.mosquito),
            ("Ladybug", caps.ladybug),
            ("Pillbug", caps.pillbug),
        ]
        .iter()
        .filter(|(_, on)| *on)
        .map(|(n, _)| n.to_string())
        .collect();
        self.summary.protocol_checks += 1;
        if banner.len() < 2 {
            self.summary
                .notes
                .push("the banner has no capabilities line: only Base is checked".to_string());
        }
        if !caps.unknown.is_empty() {
            self.summary.notes.push(format!(
                "unknown capabilities ignored: {}",
                caps.unknown.join(";")
            ));
        }
        let protocol_finding = |checker: &mut Self, detail: String| {
            checker.add(
                Kind::Protocol,
                test,
                GameType::BASE,
                base.game_string(),
                Vec::new(),
                vec!["uhp".to_string()],
                detail,
                reproduce.clone(),
            );
        };
        self.summary.protocol_checks += 1;
        match self.session.command("info") {
            Ok(info) => {
                if info.lines != banner {
                    protocol_finding(
                        self,
                        format!(
                            "`info` answers \"{}\", the start-up banner was \"{}\"",
                            info.lines.join(" / "),
                            banner.join(" / ")
                        ),
                    );
                }
            }
            Err(e) => {
                self.engine_failure(test, &base, e, reproduce.clone());
            }
        }
        self.summary.protocol_checks += 1;
        match self.session.command("frobnicate") {
            Ok(answer) => {
                if !answer.lines.first().is_some_and(|l| l.starts_with("err")) {
                    protocol_finding(
                        self,
                        format!(
                            "an unknown command (`frobnicate`) must be answered with `err`, got \"{}\"",
                            answer.lines.join(" / ")
                        ),
                    );
                }
            }
            Err(e) => {
                self.engine_failure(test, &base, e, reproduce.clone());
            }
        }
        self.tests.push(TestCase {
            class: "protocol".into(),
            name: test.into(),
            seconds: start.elapsed().as_secs_f64(),
            skipped: None,
        });
        Ok(())
    }

    fn supported(&mut self) -> Vec<GameType> {
        match self.session.client() {
            Ok(client) => client.capabilities().game_types(),
            Err(_) => vec![GameType::BASE],
        }
    }

    fn corpus(&mut self, cases: &[LoadedCase], progress: &indicatif::ProgressBar) {
        let supported = self.supported();
        let settable = self.settable_rules_options();
        for case in cases {
            progress.inc(1);
            let start = Instant::now();
            let id = case.id();
            let options: RulesOptions = case.case.options.into();
            let mut skip = self.corpus_skip(case, &supported, settable);
            if skip.is_none()
                && options != RulesOptions::default()
                && !self.set_rules_options(options)
            {
                skip = Some("the engine refused to set the case's rules options".to_string());
            }
            if let Some(reason) = &skip {
                self.summary.corpus_cases_skipped += 1;
                *self
                    .summary
                    .corpus_skip_reasons
                    .entry(reason.clone())
                    .or_default() += 1;
            } else {
                self.summary.corpus_cases += 1;
                let before = self.findings.len();
                let _ = self.corpus_case(case, &id);
                self.note_unit_result(before);
            }
            if options != RulesOptions::default() && !self.engine_unusable() {
                // back to the default rules for the cases and games that follow
                self.set_rules_options(RulesOptions::default());
            }
            self.tests.push(TestCase {
                class: "corpus".into(),
                name: id,
                seconds: start.elapsed().as_secs_f64(),
                skipped: skip,
            });
        }
    }

    fn engine_unusable(&self) -> bool {
        self.consecutive_failures >= MAX_CONSECUTIVE_FAILURES
    }

    fn note_unit_result(&mut self, findings_before: usize) {
        let failed = self.findings[findings_before..]
            .iter()
            .any(|f| matches!(f.kind, Kind::Crash | Kind::Timeout));
        if !failed {
            self.consecutive_failures = 0;
        }
    }

    /// Whether the engine lists the UHP options `TournamentOpening` and
    /// `RepetitionDraw` as booleans (our engine does; uhp.md section 5.8),
    /// so that cases with other rules options (§4.2, §8.7.2) can run on it.
    fn settable_rules_options(&mut self) -> bool {
        let Ok(response) = self.session.command("options") else {
            return false;
        };
        let has = |name: &str| {
            response
                .lines
                .iter()
                .any(|line| line.starts_with(&format!("{name};bool;")))
        };
        !response.is_error() && has("TournamentOpening") && has("RepetitionDraw")
    }

    /// Sets the engine's rules options on an empty game (`newgame`, then
    /// `options set`); false when the engine refuses.
    fn set_rules_options(&mut self, options: RulesOptions) -> bool {
        let word = |on: bool| if on { "True" } else { "False" };
        let commands = [
            "newgame Base".to_string(),
            format!(
                "options set TournamentOpening {}",
                word(options.tournament_opening)
            ),
            format!(
                "options set RepetitionDraw {}",
                word(options.repetition_draw)
            ),
        ];
        commands
            .iter()
            .all(|c| matches!(self.session.command(c), Ok(r) if !r.is_error()))
    }

    fn corpus_skip(
        &self,
        case: &LoadedCase,
        supported: &[GameType],
        settable: bool,
    ) -> Option<String> {
        if self.engine_unusable() {
            return Some("engine unusable after repeated crashes or timeouts".to_string());
        }
        let game_type = case
            .case
            .game
            .split(';')
            .next()
            .and_then(|t| crate::core::notation::parse_game_type(t).ok());
        let Some(game_type) = game_type else {
            return Some("the game does not parse".to_string());
        };
        if !supported.contains(&game_type) {
            return Some(format!("game type {game_type} not supported by the engine"));
        }
        let options: RulesOptions = case.case.options.into();
        if options != RulesOptions::default() && !settable {
            return Some("non-default rules options, and the engine lists no TournamentOpening and RepetitionDraw options".to_string());
        }
        if ReferenceEngine::load_with(&case.case.game, options).is_err() {
            return Some("the game does not load on the reference engine".to_string());
        }
        None
    }

    fn corpus_case(&mut self, loaded: &LoadedCase, id: &str) -> Result<(), Stop> {
        let case = &loaded.case;
        let game = ReferenceEngine::load_with(&case.game, case.options.into())
            .expect("checked by corpus_skip");
        let game_string = game.game_string();
        let corpus_dir = self
            .config
            .corpus
            .as_ref()
            .map(|d| d.display().to_string())
            .unwrap_or_default();
        let reproduce = format!(
            "hive-oracle check --engine {} --games 0 --corpus {}   # case {id}",
            shell_quote(&self.config.engine),
            shell_quote(&corpus_dir)
        );
        let response = match self.session.command(&format!("newgame {}", case.game)) {
            Ok(r) => r,
            Err(e) => return Err(self.engine_failure(id, &game, e, reproduce)),
        };
        if response.is_error() {
            self.add(
                Kind::RejectedLegal,
                id,
                game.game_type(),
                game_string.clone(),
                Vec::new(),
                vec!["§9.4".to_string()],
                format!(
                    "the engine refused to load the GameString: {}",
                    response.lines.join(" / ")
                ),
                reproduce,
            );
            return Err(Stop);
        }
        self.compare_game_string(id, &game, &response, "newgame", &reproduce)?;
        if let Some(expected) = &case.state {
            if let Some((state, _)) = state_and_turn(response.last_line().unwrap_or("")) {
                if state.name() != expected {
                    self.add(
                        Kind::State,
                        id,
                        game.game_type(),
                        game_string.clone(),
                        Vec::new(),
                        case.clauses.clone(),
                        format!("the engine says {state}, the case says {expected}"),
                        reproduce.clone(),
                    );
                }
            }
        }
        let texts = match self.session.validmoves(&game) {
            Ok(t) => t,
            Err(e) => return Err(self.engine_failure(id, &game, e, reproduce)),
        };
        let mut diff = self.compare_moves(&game, &texts);
        // The case's own expectations, restricted to `piece` when given.
        let piece = case.piece.as_deref().and_then(|p| parse_piece(p).ok());
        let (engine_moves, _) = resolve_moves(&game, &texts);
        let in_scope = |mv: &Move| piece.is_none() || mv.piece() == piece;
        let resolve = |texts: &[String]| resolve_moves(&game, texts).0;
        if let Some(expected) = &case.valid_moves {
            let expected = resolve(expected);
            diff.missing
                .extend(expected.difference(&engine_moves).copied());
            diff.extra.extend(
                engine_moves
                    .iter()
                    .filter(|mv| in_scope(mv) && !expected.contains(mv))
                    .copied(),
            );
        }
        diff.missing
            .extend(resolve(&case.valid_moves_include).difference(&engine_moves));
        diff.extra
            .extend(resolve(&case.valid_moves_exclude).intersection(&engine_moves));
        self.report_diff(id, &game, &diff, None, None);
        for text in &case.legal {
            let Ok(mv) = game.parse_move(text) else {
                continue;
            };
            let canonical = game.move_string(mv);
            let answer = match self.play(mv, &canonical) {
                Ok(a) => a,
                Err(e) => return Err(self.engine_failure(id, &game, e, reproduce)),
            };
            if answer.is_error() {
                let clauses = clauses_of(&game, &BTreeSet::from([mv]));
                self.add(
                    Kind::RejectedLegal,
                    id,
                    game.game_type(),
                    game_string.clone(),
                    vec![canonical.clone()],
                    clauses,
                    format!(
                        "the engine refused the legal move {canonical}: {}",
                        answer.lines.join(" / ")
                    ),
                    explain_command(&game_string, Some(&canonical)),
                );
            } else {
                self.summary.undo_checks += 1;
                let undone = match self.session.command("undo 1") {
                    Ok(a) => a,
                    Err(e) => return Err(self.engine_failure(id, &game, e, reproduce)),
                };
                self.check_undo(id, &game, &undone, &canonical, &reproduce)?;
            }
        }
        if !case.illegal.is_empty() {
            for entry in &case.illegal {
                self.summary.illegal_probes += 1;
                let answer = match self.session.command(&format!("play {}", entry.mv)) {
                    Ok(a) => a,
                    Err(e) => return Err(self.engine_failure(id, &game, e, reproduce)),
                };
                if !answer.is_error() {
                    let _ = self.session.command("undo 1");
                    self.add(
                        Kind::AcceptedIllegal,
                        id,
                        game.game_type(),
                        game_string.clone(),
                        vec![entry.mv.clone()],
                        vec![entry.clause.clone()],
                        format!(
                            "the engine accepted {}, which {} forbids",
                            entry.mv, entry.clause
                        ),
                        explain_command(&game_string, Some(&entry.mv)),
                    );
                }
            }
            // The refusals must leave the position as it was.
            let after = match self.session.validmoves(&game) {
                Ok(t) => t,
                Err(e) => return Err(self.engine_failure(id, &game, e, reproduce)),
            };
            if resolve_moves(&game, &after).0 != engine_moves {
                self.add(
                    Kind::State,
                    id,
                    game.game_type(),
                    game_string.clone(),
                    Vec::new(),
                    vec!["§9.4".to_string()],
                    "the engine's valid moves changed after refused moves".to_string(),
                    reproduce,
                );
            }
        }
        Ok(())
    }

    /// Plays a move on the engine (`pass` for a pass).
    fn play(&mut self, mv: Move, text: &str) -> Result<Response, ClientError> {
        if mv == Move::Pass {
            self.session.command("pass")
        } else {
            self.session.command(&format!("play {text}"))
        }
    }

    fn check_undo(
        &mut self,
        test: &str,
        game: &ReferenceEngine,
        undone: &Response,
        mv: &str,
        reproduce: &str,
    ) -> Result<(), Stop> {
        let line = undone.last_line().unwrap_or("");
        let expected = game.game_string();
        let same = !undone.is_error()
            && state_and_turn(line) == Some((game.state(), game.turn()))
            && line.split(';').count() == expected.split(';').count();
        if !same {
            self.add(
                Kind::Undo,
                test,
                game.game_type(),
                expected.clone(),
                vec![mv.to_string()],
                vec!["uhp".to_string()],
                format!(
                    "after play {mv} and undo, the engine says \"{line}\", expected \"{expected}\""
                ),
                reproduce.to_string(),
            );
            return Err(Stop);
        }
        Ok(())
    }

    fn games(&mut self, types: &[GameType], games: u64, progress: &indicatif::ProgressBar) {
        for i in 0..games {
            let start = Instant::now();
            let seed = self.config.seed.wrapping_add(i);
            let game_type = types[(i as usize) % types.len()];
            let name = format!("game {i} ({game_type}, seed {seed})");
            let skipped = if self.engine_unusable() {
                Some("engine unusable after repeated crashes or timeouts".to_string())
            } else {
                let before = self.findings.len();
                self.summary.games += 1;
                let _ = self.game(&name, seed, game_type);
                self.note_unit_result(before);
                None
            };
            self.tests.push(TestCase {
                class: "games".into(),
                name,
                seconds: start.elapsed().as_secs_f64(),
                skipped,
            });
            progress.inc(1);
        }
    }

    fn game(&mut self, test: &str, seed: u64, game_type: GameType) -> Result<(), Stop> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = ReferenceEngine::new_game(game_type, RulesOptions::default());
        let reproduce = self.check_command(seed, game_type);
        let response = match self.session.command(&format!("newgame {game_type}")) {
            Ok(r) => r,
            Err(e) => return Err(self.engine_failure(test, &game, e, reproduce)),
        };
        if response.is_error() {
            self.add(
                Kind::Protocol,
                test,
                game_type,
                game.game_string(),
                Vec::new(),
                vec!["§9.1".to_string()],
                format!(
                    "the engine refused `newgame {game_type}`: {}",
                    response.lines.join(" / ")
                ),
                reproduce,
            );
            return Err(Stop);
        }
        self.compare_game_string(test, &game, &response, "newgame", &reproduce)?;
        let mut history: Vec<Move> = Vec::new();
        for ply in 0..self.config.max_plies {
            if game.state().is_over() {
                break;
            }
            let texts = match self.session.validmoves(&game) {
                Ok(t) => t,
                Err(e) => return Err(self.engine_failure(test, &game, e, reproduce)),
            };
            let diff = self.compare_moves(&game, &texts);
            if !diff.kinds().is_empty() {
                self.shrink_and_report(test, game_type, &history, &diff, &game);
                return Err(Stop);
            }
            let start = Instant::now();
            let legal = reference_moves(&game);
            self.reference_time += start.elapsed();
            // Every few plies: a move the rules forbid must be refused.
            if ply % 4 == 3 {
                let start = Instant::now();
                let candidate = illegal_candidate(&game, &legal, &mut rng);
                self.reference_time += start.elapsed();
                if let Some((mv, text)) = candidate {
                    self.summary.illegal_probes += 1;
                    self.probe_illegal(test, &game, &history, mv, &text, &reproduce)?;
                }
            }
            if ply % 10 == 5 && !legal.contains(&Move::Pass) {
                self.summary.pass_checks += 1;
                self.probe_illegal(test, &game, &history, Move::Pass, "pass", &reproduce)?;
            }
            let all: Vec<Move> = legal.iter().copied().collect();
            let mv = all[rng.random_range(0..all.len())];
            let text = game.move_string(mv);
            if mv == Move::Pass {
                self.summary.pass_checks += 1;
            }
            let before = game.clone();
            let answer = match self.play(mv, &text) {
                Ok(a) => a,
                Err(e) => return Err(self.engine_failure(test, &game, e, reproduce)),
            };
            if answer.is_error() {
                let said = answer.lines.join(" / ");
                self.shrink_focus_and_report(
                    Kind::RejectedLegal,
                    test,
                    game_type,
                    &history,
                    mv,
                    &said,
                );
                return Err(Stop);
            }
            game.play(mv).expect("a legal move");
            self.summary.plies += 1;
            let state = state_and_turn(answer.last_line().unwrap_or(""));
            if state.is_some_and(|st| st != (game.state(), game.turn())) {
                let said = answer.lines.join(" / ");
                self.shrink_focus_and_report(Kind::State, test, game_type, &history, mv, &said);
                return Err(Stop);
            }
            history.push(mv);
            self.compare_game_string(test, &game, &answer, &format!("play {text}"), &reproduce)?;
            // Now and then: undo must bring the earlier position back.
            if ply % 7 == 6 {
                self.summary.undo_checks += 1;
                let undone = match self.session.command("undo 1") {
                    Ok(a) => a,
                    Err(e) => return Err(self.engine_failure(test, &game, e, reproduce)),
                };
                self.check_undo(test, &before, &undone, &text, &reproduce)?;
                match self.play(mv, &text) {
                    Ok(a) if !a.is_error() => {}
                    Ok(a) => {
                        self.add(
                            Kind::Undo,
                            test,
                            game_type,
                            before.game_string(),
                            vec![text.clone()],
                            vec!["uhp".to_string()],
                            format!(
                                "after undo, the engine refused to replay {text}: {}",
                                a.lines.join(" / ")
                            ),
                            reproduce,
                        );
                        return Err(Stop);
                    }
                    Err(e) => return Err(self.engine_failure(test, &game, e, reproduce)),
                }
            }
        }
        Ok(())
    }

    /// Sends a move the rules forbid, after `history`; it must be refused.
    fn probe_illegal(
        &mut self,
        test: &str,
        game: &ReferenceEngine,
        history: &[Move],
        mv: Move,
        text: &str,
        reproduce: &str,
    ) -> Result<(), Stop> {
        let answer = match self.play(mv, text) {
            Ok(a) => a,
            Err(e) => return Err(self.engine_failure(test, game, e, reproduce.to_string())),
        };
        if answer.is_error() {
            return Ok(());
        }
        // The engine's game may have diverged; the shrinker loads positions
        // with `newgame`, and this game stops.
        let _ = self.session.command("undo 1");
        let said = answer.lines.join(" / ");
        self.shrink_focus_and_report(
            Kind::AcceptedIllegal,
            test,
            game.game_type(),
            history,
            mv,
            &said,
        );
        Err(Stop)
    }

    /// The engine's `validmoves` against the rules in the position of
    /// `game`, loaded with `newgame <GameString>`. `Ok(None)` when the
    /// engine refuses the GameString.
    fn diff_at(&mut self, game: &ReferenceEngine) -> Result<Option<MoveDiff>, ClientError> {
        let response = self
            .session
            .command(&format!("newgame {}", game.game_string()))?;
        if response.is_error() {
            return Ok(None);
        }
        let texts = self.session.validmoves(game)?;
        Ok(Some(self.compare_moves(game, &texts)))
    }

    /// Shrinks a disagreement on the legal moves (found after `history`)
    /// to the shortest game that still shows the same kind of disagreement
    /// citing at least one of the same clauses, and reports it.
    fn shrink_and_report(
        &mut self,
        test: &str,
        game_type: GameType,
        history: &[Move],
        diff: &MoveDiff,
        game: &ReferenceEngine,
    ) {
        let found_at = history.len();
        for kind in diff.kinds() {
            let only = |d: &MoveDiff| MoveDiff {
                missing: if kind == Kind::MissingMoves {
                    d.missing.clone()
                } else {
                    BTreeSet::new()
                },
                extra: if kind == Kind::MissingMoves {
                    BTreeSet::new()
                } else {
                    d.extra.clone()
                },
                unresolvable: if kind == Kind::MissingMoves {
                    Vec::new()
                } else {
                    d.unresolvable.clone()
                },
            };
            let original = only(diff);
            let clauses = diff_clauses(game, &original);
            // the move the rebuild search centres on: one that moves a piece
            let disputed = original
                .missing
                .iter()
                .chain(&original.extra)
                .copied()
                .find(|mv| matches!(mv, Move::Move { .. }));
            let mut best: (ReferenceEngine, MoveDiff) = (game.clone(), original);
            let start = Instant::now();
            let shrunk = shrink(
                game_type,
                RulesOptions::default(),
                history,
                None,
                disputed,
                Budget::default(),
                |candidate, _| match self.diff_at(candidate) {
                    Err(_) => Shows::Abort,
                    Ok(Some(d)) if d.kinds().contains(&kind) => {
                        let d = only(&d);
                        if shares_a_clause(&clauses, &diff_clauses(candidate, &d)) {
                            best = (candidate.clone(), d);
                            Shows::Yes
                        } else {
                            Shows::No
                        }
                    }
                    Ok(_) => Shows::No,
                },
            );
            self.note_shrink(&shrunk, start);
            let (g, d) = best;
            let shrunk = (g.plies() < found_at).then_some(found_at);
            self.report_diff(test, &g, &d, None, shrunk);
        }
    }

    /// Shrinks a disagreement about one move played after `history` (the
    /// focus): an illegal move the engine accepted, a legal move it
    /// refused, or a move after which it printed the wrong state; then
    /// reports it.
    fn shrink_focus_and_report(
        &mut self,
        kind: Kind,
        test: &str,
        game_type: GameType,
        history: &[Move],
        focus: Move,
        said: &str,
    ) {
        let mut game = ReferenceEngine::new_game(game_type, RulesOptions::default());
        for &mv in history {
            game.play_unchecked(mv);
        }
        let Some(original) = self.focus_disagreement(kind, &game, focus, None) else {
            // the engine no longer shows it from a loaded GameString:
            // report the game as it was played
            let text = game.move_string(focus);
            let clauses = focus_clauses(kind, &game, focus);
            let detail = format!(
                "{} (not shown again after `newgame` with the GameString)",
                focus_detail(kind, &game, focus, &text, said)
            );
            let shown = match kind {
                Kind::State => {
                    let mut after = game.clone();
                    after.play_unchecked(focus);
                    after.game_string()
                }
                _ => game.game_string(),
            };
            let reproduce = self.check_command_for(test, game_type);
            let explain = explain_command(&game.game_string(), Some(&text));
            self.add(
                kind,
                test,
                game_type,
                shown,
                vec![text],
                clauses,
                detail,
                reproduce,
            );
            let verdicts = verdicts_of(&game, &BTreeSet::from([focus]));
            let finding = self.findings.last_mut().expect("just added");
            finding.explain = Some(explain);
            finding.verdicts = verdicts;
            return;
        };
        let clauses = original.clauses.clone();
        let mut best = original;
        let start = Instant::now();
        let shrunk = shrink(
            game_type,
            RulesOptions::default(),
            history,
            Some(focus),
            Some(focus),
            Budget::default(),
            |candidate, focus| {
                let Some(focus) = focus else {
                    return Shows::No;
                };
                match self.focus_disagreement(kind, candidate, focus, Some(&clauses)) {
                    Some(found) => {
                        best = found;
                        Shows::Yes
                    }
                    None if self.session.client.is_none() => Shows::Abort,
                    None => Shows::No,
                }
            },
        );
        self.note_shrink(&shrunk, start);
        let found_at = (best.game.plies() < history.len()).then_some(history.len());
        let explain = explain_command(&best.game.game_string(), Some(&best.text));
        let play = if focus == Move::Pass {
            "pass".to_string()
        } else {
            format!("play {}", best.text)
        };
        let reproduce =
            self.engine_command(&[format!("newgame {}", best.game.game_string()), play]);
        self.add(
            kind,
            test,
            game_type,
            best.game_string,
            vec![best.text],
            best.clauses,
            best.detail,
            reproduce,
        );
        let verdicts = verdicts_of(&best.game, &BTreeSet::from([best.focus]));
        let finding = self.findings.last_mut().expect("just added");
        finding.found_at_ply = found_at;
        finding.explain = Some(explain);
        finding.verdicts = verdicts;
    }

    /// A shell command that sends `lines` to the engine under check.
    fn engine_command(&self, lines: &[String]) -> String {
        let quoted: Vec<String> = lines.iter().map(|l| shell_quote(l)).collect();
        format!(
            "printf '%s\\n' {} | {}",
            quoted.join(" "),
            self.config.engine
        )
    }

    /// Whether the engine, given the position of `game` with `newgame
    /// <GameString>`, still disagrees about `focus` in the way `kind` says,
    /// citing one of `clauses` (when given). The engine is dropped (to be
    /// restarted) when it fails.
    fn focus_disagreement(
        &mut self,
        kind: Kind,
        game: &ReferenceEngine,
        focus: Move,
        clauses: Option<&[String]>,
    ) -> Option<FocusFinding> {
        let text = game.move_string(focus);
        if game.parse_move(&text) != Ok(focus) {
            return None; // no text names the move
        }
        let refusal = game.clone().play(focus).err();
        let legal = refusal.is_none();
        let wanted_legal = kind != Kind::AcceptedIllegal;
        if legal != wanted_legal {
            return None;
        }
        let found = focus_clauses(kind, game, focus);
        if clauses.is_some_and(|c| !shares_a_clause(c, &found)) {
            return None;
        }
        let mut after = game.clone();
        if legal {
            after.play_unchecked(focus);
        }
        let loaded = match self
            .session
            .command(&format!("newgame {}", game.game_string()))
        {
            Ok(r) => r,
            Err(_) => {
                self.session.client = None;
                return None;
            }
        };
        if loaded.is_error() {
            return None;
        }
        let answer = match self.play(focus, &text) {
            Ok(a) => a,
            Err(_) => {
                self.session.client = None;
                return None;
            }
        };
        let shows = match kind {
            Kind::AcceptedIllegal => !answer.is_error(),
            Kind::RejectedLegal => answer.is_error(),
            _ => {
                !answer.is_error()
                    && state_and_turn(answer.last_line().unwrap_or(""))
                        .is_some_and(|st| st != (after.state(), after.turn()))
            }
        };
        if !shows {
            return None;
        }
        let said = answer.lines.join(" / ");
        let game_string = if kind == Kind::State {
            after.game_string()
        } else {
            game.game_string()
        };
        Some(FocusFinding {
            game: game.clone(),
            focus,
            game_string,
            detail: focus_detail(kind, game, focus, &text, &said),
            text,
            clauses: found,
        })
    }

    /// Counts the work of one shrink.
    fn note_shrink(&mut self, shrunk: &Shrunk, start: Instant) {
        self.summary.shrinks += 1;
        self.summary.shrink_candidates += shrunk.candidates as u64;
        self.summary.shrink_positions += shrunk.positions as u64;
        self.summary.shrink_engine_checks += shrunk.predicate_calls as u64;
        self.shrink_time += start.elapsed();
    }

    fn check_command_for(&self, test: &str, game_type: GameType) -> String {
        let seed = test
            .rsplit("seed ")
            .next()
            .and_then(|s| s.trim_end_matches(')').parse().ok())
            .unwrap_or(self.config.seed);
        self.check_command(seed, game_type)
    }
}

/// A disagreement about one move, in a position the engine was given.
struct FocusFinding {
    game: ReferenceEngine,
    /// The move in dispute, in the names of `game`.
    focus: Move,
    /// The GameString reported: the position before the move, or after it
    /// for a state.
    game_string: String,
    text: String,
    clauses: Vec<String>,
    detail: String,
}

/// The clauses behind a disagreement about one move: why the rules refuse
/// it, what grants it, or what decides the state after it.
fn focus_clauses(kind: Kind, game: &ReferenceEngine, focus: Move) -> Vec<String> {
    match kind {
        Kind::State => {
            let mut after = game.clone();
            after.play_unchecked(focus);
            state_clauses(&after, true)
        }
        Kind::AcceptedIllegal => game
            .clone()
            .play(focus)
            .err()
            .map(|e| e.clauses.iter().map(|c| c.to_string()).collect())
            .unwrap_or_default(),
        _ => clauses_of(game, &BTreeSet::from([focus])),
    }
}

/// The sentence of a disagreement about one move.
fn focus_detail(kind: Kind, game: &ReferenceEngine, focus: Move, text: &str, said: &str) -> String {
    match kind {
        Kind::AcceptedIllegal => {
            let refusal = game
                .clone()
                .play(focus)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            format!("the engine accepted {text}, which is illegal: {refusal}")
        }
        Kind::RejectedLegal => format!("the engine refused the legal move {text}: {said}"),
        _ => {
            let mut after = game.clone();
            after.play_unchecked(focus);
            let engine = state_and_turn(said.rsplit(" / ").next().unwrap_or(""))
                .map(|(s, t)| format!("{s};{t}"))
                .unwrap_or_else(|| said.to_string());
            format!(
                "after play {text}, the engine says {engine}, the rules say {};{}",
                after.state(),
                after.turn()
            )
        }
    }
}

/// The clauses behind the differing moves of a move comparison.
fn diff_clauses(game: &ReferenceEngine, diff: &MoveDiff) -> Vec<String> {
    if diff.missing.is_empty() {
        clauses_of(game, &diff.extra)
    } else {
        clauses_of(game, &diff.missing)
    }
}

/// Whether two clause lists share a clause (or the first is empty: then
/// nothing is required).
fn shares_a_clause(wanted: &[String], found: &[String]) -> bool {
    wanted.is_empty() || wanted.iter().any(|c| found.contains(c))
}

/// Runs the whole check. An `Err` means the check could not run (exit 2).
pub fn run(config: &Config) -> Result<Report, String> {
    let started = Instant::now();
    let cases = match &config.corpus {
        Some(dir) => Some(load_corpus(dir)?),
        None => None,
    };
    let mut checker = Checker::new(config);
    checker.protocol()?;
    let supported = checker.supported();
    let types: Vec<GameType> = match &config.game_types {
        None => supported.clone(),
        Some(asked) => {
            let (ok, not): (Vec<GameType>, Vec<GameType>) =
                asked.iter().partition(|t| supported.contains(t));
            for t in not {
                checker.summary.notes.push(format!(
                    "game type {t} is not supported by the engine: skipped"
                ));
            }
            ok
        }
    };
    if types.is_empty() && config.games > 0 {
        checker
            .summary
            .notes
            .push("no supported game type to play random games with".to_string());
    }
    let games = if types.is_empty() { 0 } else { config.games };
    let total = cases.as_ref().map_or(0, |c| c.len() as u64) + games;
    let progress = if config.progress {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} cases and games ({elapsed}, eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    match &cases {
        Some(cases) => checker.corpus(cases, &progress),
        None => checker
            .summary
            .notes
            .push("no corpus directory (tests/cases): corpus checks skipped".to_string()),
    }
    if games > 0 {
        checker.games(&types, games, &progress);
    }
    progress.finish_and_clear();
    if checker.engine_unusable() {
        checker.summary.notes.push(
            "the engine failed repeatedly (crash or timeout): the remaining cases and games were skipped"
                .to_string(),
        );
    }
    checker.session.shutdown();
    let mut summary = checker.summary;
    summary.engine_restarts = checker.session.restarts.saturating_sub(1);
    summary.findings = checker.findings.len() as u64;
    for f in &checker.findings {
        *summary
            .findings_by_kind
            .entry(f.kind.name().to_string())
            .or_default() += 1;
    }
    summary.seconds = started.elapsed().as_secs_f64();
    summary.engine_seconds = checker.session.engine_time.as_secs_f64();
    summary.reference_seconds = checker.reference_time.as_secs_f64();
    summary.shrink_seconds = checker.shrink_time.as_secs_f64();
    Ok(Report {
        engine: config.engine.clone(),
        summary,
        findings: checker.findings,
        tests: checker.tests,
    })
}

/// The clauses that decide a disputed state or turn: the rule that gives the
/// reference's state (§8.3 a double surround, §8.2 a single one, §8.7.2 a
/// repetition, §8.8 otherwise), and §9.3 when only the turn differs.
fn state_clauses(game: &ReferenceEngine, state_differs: bool) -> Vec<String> {
    use crate::core::{Color, GameState};
    use crate::reference::end::queen_is_surrounded;
    if !state_differs {
        return vec!["§9.3".to_string()];
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
