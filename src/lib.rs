//! hive-oracle: a trusted rules oracle for the board game Hive (base game plus
//! Mosquito, Ladybug and Pillbug). The rules are written as numbered clauses
//! in `spec/`; a reference engine follows them clause by clause, and a fast
//! engine is checked against it on every position. Engine authors use the
//! crate to settle rules questions and to check their move generators.
//!
//! # Modules, by layer
//!
//! The modules stand in layers: each uses only the layers below it (never
//! its own), and inside a module no two files use each other, so the crate
//! reads from the bottom up. `tests/boundaries.rs` holds this table and
//! fails on a use against it or on a cycle between files.
//!
//! 0. [`core`]: the shared vocabulary: hexes and directions, pieces, game
//!    types, rules options, absolute moves, game states, UHP notation;
//! 1. [`rules`]: the small [`rules::Rules`] trait both engines implement,
//!    and what is written once against it: GameStrings, perft and divide;
//!    `clauses`: the spec's clause titles and rulings, read from `spec/`;
//! 2. [`reference`](mod@reference): the reference engine, written for the
//!    reader, one file per chapter of the spec; [`fast`]: the incremental
//!    engine written for speed, which agrees with the reference on every
//!    position;
//! 3. [`cases`]: the engine-neutral case corpus (`tests/cases/*.toml`) and
//!    the one runner that drives any engine through it; [`render`]: ASCII
//!    and SVG pictures of a position (`hive-oracle render`); [`search`]: the
//!    game-tree search behind `bestmove`; [`agreement`]: what "two engines
//!    agree on a position" means, for the differential tests and
//!    `hive-oracle selfcheck`;
//! 4. [`explain`]: why a move is legal or illegal, clause by clause
//!    (`hive-oracle explain`);
//! 5. [`records`]: game records (PGN-style files and boardspace SGF) read
//!    into typed records, written as PGN, and replayed with a report
//!    (`hive-oracle replay`, `convert`);
//! 6. [`input`]: what game a user gave (a GameTypeString, a GameString, a
//!    record file and which game and ply of it, a pasted record) and the
//!    limits on it, for every command and the web page; `output_file`
//!    (feature `check`): the one writer of the files the tool writes,
//!    checked at the start and replaced whole after the run;
//! 7. [`uhp`]: the Universal Hive Protocol engine session (`hive-oracle uhp`);
//! 8. `faults` (feature `faults`, test support): our own engine made wrong
//!    in one known way, to prove that `check` finds each fault;
//! 9. `check` (feature `check`): checking another UHP engine against the
//!    rules (`hive-oracle check`);
//! 10. `fuzzing` (feature `fuzzing`): the properties of the cargo-fuzz
//!     targets in `fuzz/`, replayed by `cargo test`; `web` (feature `web`):
//!     the bindings of the web page in `web/`, built for WebAssembly.
//!
//! The binary (`src/main.rs`, `src/cli/`) sits above them all.
//!
//! # Cargo features
//!
//! The default build is the tool: `cli` (the `hive-oracle` binary, which
//! brings `check`) and `fuzzing`. With `default-features = false` the crate
//! is the rules library alone (core, rules, both engines, cases, explain,
//! render, uhp, search), without clap, indicatif, serde_json, schemars, rand
//! or arbitrary; add `features = ["check"]` for the checker. The `faults`
//! feature is test support only: `cargo test` turns it on (the package is
//! its own dev-dependency with it), a default build leaves it out.
//!
//! ```toml
//! hive-oracle = { version = "0.2", default-features = false }
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
#[cfg(feature = "check")]
pub mod output_file;
pub mod records;
pub mod reference;
pub mod render;
pub mod rules;
pub mod search;
pub mod uhp;
#[cfg(feature = "web")]
pub mod web;
