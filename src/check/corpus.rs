//! The case corpus over UHP: each case of `tests/cases/*.toml` (format in
//! spec/cases.md) run by the crate's one case runner ([`run_case`]) on the
//! engine under check, through a UHP adapter: its position sent with
//! `newgame` as written, its `legal` and `illegal` moves with `play` in the
//! spelling of the case; every failure becomes a finding that cites the
//! case's own clauses. `perft` is skipped, with its reason: UHP has no
//! perft command.
//!
//! Before any of it is used, a corpus is read from regular files only
//! ([`read_folder`]) and every case is checked against the reference
//! engine ([`validate`]): a bad corpus stops the check (exit 2) with the
//! case and the reason, rather than being skipped or blamed on the engine.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::cases::{parse_corpus_file, run_case, CaseEngine, CaseFailure, LoadedCase, RulesEngine};
use crate::check::checker::{state_and_turn, state_clauses, MoveDiff, Stop, Worker};
use crate::check::client::{ClientError, Response};
use crate::check::finding::{clauses_of, move_pattern, Finding, Kind, Severity};
use crate::check::leniency::{game_string_demand, move_demand, Demand};
use crate::core::notation::parse_game_type;
use crate::core::{GameState, Move, RulesOptions};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// The corpus files of the folder `dir` (its `*.toml`, in name order): the
/// file name, its text and its cases. Only regular files are read (a FIFO
/// would block the check, a device never end): any other `*.toml` entry is
/// an error, as is a folder that is not one.
pub fn read_folder(dir: &Path) -> Result<Vec<(String, String, Vec<LoadedCase>)>, String> {
    let shown = dir.display();
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(format!("--corpus {shown}: not a folder")),
        Err(e) => return Err(format!("--corpus {shown}: no such folder ({e})")),
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("--corpus {shown}: {e}"))?;
    let mut paths: Vec<std::path::PathBuf> = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("--corpus {shown}: {e}"))?.path();
        if path.extension().is_some_and(|e| e == "toml") {
            paths.push(path);
        }
    }
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = read_regular_file(&path)?;
        let cases = parse_corpus_file(&file, &text, &path.display().to_string())?;
        out.push((file, text, cases));
    }
    Ok(out)
}

/// The text of `path`, which must be a regular file (following symbolic
/// links): a FIFO, a device or a folder is refused without being opened.
pub fn read_regular_file(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "cannot read {shown}: not a regular file ({})",
            file_kind(&meta)
        ));
    }
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))
}

/// What kind of file system entry `meta` is, in words.
pub fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_file() {
        "a regular file"
    } else {
        "not a file"
    }
}

/// Checks a case against the reference engine before it is sent to an
/// engine: every text it sends is one line (no `\n` or `\r`), its
/// GameString loads under its options, its `legal` moves are legal, its
/// `illegal` moves are refused, and its other assertions hold (perft is
/// left to the test suite). `Err` names the case and the reason.
pub fn validate(loaded: &LoadedCase) -> Result<(), String> {
    let case = &loaded.case;
    let id = loaded.id();
    let mut texts: Vec<(&str, &str)> = vec![("game", case.game.as_str())];
    texts.extend(case.piece.iter().map(|p| ("piece", p.as_str())));
    texts.extend(case.legal.iter().map(|m| ("legal", m.as_str())));
    texts.extend(case.illegal.iter().map(|e| ("illegal", e.mv.as_str())));
    texts.extend(
        case.valid_moves
            .iter()
            .flatten()
            .map(|m| ("valid-moves", m.as_str())),
    );
    texts.extend(
        case.valid_moves_include
            .iter()
            .map(|m| ("valid-moves-include", m.as_str())),
    );
    texts.extend(
        case.valid_moves_exclude
            .iter()
            .map(|m| ("valid-moves-exclude", m.as_str())),
    );
    for (field, text) in texts {
        if text.contains(['\n', '\r']) {
            return Err(format!(
                "corpus case {id}: the `{field}` entry \"{}\" holds a line break: each entry is sent as one line",
                crate::check::finding::escape_controls(text)
            ));
        }
    }
    let options: RulesOptions = case.options.into();
    if let Err(e) = ReferenceEngine::load_with(&case.game, options) {
        return Err(format!(
            "corpus case {id}: its GameString does not load on the reference engine: {e}"
        ));
    }
    let mut checked = case.clone();
    checked.perft.clear();
    let mut reference = RulesEngine::<ReferenceEngine>::refusing_only();
    let run = run_case(&mut reference, &checked).map_err(|e| format!("corpus case {id}: {e}"))?;
    if let Some(e) = run.stopped {
        return Err(format!("corpus case {id}: {e}"));
    }
    let Some(failure) = run.failures.first() else {
        return Ok(());
    };
    let game = ReferenceEngine::load_with(&case.game, options)
        .map_err(|e| format!("corpus case {id}: {e}"))?;
    Err(format!(
        "corpus case {id} is wrong: the reference engine fails it ({})",
        failure.describe(&game)
    ))
}

