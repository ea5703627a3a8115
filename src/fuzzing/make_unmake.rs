//! The `make_unmake` target: moves, undos and searches on the fast engine,
//! checked against positions rebuilt from scratch.

use std::fmt;

use arbitrary::Arbitrary;

use super::{sorted_legal_moves, GameSetup, Verbatim};
use crate::core::{GameState, Move};
use crate::fast::FastEngine;
use crate::rules::Rules;

/// Steps of a `make_unmake` input beyond this are ignored.
pub const MAX_MAKE_UNMAKE_STEPS: usize = 400;
/// A move step is skipped once this many plies are on the board.
pub const MAX_MAKE_UNMAKE_PLIES: usize = 150;

/// What one byte of a `make_unmake` input does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// 0–239: play the legal move `byte % legal.len()` in sorted order
    /// (nothing when the game is over or at the ply cap).
    Play(u8),
    /// 240–247: take back 1–8 plies (at most the plies played).
    Undo(u8),
    /// 248–255: count the leaves two plies deep with the engine's own
    /// make/unmake ([`Rules::count_leaves`]), which must leave the position as it was.
    Search,
}

impl Step {
    /// The first byte that is not a move.
    pub const FIRST_UNDO_BYTE: u8 = 240;
    /// The first search byte.
    pub const SEARCH_BYTE: u8 = 248;

    pub(crate) fn from_byte(byte: u8) -> Step {
        match byte {
            0..Step::FIRST_UNDO_BYTE => Step::Play(byte),
            Step::FIRST_UNDO_BYTE..Step::SEARCH_BYTE => {
                Step::Undo(byte - Step::FIRST_UNDO_BYTE + 1)
            }
            Step::SEARCH_BYTE.. => Step::Search,
        }
    }

    /// The byte of an undo of `plies` plies (1–8).
    pub fn undo_byte(plies: u8) -> u8 {
        Step::FIRST_UNDO_BYTE + plies.clamp(1, 8) - 1
    }
}

/// The input of the `make_unmake` target: the game ([`GameSetup`], three
/// bytes), then one [`Step`] per byte. [`GameSetup::encode_game`] with
/// limit [`Step::FIRST_UNDO_BYTE`] writes the move bytes of a given game.
#[derive(Arbitrary)]
pub struct MakeUnmakeInput<'a> {
    /// The game type and rules options, from the first three bytes.
    pub setup: GameSetup,
    /// One step per byte.
    pub steps: &'a [u8],
}

impl MakeUnmakeInput<'_> {
    fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        self.steps
            .iter()
            .take(MAX_MAKE_UNMAKE_STEPS)
            .map(|&b| Step::from_byte(b))
    }
}

impl fmt::Debug for MakeUnmakeInput<'_> {
    /// The setup and, for each step that does something, the step and the
    /// GameString after it: the last GameString before an undo and the
    /// undo's count reproduce the step.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut game = FastEngine::new_game(self.setup.game_type, self.setup.options);
        let mut script = Vec::new();
        for step in self.steps() {
            match step {
                Step::Play(choice) => {
                    let legal = sorted_legal_moves(&game);
                    if legal.is_empty() || game.plies() >= MAX_MAKE_UNMAKE_PLIES {
                        continue;
                    }
                    let mv = legal[usize::from(choice) % legal.len()];
                    let name = game.move_string(mv);
                    game.play_unchecked(mv);
                    script.push(format!("play {name}: {}", game.game_string()));
                }
                Step::Undo(plies) => {
                    let plies = usize::from(plies).min(game.plies());
                    if plies == 0 {
                        continue;
                    }
                    for _ in 0..plies {
                        game.undo();
                    }
                    script.push(format!("undo {plies}: {}", game.game_string()));
                }
                Step::Search => script.push("perft 2".to_string()),
            }
        }
        let script: Vec<Verbatim> = script.iter().map(|step| Verbatim(step)).collect();
        f.debug_struct("MakeUnmakeInput")
            .field("setup", &self.setup)
            .field("script", &script)
            .finish()
    }
}

/// What is remembered of a position when it is first reached. The
/// GameString is a function of the setup, the history and the state, so the
/// history stands for it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Snapshot {
    history: Vec<Move>,
    hash: u64,
    legal: Vec<Move>,
    state: GameState,
}

fn snapshot(game: &FastEngine) -> Snapshot {
    Snapshot {
        history: game.history().to_vec(),
        hash: game.hash(),
        legal: sorted_legal_moves(game),
        state: game.state(),
    }
}

