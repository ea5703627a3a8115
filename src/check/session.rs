//! One engine process of a check, started on demand and restarted after a
//! failure, with the time spent waiting for it (reported apart from the
//! findings, which never depend on it).

use std::time::{Duration, Instant};

use crate::check::client::{ClientError, Response, UhpClient};
use crate::core::RulesOptions;
use crate::reference::ReferenceEngine;
use crate::rules::Rules;

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
}

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
        }
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
    }

    /// Sends one command and reads the answer.
    pub fn command(&mut self, line: &str) -> Result<Response, ClientError> {
        self.transcript.push(line.to_string());
        let client = self.client()?;
        let start = Instant::now();
        let result = client.command(line);
        self.engine_time += start.elapsed();
        result
    }

    /// Sends raw bytes (one or more lines) and reads one answer.
    pub fn send_raw(&mut self, label: &str, bytes: &[u8]) -> Result<Response, ClientError> {
        self.transcript
            .extend(String::from_utf8_lossy(bytes).lines().map(str::to_string));
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
        let client = self.client()?;
        client.set_timeout(timeout);
        let start = Instant::now();
        let result = client.command(line);
        client.set_timeout(normal);
        self.engine_time += start.elapsed();
        result
    }

    /// `validmoves` in the position of `game`. Once the game is over, a
    /// refusal is as good as an empty list: no move is legal (§8.5).
    pub fn validmoves(&mut self, game: &ReferenceEngine) -> Result<Vec<String>, ClientError> {
        self.transcript.push("validmoves".to_string());
        let client = self.client()?;
        let start = Instant::now();
        let result = client.validmoves();
        self.engine_time += start.elapsed();
        match result {
            Err(ClientError::Refused { .. }) if game.state().is_over() => Ok(Vec::new()),
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
