//! Seeded random games over UHP: at every ply the engine's `validmoves`,
//! state, turn and printed GameString are compared with the rules; every
//! few plies an illegal move is probed (a plausible move, a covered piece
//! named as the mover, a reference to a piece in reserve, a climb written
//! with a direction), a `pass` that is not legal, `bestmove depth 1` and
//! `undo`. A disagreement is shrunk ([`crate::check::shrink`]) to a short
//! legal game that still shows it, checked with the engine itself.

use std::collections::BTreeSet;
use std::time::Instant;

use rand_chacha::ChaCha8Rng;

use crate::check::checker::{
    game_rng, pick, shares_a_clause, state_and_turn, MoveDiff, Stop, Worker,
};
use crate::check::client::{ClientError, Response};
use crate::check::finding::{clauses_of, Finding, Kind};
use crate::check::shrink::{shrink, Budget, Shows, Shrunk};
use crate::core::notation::BoardView;
use crate::core::{GameType, Hex, Move, Piece};
use crate::reference::placement::next_pieces_in_reserve;
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

/// The kinds of illegal probes, in turn.
#[derive(Clone, Copy, Debug)]
enum Probe {
    /// A piece of the reserve placed, or a free piece of the side to move
    /// moved, onto a cell touching the hive.
    Plausible,
    /// A covered piece (own or the opponent's) named as the mover (§5.2).
    CoveredMover,
    /// A piece still in its reserve named as the reference (§9.7).
    ReserveReference,
    /// A climb onto an occupied cell written with a direction (§9.8) by a
    /// piece that may not climb there.
    DirectionClimb,
}

const PROBES: [Probe; 4] = [
    Probe::Plausible,
    Probe::CoveredMover,
    Probe::ReserveReference,
    Probe::DirectionClimb,
];

/// A move the reference refuses, of the kind `probe`, with the text sent
/// for it; `None` when the position has none.
fn illegal_candidate(
    game: &ReferenceEngine,
    legal: &BTreeSet<Move>,
    probe: Probe,
    rng: &mut ChaCha8Rng,
) -> Option<(Move, String)> {
    let board = game.board();
    let color = game.side_to_move();
    let cells: Vec<Hex> = board.empty_cells_touching_hive().into_iter().collect();
    if cells.is_empty() {
        return None;
    }
    let mut candidates: Vec<(Move, String)> = Vec::new();
    match probe {
        Probe::Plausible => {
            let mut moves = Vec::new();
            for piece in next_pieces_in_reserve(board, game.game_type(), color) {
                for &to in &cells {
                    moves.push(Move::Place { piece, to });
                }
            }
            for (_, piece) in board.pieces() {
                if piece.color == color && board.is_on_top(piece) {
                    for &to in &cells {
                        moves.push(Move::Move { piece, to });
                    }
                }
            }
            for mv in moves {
                if !legal.contains(&mv) {
                    let text = game.move_string(mv);
                    if game.parse_move(&text) == Ok(mv) {
                        candidates.push((mv, text));
                    }
                }
            }
        }
        Probe::CoveredMover => {
            // `wQ \wS1` while a beetle sits on wQ: the name is the covered
            // piece's, never the top one's
            for (_, piece) in board.pieces() {
                if board.is_on_top(piece) {
                    continue;
                }
                for &to in &cells {
                    let mv = Move::Move { piece, to };
                    let text = game.move_string(mv);
                    if game.parse_move(&text) == Ok(mv) {
                        candidates.push((mv, text));
                    }
                }
            }
        }
        Probe::ReserveReference => {
            // a target beside a piece that is not on the board
            let in_reserve: Vec<Piece> = game
                .game_type()
                .all_pieces()
                .filter(|&p| board.location(p).is_none())
                .collect();
            let movers: Vec<Piece> = board
                .pieces()
                .map(|(_, p)| p)
                .filter(|&p| p.color == color && board.is_on_top(p))
                .collect();
            for &mover in &movers {
                for &reference in &in_reserve {
                    let text = format!("{mover} -{reference}");
                    candidates.push((
                        Move::Move {
                            piece: mover,
                            to: Hex::ORIGIN,
                        },
                        text,
                    ));
                }
            }
            // the resolved move is meaningless: the text is refused (§9.7)
            candidates.retain(|(_, text)| game.parse_move(text).is_err());
        }
        Probe::DirectionClimb => {
            // `wQ -bS1` where the cell west of bS1 is occupied: a climb
            for (at, piece) in board.pieces() {
                if piece.color != color || !board.is_on_top(piece) {
                    continue;
                }
                for (_, reference) in board.pieces() {
                    let Some(ref_at) = board.location(reference) else {
                        continue;
                    };
                    for direction in crate::core::Direction::ALL {
                        let to = ref_at.neighbour(direction);
                        if to == at || !board.is_occupied(to) {
                            continue;
                        }
                        let mv = Move::Move { piece, to };
                        if legal.contains(&mv) {
                            continue;
                        }
                        let text = format!(
                            "{piece} {}",
                            crate::core::notation::target_text(reference, direction)
                        );
                        if game.parse_move(&text) == Ok(mv) {
                            candidates.push((mv, text));
                        }
                    }
                }
            }
        }
    }
    for _ in 0..8 {
        if candidates.is_empty() {
            return None;
        }
        let (mv, text) = candidates.swap_remove(pick(rng, candidates.len()));
        let refused = match game.parse_move(&text) {
            Err(_) => true,
            Ok(parsed) => game.clone().play(parsed).is_err(),
        };
        if refused {
            return Some((mv, text));
        }
    }
    None
}

