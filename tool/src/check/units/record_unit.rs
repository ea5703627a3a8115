//! The record units of `check --records`: every game of real game records
//! (PGN-style files and boardspace SGF, read by [`hive_oracle_rules::records`] through
//! [`crate::input`]) replayed on the engine under check, ply by ply. At
//! every position the engine's `validmoves` is compared with the rules as
//! a set of absolute moves (§5.9); the record's move is played (written in
//! its canonical MoveString, §9.30, so that the check is about the rules,
//! not about the record's spelling) and the GameString the engine prints is
//! checked for its state and turn and replayed by the oracle (§9.31).
//!
//! A record is a real position the engine must follow, so a finding does
//! not end the game: after it the engine is brought back to the record's
//! position with `newgame GameString` and the replay goes on, so that one
//! shallow bug does not hide the rest of the record. An engine failure
//! (crash, timeout) ends the game.
//!
//! A record file that cannot be read, or that holds no game, is a unit of
//! its own, skipped with the reader's error. A game whose ply the rules
//! refuse is checked up to that ply; the engine must refuse the ply too
//! (§9.23), and the plies after it are listed as not checked.

use crate::check::client::Response;
use crate::check::findings::finding::{Finding, Kind};
use crate::check::findings::verdict::move_class;
use crate::check::given::lines::play_line;
use crate::check::given::record_set::RecordUnit;
use crate::check::units::judge::{another_game, state_and_turn, state_clauses, state_pattern};
use crate::check::units::worker::{Context, Stop, Worker};
use hive_oracle_rules::core::{BoardView, GameState, Move, RulesOptions};
use hive_oracle_rules::house_rules::HouseRepetition;
use hive_oracle_rules::records::replay::record_options;
use hive_oracle_rules::records::{Record, RecordedMove};
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// Why a record unit cannot run on this engine, if it cannot.
pub(crate) fn skip_reason(ctx: &Context<'_>, unit: &RecordUnit) -> Option<String> {
    let record = match unit {
        RecordUnit::Unreadable { error, .. } => {
            return Some(format!("the record file does not read: {error}"))
        }
        RecordUnit::Game(record) => record,
    };
    if !ctx.supported.contains(&record.game_type) {
        return Some(format!(
            "game type {} not supported by the engine",
            record.game_type
        ));
    }
    let options = record_options(record);
    if options.tournament_opening != ctx.rules.tournament_opening && !ctx.settable {
        return Some(format!(
            "the record is played with {options}, the engine plays {} and lists no TournamentOpening and RepetitionDraw options",
            ctx.rules
        ));
    }
    None
}

/// The rules a record is judged under: its own (§10.12) on an engine whose
/// options can be set; otherwise the engine's declared repetition rule with
/// the record's opening, which [`skip_reason`] found to be the engine's.
/// A declared house repetition rule is always the engine's (the repetition
/// draw on), since no option of the engine names it. A record is then
/// judged up to the ply where the declared rule ends the game (a draw by
/// repetition, §8.7.2, or the house rule's), and the plies after it are
/// listed as not checked: a record goes on where its players' rules did.
fn judged_options(ctx: &Context<'_>, record: &Record) -> RulesOptions {
    let own = record_options(record);
    if ctx.settable && ctx.house.is_none() {
        own
    } else {
        RulesOptions {
            repetition_draw: ctx.rules.repetition_draw,
            ..own
        }
    }
}

/// Replays one record game (which [`skip_reason`] let through) on the
/// engine under check.
pub(crate) fn run(worker: &mut Worker<'_>, record: &Record) -> Result<(), Stop> {
    let options = judged_options(worker.ctx, record);
    let reference = worker
        .ctx
        .house
        .map_or(options, |house| house.reference_options(options));
    let mut replay = RecordReplay {
        game: ReferenceEngine::new_game(record.game_type, reference),
        worker,
        options,
    };
    replay.start()?;
    for (i, ply) in record.moves.iter().enumerate() {
        if replay.worker.ctx.state_of(&replay.game).is_over() {
            // the declared rules ended the game before the record did
            replay.note_unjudged(
                i + 1,
                record.moves.len(),
                "the rules judged under end the game before them (the record goes on where its players' rules did)",
            );
            break;
        }
        if replay.compare_valid_moves().is_err() {
            replay.resync()?;
        }
        let Some(mv) = replay.legal_ply(i + 1, ply)? else {
            return Ok(());
        };
        match replay.play(mv) {
            Ok(()) => {}
            Err(Played::GameEnded) => {
                replay.note_unjudged(
                    i + 2,
                    record.moves.len(),
                    "the engine and the rules disagree on the end of the game before them",
                );
                return Ok(());
            }
            Err(Played::Finding) => replay.resync()?,
        }
    }
    // the final position too: no move once the game is over (§8.5)
    let _ = replay.compare_valid_moves();
    Ok(())
}

