//! The shape of the tool's `src/` and of the web page's bindings: the
//! layers of the crate, the wings of the checker, no cycle between files,
//! and files and functions a reader can hold. The machinery is the rules package's
//! (`tests/layout/`), included from the repository.
//!
//! The tool's layers, lowest first: what a user gave (`input`), the files
//! the tool writes (`output_file`), the checker (`check`), the reports of
//! `check` and `replay` (`reports`), the command line (`cli`). The rules are another package, reached by its name
//! (`hive_oracle_rules::`), never by a file path.

use std::fs;
use std::path::PathBuf;

#[path = "../../tests/layout/mod.rs"]
mod layout;

use layout::*;

/// The layers of the tool's library, lowest first. A module may use only
/// modules of lower layers (never one of its own layer).
const LAYERS: &[&[&str]] = &[
    // what game a user gave, the files, folders, archives and stdin it reads
    &["input"],
    // the one writer of the files the tool writes
    &["output_file"],
    // checking another UHP engine
    &["check"],
    // the reports of check and replay, in one frame
    &["reports"],
    // the commands of the binary
    &["cli"],
];

/// The checker's wings (folders of `src/check/`) and its top files, in
/// the order of `src/check/mod.rs`: a file of one may use only files of its
/// own and of those before it.
const CHECK_WINGS: &[&str] = &[
    "client", "findings", "given", "units", "proof", "jobs", "run",
];

/// The longest file, in lines.
const MAX_FILE_LINES: usize = 600;
/// The longest function, in lines from `fn` to its closing brace.
const MAX_FUNCTION_LINES: usize = 100;
/// Functions allowed to be longer, as (file, function, reason).
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[];

fn package(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn web() -> PathBuf {
    package("../web/src")
}

fn assert_none(what: &str, found: &[String]) {
    assert!(found.is_empty(), "{what}:\n{}", found.join("\n"));
}

#[test]
fn every_module_of_the_tool_is_on_a_layer() {
    let lib = fs::read_to_string(package("src/lib.rs")).unwrap_or_default();
    assert_none("modules and layers", &unplaced_modules(&lib, LAYERS));
}

#[test]
fn every_module_uses_only_lower_layers() {
    let tool = read_crate(&package("src"), |_| false);
    assert_none(
        "uses of a module on the same or a higher layer",
        &layer_violations(&tool, LAYERS, "tool/src"),
    );
}

#[test]
fn the_checkers_wings_use_only_the_wings_before_them() {
    let tool = read_crate(&package("src"), |_| false);
    let mut found = Vec::new();
    // the wing of a file of check/ (none for check/mod.rs and other modules)
    let wing = |file: &str, found: &mut Vec<String>| {
        let module = file_module(file);
        let name = module.get(1).filter(|_| module[0] == "check")?;
        let place = CHECK_WINGS.iter().position(|w| w == name);
        if place.is_none() {
            found.push(format!("tool/src/{file}: in no wing of CHECK_WINGS"));
        }
        place
    };
    for (file, uses) in tool.file_graph() {
        let Some(from) = wing(&file, &mut found) else {
            continue;
        };
        for (target, line) in uses {
            match wing(&target, &mut Vec::new()) {
                Some(to) if to > from => found.push(format!(
                    "tool/src/{file}:{line}: {} uses {}, a later wing",
                    CHECK_WINGS[from], CHECK_WINGS[to]
                )),
                _ => {}
            }
        }
    }
    assert_none("uses of a later wing of the checker", &found);
}

#[test]
fn no_cycle_between_files() {
    let tool = read_crate(&package("src"), |_| false);
    assert_none("cycles between the tool's files", &cycle_report(&tool));
    let bindings = read_crate(&web(), |_| false);
    assert_none(
        "cycles between the web bindings' files",
        &cycle_report(&bindings),
    );
}

#[test]
fn the_rules_are_reached_by_the_package_name_only() {
    // a `#[path]` to a file of the rules package would compile a second copy
    // of the rules into the tool
    let mut found = Vec::new();
    for (prefix, src) in [("tool/src", package("src")), ("web/src", web())] {
        for (file, text) in &read_crate(&src, |_| false).files {
            for attribute in tokens(text).windows(4) {
                let words: Vec<&str> = attribute.iter().map(|t| t.text.as_str()).collect();
                if words == ["#", "[", "path", "="] {
                    found.push(format!("{prefix}/{file}:{}: #[path]", attribute[0].line));
                }
            }
        }
    }
    assert_none("#[path] attributes", &found);
}

#[test]
fn no_file_or_function_is_over_the_limit() {
    let mut found = Vec::new();
    for (prefix, src) in [("tool/src", package("src")), ("web/src", web())] {
        found.extend(long_files(&src, prefix, MAX_FILE_LINES));
        found.extend(long_functions(
            &src,
            prefix,
            MAX_FUNCTION_LINES,
            LONG_FUNCTIONS,
        ));
    }
    assert_none(
        &format!("files over {MAX_FILE_LINES} lines or functions over {MAX_FUNCTION_LINES}"),
        &found,
    );
}
