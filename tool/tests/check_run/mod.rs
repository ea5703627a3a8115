//! Running `hive-oracle check` (and `check-merge`) in a test and reading
//! what it reported: the exit status, stdout, stderr and the JSON report,
//! with the report's causes read once here for every test file.
//!
//! Every run
//! * works in a folder of its own that is removed when the run is read
//!   (stdout, stderr and a JSON `--out` report are files there, so that a
//!   process the engine leaves holding a pipe cannot block the test);
//! * runs in the repository's top folder unless given another
//!   ([`Check::in_dir`]), so that `tests/records/…` names the test records;
//! * is killed after [`HANG_LIMIT`], which only a hang reaches (no test
//!   asserts on speed);
//! * carries an environment marker of its own: once the check has exited,
//!   no process with it may be alive ([`Checked`] is returned only then).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{root, scratch, BIN};

/// A run longer than this is a hang: the checks of the tests take seconds
/// on a loaded 2-core machine.
pub const HANG_LIMIT: Duration = Duration::from_secs(300);

/// How long processes the check ended may take to go once it has exited.
const PROCESSES_GO_WITHIN: Duration = Duration::from_secs(10);

/// The environment variable whose value marks the processes of one run.
const MARKER: &str = "HIVE_ORACLE_TEST_RUN";

/// Our engine (`hive-oracle uhp`), quoted for the shell.
pub fn ours() -> String {
    format!("{} uhp", shell_quote(BIN))
}

/// Our engine made wrong in one known way (`uhp --fault NAME`,
/// `hive_oracle_rules::faults`), quoted for the shell.
pub fn faulty(fault: &str) -> String {
    format!("{} uhp --fault {fault}", shell_quote(BIN))
}

/// Our engine (`engine`, a command line such as [`ours`]) reading its
/// input through the shell pipeline `filter` (a `sed -u` that garbles some
/// lines), in bash. The engine is what bash runs last (`exec`, the filter
/// in a process substitution), so that its output ends the moment it
/// leaves on `exit`, as a plain engine's does; a filter piped into the
/// engine (`sed | engine`) would keep the engine's output open until it
/// read one more line, and each check would wait out the `exit` probe's
/// timeout.
pub fn reading_through(filter: &str, engine: &str) -> String {
    format!("bash -c \"exec {engine} < <({filter})\"")
}

/// `text` quoted for a POSIX shell.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Runs a command line a report printed (a reproduce pipe, an `explain`
/// command) in `sh` in the repository's top folder, with `hive-oracle`
/// meaning the binary under test: its stdout.
pub fn shell(command: &str) -> String {
    let command = match command.strip_prefix("hive-oracle ") {
        Some(rest) => format!("{} {rest}", shell_quote(BIN)),
        None => command.to_string(),
    };
    let out = crate::common::command("sh")
        .arg("-c")
        .arg(&command)
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The working folder of a run.
#[derive(Clone)]
enum Where {
    /// The repository's top folder.
    Repository,
    /// The run's own temporary folder: outside the repository.
    Outside,
    /// A folder of the test's.
    Folder(PathBuf),
}

/// Where the JSON report goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Report {
    /// The arguments say (text on stdout by default).
    AsGiven,
    /// `--format json` on stdout.
    Stdout,
    /// `--format json --out FILE`, a file of the run's own folder.
    File,
}

/// One run of `hive-oracle check` or `check-merge` to be made.
#[must_use]
pub struct Check {
    command: &'static str,
    args: Vec<String>,
    dir: Where,
    env: Vec<(String, String)>,
    memory_kib: Option<u64>,
    cpu_seconds: Option<u64>,
    report: Report,
    /// A signal (`INT`, `TERM`) sent to the check once the file appears.
    signal: Option<(&'static str, PathBuf)>,
}

impl Check {
    /// `hive-oracle check`, on our engine unless [`Check::engine`] says
    /// otherwise.
    pub fn new() -> Check {
        Check::command("check")
    }

    /// `hive-oracle check-merge`.
    pub fn merge() -> Check {
        Check::command("check-merge")
    }