/// A record game being replayed on the engine and on the reference.
struct RecordReplay<'w, 'a> {
    worker: &'w mut Worker<'a>,
    /// The record's rules.
    options: RulesOptions,
    /// The record so far, on the reference engine.
    game: ReferenceEngine,
}

impl RecordReplay<'_, '_> {
    /// Sets the record's rules and starts its game with `newgame`.
    fn start(&mut self) -> Result<(), Stop> {
        let game_type = self.game.game_type();
        self.load(&game_type.to_string())
    }

    /// Brings the engine back to the record's position after a finding:
    /// `newgame GameString`. An engine failure ends the game instead: it
    /// was reported, and restarting for every ply would not help.
    fn resync(&mut self) -> Result<(), Stop> {
        if self.worker.engine_failed || self.worker.session.is_down() {
            return Err(Stop);
        }
        let game_string = self.game.game_string();
        self.load(&game_string)
    }

    /// Sets the rules (when the engine can) and sends `newgame GAME`; the
    /// engine must load it (else the game ends) and print its GameString.
    fn load(&mut self, game: &str) -> Result<(), Stop> {
        let worker = &mut *self.worker;
        if worker.ctx.settable && !worker.set_rules(self.options) {
            worker.add(
                Finding::new(Kind::Protocol, &worker.test, &self.game)
                    .clauses(["uhp"])
                    .pattern("options set")
                    .detail(format!(
                        "the engine refused to set the rules options {}",
                        self.options
                    ))
                    .exchange(worker.said(), Vec::new()),
            );
            return Err(Stop);
        }
        let line = format!("newgame {game}");
        let response = match worker.session.command(&line) {
            Ok(r) => r,
            Err(e) => return Err(worker.engine_failure_here(&self.game, e)),
        };
        let sent = worker.said();
        let printed = response.last_line().unwrap_or("");
        let another = another_game(&self.game, printed);
        if response.is_error() && self.game.plies() == 0 {
            worker.add(
                Finding::new(Kind::RejectedLegal, &worker.test, &self.game)
                    .clauses(["§9.31"])
                    .pattern("newgame")
                    .moves(vec![game.to_string()])
                    .detail(format!(
                        "the engine refused `{line}`: {}",
                        response.lines.join(" / ")
                    ))
                    .exchange(sent, response.lines.clone())
                    .explain(&self.game.game_string(), None),
            );
            return Err(Stop);
        }
        if response.is_error() || another.is_some() {
            // a position not loaded: one finding, and the replay goes on
            // from the record's position reached by its moves
            let reached =
                worker.go_on_by_moves(&self.game, sent, &response, another.as_deref(), "replay")?;
            return match reached {
                Some(last) => {
                    let sent = worker.said();
                    let _ = worker.compare_game_string(&self.game, &last, || sent.clone());
                    Ok(())
                }
                None => Err(Stop),
            };
        }
        // a wrong GameString is a finding; the game loaded, so the replay
        // goes on
        let _ = worker.compare_game_string(&self.game, &response, || sent.clone());
        Ok(())
    }

    /// The engine's `validmoves` against the rules, as sets.
    fn compare_valid_moves(&mut self) -> Result<(), Stop> {
        let worker = &mut *self.worker;
        let texts = match worker
            .session
            .validmoves(worker.ctx.state_of(&self.game).is_over())
        {
            Ok(t) => t,
            Err(e) => return Err(worker.engine_failure_here(&self.game, e)),
        };
        let diff = worker.compare_moves(&self.game, &texts);
        if diff.kinds().is_empty() {
            return Ok(());
        }
        let sent = worker.said();
        worker.report_diff(&self.game, &diff, &[], sent, &[texts.join(";")], None);
        // the engine's game is unchanged: the replay goes on without a reload
        Ok(())
    }

