//! The layers of the crate (issue 12, point 6): the reference engine is the
//! rules and nothing else, so it may use only the shared types (`core`), the
//! engine trait (`rules`) and the spec's clause titles (`clauses`, read from
//! `spec/` itself, which a fact prints after each clause it cites), never
//! the fast engine, the explanations, the
//! checker, the UHP server or the search; and `core` uses no other module of
//! the crate. This test fails when a `use crate::...` or a `crate::...` path
//! in those folders names a module outside what it may use.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The crate modules a source text names (`crate::NAME`), with line numbers;
/// a `crate::{a, b}` group names each.
fn crate_modules(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let name: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.push((i + 1, name));
                    }
                }
            } else {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push((i + 1, name));
            }
            rest = after;
        }
    }
    out
}

/// The places in `folder` that name a crate module not in `allowed`.
fn violations(folder: &str, allowed: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for path in rust_files(&root().join(folder)) {
        let text = fs::read_to_string(&path).unwrap_or_default();
        for (line, module) in crate_modules(&text) {
            if !allowed.contains(&module.as_str()) {
                let shown = path
                    .strip_prefix(root())
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                out.push(format!("{shown}:{line}: crate::{module}"));
            }
        }
    }
    out
}

#[test]
fn the_reference_engine_uses_only_core_and_the_rules_trait() {
    let found = violations("src/reference", &["clauses", "core", "reference", "rules"]);
    assert!(
        found.is_empty(),
        "the reference engine reaches out:\n{}",
        found.join("\n")
    );
}

#[test]
fn core_uses_no_other_module() {
    let found = violations("src/core", &["core"]);
    assert!(found.is_empty(), "core reaches out:\n{}", found.join("\n"));
}

#[test]
fn the_detector_sees_paths_groups_and_ignores_comments() {
    let text = "use crate::fast::FastEngine;\nuse crate::{core::Hex, explain};\n// crate::uhp in a comment\nlet x = crate::search::run();";
    let names: Vec<String> = crate_modules(text).into_iter().map(|(_, m)| m).collect();
    assert_eq!(names, ["fast", "core", "explain", "search"]);
}