/// The GameString of a history, for messages.
fn game_string_of(setup: &GameSetup, history: &[Move]) -> String {
    let mut game = FastEngine::new_game(setup.game_type, setup.options);
    for &mv in history {
        game.play_unchecked(mv);
    }
    game.game_string()
}

/// The property of the `make_unmake` target: in the fast engine, after
/// every step of any sequence of moves, undos and searches, every
/// incremental structure equals its from-scratch twin
/// ([`FastEngine::check_invariants`]: the hash against
/// [`FastEngine::hash_slow`], heights, tops, counts, pinned set, state);
/// after an undo or a search, the position (history, hash, legal moves,
/// state) is exactly the one first reached with that history and the one
/// rebuilt by replaying the history on a new game. (Without an undo the
/// replay would make the same moves as the game itself, so it is only
/// needed after undos and searches.) Panics with the step and the
/// GameString before it when the property fails.
pub fn check_make_unmake(input: MakeUnmakeInput<'_>) {
    let setup = input.setup;
    let mut game = FastEngine::new_game(setup.game_type, setup.options);
    // reached[p]: the position after p plies, when it was first reached
    let mut reached = vec![snapshot(&game)];
    if let Err(why) = game.check_invariants() {
        panic!("a new game ({setup}): {why}");
    }
    for (index, step) in input.steps().enumerate() {
        let before = game.history().to_vec();
        let fail = |why: String| -> ! {
            panic!(
                "make_unmake ({setup}), step {index} ({step:?}) from\n  {}\n{why}",
                game_string_of(&setup, &before)
            )
        };
        match step {
            Step::Play(choice) => {
                let legal = sorted_legal_moves(&game);
                if legal.is_empty() || game.plies() >= MAX_MAKE_UNMAKE_PLIES {
                    continue;
                }
                game.play_unchecked(legal[usize::from(choice) % legal.len()]);
                if let Err(why) = game.check_invariants() {
                    fail(format!("after the move: {why}"));
                }
                reached.push(snapshot(&game));
            }
            Step::Undo(plies) => {
                for _ in 0..usize::from(plies).min(game.plies()) {
                    let expected = game.history().last().copied();
                    let undone = game.undo();
                    if undone != expected {
                        fail(format!(
                            "undo returned {undone:?}, the history ended with {expected:?}"
                        ));
                    }
                    reached.pop();
                    if let Err(why) = game.check_invariants() {
                        fail(format!("after an undo: {why}"));
                    }
                }
                if let Err(why) = restored(&game, &setup, reached.last()) {
                    fail(format!("after the undos: {why}"));
                }
            }
            Step::Search => {
                let leaves = game.count_leaves(2);
                if let Err(why) = game.check_invariants() {
                    fail(format!("after perft 2 ({leaves} leaves): {why}"));
                }
                if let Err(why) = restored(&game, &setup, reached.last()) {
                    fail(format!("after perft 2 ({leaves} leaves): {why}"));
                }
            }
        }
    }
}

/// How a position differs from what make/unmake must restore.
#[derive(Debug, thiserror::Error)]
enum NotRestored {
    /// Not the position first reached with this history.
    #[error("the position is not the one first reached:\n  then {then:?}\n  now  {now:?}")]
    FirstReached {
        then: Option<Snapshot>,
        now: Snapshot,
    },
    /// Not the position the history gives when replayed on a new game.
    #[error("the position differs from its history replayed on a new game:\n  incremental {now:?}\n  rebuilt     {rebuilt:?}")]
    Rebuilt { now: Snapshot, rebuilt: Snapshot },
}

/// Whether the position is the one first reached with its history and the
/// one rebuilt by replaying that history on a new game.
fn restored(
    game: &FastEngine,
    setup: &GameSetup,
    first_reached: Option<&Snapshot>,
) -> Result<(), Box<NotRestored>> {
    let now = snapshot(game);
    if first_reached != Some(&now) {
        return Err(Box::new(NotRestored::FirstReached {
            then: first_reached.cloned(),
            now,
        }));
    }
    let mut rebuilt = FastEngine::new_game(setup.game_type, setup.options);
    for &mv in game.history() {
        rebuilt.play_unchecked(mv);
    }
    let fresh = snapshot(&rebuilt);
    if now != fresh {
        return Err(Box::new(NotRestored::Rebuilt {
            now,
            rebuilt: fresh,
        }));
    }
    Ok(())
}
