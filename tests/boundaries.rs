//! The shape of the rules package's `src/`: the layers of the crate, no
//! cycle between files, and files and functions a reader can hold. The
//! machinery (a lexer, the uses between files, cycles, sizes) is
//! `tests/layout/`, shared with the tool's own layout test
//! (`tool/tests/boundaries.rs`).
//!
//! **Layers.** Every top-level module of the library sits on a layer of
//! [`LAYERS`], and may use only modules on lower layers: the rules (`core`,
//! `rules`, both engines) know nothing of the views built on them, the
//! views (`explain`, `render`) nothing of the records and protocols that
//! carry them. A module missing from the table fails the test, so a new
//! module must be placed.
//!
//! **No cycle between files.** Inside a module files may use each other, but
//! the graph of uses between files (a `use` or a path through `crate::`,
//! `super::` or `self::`, re-exports included) has no cycle: each file can be
//! read after the files it uses.
//!
//! **Sizes.** No file of `src/` is over [`MAX_FILE_LINES`] lines and no
//! function over [`MAX_FUNCTION_LINES`], except the few listed in
//! [`LONG_FUNCTIONS`] with the reason each is longer.
//!
//! **Pure.** Nothing in the library opens a file, starts or ends a process,
//! or reads the environment: those are the tool's (`tool/`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

use crate::layout::*;

/// The layers of the library, lowest first. A module may use only modules of
/// lower layers (never one of its own layer).
const LAYERS: &[&[&str]] = &[
    // the shared vocabulary: hexes, pieces, game types, moves, notation
    &["core"],
    // the spec's clause titles; the engine trait and what is written once on it
    &["clauses", "rules"],
    // the two engines
    &["reference", "fast"],
    // built on the engines: engine agreement, the case corpus, pictures, search,
    // the house repetition rules, the history search
    &[
        "agreement",
        "cases",
        "history",
        "house_rules",
        "render",
        "search",
    ],
    // why a move is legal or illegal
    &["explain"],
    // game records: readers, writer, replay; a game given as text
    &["records"],
    // the UHP engine session
    &["uhp"],
    // test support: our own engine made wrong on purpose (feature `faults`)
    &["faults"],
    // the fuzz targets' properties
    &["fuzzing"],
];

/// The longest file of `src/`, in lines.
const MAX_FILE_LINES: usize = 600;
/// The longest function, in lines from `fn` to its closing brace.
const MAX_FUNCTION_LINES: usize = 100;
/// Functions allowed to be longer, as (file, function, reason).
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[];

/// What the library may not name: the file system, processes, the
/// environment (a path through `std::` holding one of these).
const IMPURE: &[&str] = &["fs", "process", "env", "net"];

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn library() -> Crate {
    read_crate(&src(), |_| false)
}

/// Fails listing `found`, under `what`.
fn assert_none(what: &str, found: &[String]) {
    assert!(found.is_empty(), "{what}:\n{}", found.join("\n"));
}

#[test]
fn every_module_of_the_library_is_on_a_layer() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap_or_default();
    assert!(
        declared_modules(&lib).len() >= 10,
        "lib.rs declares modules: {:?}",
        declared_modules(&lib)
    );
    assert_none("modules and layers", &unplaced_modules(&lib, LAYERS));
}

#[test]
fn every_module_uses_only_lower_layers() {
    assert_none(
        "uses of a module on the same or a higher layer",
        &layer_violations(&library(), LAYERS, "src"),
    );
}

#[test]
fn no_cycle_between_files_of_the_library() {
    assert_none("cycles between files", &cycle_report(&library()));
}

#[test]
fn the_library_touches_no_file_process_or_environment() {
    // std::fs, std::process, std::env, std::net, named anywhere in code
    // (comments and strings aside)
    let mut found = Vec::new();
    for (file, text) in &library().files {
        let tokens = tokens(text);
        for (i, token) in tokens.iter().enumerate() {
            let after_std = token.text == "std" && is_path_sep(&tokens, i + 1);
            if let (true, Some(next)) = (after_std, tokens.get(i + 3)) {
                if IMPURE.contains(&next.text.as_str()) {
                    found.push(format!("src/{file}:{}: std::{}", token.line, next.text));
                }
            }
        }
    }
    assert_none("the library names the machine", &found);
}

