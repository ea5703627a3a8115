//! The properties of the fuzz targets in `fuzz/`, with their inputs, written
//! once: each cargo-fuzz target is `fuzz_target!(|input: X| property(input))`,
//! and `tests/fuzz_replay.rs` replays every committed corpus file and every
//! minimized crash through [`Target::replay`], which decodes the bytes exactly
//! as `fuzz_target!` does and calls the same property, on stable Rust.
//!
//! A property panics when it does not hold, and only then: input that is
//! merely invalid (a broken GameString, an unknown command) is part of what
//! is explored, never a failure. The work per input is bounded (bytes,
//! lines, commands, plies), so that one input takes milliseconds.
//!
//! | target | input (the bytes as libFuzzer sees them) | property |
//! |---|---|---|
//! | `notation` | [`NotationInput`]: text, one GameString or MoveString per line | [`check_notation`] |
//! | `uhp_session` | [`UhpInput`]: UHP command lines | [`check_uhp_session`] |
//! | `differential` | [`DifferentialInput`]: a [`GameSetup`] (3 bytes), then one byte per ply | [`check_differential`] |
//! | `make_unmake` | [`MakeUnmakeInput`]: a [`GameSetup`] (3 bytes), then one byte per step | [`check_make_unmake`] |
//! | `pgn_record` | [`RecordInput`]: a PGN-style record file | [`check_pgn_record`] |
//! | `sgf_record` | [`RecordInput`]: a boardspace SGF file | [`check_sgf_record`] |
//!
//! Every input's `Debug` prints a GameString (or the command lines and the
//! resulting GameString) that reproduces it.
//!
//! ```
//! use hive_oracle_rules::fuzzing::{check_notation, decode, NotationInput, Target};
//!
//! let bytes = b"Base;InProgress;White[2];wS1\nbS1 wS1-";
//! let input: NotationInput = decode(bytes).expect("every byte string is a notation input");
//! check_notation(input);
//! assert!(Target::Notation.replay(bytes));
//! ```

mod differential;
mod make_unmake;
mod notation;
mod records;
mod uhp_session;

use std::fmt;

use arbitrary::{Arbitrary, Unstructured};

use crate::core::{GameType, Move, RulesOptions};
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

pub use differential::{check_differential, DifferentialInput, MAX_DIFFERENTIAL_PLIES};
pub use make_unmake::{
    check_make_unmake, MakeUnmakeInput, Step, MAX_MAKE_UNMAKE_PLIES, MAX_MAKE_UNMAKE_STEPS,
};
pub use notation::{check_notation, NotationInput, MAX_NOTATION_BYTES, MAX_NOTATION_LINES};
pub use records::{check_pgn_record, check_sgf_record, RecordInput, MAX_RECORD_BYTES};
pub use uhp_session::{
    check_uhp_session, is_refusal, reply_problem, ReplyProblem, UhpInput, MAX_UHP_BYTES,
    MAX_UHP_COMMANDS,
};

/// A fuzz target of `fuzz/`. Its [`name`](Target::name) is the name of its
/// binary and of its directories under `fuzz/corpus/` and `fuzz/regressions/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `notation`: arbitrary text read as GameStrings and MoveStrings.
    Notation,
    /// `uhp_session`: arbitrary command lines fed to the UHP engine in-process.
    UhpSession,
    /// `differential`: a game chosen byte by byte, played on both engines.
    Differential,
    /// `make_unmake`: moves, undos and searches on the fast engine, checked against positions rebuilt from scratch.
    MakeUnmake,
    /// `pgn_record`: arbitrary bytes read as a PGN-style record.
    PgnRecord,
    /// `sgf_record`: arbitrary bytes read as a boardspace SGF record.
    SgfRecord,
}

impl Target {
    /// The six targets.
    pub const ALL: [Target; 6] = [
        Target::Notation,
        Target::UhpSession,
        Target::Differential,
        Target::MakeUnmake,
        Target::PgnRecord,
        Target::SgfRecord,
    ];

