//! What a check is given: its options ([`CheckOptions`], the command
//! line's arguments), checked into a [`Config`], and what the options name,
//! read before the run.
//!
//! The files, each using only those before it (and the client and the
//! findings): [`seed`] (the per-game generators), `lines` (the lines sent to
//! an engine), `corpus` (the case corpus, read from regular files and
//! validated against the reference first), `record_set` (the games of the
//! records given, read before the run), `shard` (the slice of the units a
//! `--shard I/N` run takes, [`Shard`]), `options` (the options, declared
//! once for clap and for the library) and `config` (the options checked).

pub(crate) mod config;
pub(crate) mod corpus;
pub(crate) mod lines;
pub(crate) mod options;
pub(crate) mod record_set;
pub mod seed;
pub(crate) mod shard;

pub use config::{Config, ConfigError, DeclaredRules, UnknownRule};
pub use corpus::{CheckCorpusError, InvalidCase};
pub use options::CheckOptions;
pub use shard::{Shard, ShardSyntax};