    fn command(command: &'static str) -> Check {
        Check {
            command,
            args: Vec::new(),
            dir: Where::Repository,
            env: Vec::new(),
            memory_kib: None,
            cpu_seconds: None,
            signal: None,
            report: Report::AsGiven,
        }
    }

    /// `--engine COMMAND`.
    pub fn engine(self, command: &str) -> Check {
        self.args(["--engine", command])
    }

    /// `--engine` our engine with `fault` ([`faulty`]).
    pub fn fault(self, fault: &str) -> Check {
        self.engine(&faulty(fault))
    }

    /// More arguments.
    pub fn args<S: AsRef<str>>(mut self, args: impl IntoIterator<Item = S>) -> Check {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_string()));
        self
    }

    /// The JSON report on stdout (`--format json`).
    pub fn json(mut self) -> Check {
        self.report = Report::Stdout;
        self
    }

    /// The JSON report written to a file (`--format json --out FILE`).
    pub fn json_file(mut self) -> Check {
        self.report = Report::File;
        self
    }

    /// Runs in `dir` instead of the repository's top folder: outside the
    /// repository the corpus is the built-in one.
    pub fn in_dir(mut self, dir: &Path) -> Check {
        self.dir = Where::Folder(dir.to_path_buf());
        self
    }

    /// Runs in a folder of its own, outside the repository: the corpus is
    /// the built-in one, as for an installed binary run elsewhere.
    pub fn outside_repository(mut self) -> Check {
        self.dir = Where::Outside;
        self
    }

    /// One more environment variable for the run (and so for its engines).
    pub fn env(mut self, name: &str, value: &str) -> Check {
        self.env.push((name.to_string(), value.to_string()));
        self
    }

    /// Runs under `ulimit -v KIB` (address space, threads and engines
    /// included): past it an allocation fails and the run aborts.
    pub fn memory_kib(mut self, kib: u64) -> Check {
        self.memory_kib = Some(kib);
        self
    }

    /// Runs under `ulimit -t SECONDS` (CPU time): past it the kernel ends
    /// the run. A bound on work, not on the wall clock: what the hostile
    /// archives took hours of before now takes a fraction of a second.
    pub fn cpu_seconds(mut self, seconds: u64) -> Check {
        self.cpu_seconds = Some(seconds);
        self
    }

    /// Sends the signal `name` (`INT`, `TERM`) to the check once the file
    /// `when` exists (an engine script writes it when it has started).
    pub fn signal_when(mut self, name: &'static str, when: &Path) -> Check {
        self.signal = Some((name, when.to_path_buf()));
        self
    }

    /// Runs the command and waits for it (and for every process it
    /// started) to end.
    pub fn run(self) -> Checked {
        static RUNS: AtomicUsize = AtomicUsize::new(0);
        let marker = format!(
            "{}-{}",
            std::process::id(),
            RUNS.fetch_add(1, Ordering::Relaxed)
        );
        let own = scratch();
        let stdout_path = own.path().join("stdout");
        let stderr_path = own.path().join("stderr");
        let report_path = own.path().join("report.json");
        let mut args = vec![self.command.to_string()];
        args.extend(self.args.iter().cloned());
        match self.report {
            Report::AsGiven => {}
            Report::Stdout => args.extend(["--format".into(), "json".into()]),
            Report::File => args.extend([
                "--format".into(),
                "json".into(),
                "--out".into(),
                report_path.display().to_string(),
            ]),
        }
        let limits: String = [
            self.memory_kib.map(|kib| format!("ulimit -v {kib} && ")),
            self.cpu_seconds.map(|s| format!("ulimit -t {s} && ")),
        ]
        .into_iter()
        .flatten()
        .collect();
        let mut command = if limits.is_empty() {
            Command::new(BIN)
        } else {
            let mut sh = Command::new("sh");
            sh.arg("-c")
                .arg(format!("{limits}exec \"$0\" \"$@\""))
                .arg(BIN);
            sh
        };
        command
            .args(&args)
            .current_dir(match &self.dir {
                Where::Repository => root(),
                Where::Outside => own.path().to_path_buf(),
                Where::Folder(dir) => dir.clone(),
            })
            .env("HIVE_ORACLE", BIN)
            .env(MARKER, &marker)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&stdout_path).expect("a stdout file"))
            .stderr(std::fs::File::create(&stderr_path).expect("a stderr file"));
        let mut child = command.spawn().expect("the binary starts");
        let started = Instant::now();
        let mut signal = self.signal.clone();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if let Some((name, _)) = signal.as_ref().filter(|(_, when)| when.exists()) {
                send_signal(child.id(), name);
                signal = None;
            }
            if started.elapsed() > HANG_LIMIT {
                let _ = child.kill();
                let _ = child.wait();
                kill_marked(&marker);
                panic!("{args:?} hung (over {HANG_LIMIT:?})");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        // no process of the run is left (a killed one may take a moment to go)
        let deadline = Instant::now() + PROCESSES_GO_WITHIN;
        let mut left = marked_processes(&marker);
        while !left.is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            left = marked_processes(&marker);
        }
        if !left.is_empty() {
            let shown = describe(&left);
            kill_marked(&marker);
            panic!("{args:?} left processes behind: {shown}");
        }
        Checked {
            args,
            status: status.code(),
            stdout: std::fs::read(&stdout_path).unwrap_or_default(),
            stderr: std::fs::read_to_string(&stderr_path).unwrap_or_default(),
            report_file: (self.report == Report::File)
                .then(|| std::fs::read(&report_path).unwrap_or_default()),
        }
    }
}

