//! The bindings of the web page (`web/`): the reference engine, its
//! judgements and explanations, the throws of a pillbug and why a piece has
//! no move (`answers.rs`), and the spec, for a page that runs in the browser
//! with no server.
//!
//! The package `hive-oracle-web` depends on the rules package only. Built for
//! `wasm32-unknown-unknown` and turned into a JavaScript module by
//! `wasm-bindgen` (`web/build.sh`).
//! The page's script holds no rules: every answer it shows comes from a
//! [`Session`], as JSON. The legal moves are the reference engine's, the
//! grant of each is [`explain::grants`], and an explanation is
//! [`explain::explain_move`], the text `hive-oracle explain` prints, without
//! its ASCII picture: the page draws the board itself (`web/board.js`)
//! from the stacks, destinations, last move and the cells and walks the
//! explanation's facts name, all given here.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod answers;
mod setup;
mod spec;

use serde_json::{json, Value};
use wasm_bindgen::prelude::wasm_bindgen;

use hive_oracle_rules::core::notation::{parse_game_type, parse_piece};
use hive_oracle_rules::core::view::BoardView;
use hive_oracle_rules::core::{Color, Hex, Move, Piece, RulesOptions};
use hive_oracle_rules::explain;
use hive_oracle_rules::records::GameText;
use hive_oracle_rules::reference::{opening, ReferenceEngine};
use hive_oracle_rules::render;
use hive_oracle_rules::rules::Rules;

/// A game on the page: the reference engine, the moves undone (for redo),
/// and the rules options.
#[wasm_bindgen]
pub struct Session {
    game: ReferenceEngine,
    redo: Vec<Move>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

#[wasm_bindgen]
impl Session {
    /// A new `Base` game under the default rules options.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Session {
        Session {
            game: ReferenceEngine::new_game(
                hive_oracle_rules::core::GameType::BASE,
                RulesOptions::default(),
            ),
            redo: Vec::new(),
        }
    }

    /// Loads what the player pasted or chose: a GameTypeString (a new game),
    /// a GameString (§9.31) or a game record (PGN or SGF, its first game,
    /// spec/game-records.md), under the given options (a record brings its
    /// own opening), as [`GameText::of_paste`] tells them apart.
    /// Answers `{"ok": true}`, or `{"error": "…"}` and leaves the game as it
    /// was.
    pub fn load(&mut self, text: &str, standard_opening: bool, repetition_draw: bool) -> String {
        let options = RulesOptions {
            tournament_opening: !standard_opening,
            repetition_draw,
        };
        match GameText::of_paste(text).and_then(|text| text.load(options)) {
            Ok(game) => {
                self.game = game;
                self.redo.clear();
                json!({ "ok": true }).to_string()
            }
            Err(error) => match answers::load_to_illegal_ply(text, options, &error) {
                // The dispute is the illegal ply itself: the game before it
                // is loaded, and the page explains it.
                Some(stopped) => {
                    self.game = stopped.game;
                    self.redo.clear();
                    json!({
                        "error": error.to_string(),
                        "stoppedAt": { "ply": stopped.ply, "move": stopped.mv },
                    })
                    .to_string()
                }
                None => json!({ "error": error.to_string() }).to_string(),
            },
        }
    }

    /// Plays a move given in UHP notation. Answers `{"ok": true}`, or
    /// `{"error": "…"}` with the explanation of the refusal (as
    /// `hive-oracle explain` gives it) and the game unchanged.
    pub fn play(&mut self, move_text: &str) -> String {
        let mv = match self.game.parse_move(move_text) {
            Ok(mv) => mv,
            Err(e) => return json!({ "error": e.to_string() }).to_string(),
        };
        match self.game.play(mv) {
            Ok(()) => {
                self.redo.clear();
                json!({ "ok": true }).to_string()
            }
            Err(_) => json!({ "error": explanation_text(&self.game, mv) }).to_string(),
        }
    }

