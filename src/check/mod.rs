//! Checking other engines against the rules (issue 6).
//!
//! * [`client`]: a Universal Hive Protocol client that drives any UHP engine
//!   process with a timeout on every command and survives engines that
//!   crash, hang, print garbage, omit `ok`, write CRLF or exit early.

pub mod checker;
pub mod client;
pub mod report;
pub mod shrink;
