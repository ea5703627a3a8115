//! The corpus units of `check`: each case of the corpus (format in
//! spec/cases.md) run by the crate's one case runner
//! ([`hive_oracle_rules::cases::run_case`]) on the engine under check, through its UHP
//! adapter ([`crate::check::units::case_engine`]); every failure becomes a finding
//! that cites the case's own clauses, each kind of failure by a function of
//! its own ([`CaseReport`]). `perft` is no UHP command: a case's perft
//! counts are asked with `perft N` of engines that answer it, and skipped,
//! with the engine's answer as the reason, on those that do not.

use std::collections::{BTreeMap, BTreeSet};

use crate::check::findings::finding::{Finding, Kind, Severity};
use crate::check::findings::leniency::{game_string_demand, move_demand, Demand, ReferenceReading};
use crate::check::findings::verdict::move_class;
use crate::check::given::lines::play_line_as_written;
use crate::check::units::case_engine::{NotLoaded, Said, UhpCase, UhpCaseError};
use crate::check::units::judge::{
    read_as_reference, reference_reading_finding, state_clauses, state_pattern, MoveDiff,
};
use crate::check::units::worker::{Context, Stop, Worker};
use hive_oracle_rules::cases::{run_case, Case, CaseFailure, CaseOptions, LoadedCase, RulesEngine};
use hive_oracle_rules::core::notation::parse_game_type;
use hive_oracle_rules::core::{BoardView, GameState, Move, RulesOptions};
use hive_oracle_rules::house_rules::HouseRepetition;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// Why a case cannot run on this engine, if it cannot.
pub(crate) fn skip_reason(ctx: &Context<'_>, case: &LoadedCase) -> Option<String> {
    let game_type = case
        .case
        .game
        .split(';')
        .next()
        .and_then(|t| parse_game_type(t).ok());
    let Some(game_type) = game_type else {
        return Some("the game does not parse".to_string());
    };
    if !ctx.supported.contains(&game_type) {
        return Some(format!("game type {game_type} not supported by the engine"));
    }
    let options: RulesOptions = case.case.options.into();
    let Ok(game) = ReferenceEngine::load_with(&case.case.game, options) else {
        return Some("the game does not load on the reference engine".to_string());
    };
    if let Some(why) = ctx.house.and_then(|house| house_rule_differs(house, &game)) {
        return Some(why);
    }
    if options != ctx.rules && !ctx.settable {
        return depends_on_options(&case.case, ctx.rules).map(|why| {
            format!(
                "the case needs {options}, the engine plays {} and lists no TournamentOpening and RepetitionDraw options, and its answers depend on them: {why}",
                ctx.rules
            )
        });
    }
    None
}

/// Why a case's answers are not the engine's under the house repetition
/// rule `house` that the engine plays: the case is judged under the spec's
/// repetition draw, or its game completes a repetition under the house rule
/// (`None` when neither).
fn house_rule_differs(house: HouseRepetition, game: &ReferenceEngine) -> Option<String> {
    let name = house.name();
    if game.options().repetition_draw {
        return Some(format!(
            "the case is judged under the repetition draw of §8.7.2 and the engine plays the house rule `{name}`"
        ));
    }
    let options = house.reference_options(game.options());
    let mut under = ReferenceEngine::new_game(BoardView::game_type(game), options);
    for (ply, &mv) in game.history().iter().enumerate() {
        under.play_unchecked(mv);
        if house.state(&under) != under.state() {
            return Some(format!(
                "the case's game completes a repetition at ply {} under the house rule `{name}` the engine plays",
                ply + 1
            ));
        }
    }
    None
}

/// The case with its rules options set to `rules`.
fn under(case: &Case, rules: RulesOptions) -> Case {
    let mut case = case.clone();
    case.options = CaseOptions {
        tournament_opening: rules.tournament_opening,
        repetition_draw: rules.repetition_draw,
    };
    case
}

/// Why the answers of `case` differ under `rules` (`None` when every
/// assertion holds under them as under the case's own options, checked by
/// the reference engine): then the case runs on an engine that plays
/// `rules` and cannot be set to the case's options. The case's own options
/// are checked by the corpus tests (tests/cases.rs).
fn depends_on_options(case: &Case, rules: RulesOptions) -> Option<String> {
    let mut reference = RulesEngine::<ReferenceEngine>::explaining();
    let run = match run_case(&mut reference, &under(case, rules)) {
        Ok(run) => run,
        Err(e) => return Some(format!("under {rules} the case cannot run: {e}")),
    };
    if let Some(e) = run.stopped {
        return Some(format!("under {rules} the reference stops: {e}"));
    }
    if let Some(failure) = run.failures.first() {
        return Some(format!(
            "under {rules} the reference fails its {}",
            assertion_of(failure)
        ));
    }
    None
}

