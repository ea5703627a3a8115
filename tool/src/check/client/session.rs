//! One engine process of a check, started on demand and restarted after a
//! failure, with the time spent waiting for it (reported apart from the
//! findings, which never depend on it).

use std::time::{Duration, Instant};

use crate::check::client::{ClientError, Response, UhpClient};
use hive_oracle_rules::core::notation::parse_game_state;
use hive_oracle_rules::core::RulesOptions;

/// The engine under check, restarted on demand after a failure.
pub(crate) struct Session {
    command: String,
    startup_timeout: Duration,
    timeout: Duration,
    client: Option<UhpClient>,
    /// Time spent waiting for the engine.
    pub engine_time: Duration,
    /// The rules options last set on the engine, if any were.
    pub options: Option<RulesOptions>,
    /// Every line sent since the unit began, in order (a line that is not
    /// UTF-8 lossily), so that a finding can be replayed exactly as played.
    pub transcript: Vec<String>,
    /// What the running engine process was sent, byte for byte
    /// ([`Session::exact_lines`]).
    said: Said,
    /// The last GameString the running engine printed ([`Session::printed`]).
    printed: Option<String>,
}

/// The lines the running engine process was sent that bring it to its
/// present state, exactly as they were written (without their `\n`): the
/// last rules-setting lines ([`Session::rules_set`]), then every line from
/// the last `newgame` the engine accepted on (a refused one keeps the game,
/// so it is kept with the lines before it), or from the process's start
/// when it accepted none.
#[derive(Default)]
struct Said {
    rules: Vec<Vec<u8>>,
    since_load: Vec<Vec<u8>>,
    /// Every line since the process started, up to [`MAX_SINCE_START`]
    /// bytes (`None` past it): the pipe of a failure of the process that
    /// the lines since the last `newgame` do not show.
    since_start: Option<Vec<Vec<u8>>>,
    since_start_bytes: usize,
}

/// The most bytes of lines kept from a process's start
/// ([`Session::lines_since_start`]): a few hundred lines. A pipe longer
/// than this is no pipe a person can use, and each report stays bounded
/// (a cause quotes its lines twice, as `sent` and in its pipe).
const MAX_SINCE_START: usize = 16 * 1024;

impl Session {
    pub fn new(command: &str, startup_timeout: Duration, timeout: Duration) -> Session {
        Session {
            command: command.to_string(),
            startup_timeout,
            timeout,
            client: None,
            engine_time: Duration::ZERO,
            options: None,
            transcript: Vec::new(),
            said: Said::default(),
            printed: None,
        }
    }

    /// The last GameString the running engine printed (none since its
    /// process started): read before a `newgame`, what an engine that keeps
    /// its game on a `newgame` it does not load prints again.
    pub fn printed(&self) -> Option<&str> {
        self.printed.as_deref()
    }

    /// The running engine, started if there is none (or it failed).
    pub fn client(&mut self) -> Result<&mut UhpClient, ClientError> {
        if self.client.as_ref().is_some_and(|c| c.defunct().is_some()) {
            self.client = None;
        }
        let client = match self.client.take() {
            Some(client) => client,
            None => {
                let start = Instant::now();
                let spawned =
                    UhpClient::spawn_with(&self.command, self.startup_timeout, self.timeout);
                self.engine_time += start.elapsed();
                self.options = None;
                // a new process has been sent nothing, and printed nothing
                self.said = Said {
                    since_start: Some(Vec::new()),
                    ..Said::default()
                };
                self.printed = None;
                spawned?
            }
        };
        Ok(self.client.insert(client))
    }

    /// Whether the engine has failed (or was never started).
    pub fn is_down(&self) -> bool {
        self.client.as_ref().is_none_or(|c| c.defunct().is_some())
    }

    /// Drops the engine (killing it): the next command starts a new one.
    pub fn drop_engine(&mut self) {
        self.client = None;
        self.options = None;
        self.said = Said::default();
    }

    /// The lines the running engine was sent that bring it to its present
    /// state, exactly as written (see [`Said`]): the lines of a reproduce
    /// pipe, taken right after the line whose answer is in dispute. A
    /// process that failed to start was sent only the line it was to get.
    pub fn exact_lines(&self) -> Vec<Vec<u8>> {
        let said = &self.said;
        said.rules.iter().chain(&said.since_load).cloned().collect()
    }

    /// Notes that the lines sent since the last `newgame` accepted (the
    /// last of them included) set the engine's rules options: they start
    /// every later reproduce pipe on this process.
    pub fn rules_set(&mut self) {
        self.said.rules = std::mem::take(&mut self.said.since_load);
    }

    /// Records `line` as sent to the running engine (started first if
    /// needed, so that a new process starts with it).
    fn record(&mut self, line: &[u8]) -> Result<(), ClientError> {
        let started = self.client().map(drop);
        self.said.since_load.push(line.to_vec());
        let said = &mut self.said;
        said.since_start_bytes += line.len() + 1;
        if said.since_start_bytes > MAX_SINCE_START {
            said.since_start = None;
        } else if let Some(lines) = &mut said.since_start {
            lines.push(line.to_vec());
        }
        started
    }

    /// Every line the running process was sent since it started, exactly
    /// as written; `None` past [`MAX_SINCE_START`] bytes.
    pub fn lines_since_start(&self) -> Option<Vec<Vec<u8>>> {
        self.said.since_start.clone()
    }