impl Worker<'_> {
    /// Why a case cannot run on this engine, if it cannot.
    pub(crate) fn corpus_skip(&self, case: &LoadedCase) -> Option<String> {
        let game_type = case
            .case
            .game
            .split(';')
            .next()
            .and_then(|t| parse_game_type(t).ok());
        let Some(game_type) = game_type else {
            return Some("the game does not parse".to_string());
        };
        if !self.ctx.supported.contains(&game_type) {
            return Some(format!("game type {game_type} not supported by the engine"));
        }
        let options: RulesOptions = case.case.options.into();
        if options != self.ctx.rules && !self.ctx.settable {
            return Some(format!(
                "the case needs {}, the engine plays {} and lists no TournamentOpening and RepetitionDraw options",
                options,
                self.ctx.rules
            ));
        }
        if ReferenceEngine::load_with(&case.case.game, options).is_err() {
            return Some("the game does not load on the reference engine".to_string());
        }
        None
    }

    /// Runs one case (which [`Worker::corpus_skip`] let through) with the
    /// crate's one case runner, [`run_case`], on the engine under check, and
    /// turns each failed assertion into a finding.
    pub(crate) fn corpus_case(&mut self, loaded: &LoadedCase) -> Result<(), Stop> {
        let case = &loaded.case;
        let options: RulesOptions = case.options.into();
        let Ok(game) = ReferenceEngine::load_with(&case.game, options) else {
            return Ok(()); // corpus_skip said it loads
        };
        if self.ctx.settable && !self.set_rules(options) {
            let sent = self.rules_lines(options);
            self.add(
                Finding::new(Kind::Protocol, &self.test, &game)
                    .clauses(["uhp"])
                    .pattern("options set")
                    .detail(format!(
                        "the engine refused to set the rules options {options}"
                    ))
                    .exchange(sent, Vec::new()),
            );
            return Err(Stop);
        }
        let prefix = self.rules_lines(options);
        let mut engine = UhpCase {
            worker: self,
            game: game.clone(),
            prefix: prefix.clone(),
            answers: BTreeMap::new(),
            listed: Vec::new(),
            duplicates: BTreeMap::new(),
            state: None,
        };
        let run = match run_case(&mut engine, case) {
            Ok(run) => run,
            Err(_) => return Ok(()), // corpus_skip checked the case loads
        };
        let (answers, listed, duplicates) = (engine.answers, engine.listed, engine.duplicates);
        self.counts.illegal_probes += case.illegal.len() as u64;
        for skip in &run.skipped {
            self.skips.push(skip.clone());
        }
        match run.stopped {
            Some(UhpCaseError::Client(e, sent)) => return Err(self.engine_failure(&game, e, sent)),
            Some(UhpCaseError::Reported) => return Err(Stop),
            None => {}
        }
        let newgame = format!("newgame {}", case.game);
        let lines_to = |question: Option<&str>| {
            let mut lines = prefix.clone();
            lines.push(newgame.clone());
            lines.extend(question.map(str::to_string));
            lines
        };
        let game_string = game.game_string();
        let mut diff = MoveDiff {
            missing: BTreeSet::new(),
            extra: BTreeSet::new(),
            unresolvable: Vec::new(),
            duplicates,
        };
        for failure in run.failures {
            match failure {
                CaseFailure::LoadRefused { reason } => {
                    // §9.31, or the leniency the GameString relies on
                    let demand =
                        game_string_demand(&case.game, options).unwrap_or(Demand::Must("§9.31"));
                    self.add(
                        Finding::new(Kind::RejectedLegal, &self.test, &game)
                            .severity(demand.severity())
                            .case_clauses(&case.clauses)
                            .clauses([demand.clause()])
                            .pattern(format!("newgame{}", demand.pattern_word()))
                            .moves(vec![case.game.clone()])
                            .detail(format!(
                                "the engine refused to load the case's GameString{}: {reason}",
                                demand.note()
                            ))
                            .exchange(lines_to(None), vec![reason])
                            .explain(&game_string, None),
                    );
                }
                CaseFailure::Missing { moves, .. } => diff.missing.extend(moves),
                CaseFailure::Extra {
                    moves, unreadable, ..
                } => {
                    diff.extra.extend(moves);
                    for text in unreadable {
                        if !diff.unresolvable.contains(&text) {
                            diff.unresolvable.push(text);
                        }
                    }
                }
                CaseFailure::LegalRefused { text, mv, reason } => {
                    // the clause the spelling relies on: an error for a
                    // standard spelling, an advisory for a lenient one
                    let demand = move_demand(&game, &text);
                    let canonical = game.move_string(mv);
                    let line = play_line_as_written(&text);
                    let moves = BTreeSet::from([mv]);
                    self.add(
                        Finding::new(Kind::RejectedLegal, &self.test, &game)
                            .severity(demand.map_or(Severity::Error, Demand::severity))
                            .case_clauses(&case.clauses)
                            .clauses(demand.map(Demand::clause))
                            .clauses(clauses_of(&game, &moves))
                            .moves(vec![text.clone()])
                            .detail(format!(
                                "the engine refused the legal move `{text}` ({canonical}){}: {reason}",
                                demand.map(Demand::note).unwrap_or_default()
                            ))
                            .exchange(lines_to(Some(&line)), vec![reason])
                            .explain(&game_string, Some(&text))
                            .verdicts(&game, &moves)
                            .pattern(format!(
                                "{}{}",
                                move_pattern(&game, &moves),
                                demand.map(Demand::pattern_word).unwrap_or_default()
                            )),
                    );
                }
                CaseFailure::IllegalAccepted { text, clause } => {
                    let mv = game.parse_move(&text).ok();
                    let moves: BTreeSet<Move> = mv.into_iter().collect();
                    // the reference's clauses for the refusal, as in random games
                    let refused: Vec<String> = mv
                        .and_then(|mv| game.clone().play(mv).err())
                        .map(|e| e.clauses.iter().map(|c| c.to_string()).collect())
                        .unwrap_or_else(|| vec![clause.clone()]);
                    let line = play_line_as_written(&text);
                    let answer = answers.get(&line).cloned().unwrap_or_default();
                    self.add(
                        Finding::new(Kind::AcceptedIllegal, &self.test, &game)
                            .clauses(refused)
                            .case_clauses([&clause])
                            .case_clauses(&case.clauses)
                            .moves(vec![text.clone()])
                            .detail(format!(
                                "the engine accepted `{text}`, which {clause} forbids"
                            ))
                            .exchange(lines_to(Some(&line)), answer)
                            .explain(&game_string, Some(&text))
                            .verdicts(&game, &moves),
                    );
                }
                CaseFailure::RefusalChangedGame => {
                    let mut sent = lines_to(None);
                    sent.extend(case.illegal.iter().map(|e| play_line_as_written(&e.mv)));
                    sent.push("validmoves".to_string());
                    self.add(
                        Finding::new(Kind::State, &self.test, &game)
                            .clauses(["uhp"])
                            .case_clauses(&case.clauses)
                            .pattern("refusal changed the game")
                            .detail("the engine's valid moves changed after refused moves")
                            .exchange(sent, Vec::new()),
                    );
                }
                CaseFailure::State { expected, found } => {
                    self.add(
                        Finding::new(Kind::State, &self.test, &game)
                            .clauses(state_clauses(&game, true))
                            .case_clauses(&case.clauses)
                            .pattern("state")
                            .detail(format!("the engine says {found}, the case says {expected}"))
                            .exchange(lines_to(None), Vec::new())
                            .explain(&game_string, None),
                    );
                }
                // the case's own texts (checked by tests/cases.rs), a clause
                // (UHP engines do not cite clauses) and perft (UHP has none)
                CaseFailure::Unresolvable { .. }
                | CaseFailure::WrongClause { .. }
                | CaseFailure::Perft { .. } => {}
            }
        }
        if !diff.kinds().is_empty() {
            let sent = lines_to(Some("validmoves"));
            self.report_diff(&game, &diff, &case.clauses, sent, &[listed.join(";")], None);
        }
        Ok(())
    }
}

