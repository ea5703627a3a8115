//! The commands the README and `docs/*.md` show, run as shown, so that the
//! documentation cannot drift from the tool.
//!
//! In every `sh` (or `console`, `bash`, `shell`) code block, a line that
//! starts with `hive-oracle ` or `cargo run --release -- ` (after an
//! optional `$ `), or pipes into one (`printf 'info\n' | hive-oracle uhp`),
//! is a command (a line ending in `\` goes on on the next). It
//! runs in `sh`, with `hive-oracle` (what `cargo run --release --` stands
//! for) the binary under test, in a scratch folder where `tests/` is the
//! repository's, stdin empty. The lines right after it that start with `#`,
//! up to a blank line or the next command, are what it shows:
//! - `# exit status N`: the status it must exit with (0 when not shown);
//! - `# ...`: any number of lines;
//! - any other `# TEXT`: a line of its output (stdout and stderr, in that
//!   order), where `...` stands for any text; the lines shown must come in
//!   their order, each line of the output used once, the lines between them
//!   free when a `# ...` is between them and not otherwise.
//!
//! A block preceded by `<!-- not run: REASON -->` (an engine of the reader's
//! own, the network, hours of work, a file outside the scratch folder) is
//! not run; the test lists each such block with its reason. Commands are
//! bounded by work (the documentation shows small ones), not by time: a
//! generous timeout only catches a hang.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_hive-oracle");

/// Longer than any documented command takes on a loaded machine: only a
/// hang reaches it.
const HANG: Duration = Duration::from_secs(300);

/// A command of the documentation, with what it shows.
#[derive(Debug, PartialEq, Eq)]
pub struct Documented {
    /// The Markdown file and the line of the command.
    pub place: String,
    /// The command line as `sh` runs it.
    pub command: String,
    /// The status it must exit with.
    pub status: i32,
    /// The output lines shown (`...` lines included).
    pub shown: Vec<String>,
}

/// A block not run, and why.
#[derive(Debug, PartialEq, Eq)]
pub struct NotRun {
    pub place: String,
    pub reason: String,
}

const MARKER: &str = "<!-- not run:";

/// The commands of one Markdown text, and the blocks marked not run.
pub fn commands_in(file: &str, markdown: &str) -> (Vec<Documented>, Vec<NotRun>) {
    let mut commands = Vec::new();
    let mut not_run = Vec::new();
    let lines: Vec<&str> = markdown.lines().collect();
    let mut i = 0;
    let mut reason: Option<String> = None;
    while i < lines.len() {
        let line = lines[i].trim();
        if let Some(rest) = line.strip_prefix(MARKER) {
            reason = Some(rest.trim_end_matches("-->").trim().to_string());
            i += 1;
            continue;
        }
        let Some(language) = line.strip_prefix("```") else {
            if !line.is_empty() {
                reason = None;
            }
            i += 1;
            continue;
        };
        let start = i + 1;
        let end = (start..lines.len())
            .find(|&j| lines[j].trim_start().starts_with("```"))
            .unwrap_or(lines.len());
        let runnable = matches!(language.trim(), "sh" | "console" | "bash" | "shell");
        let place = format!("{file}:{}", i + 1);
        match reason.take() {
            Some(reason) => not_run.push(NotRun { place, reason }),
            None if runnable => commands.extend(block_commands(file, start, &lines[start..end])),
            None => {}
        }
        i = end + 1;
    }
    (commands, not_run)
}

/// The command a line starts, as `sh` runs it, if it starts one.
fn command_of(line: &str) -> Option<String> {
    let line = line.strip_prefix("$ ").unwrap_or(line);
    if line.starts_with('#') {
        return None;
    }
    let line = line.replace("cargo run --release -- ", "hive-oracle ");
    (line.starts_with("hive-oracle ") || line.contains("| hive-oracle ")).then_some(line)
}

/// The commands of a block whose first line is line `first` (from 0).
fn block_commands(file: &str, first: usize, block: &[&str]) -> Vec<Documented> {
    let mut commands = Vec::new();
    let mut j = 0;
    while j < block.len() {
        let Some(mut command) = command_of(block[j]) else {
            j += 1;
            continue;
        };
        let place = format!("{file}:{}", first + j + 1);
        // a line ending in `\` goes on; a trailing `# comment` is the shell's
        while command.ends_with('\\') && j + 1 < block.len() {
            command.pop();
            j += 1;
            command.push_str(block[j].trim_start());
        }
        j += 1;
        let mut status = 0;
        let mut shown = Vec::new();
        while let Some(line) = block.get(j).and_then(|l| l.strip_prefix('#')) {
            let line = line.strip_prefix(' ').unwrap_or(line);
            match line.strip_prefix("exit status ").map(str::parse) {
                Some(Ok(code)) => status = code,
                _ => shown.push(line.to_string()),
            }
            j += 1;
        }
        commands.push(Documented {
            place,
            command,
            status,
            shown,
        });
    }
    commands
}

/// Whether `line` is `pattern`, where `...` stands for any text.
pub fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("...");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part) && rest.len() >= part.len();
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Why the output does not show what the documentation shows, if it does
/// not: the shown lines in order, `...` lines skipping any number.
pub fn output_differs(shown: &[String], output: &[&str]) -> Option<String> {
    let mut at = 0;
    let mut skipping = false;
    for pattern in shown {
        if pattern == "..." {
            skipping = true;
            continue;
        }
        let found = if skipping {
            (at..output.len()).find(|&k| line_matches(pattern, output[k]))
        } else {
            (at < output.len() && line_matches(pattern, output[at])).then_some(at)
        };
        match found {
            Some(k) => at = k + 1,
            None => {
                return Some(format!(
                    "shown {pattern:?} not found {} (output line {})",
                    if skipping { "after" } else { "at" },
                    at + 1
                ))
            }
        }
        skipping = false;
    }
    None
}

/// Every Markdown file the check covers: README.md and docs/*.md.
pub fn documentation() -> Vec<PathBuf> {
    let root = &crate::common::root();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// Runs one documented command; why it fails, if it does.
pub fn run_documented(documented: &Documented, scratch: &Path) -> Option<String> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(&documented.command)
        .current_dir(scratch)
        .env("PATH", path_with_the_binary(scratch))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > HANG {
            let _ = child.kill();
            return Some(format!("still running after {HANG:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("the output");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    if output.status.code() != Some(documented.status) {
        return Some(format!(
            "exit status {:?}, the documentation says {}\n{text}",
            output.status.code(),
            documented.status
        ));
    }
    output_differs(&documented.shown, &lines).map(|why| format!("{why}\n{text}"))
}

/// `PATH` with a folder where `hive-oracle` is the binary under test first.
fn path_with_the_binary(scratch: &Path) -> String {
    let bin_dir = scratch.join(".bin");
    if !bin_dir.exists() {
        std::fs::create_dir_all(&bin_dir).expect("a folder");
        std::os::unix::fs::symlink(BIN, bin_dir.join("hive-oracle")).expect("a link");
    }
    format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// A scratch folder where `tests` is the repository's, removed when
/// dropped.
pub fn scratch_folder() -> tempfile::TempDir {
    let dir = crate::common::scratch();
    let root = crate::common::root();
    std::os::unix::fs::symlink(root.join("tests"), dir.path().join("tests")).expect("a link");
    dir
}
