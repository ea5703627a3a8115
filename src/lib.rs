//! hive-oracle: a written specification of the rules of Hive (in `spec/`) and
//! engines that follow it clause by clause.
//!
//! * [`core`]: the shared vocabulary (hexes, pieces, moves, notation);
//! * [`rules`]: the [`rules::Rules`] trait, perft and divide;
//! * [`reference`](mod@reference): the reference engine, written for the reader;
//! * [`uhp`]: the Universal Hive Protocol engine session (`hive-oracle uhp`);
//! * [`render`]: ASCII and SVG pictures of a position (`hive-oracle render`);
//! * [`explain`]: why a move is legal or illegal, clause by clause (`hive-oracle explain`);
//! * [`fast`]: the optimized incremental engine, which agrees with the reference;
//! * [`check`]: checking another UHP engine against the rules (`hive-oracle check`);
//! * [`fuzzing`]: the properties of the cargo-fuzz targets in `fuzz/`, replayed by `cargo test`.
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

#![forbid(unsafe_code)]

pub mod agreement;
pub mod cases;
#[cfg(feature = "check")]
pub mod check;
pub mod core;
pub mod explain;
pub mod fast;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod reference;
pub mod render;
pub mod rules;
pub mod search;
pub mod uhp;