impl Worker<'_> {
    /// Random game `index` of `game_type`.
    pub(crate) fn game(&mut self, index: u64, game_type: GameType) -> Result<(), Stop> {
        let rules = self.ctx.rules;
        let mut rng = game_rng(self.ctx.config.seed, game_type, index);
        let mut game = ReferenceEngine::new_game(game_type, rules);
        let prefix = self.rules_lines(rules);
        if self.ctx.settable && !self.set_rules(rules) {
            self.add(
                Finding::new(Kind::Protocol, &self.test, &game)
                    .clauses(["uhp"])
                    .pattern("options set")
                    .detail("the engine refused to set its rules options")
                    .exchange(prefix, Vec::new()),
            );
            return Err(Stop);
        }
        let mut sent = prefix.clone();
        sent.push(format!("newgame {game_type}"));
        let response = match self.session.command(&format!("newgame {game_type}")) {
            Ok(r) => r,
            Err(e) => return Err(self.engine_failure(&game, e, sent)),
        };
        if response.is_error() {
            self.add(
                Finding::new(Kind::Protocol, &self.test, &game)
                    .clauses(["§9.1"])
                    .pattern("newgame")
                    .detail(format!(
                        "the engine refused `newgame {game_type}`: {}",
                        response.lines.join(" / ")
                    ))
                    .exchange(sent, response.lines.clone()),
            );
            return Err(Stop);
        }
        self.compare_game_string(&game, &response, || sent.clone())?;
        let mut history: Vec<Move> = Vec::new();
        for ply in 0..self.ctx.config.max_plies {
            if game.state().is_over() {
                break;
            }
            // the lines that bring any engine to this position and ask `q`,
            // built only for a finding (a GameString costs a replay)
            let ask = |g: &ReferenceEngine, q: &str| lines_to(&prefix, g, q);
            let texts = match self.session.validmoves(&game) {
                Ok(t) => t,
                Err(e) => {
                    return Err(self.failure_in_game(
                        &game,
                        &history,
                        None,
                        e,
                        ask(&game, "validmoves"),
                    ))
                }
            };
            let start = Instant::now();
            let legal = game.legal_move_set();
            self.reference_time += start.elapsed();
            let diff = self.compare_moves_with(&game, &texts, &legal);
            if !diff.kinds().is_empty() {
                self.shrink_diff_and_report(&game, &diff, &[texts.join(";")]);
                return Err(Stop);
            }
            // Every few plies: a move the rules forbid must be refused.
            if ply % 4 == 3 {
                let probe = PROBES[(ply / 4) % PROBES.len()];
                let start = Instant::now();
                let candidate = illegal_candidate(&game, &legal, probe, &mut rng);
                self.reference_time += start.elapsed();
                if let Some((mv, text)) = candidate {
                    self.counts.illegal_probes += 1;
                    self.probe_illegal(&game, &history, mv, &text, &prefix)?;
                }
            }
            if ply % 10 == 5 && !legal.contains(&Move::Pass) {
                self.counts.pass_checks += 1;
                self.probe_illegal(&game, &history, Move::Pass, "pass", &prefix)?;
            }
            if ply % 16 == 9 {
                self.bestmove_depth(&game, &legal, &prefix)?;
            }
            let all: Vec<Move> = legal.iter().copied().collect();
            let mv = all[pick(&mut rng, all.len())];
            let text = game.move_string(mv);
            let line = play_line(mv, &text);
            if mv == Move::Pass {
                self.counts.pass_checks += 1;
            }
            let answer = match self.session.command(&line) {
                Ok(a) => a,
                Err(e) => {
                    return Err(self.failure_in_game(
                        &game,
                        &history,
                        Some(mv),
                        e,
                        ask(&game, &line),
                    ))
                }
            };
            if answer.is_error() {
                let played = self.session.transcript.clone();
                self.shrink_focus_and_report(
                    Kind::RejectedLegal,
                    &game,
                    &history,
                    mv,
                    &answer,
                    played,
                );
                return Err(Stop);
            }
            game.play_unchecked(mv);
            self.counts.plies += 1;
            let state = state_and_turn(answer.last_line().unwrap_or(""));
            if state.is_some_and(|st| st != (game.state(), game.turn())) {
                let played = self.session.transcript.clone();
                self.shrink_focus_and_report(
                    Kind::State,
                    &undone(&game),
                    &history,
                    mv,
                    &answer,
                    played,
                );
                return Err(Stop);
            }
            history.push(mv);
            self.compare_game_string(&game, &answer, || ask(&undone(&game), &line))?;
            // Now and then: undo must bring the earlier position back.
            if ply % 7 == 6 {
                self.counts.undo_checks += 1;
                let before = undone(&game);
                let mut shown = ask(&before, &line);
                shown.push("undo 1".to_string());
                let undone = match self.session.command("undo 1") {
                    Ok(a) => a,
                    Err(e) => return Err(self.engine_failure(&game, e, shown)),
                };
                self.check_undo(&before, &undone, &shown)?;
                shown.push(line.clone());
                match self.session.command(&line) {
                    Ok(a) if !a.is_error() => {}
                    Ok(a) => {
                        self.add(
                            Finding::new(Kind::Undo, &self.test, &before)
                                .clauses(["uhp"])
                                .pattern("replay after undo")
                                .moves(vec![text.clone()])
                                .detail(format!(
                                    "after undo, the engine refused to replay {text}: {}",
                                    a.lines.join(" / ")
                                ))
                                .exchange(shown, a.lines.clone()),
                        );
                        return Err(Stop);
                    }
                    Err(e) => return Err(self.engine_failure(&game, e, shown)),
                }
            }
        }
        Ok(())
    }

    /// Checks the answer to `undo`: the GameString of `before`.
    pub(crate) fn check_undo(
        &mut self,
        before: &ReferenceEngine,
        undone: &Response,
        sent: &[String],
    ) -> Result<(), Stop> {
        let line = undone.last_line().unwrap_or("").trim();
        let same = !undone.is_error()
            && ReferenceEngine::load_with(line, before.options())
                .is_ok_and(|g| g.history() == before.history());
        if same {
            return Ok(());
        }
        let expected = before.game_string();
        self.add(
            Finding::new(Kind::Undo, &self.test, before)
                .clauses(["uhp"])
                .pattern("undo")
                .detail(format!(
                    "after undo, the engine says \"{line}\", expected \"{expected}\""
                ))
                .exchange(sent.to_vec(), undone.lines.clone()),
        );
        Err(Stop)
    }

    /// `bestmove depth 1` in `game`: the answer must be a legal move.
    fn bestmove_depth(
        &mut self,
        game: &ReferenceEngine,
        legal: &BTreeSet<Move>,
        prefix: &[String],
    ) -> Result<(), Stop> {
        self.counts.bestmove_checks += 1;
        let line = "bestmove depth 1";
        let shown = lines_to(prefix, game, line);
        let answer = match self.session.command(line) {
            Ok(a) => a,
            Err(e) => return Err(self.engine_failure(game, e, shown)),
        };
        if let Some(problem) = bestmove_problem(game, legal, &answer) {
            self.add(
                Finding::new(Kind::Bestmove, &self.test, game)
                    .clauses(["uhp"])
                    .pattern("bestmove depth")
                    .detail(format!("`{line}`: {problem}"))
                    .exchange(shown, answer.lines.clone())
                    .explain(&game.game_string(), answer.last_line()),
            );
            return Err(Stop);
        }
        Ok(())
    }

    /// Sends a move the rules forbid in `game` (reached by `history`); it
    /// must be refused.
    fn probe_illegal(
        &mut self,
        game: &ReferenceEngine,
        history: &[Move],
        mv: Move,
        text: &str,
        prefix: &[String],
    ) -> Result<(), Stop> {
        let line = play_line(mv, text);
        let answer = match self.session.command(&line) {
            Ok(a) => a,
            Err(e) => {
                let shown = lines_to(prefix, game, &line);
                return Err(self.engine_failure(game, e, shown));
            }
        };
        if answer.is_error() {
            return Ok(());
        }
        // The engine's game has diverged; the shrinker loads positions with
        // `newgame`, and this game stops.
        let played = self.session.transcript.clone();
        let _ = self.session.command("undo 1");
        if game.parse_move(text) != Ok(mv) {
            // a text that names no move of this position (a reserve
            // reference): reported as it is, nothing to shrink
            let shown = lines_to(prefix, game, &line);
            self.add(
                Finding::new(Kind::AcceptedIllegal, &self.test, game)
                    .clauses(["§9.7"])
                    .pattern("reference in reserve")
                    .moves(vec![text.to_string()])
                    .detail(format!(
                        "the engine accepted `{text}`, whose reference piece is not on the board (§9.7)"
                    ))
                    .exchange(shown, answer.lines.clone())
                    .explain(&game.game_string(), Some(text)),
            );
            return Err(Stop);
        }
        self.shrink_focus_and_report(Kind::AcceptedIllegal, game, history, mv, &answer, played);
        Err(Stop)
    }

    /// The engine's `validmoves` against the rules in the position of
    /// `game`, loaded with `newgame <GameString>`. `Ok(None)` when the
    /// engine refuses the GameString.
    fn diff_at(
        &mut self,
        game: &ReferenceEngine,
    ) -> Result<Option<(MoveDiff, String)>, ClientError> {
        let response = self
            .session
            .command(&format!("newgame {}", game.game_string()))?;
        if response.is_error() {
            return Ok(None);
        }
        let texts = self.session.validmoves(game)?;
        Ok(Some((self.compare_moves(game, &texts), texts.join(";"))))
    }

    /// Shrinks a disagreement on the legal moves of `game` to the shortest
    /// game that still shows the same kind of disagreement citing at least
    /// one of the same clauses, and reports it.
    fn shrink_diff_and_report(
        &mut self,
        game: &ReferenceEngine,
        diff: &MoveDiff,
        answer: &[String],
    ) {
        let history = game.history().to_vec();
        let found_at = history.len();
        for kind in diff.kinds() {
            let original = diff.only(kind);
            let clauses = original.clauses(game);
            // the move the rebuild search centres on: one that moves a piece
            let disputed = original
                .missing
                .iter()
                .chain(&original.extra)
                .copied()
                .find(|mv| matches!(mv, Move::Move { .. }));
            let mut best: (ReferenceEngine, MoveDiff, Vec<String>) =
                (game.clone(), original, answer.to_vec());
            let start = Instant::now();
            let shrunk = shrink(
                game.game_type(),
                game.options(),
                &history,
                None,
                disputed,
                Budget::default(),
                |candidate, _| match self.diff_at(candidate) {
                    Err(_) => {
                        self.session.drop_engine();
                        Shows::Abort
                    }
                    Ok(Some((d, said))) if d.kinds().contains(&kind) => {
                        let d = d.only(kind);
                        if shares_a_clause(&clauses, &d.clauses(candidate)) {
                            best = (candidate.clone(), d, vec![said]);
                            Shows::Yes
                        } else {
                            Shows::No
                        }
                    }
                    Ok(_) => Shows::No,
                },
            );
            self.note_shrink(&shrunk, start);
            let (g, d, said) = best;
            let shrunk_from = (g.plies() < found_at).then_some(found_at);
            let mut sent = self.rules_lines(g.options());
            sent.push(format!("newgame {}", g.game_string()));
            sent.push("validmoves".to_string());
            let before = self.findings.len();
            self.report_diff(&g, &d, &[], sent, &said, shrunk_from);
            self.mark_capped(before, &shrunk);
        }
    }

    /// Shrinks a disagreement about one move (the focus) played after
    /// `history` in `game`: an illegal move the engine accepted, a legal
    /// move it refused, or a move after which it printed the wrong state;
    /// then reports it.
    fn shrink_focus_and_report(
        &mut self,
        kind: Kind,
        game: &ReferenceEngine,
        history: &[Move],
        focus: Move,
        answer: &Response,
        played: Vec<String>,
    ) {
        let Some(original) = self.focus_disagreement(kind, game, focus, None) else {
            // the engine no longer shows it from a loaded GameString:
            // report the game as it was played, with the whole conversation
            let text = game.move_string(focus);
            let mut after = game.clone();
            after.play_unchecked(focus);
            let shown = if kind == Kind::State {
                after.game_string()
            } else {
                game.game_string()
            };
            let sent = played;
            let said = answer.lines.join(" / ");
            let finding = Finding::new(kind, &self.test, game)
                .shown_at(shown)
                .clauses(focus_clauses(kind, game, focus))
                .moves(vec![text.clone()])
                .detail(format!(
                    "{} (not shown again after `newgame` with the GameString: the pipe replays the whole conversation of the game)",
                    focus_detail(kind, game, focus, &text, &said)
                ))
                .exchange(sent, answer.lines.clone())
                .explain(&game.game_string(), Some(&text))
                .verdicts(game, &BTreeSet::from([focus]));
            self.add(finding);
            return;
        };
        let clauses = original.clauses.clone();
        let mut best = original;
        let start = Instant::now();
        let shrunk = shrink(
            game.game_type(),
            game.options(),
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
                    None if self.session.is_down() => Shows::Abort,
                    None => Shows::No,
                }
            },
        );
        self.note_shrink(&shrunk, start);
        let found_at = (best.game.plies() < history.len()).then_some(history.len());
        let mut sent = self.rules_lines(best.game.options());
        sent.push(format!("newgame {}", best.game.game_string()));
        sent.push(play_line(best.focus, &best.text));
        let mut finding = Finding::new(kind, &self.test, &best.game)
            .shown_at(best.game_string.clone())
            .clauses(&best.clauses)
            .moves(vec![best.text.clone()])
            .detail(best.detail.clone())
            .exchange(sent, best.answer.clone())
            .explain(&best.game.game_string(), Some(&best.text))
            .verdicts(&best.game, &BTreeSet::from([best.focus]));
        finding.found_at_ply = found_at;
        let before = self.findings.len();
        self.add(finding);
        self.mark_capped(before, &shrunk);
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
        let legal = game.clone().play(focus).is_ok();
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
                self.session.drop_engine();
                return None;
            }
        };
        if loaded.is_error() {
            return None;
        }
        let answer = match self.session.command(&play_line(focus, &text)) {
            Ok(a) => a,
            Err(_) => {
                self.session.drop_engine();
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
            answer: answer.lines,
        })
    }

    /// A crash or timeout in a random game, after `history` and on `sent`'s
    /// last line (`play` of `focus`, or `validmoves`): recorded, then shrunk
    /// to the shortest game on which the same command fails the same way.
    fn failure_in_game(
        &mut self,
        game: &ReferenceEngine,
        history: &[Move],
        focus: Option<Move>,
        error: ClientError,
        sent: Vec<String>,
    ) -> Stop {
        let kind = match &error {
            ClientError::Timeout { .. } => Kind::Timeout,
            ClientError::Exited { .. } => Kind::Crash,
            _ => return self.engine_failure(game, error, sent),
        };
        let before = self.findings.len();
        let stop = self.engine_failure(game, error, sent);
        let budget = if kind == Kind::Timeout {
            Budget::for_timeouts()
        } else {
            Budget::default()
        };
        let mut best: Option<(ReferenceEngine, Option<Move>, ClientError)> = None;
        let start = Instant::now();
        let shrunk = shrink(
            game.game_type(),
            game.options(),
            history,
            focus,
            None,
            budget,
            |candidate, focus| {
                let loaded = match self
                    .session
                    .command(&format!("newgame {}", candidate.game_string()))
                {
                    Ok(r) if !r.is_error() => r,
                    Ok(_) => return Shows::No,
                    Err(_) => {
                        self.session.drop_engine();
                        return Shows::No;
                    }
                };
                let _ = loaded;
                let line = match focus {
                    Some(mv) => play_line(mv, &candidate.move_string(mv)),
                    None => "validmoves".to_string(),
                };
                match self.session.command(&line) {
                    Err(e) => {
                        let same = matches!(
                            (&e, kind),
                            (ClientError::Timeout { .. }, Kind::Timeout)
                                | (ClientError::Exited { .. }, Kind::Crash)
                        );
                        let shows = if same { Shows::Yes } else { Shows::No };
                        if same {
                            best = Some((candidate.clone(), focus, e));
                        }
                        self.session.drop_engine();
                        shows
                    }
                    Ok(_) => Shows::No,
                }
            },
        );
        self.note_shrink(&shrunk, start);
        if let Some((shorter, focus, error)) = best {
            if shorter.plies() < history.len() {
                // replace the finding by the shrunk one
                self.findings.truncate(before);
                let line = match focus {
                    Some(mv) => play_line(mv, &shorter.move_string(mv)),
                    None => "validmoves".to_string(),
                };
                let mut sent = self.rules_lines(shorter.options());
                sent.push(format!("newgame {}", shorter.game_string()));
                sent.push(line);
                let stop = self.engine_failure(&shorter, error, sent);
                if let Some(f) = self.findings.last_mut() {
                    f.found_at_ply = Some(history.len());
                }
                self.mark_capped(before, &shrunk);
                return stop;
            }
        }
        self.mark_capped(before, &shrunk);
        stop
    }

    /// Counts the work of one shrink.
    fn note_shrink(&mut self, shrunk: &Shrunk, start: Instant) {
        self.counts.shrinks += 1;
        self.counts.shrink_candidates += shrunk.candidates as u64;
        self.counts.shrink_positions += shrunk.positions as u64;
        self.counts.shrink_engine_checks += shrunk.predicate_calls as u64;
        self.shrink_time += start.elapsed();
    }

    /// Notes on the findings added since `before` that the safety cap
    /// stopped their shrink.
    fn mark_capped(&mut self, before: usize, shrunk: &Shrunk) {
        if !shrunk.capped {
            return;
        }
        for f in &mut self.findings[before..] {
            f.shrink_note = Some(
                "the shrink was stopped by its wall-clock safety cap (300 s), not by its work budget: this result may differ between runs".to_string(),
            );
        }
    }
}

