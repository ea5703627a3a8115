//! The `hive-oracle` binary: the command line of the `hive-oracle` library
//! (`src/cli/`), which holds the commands, the checker, the inputs and the
//! reports; the rules are the `hive-oracle-rules` package's.

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    hive_oracle::cli_main()
}
