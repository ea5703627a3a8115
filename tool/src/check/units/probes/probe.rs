//! What a protocol probe is ([`Probe`]: its name, the severity of what it
//! finds, what it sends and how it judges), and what a probe works with
//! ([`Prober`]: the unit's worker, the Base start position its findings are
//! shown in, the banner, what the engine says of itself).

use crate::check::client::{ClientError, Response};
use crate::check::findings::finding::{Finding, Kind, Severity};
use crate::check::findings::summary::EngineInfo;
use crate::check::units::worker::Worker;
use hive_oracle_rules::reference::ReferenceEngine;

/// Whether the engine still answered at the end of a probe (the runner
/// starts it again for the next probe when it did not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Go {
    /// The engine still answers: go on.
    On,
    /// The engine failed (crash, timeout, garbage): it is started again
    /// for the next probe.
    Stop,
}

impl Go {
    /// [`Go::On`] when `go_on`.
    pub fn on(go_on: bool) -> Go {
        if go_on {
            Go::On
        } else {
            Go::Stop
        }
    }
}

/// What a probe sends.
pub(crate) enum Sends {
    /// One command line, on the unit's engine.
    Command(&'static str),
    /// Lines written as they are (each ends in `\n`, and may be blank, end
    /// in `\r` or not be UTF-8), on the unit's engine; `label` names them in
    /// errors.
    Raw {
        label: &'static str,
        lines: &'static [&'static [u8]],
    },
    /// A conversation on the unit's engine, sent by the probe's function.
    Conversation,
    /// A conversation with a process of its own, sent by the probe's
    /// function: it runs even when the unit's engine has failed.
    OwnProcess,
}

/// How a probe judges.
pub(crate) enum Judge {
    /// The answer to what [`Sends::Command`] or [`Sends::Raw`] sent (an
    /// engine failure while sending it is reported by the runner).
    Answer(fn(&mut Prober<'_, '_>, &Probe, Response) -> Go),
    /// A conversation ([`Sends::Conversation`], [`Sends::OwnProcess`]): the
    /// function sends and judges.
    Conversation(fn(&mut Prober<'_, '_>, &Probe) -> Go),
}

/// One protocol probe.
pub(crate) struct Probe {
    /// Its name: the pattern of the findings it records through
    /// [`Prober::finding`] and [`Prober::failed`].
    pub name: &'static str,
    /// The severity of those findings: an error for what every engine MUST
    /// do, an advisory for a habit the established engines do not share.
    pub severity: Severity,
    /// What it sends.
    pub sends: Sends,
    /// How it judges.
    pub judge: Judge,
}

impl Probe {
    /// Whether it needs the unit's engine to be working.
    pub fn needs_the_unit_engine(&self) -> bool {
        !matches!(self.sends, Sends::OwnProcess)
    }
}

/// What the probes of the protocol unit work with.
pub(crate) struct Prober<'w, 'a> {
    pub worker: &'w mut Worker<'a>,
    /// The start position of Base, where the findings of the line probes
    /// are shown.
    pub base: ReferenceEngine,
    /// The engine's start-up banner (without `ok`).
    pub banner: Vec<String>,
    /// What the engine says of itself, for the report.
    pub engine: EngineInfo,
}

impl Prober<'_, '_> {
    /// Sends what `probe` sends ([`Sends::Command`] or [`Sends::Raw`]).
    pub fn send(&mut self, probe: &Probe) -> Result<Response, ClientError> {
        let session = &mut self.worker.session;
        match probe.sends {
            Sends::Command(line) => session.command(line),
            Sends::Raw { label, lines } => {
                let mut bytes = lines.join(&b'\n');
                bytes.push(b'\n');
                session.send_raw(label, &bytes)
            }
            // the probe's function sends
            Sends::Conversation | Sends::OwnProcess => Ok(Response::default()),
        }
    }

    /// Records a protocol finding of `probe` (its name as pattern, its
    /// severity), shown by the lines the engine was sent, exactly
    /// ([`Worker::exact_lines`]: the earlier probes' lines on the same
    /// process included), and the engine's `answer`.
    pub fn finding(&mut self, probe: &Probe, detail: String, answer: Vec<String>) {
        let sent = self.worker.exact_lines();
        let finding = Finding::new(Kind::Protocol, &self.worker.test, &self.base)
            .severity(probe.severity)
            .clauses(["uhp"])
            .pattern(probe.name)
            .detail(detail)
            .exchange_exact(sent, answer);
        self.worker.add(finding);
    }

    /// Unless `holds`, records a protocol finding of `probe` with `detail`
    /// (given what the engine answered), shown by the lines the probe sends
    /// and the `answer`; the probes after it go on.
    pub fn require(
        &mut self,
        probe: &Probe,
        holds: bool,
        answer: Vec<String>,
        detail: impl FnOnce(&str) -> String,
    ) -> Go {
        if !holds {
            let detail = detail(&answer.join(" / "));
            self.finding(probe, detail, answer);
        }
        Go::On
    }

    /// Records an engine failure during `probe`, shown by the lines the
    /// engine was sent, exactly, with the probe's name and severity: the
    /// engine is started again for the probes after it.
    pub fn failed(&mut self, probe: &Probe, error: ClientError) -> Go {
        let worker = &mut *self.worker;
        let before = worker.findings.len();
        worker.engine_failure_here(&self.base, error);
        for f in &mut worker.findings[before..] {
            f.severity = probe.severity;
            f.pattern = probe.name.to_string();
        }
        Go::Stop
    }
}
