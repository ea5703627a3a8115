//! The reports of `check` and `replay`, in one frame ([`frame`]): a JSON
//! report with a `format_version` `MAJOR.MINOR` (a reader refuses another
//! major version) and a JSON Schema generated from its types, committed in
//! `spec/` and printed by `--print-schema`; a text report whose last line
//! is the verdict, PASS or FAIL, as the exit status says.
//!
//! * [`frame`]: the format version and its check on reading, the schema,
//!   the JSON text, the verdict line;
//! * [`check`]: the reports of `hive-oracle check` (text, JSON, JUnit XML)
//!   and the merge of a sharded check's reports (`check-merge`);
//! * `replay`: the reports of `hive-oracle replay` (text, JSON), written as
//!   the files come.

pub mod check;
pub mod frame;
pub(crate) mod replay;
