//! The reference engine: the rules of `spec/` as code written for the reader.
//!
//! This engine is the oracle that every other engine is checked against, so
//! it is written for clarity, not speed (see `spec/sources/style-notes.md`): ordered maps
//! and sets so that every output is deterministic, every answer recomputed
//! from the position, no caches, no bit tricks, no `unsafe`. The files follow
//! the chapters of the specification:
//!
//! | file | spec |
//! |---|---|
//! | `board.rs` | chapter 2, geometry and stacks |
//! | `placement.rs` | chapter 3, placement |
//! | `opening.rs` | chapter 4, the queen and the opening |
//! | `movement.rs` | chapter 5, movement in general |
//! | `bugs/*.rs` | chapter 6, one file per bug |
//! | `turns.rs` | chapter 7, turns and passing |
//! | `end.rs` | chapter 8, the end of the game |
//! | `facts.rs` | the facts a rule looks at, in words |
//! | `judge.rs` | one move judged: the facts that grant it, or the first rule it breaks |
//! | `pass.rs` | why a legal pass is the only move: the first rule refusing each other move |
//! | `position.rs` | a position as the rules judge a move in it, and its legal moves |
//! | `engine.rs` | the engine: a game's history, played and undone, behind the `Rules` trait |
//!
//! [`Position`] is what the rules judge a move in: the board and the few facts
//! of the history that matter (the plies, the last move, the state). The
//! engine gives its own; [`Position::of_game`] copies another engine's.

#![forbid(unsafe_code)]

pub mod board;
pub mod bugs;
pub mod end;
mod engine;
pub mod facts;
pub mod judge;
pub mod movement;
pub mod opening;
pub mod pass;
pub mod placement;
mod position;
pub mod turns;

pub use engine::ReferenceEngine;
pub use position::Position;