/// The assertion of a case that a failure breaks, in words.
fn assertion_of(failure: &CaseFailure) -> String {
    match failure {
        CaseFailure::LoadRefused { .. } => "game (it does not load)".to_string(),
        CaseFailure::Unresolvable { field, text, .. } => format!("`{field}` move {text}"),
        CaseFailure::Missing { field, .. } | CaseFailure::Extra { field, .. } => {
            format!("`{field}` list")
        }
        CaseFailure::LegalRefused { text, .. } => format!("`legal` move {text}"),
        CaseFailure::IllegalAccepted { .. } | CaseFailure::WrongClause { .. } => {
            "`illegal` moves".to_string()
        }
        CaseFailure::RefusalChangedGame => "`illegal` moves (the game changed)".to_string(),
        CaseFailure::State { .. } => "`state`".to_string(),
        CaseFailure::Perft { .. } => "`perft` counts".to_string(),
    }
}

/// Runs one case (which [`skip_reason`] let through) with the crate's one
/// case runner on the engine under check, and turns each failed assertion
/// into a finding.
pub(crate) fn run(worker: &mut Worker<'_>, loaded: &LoadedCase) -> Result<(), Stop> {
    // a case whose options the engine cannot be set to runs under the
    // engine's rules, where skip_reason found its answers the same
    let settable = worker.ctx.settable;
    let rules = worker.ctx.rules;
    let own: RulesOptions = loaded.case.options.into();
    let relaxed = (own != rules && !settable).then(|| under(&loaded.case, rules));
    let case = relaxed.as_ref().unwrap_or(&loaded.case);
    let options: RulesOptions = case.options.into();
    let Ok(game) = ReferenceEngine::load_with(&case.game, options) else {
        return Ok(()); // skip_reason said it loads
    };
    if worker.ctx.settable && !worker.set_rules(options) {
        let sent = worker.rules_lines(options);
        worker.add(
            Finding::new(Kind::Protocol, &worker.test, &game)
                .clauses(["uhp"])
                .pattern("options set")
                .detail(format!(
                    "the engine refused to set the rules options {options}"
                ))
                .exchange(sent, Vec::new()),
        );
        return Err(Stop);
    }
    let prefix = worker.rules_lines(options);
    let mut engine = UhpCase::new(worker, game.clone(), prefix.clone());
    let Ok(run) = run_case(&mut engine, case) else {
        return Ok(()); // skip_reason checked the case loads
    };
    let said = engine.said();
    worker.counts.illegal_probes += case.illegal.len() as u64;
    worker.skips.extend(run.skipped);
    let report = CaseReport {
        test: worker.test.clone(),
        case,
        options,
        game_string: game.game_string(),
        game: &game,
        prefix,
        answers: &said.answers,
        sent_to: &said.sent_to,
        sent: &said.sent,
    };
    let mut diff = MoveDiff {
        missing: BTreeSet::new(),
        extra: BTreeSet::new(),
        unresolvable: Vec::new(),
        duplicates: BTreeMap::new(),
    };
    if let Some(not_loaded) = &said.not_loaded {
        let finding = report.not_loaded(worker, not_loaded);
        worker.add(finding);
    }
    for failure in run.failures {
        if matches!(failure, CaseFailure::LoadRefused { .. }) && said.not_loaded.is_some() {
            continue; // the finding above
        }
        if let Some(finding) = report.finding(failure, &mut diff) {
            worker.add(finding);
        }
    }
    let Said {
        listed, duplicates, ..
    } = said;
    diff.duplicates = duplicates;
    if !diff.kinds().is_empty() {
        let sent = report.lines_to(Some("validmoves"));
        worker.report_diff(&game, &diff, &case.clauses, sent, &[listed.join(";")], None);
    }
    // a case that stopped keeps the findings of the questions before it
    match run.stopped {
        Some(UhpCaseError::Client(e, sent)) => Err(worker.engine_failure(&game, e, sent)),
        Some(UhpCaseError::Reported) => Err(Stop),
        None => Ok(()),
    }
}

/// The findings of one case's failures: what they share (the case, its
/// position, the lines that reach it, the engine's answers), and one
/// function per kind of failure.
struct CaseReport<'c> {
    /// The unit's name.
    test: String,
    case: &'c Case,
    options: RulesOptions,
    /// The case's position.
    game: &'c ReferenceEngine,
    game_string: String,
    /// The lines that set the case's rules options, if any.
    prefix: Vec<String>,
    /// The engine's answer to each line sent.
    answers: &'c BTreeMap<String, Vec<String>>,
    /// For each line sent, the lines sent up to its first sending.
    sent_to: &'c BTreeMap<String, Vec<String>>,
    /// Every line sent for the case.
    sent: &'c [String],
}

