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

use crate::check::checker::{state_and_turn, Stop, Worker};
use crate::check::client::Response;
use crate::check::finding::{Finding, Kind};
use crate::check::run::{game_rng, pick};
use crate::core::BoardView;
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
    /// A covered piece (own or the opponent's) named as the mover, which is
    /// that piece and cannot move (§9.25, §5.2).
    CoveredMover,
    /// A piece still in its reserve named as the reference (§9.23).
    ReserveReference,
    /// A climb onto an occupied cell written with a direction (§9.26) by a
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
            // the resolved move is meaningless: the text is refused (§9.23)
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
                    .clauses(["§9.15"])
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
                    .clauses(["§9.23"])
                    .pattern("reference in reserve")
                    .moves(vec![text.to_string()])
                    .detail(format!(
                        "the engine accepted `{text}`, whose reference piece is not on the board (§9.23)"
                    ))
                    .exchange(shown, answer.lines.clone())
                    .explain(&game.game_string(), Some(text)),
            );
            return Err(Stop);
        }
        self.shrink_focus_and_report(Kind::AcceptedIllegal, game, history, mv, &answer, played);
        Err(Stop)
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
pub(crate) fn lines_to(prefix: &[String], game: &ReferenceEngine, question: &str) -> Vec<String> {
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