    /// Takes back the last move; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        match self.game.undo() {
            Some(mv) => {
                self.redo.push(mv);
                true
            }
            None => false,
        }
    }

    /// Plays again the last move taken back; `false` when there is none.
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(mv) => {
                self.game.play_unchecked(mv);
                true
            }
            None => false,
        }
    }

    /// The MoveString of `piece` going to the cell `(q, r)`, as the
    /// position names it (§9.30), whether or not the move is legal; empty
    /// when `piece` names no piece of the game.
    pub fn move_to(&self, piece: &str, q: i32, r: i32) -> String {
        match self.piece(piece) {
            Some(piece) => self.game.move_string(self.move_of(piece, Hex::new(q, r))),
            None => String::new(),
        }
    }

    /// Everything the page shows, as JSON: the game and its state, the
    /// reserves, the board as SVG, and, when asked for, the legal moves of
    /// the `selected` piece with their grants and the explanation of
    /// `explained` (a MoveString). Either may be empty. A name or move that
    /// does not read is reported in `"error"`, and the rest is still shown.
    pub fn view(&self, selected: &str, explained: &str) -> String {
        let mut errors = Vec::new();
        let piece = match selected.trim() {
            "" => None,
            text => match parse_piece(text) {
                Ok(piece) if self.game.game_type().all_pieces().any(|p| p == piece) => Some(piece),
                Ok(piece) => {
                    errors.push(format!(
                        "{piece} is not a piece of {}",
                        self.game.game_type()
                    ));
                    None
                }
                Err(e) => {
                    errors.push(e.to_string());
                    None
                }
            },
        };
        let explained_move = match explained.trim() {
            "" => None,
            text => match self.game.parse_move(text) {
                Ok(mv) => Some(mv),
                Err(e) => {
                    errors.push(format!("{text}: {e}"));
                    None
                }
            },
        };
        let targets: Vec<Move> = piece.map_or_else(Vec::new, |piece| {
            self.game
                .legal_moves()
                .into_iter()
                .filter(|mv| mv.piece() == Some(piece))
                .collect()
        });
        let from = piece.and_then(|p| self.game.board().location(p));
        let throws: Vec<Move> = piece.map_or_else(Vec::new, |p| answers::throws_by(&self.game, p));
        let reason = piece
            .filter(|_| targets.is_empty() && throws.is_empty())
            .map(|p| answers::no_move_reason(&self.game, p));
        json!({
            "gameString": self.game.game_string(),
            "gameType": self.game.game_type().to_string(),
            "standardOpening": !self.game.options().tournament_opening,
            "repetitionDraw": self.game.options().repetition_draw,
            "state": self.game.state().to_string(),
            "over": self.game.state().is_over(),
            "toMove": color_name(self.game.turn().color),
            "turn": opening::turn_number(self.game.plies()),
            "ply": self.game.plies(),
            "lastMove": self.last_move_text(),
            "lastMoveCells": self.last_move_cells(),
            "canUndo": !self.game.history().is_empty(),
            "canRedo": !self.redo.is_empty(),
            "cells": self.cells(),
            "reserves": {
                "White": self.reserve(Color::White),
                "Black": self.reserve(Color::Black),
            },
            "selected": piece.map(|piece| json!({
                "piece": piece.to_string(),
                "cell": from.map(|h| [h.q, h.r]),
                "targets": targets.iter().map(|&mv| self.target(mv)).collect::<Vec<_>>(),
                "throws": throws.iter().map(|&mv| self.target(mv)).collect::<Vec<_>>(),
                "reason": reason,
            })),
            "explanation": explained_move.map(|mv| json!({
                "move": self.game.move_string(mv),
                "legal": !explain::grants(&self.game, mv).is_empty(),
                "text": explanation_text(&self.game, mv),
                "piece": mv.piece().map(|p| p.to_string()),
                "from": match mv {
                    Move::Move { piece, .. } => self.game.board().location(piece).map(|h| [h.q, h.r]),
                    _ => None,
                },
                "cell": mv.destination().map(|h| [h.q, h.r]),
                "marks": answers::fact_marks(&self.game, mv),
            })),
            "error": (!errors.is_empty()).then(|| errors.join("; ")),
        })
        .to_string()
    }

    /// The position on the board as the set-up mode edits it (`setup.rs`):
    /// `{"gameType", "standardOpening", "toMove", "turn", "lastMoved",
    /// "cells"}`, the stacks bottom to top; read from the game's position
    /// string (§9.41), so a game with a history is set up as it stands.
    pub fn setup(&self) -> String {
        setup::read(&self.game.position_string())["setup"].to_string()
    }

    /// A position string read into a set-up (`{"setup": …}`), whether or
    /// not the position can exist, or `{"error": …}` with the clause of the
    /// notation it breaks: a link reopens the set-up mode with it.
    pub fn read_setup(text: &str) -> String {
        setup::read(text).to_string()
    }

    /// A set-up (the JSON of [`Session::setup`]) judged by the library: a
    /// possible position with its position string, or the refusal with the
    /// clause it breaks (§9.42).
    pub fn check_setup(edit: &str) -> String {
        setup::check(edit).to_string()
    }

    /// The pieces of a game type (a GameTypeString, §9.15) as a JSON list
    /// of PieceStrings in the order of its box, White's first: the set-up
    /// mode's palettes. An empty list when the text names no game type.
    pub fn pieces_of(game_type: &str) -> String {
        let pieces: Vec<String> = parse_game_type(game_type.trim())
            .map(|t| t.all_pieces().map(|p| p.to_string()).collect())
            .unwrap_or_default();
        json!(pieces).to_string()
    }

    /// The spec as HTML, an anchor on every clause (`#clause-5.3`) and
    /// ruling (`#ruling-stack-colour`).
    pub fn spec_html() -> String {
        spec::spec_html()
    }
}