impl CaseReport<'_> {
    /// The lines sent up to `question` (up to the `newgame` that loaded the
    /// case when `None`), exactly as they were sent, every earlier line
    /// included; the lines that would be sent when it was not sent.
    fn lines_to(&self, question: Option<&str>) -> Vec<String> {
        let load = format!("newgame {}", self.case.game);
        if let Some(sent) = self.sent_to.get(question.unwrap_or(&load)) {
            return sent.clone();
        }
        let mut lines = self.sent_to.get(&load).cloned().unwrap_or_else(|| {
            let mut lines = self.prefix.clone();
            lines.push(load);
            lines
        });
        lines.extend(question.map(str::to_string));
        lines
    }

    /// The engine's answer to `line`, as sent.
    fn answer_to(&self, line: &str) -> Vec<String> {
        self.answers.get(line).cloned().unwrap_or_default()
    }

    /// The finding of `failure`; the moves of a move-list failure are added
    /// to `diff` instead (one finding per kind for the whole case).
    fn finding(&self, failure: CaseFailure, diff: &mut MoveDiff) -> Option<Finding> {
        match failure {
            CaseFailure::LoadRefused { reason } => Some(self.load_refused(reason, "")),
            CaseFailure::Missing { moves, .. } => {
                diff.missing.extend(moves);
                None
            }
            CaseFailure::Extra {
                moves, unreadable, ..
            } => {
                diff.extra.extend(moves);
                for text in unreadable {
                    if !diff.unresolvable.contains(&text) {
                        diff.unresolvable.push(text);
                    }
                }
                None
            }
            CaseFailure::LegalRefused { text, mv, reason } => {
                Some(self.legal_refused(&text, mv, reason))
            }
            CaseFailure::IllegalAccepted { text, clause } => {
                Some(self.illegal_accepted(&text, &clause))
            }
            CaseFailure::RefusalChangedGame => Some(self.refusal_changed_game()),
            CaseFailure::State { expected, found } => Some(self.state(expected, found)),
            CaseFailure::Perft {
                depth,
                expected,
                found,
            } => Some(self.perft(depth, expected, found)),
            // the case's own texts (checked by tests/cases.rs) and a clause
            // (UHP engines do not cite clauses)
            CaseFailure::Unresolvable { .. } | CaseFailure::WrongClause { .. } => None,
        }
    }

    /// The engine did not load the case's GameString (it refused it, or
    /// answered with another game): one finding, saying whether the case's
    /// questions were asked of its position reached by its moves instead.
    fn not_loaded(&self, worker: &Worker<'_>, not_loaded: &NotLoaded) -> Finding {
        let then = if not_loaded.reached {
            "; the case's questions were asked of its position reached by its moves (`newgame GameType`, then `play`)"
        } else {
            "; its position was not reached by its moves either, so the case's questions were not asked"
        };
        match &not_loaded.another {
            Some(other) => worker
                .not_loaded(
                    self.game,
                    not_loaded.sent.clone(),
                    &not_loaded.answer,
                    Some(other),
                    then,
                )
                .case_clauses(&self.case.clauses),
            None => self.load_refused(not_loaded.answer.lines.join(" / "), then),
        }
    }

    /// The engine refused to load the case's GameString: §9.31, or the
    /// leniency the GameString relies on.
    fn load_refused(&self, reason: String, then: &str) -> Finding {
        let case = self.case;
        let demand = game_string_demand(&case.game, self.options).unwrap_or(Demand::Must("§9.31"));
        Finding::new(Kind::RejectedLegal, &self.test, self.game)
            .severity(demand.severity())
            .case_clauses(&case.clauses)
            .clauses([demand.clause()])
            .pattern(format!("newgame{}", demand.pattern_word()))
            .moves(vec![case.game.clone()])
            .detail(format!(
                "the engine refused to load the case's GameString{}: {reason}{then}",
                demand.note()
            ))
            .exchange(self.lines_to(None), vec![reason])
            .explain(&self.game_string, None)
    }

    /// The engine refused a `legal` move: the clause the spelling relies
    /// on, an error for a standard spelling, an advisory for a lenient one.
    fn legal_refused(&self, text: &str, mv: Move, reason: String) -> Finding {
        let game = self.game;
        let demand = move_demand(game, text);
        let canonical = game.move_string(mv);
        let line = play_line_as_written(text);
        let moves = BTreeSet::from([mv]);
        Finding::new(Kind::RejectedLegal, &self.test, game)
            .severity(demand.map_or(Severity::Error, Demand::severity))
            .case_clauses(&self.case.clauses)
            .clauses(demand.map(Demand::clause))
            .clauses(move_class(game, mv).1)
            .moves(vec![text.to_string()])
            .detail(format!(
                "the engine refused the legal move `{text}` ({canonical}){}: {reason}",
                demand.map(Demand::note).unwrap_or_default()
            ))
            .exchange(self.lines_to(Some(&line)), vec![reason])
            .explain(&self.game_string, Some(text))
            .verdicts(game, &moves)
            .pattern(format!(
                "{}{}",
                move_class(game, mv).0,
                demand.map(Demand::pattern_word).unwrap_or_default()
            ))
    }

    /// The engine accepted an `illegal` move: the reference's clauses for
    /// the refusal, as in random games. An error, unless the engine read a
    /// spelling every engine MUST refuse the way the protocol's reference
    /// implementation does ([`reference_reading`]) and printed that game: an
    /// advisory then.
    fn illegal_accepted(&self, text: &str, clause: &str) -> Finding {
        let game = self.game;
        let line = play_line_as_written(text);
        let answer = self.answer_to(&line);
        if let Some(reading) = self.read_as_mzinga(text, &answer) {
            return self.read_as_mzinga_finding(text, clause, reading, &line, answer);
        }
        let mv = game.parse_move(text).ok();
        let moves: BTreeSet<Move> = mv.into_iter().collect();
        // the cause: the class of the move and the clauses of its refusal
        let (pattern, refused) = match mv {
            Some(mv) => move_class(game, mv),
            None => ("illegal move".to_string(), vec![clause.to_string()]),
        };
        Finding::new(Kind::AcceptedIllegal, &self.test, game)
            .clauses(refused)
            .pattern(pattern)
            .case_clauses([clause])
            .case_clauses(&self.case.clauses)
            .moves(vec![text.to_string()])
            .detail(format!(
                "the engine accepted `{text}`, which {clause} forbids"
            ))
            .exchange(self.lines_to(Some(&line)), answer)
            .explain(&self.game_string, Some(text))
            .verdicts(game, &moves)
    }

    /// Mzinga's reading of `text`, when the engine's answer to it is the
    /// GameString of the game after that reading.
    fn read_as_mzinga(&self, text: &str, answer: &[String]) -> Option<ReferenceReading> {
        read_as_reference(self.game, text, answer.first()?)
    }

    /// The advisory of a MUST-refuse spelling read as Mzinga reads it.
    fn read_as_mzinga_finding(
        &self,
        text: &str,
        clause: &str,
        reading: ReferenceReading,
        line: &str,
        answer: Vec<String>,
    ) -> Finding {
        reference_reading_finding(&self.test, self.game, text, reading)
            .case_clauses([clause])
            .case_clauses(&self.case.clauses)
            .exchange(self.lines_to(Some(line)), answer)
            .explain(&self.game_string, Some(text))
    }

    /// The engine's valid moves changed after it refused the `illegal`
    /// moves.
    fn refusal_changed_game(&self) -> Finding {
        // every line of the case: the refused moves, the lists compared
        let sent = self.sent.to_vec();
        let answer = self.answer_to("validmoves");
        Finding::new(Kind::State, &self.test, self.game)
            .clauses(["uhp"])
            .case_clauses(&self.case.clauses)
            .pattern("refusal changed the game")
            .detail("the engine's valid moves changed after refused moves")
            .exchange(sent, answer)
    }

    /// The engine's `perft` counted other leaves than the case's `perft`
    /// (the reference's count): its moves differ somewhere in the tree.
    fn perft(&self, depth: u32, expected: u64, found: u64) -> Finding {
        let line = format!("perft {depth}");
        let answer = self.answer_to(&line);
        Finding::new(Kind::Perft, &self.test, self.game)
            .case_clauses(&self.case.clauses)
            .pattern("perft")
            .detail(format!(
                "`{line}` counts {found} leaves, the rules give {expected}: somewhere in the game tree within depth {depth}, the engine's moves differ from the rules'"
            ))
            .exchange(self.lines_to(Some(&line)), answer)
    }

    /// The engine printed another state than the case's `state`.
    fn state(&self, expected: GameState, found: GameState) -> Finding {
        Finding::new(Kind::State, &self.test, self.game)
            .clauses(state_clauses(self.game, true))
            .case_clauses(&self.case.clauses)
            .pattern(state_pattern(
                &format!("case {}", self.test),
                (found, self.game.turn()),
                (expected, self.game.turn()),
            ))
            .detail(format!("the engine says {found}, the case says {expected}"))
            .exchange(
                self.lines_to(None),
                self.answer_to(&format!("newgame {}", self.case.game)),
            )
            .explain(&self.game_string, None)
    }
}
