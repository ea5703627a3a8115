//! The protocol probes of `hive-oracle check` and perft over UHP: each
//! probe is independent (a failing one hides no other), and the corpus
//! perft cases and the perft probe run over UHP on engines that answer
//! `perft`, skipped with a reason on those that do not. The engines are our
//! own UHP engine, clean or with a deliberate fault (`uhp --fault NAME`,
//! `src/faults/`).

use serde_json::Value;

use crate::check_run::{faulty, ours, skipped, Check};

/// The corpus cases with perft counts that `check` runs here: Base, Base+MLP
/// and Base+P positions (tests/cases/*.toml).
const PERFT_CASES: &[&str] = &[
    "components.toml::a-colour-has-eleven-pieces",
    "components.toml::base-plus-mlp-adds-three-pieces",
    "pillbug.toml::throw-and-step-to-same-cell-are-one-move",
];

/// Runs `check --games 0 --format json` on `engine` with `extra`
/// arguments: its exit code and its report.
fn check(engine: &str, extra: &[&str]) -> (Option<i32>, Value) {
    Check::new()
        .engine(engine)
        .args(["--games", "0"])
        .args(extra)
        .json()
        .run()
        .verdict()
}

/// Our engine with `fault` (or none).
fn engine(fault: Option<&str>) -> String {
    fault.map_or_else(ours, faulty)
}

/// `--case NAME` for each of [`PERFT_CASES`].
fn perft_case_args() -> Vec<&'static str> {
    PERFT_CASES
        .iter()
        .flat_map(|case| ["--case", case])
        .collect()
}

/// Each cause's (kind, pattern, test) from its shortest instance.
fn causes(report: &Value) -> Vec<(String, String, String)> {
    crate::check_run::causes(report)
        .into_iter()
        .map(|c| (c.kind, c.pattern, c.test))
        .collect()
}

/// The reasons of the report's `skipped` entries that mention perft.
fn perft_skips(report: &Value) -> Vec<(String, String)> {
    skipped(report)
        .into_iter()
        .filter(|(_, reason)| reason.contains("perft"))
        .collect()
}

/// One failing probe never hides another: the fault engine exits on
/// `bestmove` in a finished game and on a line that is not UTF-8, as
/// nokamute 1.0.3 does (spec/sources/uhp-notes.md section 5.6; issue found
/// against nokamute, whose `bestmove` crash hid its exit on non-UTF-8
/// input). The `bestmove` probe comes first; the engine is started again
/// and the non-UTF-8 probe still runs and reports its own crash.
#[test]
fn a_failing_probe_hides_no_other() {
    let (code, report) = check(&engine(Some("bestmove-over-exits")), &["--no-corpus"]);
    assert_eq!(code, Some(1), "{report:#}");
    let causes = causes(&report);
    let crash = |pattern: &str| {
        causes
            .iter()
            .any(|(kind, p, test)| kind == "crash" && p == pattern && test == "protocol")
    };
    assert!(crash("bestmove"), "{causes:?}");
    assert!(crash("non-UTF-8"), "{causes:?}");
    // every probe after them ran: nothing of the protocol unit was skipped
    assert_eq!(report["skipped"], serde_json::json!([]), "{report:#}");
}

/// The corpus perft cases and the perft probe run over UHP on our engine
/// (which answers `perft N`, spec/notation.md, UHP engine conventions): no
/// finding, and no perft assertion skipped.
#[test]
fn perft_cases_run_over_uhp_on_our_engine() {
    let (code, report) = check(&engine(None), &perft_case_args());
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["findings"], serde_json::json!([]), "{report:#}");
    assert_eq!(perft_skips(&report), [], "{report:#}");
    assert_eq!(
        report["summary"]["corpus_cases"],
        PERFT_CASES.len(),
        "{report:#}"
    );
}

/// The same cases on an engine whose `perft` counts one leaf too many at
/// its deepest depth: the cases with perft counts and the perft probe's
/// positions all show the `perft` cause, so the counts are really asked and
/// compared.
#[test]
fn a_wrong_perft_count_is_a_finding() {
    let (code, report) = check(&engine(Some("perft-miscounts")), &perft_case_args());
    assert_eq!(code, Some(1), "{report:#}");
    let groups = report["findings"].as_array().expect("findings");
    assert_eq!(groups.len(), 1, "{report:#}");
    let cause = &groups[0];
    assert_eq!(cause["kind"], "perft");
    let seen_in: Vec<&str> = cause["seen_in"]
        .as_array()
        .expect("seen_in")
        .iter()
        .filter_map(|s| s["test"].as_str())
        .collect();
    // the three probe positions, and each case
    assert_eq!(
        seen_in.iter().filter(|&&t| t == "protocol").count(),
        3,
        "{seen_in:?}"
    );
    for case in PERFT_CASES {
        assert!(seen_in.contains(case), "{case}: {seen_in:?}");
    }
}