    /// The target's name: `notation`, `uhp_session`, `differential`,
    /// `make_unmake`, `pgn_record`, `sgf_record`.
    pub fn name(self) -> &'static str {
        match self {
            Target::Notation => "notation",
            Target::UhpSession => "uhp_session",
            Target::Differential => "differential",
            Target::MakeUnmake => "make_unmake",
            Target::PgnRecord => "pgn_record",
            Target::SgfRecord => "sgf_record",
        }
    }

    /// Decodes `bytes` as the target's input exactly as `fuzz_target!` does
    /// and checks the target's property, which panics when it fails. Returns
    /// `false` when the bytes decode to no input (libFuzzer skips those too).
    pub fn replay(self, bytes: &[u8]) -> bool {
        match self {
            Target::Notation => decode(bytes).map(check_notation).is_some(),
            Target::UhpSession => decode(bytes).map(check_uhp_session).is_some(),
            Target::Differential => decode(bytes).map(check_differential).is_some(),
            Target::MakeUnmake => decode(bytes).map(check_make_unmake).is_some(),
            Target::PgnRecord => decode(bytes).map(check_pgn_record).is_some(),
            Target::SgfRecord => decode(bytes).map(check_sgf_record).is_some(),
        }
    }

    /// The `Debug` form of the input that `bytes` decode to (what
    /// `cargo fuzz fmt` prints), `None` when they decode to no input.
    pub fn describe(self, bytes: &[u8]) -> Option<String> {
        match self {
            Target::Notation => decode::<NotationInput>(bytes).map(|i| format!("{i:#?}")),
            Target::UhpSession => decode::<UhpInput>(bytes).map(|i| format!("{i:#?}")),
            Target::Differential => decode::<DifferentialInput>(bytes).map(|i| format!("{i:#?}")),
            Target::MakeUnmake => decode::<MakeUnmakeInput>(bytes).map(|i| format!("{i:#?}")),
            Target::PgnRecord | Target::SgfRecord => {
                decode::<RecordInput>(bytes).map(|i| format!("{i:#?}"))
            }
        }
    }
}

/// Decodes fuzzer bytes into an input as `libfuzzer_sys::fuzz_target!` does:
/// bytes shorter than the input's least size are no input; otherwise
/// `arbitrary_take_rest` over all of them.
pub fn decode<'a, T: Arbitrary<'a>>(bytes: &'a [u8]) -> Option<T> {
    if bytes.len() < T::size_hint(0).0 {
        return None;
    }
    T::arbitrary_take_rest(Unstructured::new(bytes)).ok()
}

/// The game that a `differential` or `make_unmake` input plays: the first
/// three bytes of the input. Byte 0 picks the game type
/// (`GameType::ALL[byte % 8]`: Base, Base+M, Base+L, Base+P, Base+ML,
/// Base+MP, Base+LP, Base+MLP); an odd byte 1 allows the queen as a first
/// placement (no `TournamentOpening`, §4.2); an odd byte 2 turns on
/// `RepetitionDraw` (§8.7.2). Missing bytes read as zero.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct GameSetup {
    /// The game type, from byte 0 (§1.4).
    pub game_type: GameType,
    /// The rules options, from bytes 1 and 2 (§4.2, §8.7.2).
    pub options: RulesOptions,
}

impl GameSetup {
    /// The three bytes that decode to this setup.
    pub fn to_bytes(self) -> [u8; 3] {
        let type_index = GameType::ALL
            .iter()
            .position(|&t| t == self.game_type)
            .unwrap_or(0);
        [
            type_index as u8,
            u8::from(!self.options.tournament_opening),
            u8::from(self.options.repetition_draw),
        ]
    }

    /// The encoding of a game for a `differential` or `make_unmake` input:
    /// the setup's three bytes, then for each move its index among the legal
    /// moves of its position in sorted order (so `byte % legal.len()` picks
    /// it again). `None` when a move is illegal, or when its index is not
    /// below `limit` (256 for `differential`, [`Step::FIRST_UNDO_BYTE`] for
    /// `make_unmake`).
    pub fn encode_game(self, moves: &[Move], limit: usize) -> Option<Vec<u8>> {
        let mut bytes = self.to_bytes().to_vec();
        let mut game = ReferenceEngine::new_game(self.game_type, self.options);
        for &mv in moves {
            let mut legal = game.legal_moves();
            legal.sort();
            let index = legal.iter().position(|&m| m == mv)?;
            if index >= limit.min(256) {
                return None;
            }
            bytes.push(index as u8);
            game.play(mv).ok()?;
        }
        Some(bytes)
    }
}

impl<'a> Arbitrary<'a> for GameSetup {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let type_byte = u8::arbitrary(u)?;
        let standard_opening = bool::arbitrary(u)?;
        let repetition_draw = bool::arbitrary(u)?;
        Ok(GameSetup {
            game_type: GameType::ALL[usize::from(type_byte) % GameType::ALL.len()],
            options: RulesOptions {
                tournament_opening: !standard_opening,
                repetition_draw,
            },
        })
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (0, Some(3))
    }
}

impl fmt::Display for GameSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, TournamentOpening {}, RepetitionDraw {}",
            self.game_type, self.options.tournament_opening, self.options.repetition_draw
        )
    }
}

impl fmt::Debug for GameSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text shown as it is by `Debug`, without quotes or escapes: a canonical
/// GameString that can be pasted into `hive-oracle play` or `newgame`.
struct Verbatim<'a>(&'a str);

impl fmt::Debug for Verbatim<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// The moves of the position sorted: the list a choice byte indexes.
fn sorted_legal_moves<R: Rules>(game: &R) -> Vec<Move> {
    let mut legal = game.legal_moves();
    legal.sort();
    legal
}