#[test]
fn no_file_of_src_is_over_the_limit() {
    assert_none(
        &format!("files over {MAX_FILE_LINES} lines (split them by concept)"),
        &long_files(&src(), "src", MAX_FILE_LINES),
    );
}

#[test]
fn no_function_of_src_is_over_the_limit() {
    assert_none(
        &format!("functions over {MAX_FUNCTION_LINES} lines"),
        &long_functions(&src(), "src", MAX_FUNCTION_LINES, LONG_FUNCTIONS),
    );
}

// --- the detectors themselves ------------------------------------------------

#[test]
fn the_lexer_skips_comments_strings_and_chars() {
    let text = "// crate::uhp\n/* crate::a /* nested */ crate::b */ let s = \"crate::c\";\nlet r = r#\"crate::d \"x\"\"#; let c = '\"'; let l: &'a str = x; crate::e::f";
    let names: Vec<String> = named_paths(text, &vec![], &BTreeSet::new())
        .into_iter()
        .map(|(_, p)| p.join("::"))
        .collect();
    assert_eq!(names, ["e::f"]);
    let lines: Vec<usize> = named_paths(text, &vec![], &BTreeSet::new())
        .iter()
        .map(|(l, _)| *l)
        .collect();
    assert_eq!(lines, [3]);
}

#[test]
fn use_trees_and_relative_paths_are_resolved() {
    let module: ModulePath = vec!["check".into(), "run".into()];
    let text = "use crate::{core::Hex, explain::{verdict, Verdict as V}};\nuse super::finding::Finding;\nuse self::inner::X;\nlet g = crate::fast::FastEngine::new();\nuse super::super::rules::*;";
    let names: Vec<String> = named_paths(text, &module, &BTreeSet::new())
        .into_iter()
        .map(|(_, p)| p.join("::"))
        .collect();
    assert_eq!(
        names,
        [
            "core::Hex",
            "explain::verdict",
            "explain::Verdict",
            "check::finding::Finding",
            "check::run::inner::X",
            "fast::FastEngine::new",
            "rules"
        ]
    );
}

#[test]
fn super_inside_an_inline_module_names_the_file() {
    let module: ModulePath = vec!["check".into(), "run".into()];
    let text = "fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::f;\n    use super::super::baseline::B;\n}\nuse super::report::R;";
    let names: Vec<String> = named_paths(text, &module, &BTreeSet::new())
        .into_iter()
        .map(|(_, p)| p.join("::"))
        .collect();
    assert_eq!(
        names,
        ["check::run::f", "check::baseline::B", "check::report::R"]
    );
}

#[test]
fn a_child_module_named_without_self_is_a_use() {
    let module: ModulePath = vec!["fast".into()];
    let modules: BTreeSet<ModulePath> = [vec!["fast".to_string(), "grid".to_string()]].into();
    let text = "use grid::{neighbour, CELLS};\nlet n = grid::neighbour(c, d);\nlet x = std::mem::take(y);\nlet z = other::grid::f();";
    let names: Vec<String> = named_paths(text, &module, &modules)
        .into_iter()
        .map(|(_, p)| p.join("::"))
        .collect();
    assert_eq!(
        names,
        [
            "fast::grid::neighbour",
            "fast::grid::CELLS",
            "fast::grid::neighbour"
        ]
    );
}

#[test]
fn cycles_are_found() {
    let mut graph: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")] {
        graph
            .entry(a.to_string())
            .or_default()
            .insert(b.to_string(), 1);
        graph.entry(b.to_string()).or_default();
    }
    assert_eq!(cycles(&graph), [vec!["a", "b", "c"]]);
}

#[test]
fn functions_are_measured_from_fn_to_their_closing_brace() {
    let text = "fn a() {\n    let f: fn(u32) -> u32 = g;\n    if x { \"}\" } else { '}' }\n}\ntrait T { fn b(&self); }\nfn c<T>() -> Vec<T>\nwhere T: Clone\n{\n}\n";
    assert_eq!(
        functions(text),
        [("a".to_string(), 1, 4), ("c".to_string(), 6, 9)]
    );
}
