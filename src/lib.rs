//! hive-oracle-rules: the rules library of hive-oracle, a trusted rules
//! oracle for the board game Hive (base game plus Mosquito, Ladybug and
//! Pillbug). The rules are written as numbered clauses in `spec/`; a
//! reference engine follows them clause by clause, and a fast engine is
//! checked against it on every position. Engine authors use the crate to
//! settle rules questions and to check their move generators; the command
//! line and the checker of other UHP engines are the `hive-oracle` package.
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
//!    [`clauses`]: the spec's clause titles and rulings, read from `spec/`;
//! 2. [`reference`](mod@reference): the reference engine, written for the
//!    reader, one file per chapter of the spec; [`fast`]: the incremental
//!    engine written for speed, which agrees with the reference on every
//!    position;
//! 3. [`cases`]: the engine-neutral case corpus (`tests/cases/*.toml`,
//!    built in) and the one runner that drives any engine through it;
//!    [`render`]: ASCII and SVG pictures of a position; [`search`]: the
//!    game-tree search behind `bestmove`; [`agreement`]: what "two engines
//!    agree on a position" means, and the walk of one game on both engines
//!    in lock step, for the fuzz target `differential`, the differential
//!    tests and `hive-oracle selfcheck`; [`house_rules`]: the repetition
//!    draws that real engines play instead of the spec's, for the checker;
//!    [`history`]: a search for a legal game that reaches a set-up position;
//! 4. [`explain`]: why a move is legal or illegal, clause by clause;
//! 5. [`records`]: game records (PGN-style files and boardspace SGF) read
//!    from their bytes, written as PGN, and replayed with a report; a game
//!    given as text (a GameTypeString, a GameString, a record);
//! 6. [`uhp`]: the Universal Hive Protocol engine session, on any reader
//!    and writer;
//! 7. `faults` (feature `faults`, test support): our own UHP session made
//!    wrong in one known way, to prove that `hive-oracle check` finds each
//!    fault;
//! 8. `fuzzing` (feature `fuzzing`): the properties of the cargo-fuzz
//!    targets in `fuzz/`, replayed by `cargo test`.
//!
//! Nothing here opens a file, starts a process or reads an archive: the
//! command line, the checker of other engines and the readers of folders
//! and zip archives are the `hive-oracle` package's (`tool/`), and the web
//! page's bindings the `hive-oracle-web` package's (`web/`).
//!
//! # Cargo features
//!
//! None by default: the library is the rules with three dependencies
//! (thiserror, serde and toml, for the case corpus). `fuzzing` adds the
//! fuzz targets' properties (and `arbitrary`); `faults` is test support.
//!
//! ```toml
//! hive-oracle-rules = "0.3"
//! ```
//!
//! # Example
//!
//! Perft from the start position, and a position loaded from a GameString
//! (§9.31) and printed back:
//!
//! ```
//! use hive_oracle_rules::reference::ReferenceEngine;
//! use hive_oracle_rules::rules::{perft, Rules};
//! use hive_oracle_rules::core::{GameType, RulesOptions};
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

/// The Rust example of README.md ("Use it from Rust"), run as a doc test so
/// that the README shows code that compiles and passes.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

pub mod agreement;
pub mod cases;
pub mod clauses;
pub mod core;
pub mod explain;
pub mod fast;
#[cfg(feature = "faults")]
pub mod faults;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod history;
pub mod house_rules;
pub mod records;
pub mod reference;
pub mod render;
pub mod rules;
pub mod search;
pub mod uhp;