    /// The move of ply `number`, when it reads and the rules allow it.
    /// Otherwise the engine must refuse it too, the plies after it are
    /// listed as not checked, and there is no move (`None`).
    fn legal_ply(&mut self, number: usize, ply: &RecordedMove) -> Result<Option<Move>, Stop> {
        let test = &self.worker.test;
        let plies = |n: usize| format!("{test}: ply {n} ({}, line {})", ply.uhp, ply.line);
        let mv = match self.game.parse_move(&ply.uhp) {
            Ok(mv) => mv,
            Err(e) => {
                self.worker.skips.push(format!(
                    "{} does not read in its position: {e}; the plies from it on are not checked",
                    plies(number)
                ));
                return Ok(None);
            }
        };
        let refusal = match self.game.clone().play(mv) {
            Ok(()) => return Ok(Some(mv)),
            Err(refusal) => refusal,
        };
        let clauses: Vec<String> = refusal.clauses.iter().map(|c| c.to_string()).collect();
        self.worker.skips.push(format!(
            "{} is illegal ({}); the plies from it on are not checked",
            plies(number),
            clauses.join(", ")
        ));
        self.probe_illegal(mv, clauses)?;
        Ok(None)
    }

    /// The record's illegal ply sent to the engine: it must refuse it.
    fn probe_illegal(&mut self, mv: Move, clauses: Vec<String>) -> Result<(), Stop> {
        let worker = &mut *self.worker;
        let text = self.game.move_string(mv);
        let line = play_line(mv, &text);
        worker.counts.illegal_probes += 1;
        let answer = match worker.session.command(&line) {
            Ok(a) => a,
            Err(e) => return Err(worker.engine_failure_here(&self.game, e)),
        };
        let sent = worker.said();
        if answer.is_error() {
            return Ok(());
        }
        let moves = std::collections::BTreeSet::from([mv]);
        // the cause: the class of the move and the clauses of its refusal
        let (pattern, refused) = move_class(&self.game, mv);
        worker.add(
            Finding::new(Kind::AcceptedIllegal, &worker.test, &self.game)
                .clauses(if refused.is_empty() { clauses } else { refused })
                .pattern(pattern)
                .moves(vec![text.clone()])
                .detail(format!(
                    "the engine accepted the record's illegal ply `{text}`"
                ))
                .exchange(sent, answer.lines.clone())
                .explain(&self.game.game_string(), Some(&text))
                .verdicts(&self.game, &moves),
        );
        Err(Stop)
    }

    /// Plays the record's move `mv` (legal) on both engines: the engine
    /// must accept it and print the GameString of the position after it.
    fn play(&mut self, mv: Move) -> Result<(), Played> {
        let text = self.game.move_string(mv);
        let line = play_line(mv, &text);
        let before = self.game.clone();
        self.game.play_unchecked(mv);
        let worker = &mut *self.worker;
        worker.counts.record_plies += 1;
        let answer = match worker.session.command(&line) {
            Ok(a) => a,
            Err(e) => {
                worker.engine_failure_here(&before, e);
                return Err(Played::Finding);
            }
        };
        let sent = worker.said();
        if answer.is_error() {
            let moves = std::collections::BTreeSet::from([mv]);
            // the cause: the class of the move and the clauses that grant it
            let (pattern, granting) = move_class(&before, mv);
            worker.add(
                Finding::new(Kind::RejectedLegal, &worker.test, &before)
                    .clauses(granting)
                    .pattern(pattern)
                    .moves(vec![text.clone()])
                    .detail(format!(
                        "the engine refused the record's legal move `{text}`: {}",
                        answer.lines.join(" / ")
                    ))
                    .exchange(sent, answer.lines.clone())
                    .explain(&before.game_string(), Some(&text))
                    .verdicts(&before, &moves),
            );
            return Err(Played::Finding);
        }
        if self.game_end_differs(&answer, sent.clone()) {
            return Err(Played::GameEnded);
        }
        self.worker
            .compare_game_string(&self.game, &answer, || sent.clone())
            .map_err(|Stop| Played::Finding)
    }

