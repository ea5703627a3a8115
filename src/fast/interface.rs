//! The fast engine behind the crate's two interfaces: [`BoardView`] (where
//! pieces are, for notation and pictures) and [`Rules`] (what perft, the UHP
//! server, the case runner and the checker call). Each method translates
//! between absolute moves and the engine's own [`FastMove`]s; the work is in
//! `mod.rs` (make/unmake, game end) and `movegen.rs`.

use super::grid::{cell_of, CELLS, NOWHERE};
use super::pieces::{bug_index, id_of, piece_of, NO_PIECE, PIECES};
use super::{FastEngine, FastMove};
use crate::core::BoardView;
use crate::core::{GameState, GameType, Hex, Move, Piece, RulesOptions, Setup, SetupStart};
use crate::rules::setup::connected_order;
use crate::rules::{IllegalMove, Rules};

impl BoardView for FastEngine {
    fn game_type(&self) -> GameType {
        self.game_type
    }

    fn location(&self, piece: Piece) -> Option<Hex> {
        if !self.game_type.has_bug(piece.bug)
            || piece.number == 0
            || piece.number > piece.bug.count()
        {
            return None;
        }
        let p = id_of(piece) as usize;
        (self.pos[p] != NOWHERE).then_some(self.hex[p])
    }

    fn stack(&self, hex: Hex) -> Vec<Piece> {
        let cell = cell_of(hex) as usize;
        let mut out = Vec::new();
        if self.height[cell] == 0 || self.hex[self.top[cell] as usize] != hex {
            return out;
        }
        let mut p = self.top[cell];
        while p != NO_PIECE {
            out.push(piece_of(p));
            p = self.below[p as usize];
        }
        out.reverse();
        out
    }

    fn board_is_empty(&self) -> bool {
        self.on_board == [0, 0]
    }
}

impl Rules for FastEngine {
    fn new_game(game_type: GameType, options: RulesOptions) -> Self {
        let mut game = FastEngine {
            game_type,
            options,
            height: [0; CELLS],
            top: [NO_PIECE; CELLS],
            pos: [NOWHERE; PIECES],
            below: [NO_PIECE; PIECES],
            hex: [Hex::ORIGIN; PIECES],
            placed: [[0; 8]; 2],
            encloses: 1,
            in_reserve: [0; 2],
            on_board: [0; 2],
            top_pieces: [0; 2],
            bug_indices: [0; 8],
            bug_count: 0,
            around: [0; CELLS],
            immune: NO_PIECE,
            state: GameState::NotStarted,
            hash: 0,
            history: Vec::with_capacity(256),
            undo: Vec::with_capacity(256),
            repetition_keys: Vec::new(),
            start: None,
            start_plies: 0,
        };
        for bug in game_type.bugs() {
            game.bug_indices[game.bug_count as usize] = bug_index(bug) as u8;
            game.bug_count += 1;
            game.in_reserve = game.in_reserve.map(|kinds| kinds | 1 << bug_index(bug));
        }
        if options.repetition_draw {
            let key = game.repetition_key(false);
            game.repetition_keys.push(key);
        }
        game
    }

    fn options(&self) -> RulesOptions {
        self.options
    }

    fn from_setup(setup: &Setup, options: RulesOptions) -> Self {
        // the pieces placed one by one through the same make as any move,
        // each touching or covering one before it (so that every structure
        // is kept as in a game), then the placements forgotten: the set-up
        // position is the start of the game (§9.36)
        let built = RulesOptions {
            repetition_draw: false,
            ..options
        };
        let mut game = FastEngine::new_game(setup.game_type, built);
        for (piece, hex) in connected_order(&setup.pieces) {
            let m = FastMove {
                piece: id_of(piece),
                to: cell_of(hex),
            };
            game.make(m);
        }
        game.history.clear();
        game.undo.clear();
        game.options = options;
        let start = SetupStart {
            plies: setup.plies(),
            last_moved: setup.last_moved,
        };
        game.start = Some(start);
        game.start_plies = start.plies;
        game.set_immune::<true>(setup.last_moved.map_or(NO_PIECE, id_of));
        game.hash = game.hash_slow();
        game.repetition_keys.clear();
        if options.repetition_draw {
            let immunity_counts = game.immunity_removes_a_move();
            let key = game.repetition_key(immunity_counts);
            game.repetition_keys.push(key);
        }
        game.state = game.compute_state();
        game
    }

    fn setup_start(&self) -> Option<SetupStart> {
        self.start
    }

    fn generate_moves(&self, out: &mut Vec<Move>) {
        let mut fast = Vec::with_capacity(64);
        self.generate(&mut fast);
        out.extend(fast.into_iter().map(|m| self.to_move(m)));
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let mut fast = Vec::with_capacity(64);
        self.generate(&mut fast);
        match fast.into_iter().find(|&m| self.to_move(m) == mv) {
            Some(m) => {
                self.make(m);
                Ok(())
            }
            // §8.5 every move is refused once the game has ended
            None if self.state.is_over() => Err(IllegalMove::new(
                format!("the game is over ({}): no move is legal", self.state),
                &["§8.5"],
            )),
            // §7.2 no pass while a placement or movement is legal
            None if mv == Move::Pass => Err(IllegalMove::new(
                "cannot pass: there are legal moves",
                &["§7.2"],
            )),
            None => Err(IllegalMove::new(format!("{mv} is not a legal move"), &[])),
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        let m = match mv {
            Move::Pass => FastMove::PASS,
            Move::Place { piece, to } | Move::Move { piece, to } => FastMove {
                piece: id_of(piece),
                to: cell_of(to),
            },
        };
        self.make(m);
    }

    fn undo(&mut self) -> Option<Move> {
        self.unmake()
    }

    fn state(&self) -> GameState {
        self.state
    }

    fn history(&self) -> &[Move] {
        &self.history
    }

    fn count_leaves(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut buffers: Vec<Vec<FastMove>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        self.perft_fast(depth, &mut buffers)
    }
}

impl std::fmt::Debug for FastEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FastEngine")
            .field("game", &self.game_string())
            .field("hash", &self.hash)
            .finish()
    }
}
