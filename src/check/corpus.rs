//! The case corpus over UHP: each case of `tests/cases/*.toml` (format in
//! spec/cases.md) sent to the engine under check as written, its position
//! with `newgame`, its `legal` and `illegal` moves with `play` in the
//! spelling of the case, and every finding citing the case's own clauses.

use std::collections::BTreeSet;

use crate::cases::LoadedCase;
use crate::check::checker::{state_and_turn, state_clauses, Stop, Worker};
use crate::check::client::resolve_moves;
use crate::check::finding::{clauses_of, Finding, Kind, Severity};
use crate::check::leniency::{game_string_leniency, move_leniency};
use crate::core::notation::{parse_game_type, parse_piece};
use crate::core::{Move, RulesOptions};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

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

    /// Runs one case (which [`Worker::corpus_skip`] let through).
    pub(crate) fn corpus_case(&mut self, loaded: &LoadedCase) -> Result<(), Stop> {
        let case = &loaded.case;
        let options: RulesOptions = case.options.into();
        let Ok(game) = ReferenceEngine::load_with(&case.game, options) else {
            return Ok(()); // corpus_skip said it loads
        };
        let game_string = game.game_string();
        if self.ctx.settable && !self.set_rules(options) {
            let sent = self.rules_lines(options);
            self.add(
                Finding::new(Kind::Protocol, &self.test, &game)
                    .clauses(["uhp"])
                    .pattern("options set")
                    .detail(format!(
                        "the engine refused to set the rules options {}",
                        options
                    ))
                    .exchange(sent, Vec::new()),
            );
            return Err(Stop);
        }
        let mut sent = self.rules_lines(options);
        sent.push(format!("newgame {}", case.game));
        let response = match self.session.command(&format!("newgame {}", case.game)) {
            Ok(r) => r,
            Err(e) => return Err(self.engine_failure(&game, e, sent)),
        };
        if response.is_error() {
            let leniency = game_string_leniency(&case.game, options);
            self.add(
                Finding::new(Kind::RejectedLegal, &self.test, &game)
                    .severity(severity(leniency))
                    .case_clauses(&case.clauses)
                    .clauses(leniency.or(Some("§9.4")))
                    .pattern(format!("newgame{}", leniency_word(leniency)))
                    .moves(vec![case.game.clone()])
                    .detail(format!(
                        "the engine refused to load the case's GameString{}: {}",
                        leniency_note(leniency),
                        response.lines.join(" / ")
                    ))
                    .exchange(sent, response.lines.clone())
                    .explain(&game_string, None),
            );
            return Err(Stop);
        }
        self.compare_game_string(&game, &response, || sent.clone())?;
        if let Some(expected) = &case.state {
            if let Some((state, _)) = state_and_turn(response.last_line().unwrap_or("")) {
                if state.name() != expected {
                    self.add(
                        Finding::new(Kind::State, &self.test, &game)
                            .clauses(state_clauses(&game, true))
                            .case_clauses(&case.clauses)
                            .pattern("state")
                            .detail(format!("the engine says {state}, the case says {expected}"))
                            .exchange(sent.clone(), response.lines.clone())
                            .explain(&game_string, None),
                    );
                }
            }
        }
        let mut asked = sent.clone();
        asked.push("validmoves".to_string());
        let texts = match self.session.validmoves(&game) {
            Ok(t) => t,
            Err(e) => return Err(self.engine_failure(&game, e, asked)),
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
        self.report_diff(&game, &diff, &case.clauses, asked, &[texts.join(";")], None);
        // Each `legal` move as written: the engine must play it (and undo it).
        for text in &case.legal {
            let Ok(mv) = game.parse_move(text) else {
                continue;
            };
            let line = if mv == Move::Pass && text.trim().eq_ignore_ascii_case("pass") {
                text.trim().to_string()
            } else {
                format!("play {text}")
            };
            let mut shown = sent.clone();
            shown.push(line.clone());
            let answer = match self.session.command(&line) {
                Ok(a) => a,
                Err(e) => return Err(self.engine_failure(&game, e, shown)),
            };
            if answer.is_error() {
                let leniency = move_leniency(&game, text);
                let canonical = game.move_string(mv);
                self.add(
                    Finding::new(Kind::RejectedLegal, &self.test, &game)
                        .severity(severity(leniency))
                        .case_clauses(&case.clauses)
                        .clauses(leniency)
                        .clauses(clauses_of(&game, &BTreeSet::from([mv])))
                        .moves(vec![text.clone()])
                        .detail(format!(
                            "the engine refused the legal move `{text}` ({canonical}){}: {}",
                            leniency_note(leniency),
                            answer.lines.join(" / ")
                        ))
                        .exchange(shown, answer.lines.clone())
                        .explain(&game_string, Some(text))
                        .verdicts(&game, &BTreeSet::from([mv]))
                        .pattern(format!(
                            "{}{}",
                            crate::check::finding::move_pattern(&game, &BTreeSet::from([mv])),
                            leniency_word(leniency)
                        )),
                );
                continue;
            }
            let mut after = game.clone();
            after.play_unchecked(mv);
            self.compare_game_string(&after, &answer, || shown.clone())?;
            self.counts.undo_checks += 1;
            shown.push("undo 1".to_string());
            let undone = match self.session.command("undo 1") {
                Ok(a) => a,
                Err(e) => return Err(self.engine_failure(&game, e, shown)),
            };
            self.check_undo(&game, &undone, &shown)?;
        }
        if case.illegal.is_empty() {
            return Ok(());
        }
        let mut shown = sent.clone();
        for entry in &case.illegal {
            self.counts.illegal_probes += 1;
            let line = format!("play {}", entry.mv);
            shown.push(line.clone());
            let answer = match self.session.command(&line) {
                Ok(a) => a,
                Err(e) => return Err(self.engine_failure(&game, e, shown)),
            };
            if !answer.is_error() {
                let mv = game.parse_move(&entry.mv).ok();
                let moves: BTreeSet<Move> = mv.into_iter().collect();
                // the reference's clauses for the refusal, as in random games
                let refused: Vec<String> = mv
                    .and_then(|mv| game.clone().play(mv).err())
                    .map(|e| e.clauses.iter().map(|c| c.to_string()).collect())
                    .unwrap_or_else(|| vec![entry.clause.clone()]);
                self.add(
                    Finding::new(Kind::AcceptedIllegal, &self.test, &game)
                        .clauses(refused)
                        .case_clauses([&entry.clause])
                        .case_clauses(&case.clauses)
                        .moves(vec![entry.mv.clone()])
                        .detail(format!(
                            "the engine accepted `{}`, which {} forbids",
                            entry.mv, entry.clause
                        ))
                        .exchange(shown.clone(), answer.lines.clone())
                        .explain(&game_string, Some(&entry.mv))
                        .verdicts(&game, &moves),
                );
                return Err(Stop);
            }
        }
        // The refusals must leave the position as it was.
        shown.push("validmoves".to_string());
        let after = match self.session.validmoves(&game) {
            Ok(t) => t,
            Err(e) => return Err(self.engine_failure(&game, e, shown)),
        };
        if resolve_moves(&game, &after).0 != engine_moves {
            self.add(
                Finding::new(Kind::State, &self.test, &game)
                    .clauses(["uhp"])
                    .case_clauses(&case.clauses)
                    .pattern("refusal changed the game")
                    .detail("the engine's valid moves changed after refused moves")
                    .exchange(shown, vec![after.join(";")]),
            );
        }
        Ok(())
    }
}

/// The severity of a refusal of a spelling that relies on `leniency`.
fn severity(leniency: Option<&str>) -> Severity {
    if leniency.is_some() {
        Severity::Advisory
    } else {
        Severity::Error
    }
}

fn leniency_note(leniency: Option<&str>) -> String {
    leniency
        .map(|c| format!(" (a lenient spelling, {c}: an engine MAY refuse it)"))
        .unwrap_or_default()
}

fn leniency_word(leniency: Option<&str>) -> String {
    leniency
        .map(|c| format!(" (lenient {c})"))
        .unwrap_or_default()
}