    /// Whether one side ended the game after the ply just played and the
    /// other did not (the engine printed `answer`): then one finding about
    /// the end, classified by the rules option that explains it when one
    /// does (the repetition draw, §8.7.2: an engine that plays its own
    /// repetition rule draws where the rules judged under go on, or the
    /// other way round), and the record is judged no further, since every
    /// later ply would only show the same end again (a refused `play`, an
    /// empty `validmoves`).
    fn game_end_differs(&mut self, answer: &Response, sent: Vec<String>) -> bool {
        let Some((state, turn)) = state_and_turn(answer.last_line().unwrap_or("")) else {
            return false;
        };
        let rules = self.worker.ctx.state_of(&self.game);
        if state.is_over() == rules.is_over() {
            return false;
        }
        let judged = match self.worker.ctx.house {
            Some(house) => house.name(),
            None => self.options.to_string(),
        };
        let after = sent.last().cloned().unwrap_or_default();
        let said = format!(
            "after {after}, the engine says {state};{turn}, the rules judged under ({judged}) say {rules};{}",
            self.game.turn()
        );
        let explaining = self.repetition_rules_giving(state);
        let worker = &mut *self.worker;
        let finding = if let Some((_, draws)) = explaining.first() {
            let words: Vec<String> = explaining.iter().map(|(w, _)| format!("`{w}`")).collect();
            let first = &explaining[0].0;
            let (pattern, why) = if *draws {
                (
                    "game end: a repetition draw the rules judged under do not have",
                    format!("the position after this ply completes a repetition under {} (§8.7.2, spec/rulings.md#house-repetition-rules), which these rules do not count; if the engine plays such a rule, declare it (`--rules {first}`)", words.join(", ")),
                )
            } else {
                (
                    "game end: no repetition draw where the rules judged under have one",
                    format!("the position after this ply completes a repetition under the rules judged under, a draw that the engine does not apply; its state is that of {} (§8.7.2, spec/rulings.md#house-repetition-rules): if the engine plays such a rule, declare it (`--rules {first}`)", words.join(", ")),
                )
            };
            Finding::new(Kind::State, &worker.test, &self.game)
                .clauses(["§8.7.2"])
                .pattern(pattern)
                .detail(format!(
                    "{said}: {why}; the record's later plies are not judged"
                ))
        } else {
            Finding::new(Kind::State, &worker.test, &self.game)
                .clauses(state_clauses(&self.game, true))
                .pattern(state_pattern(
                    "game end",
                    (state, turn),
                    (rules, self.game.turn()),
                ))
                .detail(format!("{said}; the record's later plies are not judged"))
        };
        worker.add(
            finding
                .exchange(sent, answer.lines.clone())
                .explain(&self.game.game_string(), None),
        );
        true
    }

    /// The other repetition rules (the spec's, each house rule, then none)
    /// under which the game so far has the state `state`: the `--rules`
    /// word of each, and whether it is a draw there.
    fn repetition_rules_giving(&self, state: GameState) -> Vec<(String, bool)> {
        let judged = (self.options.repetition_draw, self.worker.ctx.house);
        let mut rules: Vec<(String, bool, Option<HouseRepetition>)> =
            vec![("repetition-draw".to_string(), true, None)];
        for house in HouseRepetition::PRESETS {
            rules.push((house.name(), true, Some(house)));
        }
        rules.push(("no-repetition-draw".to_string(), false, None));
        rules
            .into_iter()
            .filter_map(|(word, on, house)| {
                if (on, house) == judged {
                    return None;
                }
                let on = RulesOptions {
                    repetition_draw: on,
                    ..self.options
                };
                let options = house.map_or(on, |h| h.reference_options(on));
                let state_of =
                    |g: &ReferenceEngine| house.map_or_else(|| g.state(), |h| h.state(g));
                let mut under = ReferenceEngine::new_game(self.game.game_type(), options);
                for &mv in self.game.history() {
                    if state_of(&under).is_over() {
                        // that rule ended the game earlier: it explains nothing here
                        return None;
                    }
                    under.play_unchecked(mv);
                }
                let other = state_of(&under);
                (other == state).then_some((word, other == GameState::Draw))
            })
            .collect()
    }

    /// Lists the plies from `from` to `last` as not checked, with why.
    fn note_unjudged(&mut self, from: usize, last: usize, why: &str) {
        if from <= last {
            self.worker.skips.push(format!(
                "{}: plies {from} to {last} are not checked: {why}",
                self.worker.test
            ));
        }
    }
}

/// How a record's move that did not go through cleanly ended.
enum Played {
    /// A finding was recorded (or the engine failed): the engine is brought
    /// back to the record's position, or the game ends on a failure.
    Finding,
    /// One side ended the game and the other did not: one finding about the
    /// end, and the record is judged no further.
    GameEnded,
}