    /// Notes the answer to `line`: a `newgame` the engine accepted starts
    /// the lines of the position again ([`loads_the_game_asked`]).
    fn answered(&mut self, line: &str, result: &Result<Response, ClientError>) {
        if let Ok(answer) = result {
            let last = answer.last_line().unwrap_or("");
            let state = last.split(';').nth(1).unwrap_or("");
            if !answer.is_error() && parse_game_state(state).is_ok() {
                self.printed = Some(last.to_string());
            }
        }
        let Some(asked) = line.strip_prefix("newgame") else {
            return;
        };
        if matches!(result, Ok(r) if loads_the_game_asked(asked, r)) {
            self.said.since_load = vec![line.as_bytes().to_vec()];
        }
    }

    /// Sends one command and reads the answer.
    pub fn command(&mut self, line: &str) -> Result<Response, ClientError> {
        self.transcript.push(line.to_string());
        self.record(line.trim().as_bytes())?;
        let client = self.client()?;
        let start = Instant::now();
        let result = client.command(line);
        self.engine_time += start.elapsed();
        self.answered(line.trim(), &result);
        result
    }

    /// Sends raw bytes (one or more lines, each ending in `\n`) and reads
    /// one answer.
    pub fn send_raw(&mut self, label: &str, bytes: &[u8]) -> Result<Response, ClientError> {
        self.transcript
            .extend(String::from_utf8_lossy(bytes).lines().map(str::to_string));
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        for line in body.split(|&b| b == b'\n') {
            self.record(line)?;
        }
        let client = self.client()?;
        let start = Instant::now();
        let result = client.send_raw(label, bytes);
        self.engine_time += start.elapsed();
        result
    }

    /// Reads one more answer without sending anything.
    pub fn read_answer(&mut self, label: &str) -> Result<Response, ClientError> {
        let client = self.client()?;
        let start = Instant::now();
        let result = client.read_answer(label);
        self.engine_time += start.elapsed();
        result
    }

    /// A command with its own timeout (for `bestmove time`).
    pub fn command_within(
        &mut self,
        line: &str,
        timeout: Duration,
    ) -> Result<Response, ClientError> {
        let normal = self.timeout;
        self.transcript.push(line.to_string());
        self.record(line.trim().as_bytes())?;
        let client = self.client()?;
        client.set_timeout(timeout);
        let start = Instant::now();
        let result = client.command(line);
        client.set_timeout(normal);
        self.engine_time += start.elapsed();
        result
    }

    /// `validmoves` in the current position; `over`: whether the game is
    /// over under the engine's rules. Once it is, a refusal is as good as
    /// an empty list: no move is legal (§8.5).
    pub fn validmoves(&mut self, over: bool) -> Result<Vec<String>, ClientError> {
        self.transcript.push("validmoves".to_string());
        self.record(b"validmoves")?;
        let client = self.client()?;
        let start = Instant::now();
        let result = client.validmoves();
        self.engine_time += start.elapsed();
        match result {
            Err(ClientError::Refused { .. }) if over => Ok(Vec::new()),
            other => other,
        }
    }

    /// The last lines of the engine's stderr (none when it is not running).
    pub fn stderr_tail(&mut self) -> Vec<String> {
        self.client
            .as_mut()
            .map(UhpClient::stderr_tail)
            .unwrap_or_default()
    }

    /// Asks the engine to exit.
    pub fn shutdown(&mut self) {
        if let Some(client) = self.client.take() {
            client.exit();
        }
    }
}

/// Whether `answer` shows that a `newgame` of `asked` (a GameTypeString, a
/// GameString, or nothing for Base) was loaded: not refused, and a
/// GameString of the game type asked with as many moves. An engine that
/// answers a bad `newgame` with another game (the one before it) has not
/// loaded it, and in doubt the lines before it are kept: a reproduce pipe
/// may send more lines than needed, never fewer.
fn loads_the_game_asked(asked: &str, answer: &Response) -> bool {
    if answer.is_error() || !(asked.is_empty() || asked.starts_with(' ')) {
        return false;
    }
    let asked = asked.trim();
    let asked = if asked.is_empty() { "Base" } else { asked };
    let printed = answer.last_line().unwrap_or("").trim();
    let (asked_fields, printed_fields): (Vec<&str>, Vec<&str>) =
        (asked.split(';').collect(), printed.split(';').collect());
    let moves = |fields: &[&str]| fields.len().saturating_sub(3);
    asked_fields[0] == printed_fields[0] && moves(&asked_fields) == moves(&printed_fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Response {
        Response {
            lines: vec![line.to_string()],
            ..Response::default()
        }
    }

    #[test]
    fn a_newgame_loads_only_when_the_game_asked_is_printed() {
        let base = " Base;InProgress;Black[1];wS1";
        assert!(loads_the_game_asked(
            " Base",
            &answer("Base;NotStarted;White[1]")
        ));
        assert!(loads_the_game_asked(
            "",
            &answer("Base;NotStarted;White[1]")
        ));
        assert!(loads_the_game_asked(base, &answer(base.trim())));
        // refused, or answered with the game before it (as one engine
        // answers a bad GameString): the earlier lines are kept
        assert!(!loads_the_game_asked(" Base+MM", &answer("err bad")));
        assert!(!loads_the_game_asked(" Base+MM", &answer(base.trim())));
        let bad = " Base;InProgress;White[2];wS1;xyz";
        assert!(!loads_the_game_asked(bad, &answer(base.trim())));
        assert!(!loads_the_game_asked(
            "x Base",
            &answer("Base;NotStarted;White[1]")
        ));
    }
}