/// Why a UHP case engine stopped.
enum UhpCaseError {
    /// Talking to the engine failed after these lines.
    Client(ClientError, Vec<String>),
    /// A finding was recorded (a printed GameString, an undo): the case stops.
    Reported,
}

/// The engine under check as a [`CaseEngine`]: the worker's session, with
/// check's own checks on the side (every printed GameString replayed, every
/// `undo` checked).
struct UhpCase<'w, 'a> {
    worker: &'w mut Worker<'a>,
    /// The case's position on the reference engine.
    game: ReferenceEngine,
    /// The lines that set the case's rules options, if any.
    prefix: Vec<String>,
    /// The engine's answer to each line sent.
    answers: BTreeMap<String, Vec<String>>,
    /// Its first `validmoves` answer.
    listed: Vec<String>,
    /// The moves that answer names more than once (§9.35).
    duplicates: BTreeMap<Move, usize>,
    /// The state it printed when the case was loaded.
    state: Option<GameState>,
}

impl UhpCase<'_, '_> {
    /// The lines sent so far for this case, then `line`.
    fn sent(&self, line: &str) -> Vec<String> {
        let mut lines = self.prefix.clone();
        lines.push(format!("newgame {}", self.game.game_string()));
        if !line.starts_with("newgame") {
            lines.push(line.to_string());
        }
        lines
    }

