//! Whether two engines agree: [`compare_engines`] compares any two engines
//! in one position, and [`LockStep`] plays a game on the fast engine and the
//! reference engine at once, comparing them at every ply. The fuzz target
//! `differential`, the differential tests (`tests/differential.rs`) and
//! `hive-oracle selfcheck` all walk their games through [`LockStep`], each
//! choosing the moves its own way.

mod engines;
mod lock_step;

pub use engines::{compare_engines, Agreement, Disagreement};
pub use lock_step::{LockStep, LockStepError, NotRestored};
