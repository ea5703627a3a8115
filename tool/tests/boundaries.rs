//! The shape of the tool's `src/` and of the web page's bindings: the
//! layers of the crate, no cycle between files, and files and functions a
//! reader can hold. The machinery is the rules package's
//! (`tests/layout/`), included from the repository.
//!
//! The tool's layers, lowest first: what a user gave (`input`), the files
//! the tool writes (`output_file`), the checker (`check`), the command line
//! (`cli`). The rules are another package, reached by its name
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
    // the commands of the binary
    &["cli"],
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
fn no_cycle_between_files() {
    let tool = read_crate(&package("src"), |_| false);
    assert_none("cycles between the tool's files", &cycle_report(&tool));
    let bindings = read_crate(&web(), |_| false);
    assert_none("cycles between the web bindings' files", &cycle_report(&bindings));
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