    fn command(&mut self, line: &str) -> Result<Response, UhpCaseError> {
        match self.worker.session.command(line) {
            Ok(answer) => {
                self.answers.insert(line.to_string(), answer.lines.clone());
                Ok(answer)
            }
            Err(e) => Err(UhpCaseError::Client(e, self.sent(line))),
        }
    }
}

impl CaseEngine for UhpCase<'_, '_> {
    type Error = UhpCaseError;

    fn load(&mut self, game: &str, _: RulesOptions) -> Result<Result<(), String>, UhpCaseError> {
        let line = format!("newgame {game}");
        let answer = self.command(&line)?;
        if answer.is_error() {
            return Ok(Err(answer.lines.join(" / ")));
        }
        let sent = self.sent(&line);
        let reference = self.game.clone();
        self.worker
            .compare_game_string(&reference, &answer, || sent.clone())
            .map_err(|Stop| UhpCaseError::Reported)?;
        self.state = state_and_turn(answer.last_line().unwrap_or("")).map(|(state, _)| state);
        Ok(Ok(()))
    }

    fn valid_moves(&mut self) -> Result<Vec<String>, UhpCaseError> {
        let game = self.game.clone();
        let texts = self
            .worker
            .session
            .validmoves(&game)
            .map_err(|e| UhpCaseError::Client(e, self.sent("validmoves")))?;
        if self.listed.is_empty() {
            self.listed = texts.clone();
            self.duplicates = self.worker.compare_moves(&game, &texts).duplicates;
        }
        Ok(texts)
    }

    fn play(&mut self, text: &str) -> Result<Result<(), String>, UhpCaseError> {
        let line = play_line_as_written(text);
        let answer = self.command(&line)?;
        if answer.is_error() {
            return Ok(Err(answer.lines.join(" / ")));
        }
        // the GameString printed after an accepted legal move must replay
        if let Ok(mv) = self.game.parse_move(text) {
            if self.game.clone().play(mv).is_ok() {
                let mut after = self.game.clone();
                after.play_unchecked(mv);
                let sent = self.sent(&line);
                self.worker
                    .compare_game_string(&after, &answer, || sent.clone())
                    .map_err(|Stop| UhpCaseError::Reported)?;
            }
        }
        Ok(Ok(()))
    }

    fn undo(&mut self) -> Result<(), UhpCaseError> {
        self.worker.counts.undo_checks += 1;
        let undone = self.command("undo 1")?;
        let sent = self.sent("undo 1");
        let game = self.game.clone();
        self.worker
            .check_undo(&game, &undone, &sent)
            .map_err(|Stop| UhpCaseError::Reported)
    }

    fn state(&mut self) -> Result<GameState, UhpCaseError> {
        // the state printed by `newgame` (a missing one is a finding already)
        self.state.ok_or(UhpCaseError::Reported)
    }

    fn perft(&mut self, _: u32) -> Result<Result<u64, String>, UhpCaseError> {
        Ok(Err(
            "UHP has no perft command (spec/sources/uhp-notes.md section 5)".to_string(),
        ))
    }

    fn cites_clauses(&self) -> bool {
        false
    }
}

/// The command that plays a move written `text`, as written (`pass` alone).
fn play_line_as_written(text: &str) -> String {
    if text.trim().eq_ignore_ascii_case("pass") {
        text.trim().to_string()
    } else {
        format!("play {text}")
    }
}