/// The game before its last move (a copy is taken only when needed: a
/// reference engine costs its whole history to copy).
fn undone(game: &ReferenceEngine) -> ReferenceEngine {
    let mut before = game.clone();
    before.undo();
    before
}

/// The lines that bring an engine to the position of `game` (after the
/// rules-setting `prefix`) and ask `question`.
fn lines_to(prefix: &[String], game: &ReferenceEngine, question: &str) -> Vec<String> {
    let mut lines = prefix.to_vec();
    lines.push(format!("newgame {}", game.game_string()));
    lines.push(question.to_string());
    lines
}

/// The command that plays `mv` (written `text`).
pub(crate) fn play_line(mv: Move, text: &str) -> String {
    if mv == Move::Pass && text == "pass" {
        "pass".to_string()
    } else {
        format!("play {text}")
    }
}

/// What is wrong with a `bestmove` answer in `game`, if anything: it must
/// be one legal move (the last line, uhp.md section 5.6).
pub(crate) fn bestmove_problem(
    game: &ReferenceEngine,
    legal: &BTreeSet<Move>,
    answer: &Response,
) -> Option<String> {
    if answer.is_error() {
        return Some(format!(
            "refused in a game in progress: {}",
            answer.lines.join(" / ")
        ));
    }
    let Some(line) = answer.last_line() else {
        return Some("answered no move".to_string());
    };
    let text = line.split(';').next().unwrap_or("").trim();
    match game.parse_move(text) {
        Err(e) => Some(format!("answered `{line}`, which is not a move here: {e}")),
        Ok(mv) if !legal.contains(&mv) => {
            let why = game
                .clone()
                .play(mv)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            Some(format!("answered `{line}`, which is illegal: {why}"))
        }
        Ok(_) => None,
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
    answer: Vec<String>,
}

/// The clauses behind a disagreement about one move: why the rules refuse
/// it, what grants it, or what decides the state after it.
fn focus_clauses(kind: Kind, game: &ReferenceEngine, focus: Move) -> Vec<String> {
    match kind {
        Kind::State => {
            let mut after = game.clone();
            after.play_unchecked(focus);
            crate::check::checker::state_clauses(&after, true)
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
