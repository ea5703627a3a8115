//! The units of a check, each starting with `newgame`, so that its result
//! does not depend on the units before it.
//!
//! The files, each using only those before it (and the client, the
//! findings and what the check is given): `judge` (an engine's answers
//! against the reference), `worker` (the engine of one job and the record
//! of its unit), then the runners: `bestmove`, `probes` (the protocol
//! unit, a table of probes), `case_engine` and `case_unit` (the corpus
//! through the crate's one case runner), `shrink` (shorter legal games
//! that still show a finding) and `shrinking` (showing them to the
//! engine), `illegal` and `games` (seeded random games), `record_unit`
//! (the games of real records replayed, `--records`).

pub(crate) mod bestmove;
pub(crate) mod case_engine;
pub(crate) mod case_unit;
pub(crate) mod games;
pub(crate) mod illegal;
pub(crate) mod judge;
pub(crate) mod probes;
pub(crate) mod record_unit;
pub(crate) mod shrink;
pub(crate) mod shrinking;
pub(crate) mod worker;
