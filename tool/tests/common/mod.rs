//! Helpers shared by the tool's tests: running the binary and reading what
//! it printed. Running `check` and reading its report is `check_run`.
#![allow(dead_code)]

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_hive-oracle");

/// A command for `program` run in the repository's top folder ([`root`]),
/// so that `tests/records/…` names the test records there.
pub fn command(program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
    let mut command = std::process::Command::new(program);
    command.current_dir(root());
    command
}

/// Runs the `hive-oracle` binary with `args` in the repository's top folder
/// ([`root`]), so that `tests/records/…` names the test records there.
pub fn run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(BIN)
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

/// What a run printed on stdout.
pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a run printed on stderr.
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The repository's top folder (the rules package's, with its test data
/// `tests/records/`, `tests/cases/`, the spec and the docs), the parent of
/// this package's.
pub fn root() -> std::path::PathBuf {
    let tool = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    tool.parent().unwrap_or(tool).to_path_buf()
}

/// A file or folder of the repository, by its path from the top.
pub fn repository(path: &str) -> std::path::PathBuf {
    root().join(path)
}

/// A folder of the system's temporary folder for one test, removed when
/// the value is dropped: when the test ends, whether it passes or fails.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("hive-oracle-test-")
        .tempdir()
        .expect("a temporary folder")
}

/// A path as text (the temporary folders' paths are UTF-8).
pub fn text(path: &std::path::Path) -> String {
    path.to_str().expect("a UTF-8 path").to_string()
}
