//! Runs the engine-neutral case corpus (`tests/cases/*.toml`, format in
//! `spec/cases.md`) on both engines and reports every failure at once.
//!
//! * The reference engine must refuse each `illegal` move citing its clause.
//! * The fast engine must refuse it too; its refusals carry no clause (it
//!   leaves explanations to the reference), so only the refusal is checked:
//!   this skip lives here, in the runner, never in the data.
//!
//! Filter with `HIVE_ORACLE_CASE=<text>`: only cases whose `file::name`
//! contains the text run, e.g. `HIVE_ORACLE_CASE=pillbug cargo test --test integration cases::`.

use std::path::PathBuf;

use hive_oracle_rules::cases::{builtin_corpus, run_case, CaseEngine, LoadedCase, RulesEngine};
use hive_oracle_rules::fast::FastEngine;
use hive_oracle_rules::reference::ReferenceEngine;
use hive_oracle_rules::rules::Rules;

/// The corpus built into the library, which is `tests/cases/`
/// ([`the_built_in_corpus_is_the_directory`]).
fn corpus() -> Vec<LoadedCase> {
    match builtin_corpus() {
        Ok(cases) => cases,
        Err(e) => panic!("the corpus does not load: {e}"),
    }
}

/// Runs a case on one engine and reports each failure (or skip) as a line.
fn run_on<E: CaseEngine>(
    name: &str,
    engine: &mut E,
    loaded: &LoadedCase,
    line: &mut impl FnMut(&str, String),
) where
    E::Error: std::fmt::Display,
{
    let reference = ReferenceEngine::load_with(&loaded.case.game, loaded.case.options.into());
    match (run_case(engine, &loaded.case), reference) {
        (Err(broken), _) => line(name, broken.to_string()),
        (Ok(_), Err(e)) => line(name, format!("the game does not load: {e}")),
        (Ok(run), Ok(reference)) => {
            for failure in &run.failures {
                line(name, failure.describe(&reference));
            }
            for skip in run.skipped {
                line(name, format!("skipped: {skip}"));
            }
            if let Some(e) = run.stopped {
                line(name, format!("stopped: {e}"));
            }
        }
    }
}

#[test]
fn every_case_passes_on_both_engines() {
    let filter = std::env::var("HIVE_ORACLE_CASE").unwrap_or_default();
    let cases: Vec<LoadedCase> = corpus()
        .into_iter()
        .filter(|c| c.id().contains(&filter))
        .collect();
    assert!(
        !cases.is_empty(),
        "no case matches HIVE_ORACLE_CASE={filter:?}"
    );
    let mut report = Vec::new();
    for loaded in &cases {
        let case = &loaded.case;
        let mut line = |engine: &str, failure: String| {
            report.push(format!(
                "{} [{}] on {engine}: {failure}",
                loaded.id(),
                case.clauses.join(", ")
            ))
        };
        // the reference engine cites the clause of each refusal; the fast
        // engine is only checked to refuse (this skip lives here, in the
        // runner's adapter, never in the data)
        run_on(
            "reference",
            &mut RulesEngine::<ReferenceEngine>::explaining(),
            loaded,
            &mut line,
        );
        run_on(
            "fast",
            &mut RulesEngine::<FastEngine>::refusing_only(),
            loaded,
            &mut line,
        );
    }
    assert!(
        report.is_empty(),
        "{} failures in {} cases:\n{}",
        report.len(),
        cases.len(),
        report.join("\n")
    );
}

#[test]
fn the_corpus_is_large_enough() {
    // the corpus covers the rules broadly: at least 150 cases
    let count = corpus().len();
    assert!(count >= 150, "only {count} cases in tests/cases");
}

#[test]
fn the_built_in_corpus_is_the_directory() {
    // An installed `hive-oracle check` runs the corpus built into it
    // (BUILTIN_CORPUS, src/cases/builtin.rs); a file added to tests/cases/
    // and forgotten there would silently never be checked.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut on_disk: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("tests/cases/ lists")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .map(|path| {
            let name = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&path).expect("a case file reads");
            (name, text)
        })
        .collect();
    on_disk.sort();
    let built_in: Vec<(&str, &str)> = hive_oracle_rules::cases::BUILTIN_CORPUS.to_vec();
    let names = |v: Vec<&str>| v.join(", ");
    assert_eq!(
        names(built_in.iter().map(|(n, _)| *n).collect()),
        names(on_disk.iter().map(|(name, _)| name.as_str()).collect()),
        "BUILTIN_CORPUS must list every file of tests/cases/"
    );
    for ((name, text), (_, disk)) in built_in.iter().zip(&on_disk) {
        assert_eq!(text, disk, "{name} differs");
    }
}

/// The corpus's size as the documentation states it is the size of the
/// corpus built into the binary, which `check` runs: docs/check.md ("N
/// cases of `tests/cases/`") and docs/development.md ("holds N
/// engine-neutral cases"). A case added or removed without the docs fails
/// here (they said 233 while the binary had 235).
#[test]
fn the_docs_state_the_corpus_size_the_binary_has() {
    let size = builtin_corpus().expect("the corpus loads").len();
    let root = env!("CARGO_MANIFEST_DIR");
    for (doc, before, after) in [
        (
            "docs/check.md",
            "built into the binary (",
            " cases of `tests/cases/`",
        ),
        (
            "docs/development.md",
            "`tests/cases/*.toml` holds ",
            " engine-neutral cases",
        ),
    ] {
        let text = std::fs::read_to_string(format!("{root}/{doc}")).expect("the doc");
        let stated = text
            .split_once(before)
            .and_then(|(_, rest)| rest.split_once(after))
            .map(|(number, _)| number.to_string());
        assert_eq!(stated, Some(size.to_string()), "{doc}");
    }
}