/// What a run left: its exit status, what it printed and its report.
pub struct Checked {
    /// The arguments it ran with, the command first.
    pub args: Vec<String>,
    /// The exit status (None: killed by a signal).
    pub status: Option<i32>,
    /// Every byte it printed on stdout.
    pub stdout: Vec<u8>,
    /// What it printed on stderr.
    pub stderr: String,
    /// The bytes of the `--out` report of [`Check::json_file`] (empty
    /// when none was written).
    pub report_file: Option<Vec<u8>>,
}

impl Checked {
    /// Stdout as text.
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// The last line of stdout (the verdict of a text report).
    pub fn last_line(&self) -> String {
        self.stdout().lines().last().unwrap_or("").to_string()
    }

    /// The bytes of the JSON report: the `--out` file, or stdout.
    pub fn report_bytes(&self) -> &[u8] {
        self.report_file.as_deref().unwrap_or(&self.stdout)
    }

    /// The JSON report; the test fails, showing stderr, if there is none.
    pub fn report(&self) -> Value {
        serde_json::from_slice(self.report_bytes()).unwrap_or_else(|e| {
            panic!(
                "{:?}: the report is not JSON ({e}); exit {:?}, stdout: {}\nstderr: {}",
                self.args,
                self.status,
                self.stdout(),
                self.stderr
            )
        })
    }

    /// The exit status and the JSON report.
    pub fn verdict(&self) -> (Option<i32>, Value) {
        (self.status, self.report())
    }

    /// The causes of the JSON report.
    pub fn causes(&self) -> Vec<Cause> {
        causes(&self.report())
    }

    /// The kinds of the causes of the JSON report.
    pub fn kinds(&self) -> Vec<String> {
        self.causes().into_iter().map(|c| c.kind).collect()
    }
}

/// One cause of a report (a group of `findings`), as the tests read it.
#[derive(Clone, Debug)]
pub struct Cause {
    /// The cause's kind (`missing-moves`, `crash`, …).
    pub kind: String,
    /// `error` or `advisory`.
    pub severity: String,
    /// Its fingerprint, as a baseline lists it.
    pub fingerprint: String,
    /// Whether a baseline knew it.
    pub known: bool,
    /// Its shortest instance's pattern.
    pub pattern: String,
    /// Its shortest instance's clauses.
    pub clauses: Vec<String>,
    /// Its shortest instance's test (`protocol`, `game 3 …`, a case id).
    pub test: String,
    /// Its shortest instance's detail.
    pub detail: String,
    /// The plies of its shortest instance's GameString.
    pub plies: usize,
    /// The most plies of an instance seen in a random game (0: none).
    pub longest_in_a_game: usize,
}

