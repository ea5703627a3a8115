//! `hive-oracle uhp --fault NAME` (feature `faults`, test support): the
//! rules package's [`FaultySession`] run as a process, with the faults of
//! the process and its streams, which act before a line is answered: exit
//! (crash-mid-game, random-crash, exit-on-non-utf8, bestmove-over-exits),
//! block forever (hang), flood stdout (flood-lines, flood-bytes, huge-line)
//! or write on stderr (escape-codes, stderr-flood). They need a process of
//! their own, so they are the tool's, never a [`FaultySession`]'s driven in
//! process.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use hive_oracle_rules::faults::{Fault, FaultySession, ESCAPE_CODES};
use hive_oracle_rules::uhp::{serve, EngineChoice, Game, LineHandler};

/// A [`FaultySession`] run as a process: before each line is answered, the
/// faults that end or block the process act ([`before_command`]).
struct FaultyProcess(FaultySession);

impl LineHandler for FaultyProcess {
    fn banner(&self) -> Vec<String> {
        self.0.banner()
    }

    fn handle_line(&mut self, line: &[u8]) -> Vec<String> {
        let game = self.0.session().game();
        let plies = game.map_or(0, Game::plies);
        let over = game.is_some_and(|g| g.state().is_over());
        before_command(self.0.fault(), line, plies, over);
        self.0.handle_line(line)
    }

    fn long_line_reply(&self) -> Vec<String> {
        self.0.long_line_reply()
    }

    fn has_exited(&self) -> bool {
        self.0.has_exited()
    }
}

/// [`run`](hive_oracle_rules::uhp::run) with a deliberate fault (`hive-oracle uhp --fault
/// NAME`, for testing the checker): the same loop on a [`FaultySession`],
/// where besides the session's faults those of the process act before the
/// line that triggers them is answered: `crash-mid-game` exits the process
/// with status 101, `hang` blocks forever, `exit-on-non-utf8` exits with
/// status 1, and so on (the module's list).
pub fn run_with_fault(
    input: impl BufRead,
    output: impl Write,
    engine: EngineChoice,
    fault: Fault,
) -> io::Result<()> {
    serve(
        input,
        output,
        FaultyProcess(
            FaultySession::new(engine, fault).with_order_seed(u64::from(std::process::id())),
        ),
    )
}

/// The faults of the process that act before a command is answered: exit
/// with status 101 (crash-mid-game, random-crash), block forever (hang),
/// exit with status 1 on a line that is not UTF-8 (exit-on-non-utf8), flood
/// stdout (flood-lines, flood-bytes, huge-line), write on stderr
/// (escape-codes, stderr-flood) or exit like nokamute (bestmove-over-exits:
/// `bestmove` when the game is `over`, a line not UTF-8). Returns when none
/// acts.
fn before_command(fault: Fault, line: &[u8], plies: usize, over: bool) {
    let keyword = line
        .trim_ascii()
        .split(|b| b.is_ascii_whitespace())
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    match fault {
        Fault::CrashMidGame if plies >= 6 && (keyword == b"play" || keyword == b"pass") => {
            std::process::exit(101)
        }
        Fault::Hang if plies >= 4 && keyword == b"validmoves" => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        Fault::ExitOnNonUtf8 | Fault::BestmoveOverExits if std::str::from_utf8(line).is_err() => {
            std::process::exit(1)
        }
        Fault::BestmoveOverExits if over && keyword == b"bestmove" => std::process::exit(101),
        Fault::FloodLines if plies >= 4 && keyword == b"validmoves" => flood(b"y\n"),
        Fault::FloodBytes if plies >= 4 && keyword == b"validmoves" => flood(b"y"),
        Fault::HugeLine if plies >= 4 && keyword == b"validmoves" => huge_line(),
        Fault::EscapeCodes => {
            let _ = writeln!(io::stderr(), "{ESCAPE_CODES} debug output");
        }
        Fault::StderrFlood => {
            let noise = format!("{ESCAPE_CODES} noise {}\n", "z".repeat(200)).repeat(300);
            let _ = io::stderr().write_all(noise.as_bytes());
        }
        Fault::RandomCrash => {
            let commands = COMMANDS_SEEN.fetch_add(1, Ordering::SeqCst);
            if commands >= 10 + (std::process::id() as usize % 31) {
                std::process::exit(101)
            }
        }
        Fault::LaxPieceNumbers if keyword == b"play" && names_a_fourth_piece(line) => {
            std::process::exit(101)
        }
        Fault::CrashAfterFortyCommands => {
            let commands = COMMANDS_SEEN.fetch_add(1, Ordering::SeqCst) + 1;
            if commands >= 40 {
                std::process::exit(101)
            }
        }
        Fault::CrashUnderCheck => {
            let commands = COMMANDS_SEEN.fetch_add(1, Ordering::SeqCst);
            if commands >= 9 && !started_by_shell() {
                std::process::exit(101)
            }
        }
        _ => {}
    }
}

/// Whether the piece a `play` line names carries the number 4, which no
/// piece has (lax-piece-numbers: `play wG4`).
fn names_a_fourth_piece(line: &[u8]) -> bool {
    let mut words = line
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    words.next();
    words
        .next()
        .is_some_and(|piece| piece.len() == 3 && piece[2] == b'4')
}

/// Whether the parent process is a POSIX shell, by its name in /proc
/// (crash-under-check); false where there is no /proc.
fn started_by_shell() -> bool {
    #[cfg(unix)]
    {
        let parent = std::os::unix::process::parent_id();
        std::fs::read_to_string(format!("/proc/{parent}/comm"))
            .is_ok_and(|name| matches!(name.trim(), "sh" | "dash" | "bash" | "zsh" | "ksh"))
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// The commands random-crash and crash-under-check have seen in this
/// process.
static COMMANDS_SEEN: AtomicUsize = AtomicUsize::new(0);

/// Writes `chunk` on stdout until the process is killed (or stdout is
/// closed, then exits).
fn flood(chunk: &[u8]) -> ! {
    let block = chunk.repeat(65536 / chunk.len());
    let mut out = io::stdout().lock();
    while out.write_all(&block).is_ok() {}
    std::process::exit(1)
}

/// Writes one line of 1 GiB on stdout (exits if stdout is closed).
fn huge_line() {
    let block = vec![b'y'; 1 << 20];
    let mut out = io::stdout().lock();
    for _ in 0..1024 {
        if out.write_all(&block).is_err() {
            std::process::exit(1);
        }
    }
    if out.write_all(b"\n").and_then(|()| out.flush()).is_err() {
        std::process::exit(1);
    }
}
