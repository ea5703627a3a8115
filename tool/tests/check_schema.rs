//! The JSON report of `hive-oracle check` has a published schema:
//! `spec/check-report.schema.json`, generated from the report's
//! types (`check --print-schema`). The committed file must be the one the
//! types give, and real reports (a clean one, and one with findings of
//! every section: causes, verdicts, stderr, skips) must validate against it,
//! and so must a report with fields a newer minor format version adds.

use crate::check_run::Check;

/// What `check ARGS` printed, run outside the repository (the built-in
/// corpus).
fn check(args: &[&str]) -> String {
    let run = Check::new().args(args).outside_repository().run();
    String::from_utf8(run.stdout).expect("UTF-8")
}

fn committed() -> String {
    let path = crate::common::repository("spec/check-report.schema.json");
    std::fs::read_to_string(path).expect("spec/check-report.schema.json exists")
}

#[test]
fn the_committed_schema_is_the_one_the_types_give() {
    assert_eq!(
        check(&["--print-schema"]),
        committed(),
        "regenerate: cargo run --release -- check --print-schema > spec/check-report.schema.json"
    );
}

#[test]
fn real_reports_validate_against_the_schema() {
    let schema: serde_json::Value = serde_json::from_str(&committed()).expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let faulty = crate::check_run::faulty("pillbug-throws-last-moved");
    let reports = [
        check(&["--games", "2", "--max-plies", "30", "--format", "json"]),
        // 3 games of seed 1 show both causes of this fault (as 6 do),
        // shrunk from random games
        check(&[
            "--engine",
            &faulty,
            "--games",
            "3",
            "--seed",
            "1",
            "--game-types",
            "Base+P",
            "--format",
            "json",
        ]),
    ];
    for (i, text) in reports.iter().enumerate() {
        let report: serde_json::Value = serde_json::from_str(text).expect("the report is JSON");
        let errors: Vec<String> = validator
            .iter_errors(&report)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "report {i}: {errors:#?}");
        if i == 1 {
            assert!(!report["findings"].as_array().unwrap().is_empty());
        }
    }
    // a consumer written against this schema keeps working when a newer
    // minor format version adds fields: unknown fields validate, at the top,
    // in the summary, in a cause and in a verdict
    let mut report: serde_json::Value = serde_json::from_str(&reports[1]).expect("JSON");
    assert_eq!(report["format_version"], "1.1");
    report["a_new_section"] = serde_json::json!({"added": true});
    report["summary"]["a_new_count"] = serde_json::json!(1);
    report["findings"][0]["a_new_field"] = serde_json::json!("x");
    report["findings"][0]["shortest"]["a_new_field"] = serde_json::json!([1, 2]);
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // and the schema is not a blank cheque: a report without a required
    // field, or with a field of the wrong type, does not validate
    let mut missing: serde_json::Value = serde_json::from_str(&reports[0]).expect("JSON");
    if let Some(summary) = missing["summary"].as_object_mut() {
        summary.remove("games");
    }
    assert!(!validator.is_valid(&missing));
    let mut no_version: serde_json::Value = serde_json::from_str(&reports[0]).expect("JSON");
    if let Some(top) = no_version.as_object_mut() {
        top.remove("format_version");
    }
    assert!(!validator.is_valid(&no_version));
    let mut wrong: serde_json::Value = serde_json::from_str(&reports[0]).expect("JSON");
    wrong["summary"]["games"] = serde_json::json!("many");
    assert!(!validator.is_valid(&wrong));
}