/// The plies of a GameString (its fields after the three of its header).
pub fn plies(game_string: &str) -> usize {
    game_string.split(';').count().saturating_sub(3)
}

/// The causes of a JSON report.
pub fn causes(report: &Value) -> Vec<Cause> {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    report["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("findings is an array: {report:#}"))
        .iter()
        .map(|group| {
            let f = &group["shortest"];
            let longest_in_a_game = group["seen_in"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|s| s["test"].as_str().is_some_and(|t| t.starts_with("game ")))
                .filter_map(|s| s["plies"].as_u64())
                .max()
                .unwrap_or(0) as usize;
            Cause {
                kind: text(&group["kind"]),
                severity: text(&group["severity"]),
                fingerprint: text(&group["fingerprint"]),
                known: group["known"] == true,
                pattern: text(&f["pattern"]),
                clauses: f["clauses"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(text)
                    .collect(),
                test: text(&f["test"]),
                detail: text(&f["detail"]),
                plies: f["game_string"].as_str().map(plies).unwrap_or(0),
                longest_in_a_game,
            }
        })
        .collect()
}

/// The shortest instance of each cause of a JSON report.
pub fn shortest(report: &Value) -> Vec<&Value> {
    report["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("findings is an array: {report:#}"))
        .iter()
        .map(|g| &g["shortest"])
        .collect()
}

/// The first cause (its group) of `kind` in a JSON report.
pub fn cause_of_kind<'a>(report: &'a Value, kind: &str) -> &'a Value {
    report["findings"]
        .as_array()
        .and_then(|all| all.iter().find(|g| g["kind"] == kind))
        .unwrap_or_else(|| panic!("no {kind} cause: {report:#}"))
}

/// The shortest instance of the first cause of `kind` in a JSON report.
pub fn finding_of_kind<'a>(report: &'a Value, kind: &str) -> &'a Value {
    &cause_of_kind(report, kind)["shortest"]
}

/// The `skipped` entries of a JSON report as (test, reason).
pub fn skipped(report: &Value) -> Vec<(String, String)> {
    report["skipped"]
        .as_array()
        .unwrap_or_else(|| panic!("skipped is an array: {report:#}"))
        .iter()
        .map(|s| {
            (
                s["test"].as_str().unwrap_or_default().to_string(),
                s["reason"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// The live processes (zombies excluded) whose environment holds `marker`.
fn marked_processes(marker: &str) -> Vec<u32> {
    let needle = format!("{MARKER}={marker}\0");
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let environ = std::fs::read(entry.path().join("environ")).ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let zombie = stat
                .rsplit(')')
                .next()
                .is_none_or(|rest| rest.trim_start().starts_with('Z'));
            let marked = environ
                .windows(needle.len())
                .any(|w| w == needle.as_bytes());
            (marked && !zombie).then_some(pid)
        })
        .collect()
}

/// The processes `pids` with their command lines.
fn describe(pids: &[u32]) -> String {
    pids.iter()
        .map(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            format!(
                "{pid} ({})",
                String::from_utf8_lossy(&cmdline).replace('\0', " ")
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Kills the processes left with `marker`, so that a failed test leaves
/// none behind.
fn kill_marked(marker: &str) {
    for pid in marked_processes(marker) {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
}

/// Sends the signal `name` (`INT` or `TERM`) to the process `pid`.
#[cfg(unix)]
fn send_signal(pid: u32, name: &str) {
    use rustix::process::{kill_process, Pid, Signal};
    let signal = match name {
        "INT" => Signal::INT,
        "TERM" => Signal::TERM,
        other => panic!("no signal {other} here"),
    };
    let pid = i32::try_from(pid)
        .ok()
        .and_then(Pid::from_raw)
        .expect("a pid");
    kill_process(pid, signal).expect("the signal is sent");
}

/// Signals are Unix's; no test sends one elsewhere.
#[cfg(not(unix))]
fn send_signal(_pid: u32, name: &str) {
    panic!("no signal {name} here");
}