/// An engine that refuses `perft` (no UHP command): the perft assertions of
/// the cases and the perft probe are skipped, each with the engine's
/// refusal as the reason, and the check passes.
#[test]
fn an_engine_without_perft_has_its_perft_checks_skipped_with_the_reason() {
    let (code, report) = check(&engine(Some("refuses-perft")), &perft_case_args());
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["findings"], serde_json::json!([]), "{report:#}");
    let skips = perft_skips(&report);
    for case in PERFT_CASES {
        assert!(
            skips.iter().any(|(test, reason)| test == case
                && reason.contains("refuses `perft 1`")
                && reason.contains("unknown command")),
            "{case}: {skips:?}"
        );
    }
    assert!(
        skips
            .iter()
            .any(|(test, reason)| test == "protocol" && reason.starts_with("probe perft: ")),
        "{skips:?}"
    );
}

/// The shortest instances of the causes of a protocol-only check
/// (`--no-corpus`, no games) of our engine with `fault`: its exit code and
/// (kind, pattern, detail) of each cause.
fn protocol_causes(fault: &str) -> (Option<i32>, Vec<(String, String, String)>) {
    let (code, report) = check(&faulty(fault), &["--no-corpus"]);
    let causes = crate::check_run::causes(&report)
        .into_iter()
        .map(|c| (c.kind, c.pattern, c.detail))
        .collect();
    (code, causes)
}

/// Our engine passes every protocol probe, the new ones included (the
/// game types, the MUST-refuse lines, perft, `exit`).
#[test]
fn our_engine_passes_every_probe() {
    let (code, report) = check(&engine(None), &["--no-corpus"]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["findings"], serde_json::json!([]), "{report:#}");
    assert_eq!(report["skipped"], serde_json::json!([]), "{report:#}");
}

/// §9.15: the game type printed must be the standard spelling of the
/// game's. The fault engine prints the expansion letters reversed
/// (`Base+LM` for `Base+ML`), which a comparison of the moves alone does
/// not see.
#[test]
fn a_non_canonical_game_type_is_a_finding() {
    let (code, causes) = protocol_causes("reversed-game-type");
    assert_eq!(code, Some(1), "{causes:?}");
    assert!(
        causes
            .iter()
            .any(|(kind, pattern, detail)| kind == "game-string"
                && pattern == "game type"
                && detail.contains("\"Base+LM\"; it must be \"Base+ML\"")),
        "{causes:?}"
    );
}

/// §9.32: a GameString with a doubled or trailing `;` MUST be refused. The
/// fault engine skips the empty moves and loads the rest: each of the two
/// lines is its own finding, and the other MUST-refuse lines, which it
/// refuses, give none.
#[test]
fn an_extra_semicolon_accepted_is_a_finding() {
    let (code, causes) = protocol_causes("skips-empty-moves");
    assert_eq!(code, Some(1), "{causes:?}");
    let patterns: Vec<&str> = causes.iter().map(|(_, p, _)| p.as_str()).collect();
    assert_eq!(
        patterns,
        [
            "must refuse: `newgame Base;InProgress;White[2];wS1;;bS1 wS1-`",
            "must refuse: `newgame Base;InProgress;White[2];wS1;bS1 wS1-;`",
        ],
        "{causes:?}"
    );
}

/// spec/sources/uhp-notes.md section 2.3: a refused `newgame` answers
/// `err`, never another game. The fault engine answers every refused
/// `newgame` with its previous game (which differs from each bad string):
/// the refused-newgame probe and each bad `newgame` of the MUST-refuse
/// probe say so.
#[test]
fn a_newgame_answered_with_the_previous_game_is_a_finding() {
    let (code, causes) = protocol_causes("newgame-refusal-answers-previous");
    assert_eq!(code, Some(1), "{causes:?}");
    let previous = |pattern: &str| {
        causes.iter().any(|(_, p, detail)| {
            p == pattern
                && detail.contains("the game before it: another game than the one asked for")
        })
    };
    assert!(previous("newgame with a bad move"), "{causes:?}");
    assert!(previous("must refuse: `newgame Base+MM`"), "{causes:?}");
    assert!(previous("must refuse: `newgame Base;wS1`"), "{causes:?}");
}

/// spec/sources/uhp-notes.md section 5.9: `exit` must end the engine. The
/// fault engine answers `ok` and leaves only at the end of its input; the
/// probe keeps the input open, so it sees that.
#[test]
fn an_ignored_exit_is_a_finding() {
    let (code, causes) = protocol_causes("exit-ignored");
    assert_eq!(code, Some(1), "{causes:?}");
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert_eq!(
        (causes[0].0.as_str(), causes[0].1.as_str()),
        ("protocol", "exit")
    );
}

/// A start-up failure is its own cause with the engine's stderr: an engine
/// that writes why on stderr and exits before its banner (as one whose
/// weights file is missing) makes the check exit 2, and the message says
/// that the engine never answered its banner and quotes its stderr.
#[test]
fn an_engine_that_never_answers_its_banner_is_exit_2_with_its_stderr() {
    let engine = "sh -c 'echo fatal: cannot open weights.bin >&2; exit 3'";
    let out = Check::new().engine(engine).args(["--games", "1"]).run();
    assert_eq!(out.status, Some(2));
    let stderr = &out.stderr;
    assert!(
        stderr.contains("never answered its start-up banner")
            && stderr.contains("exit status: 3")
            && stderr.contains("fatal: cannot open weights.bin"),
        "{stderr}"
    );
}
