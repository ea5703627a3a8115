//! Provenance inside the repository: every source that
//! the spec, the cases, the code and the tests cite can be followed from the
//! repository alone.
//!
//! The rule texts and notes the project works from are kept, byte for byte,
//! in `spec/sources/` (its `README.md` says what each file is and where it
//! came from), and citations name them by their path from the root, as in
//! `spec/sources/uhp-notes.md section 4.5`. This test reads every text file
//! of `spec/` (except `spec/sources/` itself, whose files keep their own
//! words), `src/`, `tests/`, `benches/`, `fuzz/`, `docs/` and `README.md`, skipping
//! binary files and this file (whose examples test the detectors), and
//! fails when one
//!
//! * cites the old shared folder outside the repository: `../shared/`,
//!   `shared/uhp.md`, a rule text by its old name `rule-texts/<number>_<hex>.txt`
//!   (or `rule-texts/003`), or a note by its bare old name (`uhp.md`,
//!   `rules-notes.md`, `style.md`, `game-records.md`);
//! * cites a `spec/sources/...` path that does not exist;
//!
//! and when a file of `spec/sources/` is not described in its `README.md`.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

/// The folders and files read, relative to the root.
const SCANNED: &[&str] = &[
    "spec",
    "src",
    "tests",
    "benches",
    "fuzz",
    "docs",
    "README.md",
];

/// Never read: the sources themselves, build output, and this file, whose
/// examples of old citations test the detectors.
const SKIPPED: &[&str] = &[
    "spec/sources",
    "fuzz/target",
    "fuzz/artifacts",
    "target",
    "tests/provenance.rs",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `path` relative to the root, with `/` between its parts.
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(root()).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if SKIPPED.contains(&relative(path).as_str()) {
        return;
    }
    if path.is_dir() {
        let Ok(entries) = fs::read_dir(path) else {
            return;
        };
        for entry in entries.flatten() {
            collect(&entry.path(), out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}

/// Every text file read by this test, with its content; binary files (not
/// UTF-8, or holding a NUL byte) are skipped.
fn scanned_files() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    for name in SCANNED {
        collect(&root().join(name), &mut paths);
    }
    paths.sort();
    paths
        .iter()
        .filter_map(|path| {
            let text = String::from_utf8(fs::read(path).ok()?).ok()?;
            (!text.contains('\0')).then(|| (relative(path), text))
        })
        .collect()
}

/// The citations of `text` that name the old shared folder or an old name,
/// as (line number, the words cited).
fn old_citations(text: &str) -> Vec<(usize, String)> {
    // compiled once for every file (the test build's regex is unoptimized)
    static SHARED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"\.\./shared/|\bshared/(?:rule-texts|uhp\.md|rules-notes|style\.md|records\.md)|\brule-texts/[0-9a-f]+(?:_[0-9a-f]+\.txt)?",
        )
        .expect("regex")
    });
    // A note's name with the path before it; only `spec/sources/` may
    // precede it (`spec/sources/rules-notes.md` is the new name).
    static NOTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"([\w./-]*)\b(uhp\.md|rules-notes(?:\.md)?|style\.md|records\.md)")
            .expect("regex")
    });
    let (shared, note) = (&*SHARED, &*NOTE);
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for m in shared.find_iter(line) {
            found.push((i + 1, m.as_str().to_string()));
        }
        for c in note.captures_iter(line) {
            if &c[1] != "spec/sources/" && !c[1].ends_with("shared/") && !c[1].ends_with('-') {
                found.push((i + 1, c[0].to_string()));
            }
        }
    }
    found
}

/// The `spec/sources/...` paths cited in `text` that do not exist, as (line
/// number, path).
fn missing_sources(text: &str, root: &Path) -> Vec<(usize, String)> {
    static CITED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"spec/sources/[\w./-]*\w").expect("regex"));
    let cited = &*CITED;
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for m in cited.find_iter(line) {
            if !root.join(m.as_str()).is_file() {
                found.push((i + 1, m.as_str().to_string()));
            }
        }
    }
    found
}

#[test]
fn no_citation_names_the_old_shared_folder() {
    let mut problems = Vec::new();
    for (file, text) in scanned_files() {
        for (line, words) in old_citations(&text) {
            problems.push(format!(
                "{file}:{line}: `{words}` names a file outside the repository; cite it in spec/sources/ (see spec/sources/README.md)"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_cited_source_exists() {
    let mut problems = Vec::new();
    for (file, text) in scanned_files() {
        for (line, path) in missing_sources(&text, &root()) {
            problems.push(format!("{file}:{line}: {path} does not exist"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_source_is_described() {
    let dir = root().join("spec/sources");
    let readme = fs::read_to_string(dir.join("README.md")).expect("spec/sources/README.md");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("spec/sources/")
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name != "README.md")
        .collect();
    names.sort();
    assert!(names.len() >= 8, "spec/sources/ holds only {names:?}");
    let missing: Vec<&String> = names
        .iter()
        .filter(|name| !readme.contains(&format!("| `{name}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "spec/sources/README.md has no row for {missing:?}"
    );
}

/// The detectors themselves: each old form is caught, the new forms are not.
#[test]
fn the_detectors_catch_every_old_form() {
    let old = [
        "Source: rule-texts/000_1641b6b262a63bb4.txt (\"the hive\")",
        "(rule-texts/003: \"including during the move\")",
        "see ../shared/uhp.md section 4.5",
        "`shared/style.md` habit 6",
        "uhp.md section 5.6",
        "Source: rules-notes.md \"The bugs\"",
        "Source: rules-notes \"Placement\"",
        "the game records (records.md section 2)",
    ];
    for line in old {
        assert!(!old_citations(line).is_empty(), "not caught: {line}");
    }
    let new = [
        "Source: spec/sources/rule-text-000-stones-summary-with-expansions.txt (\"the hive\")",
        "spec/sources/uhp-notes.md section 4.5; `spec/sources/rules-notes.md` \"The bugs\"",
        "chapter 10 is spec/game-records.md; spec/sources/records-notes.md section 3.8",
        "spec/sources/style-notes.md habit 6, tests/uhp.rs, src/uhp/mod.rs",
    ];
    for line in new {
        assert_eq!(old_citations(line), Vec::new(), "wrongly caught: {line}");
        assert_eq!(missing_sources(line, &root()), Vec::new(), "{line}");
    }
    assert_eq!(
        missing_sources("Source: spec/sources/uhp.md section 4.5.", &root()),
        vec![(1, "spec/sources/uhp.md".to_string())]
    );
}
