//! The protocol probes of `hive-oracle check` and perft over UHP: each
//! probe is independent (a failing one hides no other), and the corpus
//! perft cases and the perft probe run over UHP on engines that answer
//! `perft`, skipped with a reason on those that do not. The engines are our
//! own UHP engine, clean or with a deliberate fault (`uhp --fault NAME`,
//! `src/faults/`).

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_hive-oracle");

/// The corpus cases with perft counts that `check` runs here: Base, Base+MLP
/// and Base+P positions (tests/cases/*.toml).
const PERFT_CASES: &[&str] = &[
    "components.toml::a-colour-has-eleven-pieces",
    "components.toml::base-plus-mlp-adds-three-pieces",
    "pillbug.toml::throw-and-step-to-same-cell-are-one-move",
];

/// Runs `check --games 0 --format json` on `engine` with `extra`
/// arguments: its exit code and its report.
fn check(engine: &str, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = Command::new(BIN)
        .args([
            "check", "--engine", engine, "--games", "0", "--format", "json",
        ])
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("check runs");
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report)
}

/// Our engine with `fault` (or none), quoted for the shell.
fn engine(fault: Option<&str>) -> String {
    match fault {
        Some(fault) => format!("'{BIN}' uhp --fault {fault}"),
        None => format!("'{BIN}' uhp"),
    }
}

/// `--case NAME` for each of [`PERFT_CASES`].
fn perft_case_args() -> Vec<&'static str> {
    PERFT_CASES
        .iter()
        .flat_map(|case| ["--case", case])
        .collect()
}

/// Each cause's (kind, pattern, test) from its shortest instance.
fn causes(report: &serde_json::Value) -> Vec<(String, String, String)> {
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|g| {
            let f = &g["shortest"];
            (text(&f["kind"]), text(&f["pattern"]), text(&f["test"]))
        })
        .collect()
}

/// The reasons of the report's `skipped` entries that mention perft.
fn perft_skips(report: &serde_json::Value) -> Vec<(String, String)> {
    report["skipped"]
        .as_array()
        .expect("skipped")
        .iter()
        .map(|s| {
            (
                s["test"].as_str().unwrap_or_default().to_string(),
                s["reason"].as_str().unwrap_or_default().to_string(),
            )
        })
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