impl Session {
    /// `text` as a piece of this game, if it is one.
    fn piece(&self, text: &str) -> Option<Piece> {
        parse_piece(text.trim())
            .ok()
            .filter(|p| self.game.game_type().all_pieces().any(|q| q == *p))
    }

    /// The move of `piece` to `to`: a movement when it is on the board, else
    /// a placement.
    fn move_of(&self, piece: Piece, to: Hex) -> Move {
        match self.game.board().location(piece) {
            Some(_) => Move::Move { piece, to },
            None => Move::Place { piece, to },
        }
    }

    /// The last move as the GameString writes it (§9.31), if any.
    fn last_move_text(&self) -> Option<String> {
        if self.game.history().is_empty() {
            return None;
        }
        self.game
            .game_string()
            .rsplit(';')
            .next()
            .map(str::to_string)
    }

    /// The cells of the last move: where the piece came from (for a
    /// movement) and where it went; empty before the first move and after a
    /// pass.
    fn last_move_cells(&self) -> Vec<[i32; 2]> {
        let Some(&last) = self.game.history().last() else {
            return Vec::new();
        };
        let mut before = self.game.clone();
        let from = match (last, before.undo()) {
            (Move::Move { piece, .. }, Some(_)) => before.board().location(piece),
            _ => None,
        };
        from.into_iter()
            .chain(last.destination())
            .map(|h| [h.q, h.r])
            .collect()
    }

    /// The occupied cells with their stacks, bottom to top.
    fn cells(&self) -> Vec<Value> {
        render::stacks(&self.game)
            .into_iter()
            .map(|(hex, stack)| {
                json!({
                    "q": hex.q,
                    "r": hex.r,
                    "stack": stack.iter().map(Piece::to_string).collect::<Vec<_>>(),
                })
            })
            .collect()
    }

    /// The pieces of `color` not yet placed, in the order of the game type.
    fn reserve(&self, color: Color) -> Vec<String> {
        self.game
            .game_type()
            .pieces_of(color)
            .filter(|&p| self.game.board().location(p).is_none())
            .map(|p| p.to_string())
            .collect()
    }

    /// A legal move of the selected piece: its notation, its cell and the
    /// first fact of each way it is granted (§5.9), as `explain` lists it.
    fn target(&self, mv: Move) -> Value {
        let grants: Vec<String> = explain::grants(&self.game, mv)
            .iter()
            .filter_map(|way| way.first())
            .map(explain::Fact::line)
            .collect();
        json!({
            "move": self.game.move_string(mv),
            "cell": mv.destination().map(|h| [h.q, h.r]),
            "grants": grants,
        })
    }
}

/// "White" or "Black".
fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `hive-oracle explain`'s text for one move, without its picture: the
/// verdict line and the facts, clause by clause.
pub fn explanation_text(game: &ReferenceEngine, mv: Move) -> String {
    let full = explain::explain_move(game, mv);
    match full.split_once("\n\n") {
        Some((text, _picture)) => format!("{text}\n"),
        None => full,
    }
}
