//! hive-oracle: a trusted rules oracle for the board game Hive (base game plus
//! Mosquito, Ladybug and Pillbug). The rules are written as numbered clauses
//! in `spec/`; a reference engine follows them clause by clause, and a fast
//! engine is checked against it on every position. Engine authors use the
//! crate to settle rules questions and to check their move generators.
//!
//! # Modules, in reading order
//!
//! * [`core`]: the shared vocabulary: hexes and directions, pieces, game
//!   types, rules options, absolute moves, game states, UHP notation;
//! * [`rules`]: the small [`rules::Rules`] trait both engines implement, and
//!   what is written once against it: GameStrings, perft and divide;
//! * [`reference`](mod@reference): the reference engine, written for the
//!   reader, one file per chapter of the spec;
//! * [`fast`]: the incremental engine written for speed, which agrees with
//!   the reference on every position;
//! * [`cases`]: the engine-neutral case corpus (`tests/cases/*.toml`) and the
//!   one runner that drives any engine through it;
//! * [`explain`]: why a move is legal or illegal, clause by clause
//!   (`hive-oracle explain`);
//! * [`records`]: game records (PGN-style files and boardspace SGF) read
//!   into typed records, written as PGN, and replayed with a report
//!   (`hive-oracle replay`, `convert`);
//! * [`input`]: what game a user gave (a GameTypeString, a GameString, a
//!   record file and which game and ply of it, a pasted record) and the
//!   limits on it, for every command and the web page;
//! * [`render`]: ASCII and SVG pictures of a position (`hive-oracle render`);
//! * [`uhp`]: the Universal Hive Protocol engine session (`hive-oracle uhp`);
//! * [`search`]: the game-tree search behind `bestmove`;
//! * `check` (feature `check`): checking another UHP engine against the
//!   rules (`hive-oracle check`);
//! * `fuzzing` (feature `fuzzing`): the properties of the cargo-fuzz targets
//!   in `fuzz/`, replayed by `cargo test`;
//! * `web` (feature `web`): the bindings of the web page in `web/`, built
//!   for WebAssembly.
//!
//! [`agreement`] holds what "two engines agree on a position" means, for the
//! differential tests and `hive-oracle selfcheck`.
//!
//! # Cargo features
//!
//! The default build is the tool: `cli` (the `hive-oracle` binary, which
//! brings `check`) and `fuzzing`. With `default-features = false` the crate
//! is the rules library alone (core, rules, both engines, cases, explain,
//! render, uhp, search), without clap, indicatif, serde_json, schemars or
//! arbitrary; add `features = ["check"]` for the checker.
//!
//! ```toml
//! hive-oracle = { path = "...", default-features = false }
//! ```
//!
//! # Example
//!
//! Perft from the start position, and a position loaded from a GameString
//! (§9.31) and printed back:
//!
//! ```
//! use hive_oracle::reference::ReferenceEngine;
//! use hive_oracle::rules::{perft, Rules};
//! use hive_oracle::core::{GameType, RulesOptions};
//!
//! let mut game = ReferenceEngine::new_game(GameType::BASE, RulesOptions::default());
//! assert_eq!(perft(&mut game, 2), 96);
//! let game = ReferenceEngine::load("Base;InProgress;White[2];wS1;bS1 wS1-").unwrap();
//! assert_eq!(game.game_string(), "Base;InProgress;White[2];wS1;bS1 wS1-");
//! ```
//!
//! # The specification
//!
//! The rules are in the repository, not in this documentation:
//! `spec/rules.md` (chapters 1 to 8), `spec/notation.md` (chapter 9, UHP
//! strings, and the UHP engine conventions) and `spec/rulings.md` (where the
//! sources disagree, the ruling and the test that pins it); `spec/README.md`
//! explains numbering and citation. Doc comments cite the clause that decides
//! a question, as in `§5.3`, the One Hive rule.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod agreement;
pub mod cases;
#[cfg(feature = "check")]
pub mod check;
pub(crate) mod clauses;
pub mod core;
pub mod explain;
pub mod fast;
#[cfg(feature = "faults")]
pub mod faults;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod input;
pub mod records;
pub mod reference;
pub mod render;
pub mod rules;
pub mod search;
pub mod uhp;
#[cfg(feature = "web")]
pub mod web;
