//! Every clause the tool and the web page cite names a live leaf clause of
//! the spec (spec/README.md, "Citations"): the rules package checks its own
//! files (`tests/spec_coverage.rs`); these are checked against its clause
//! table (`hive_oracle_rules::clauses`), which is read from the spec itself.

use std::path::{Path, PathBuf};

use hive_oracle_rules::clauses::citation_problem;

/// Every file below `dir` with one of `extensions`, sorted.
fn files(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() && !matches!(name, "node_modules" | "dist" | "target") {
            out.extend(files(&path, extensions));
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e))
        {
            out.push(path);
        }
    }
    out
}

/// The citations `§N.M…` of a text, with their lines.
fn citations(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices('§') {
            let number: String = line[at + '§'.len_utf8()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let number = number.trim_end_matches('.');
            if !number.is_empty() {
                out.push((i + 1, format!("§{number}")));
            }
        }
    }
    out
}

#[test]
fn every_citation_of_the_tool_and_the_page_names_a_live_leaf_clause() {
    let root = crate::common::root();
    let mut checked = 0;
    let mut problems = Vec::new();
    for folder in ["tool/src", "tool/tests", "web/src", "web/tests", "web"] {
        let dir = root.join(folder);
        let found = if folder == "web" {
            // the page's own files, not its folders (src, tests, test)
            files(&dir, &["js", "html"])
                .into_iter()
                .filter(|p| p.parent() == Some(dir.as_path()))
                .collect()
        } else {
            files(&dir, &["rs", "toml", "txt", "sh"])
        };
        // this file cites wrong clauses on purpose, in the test of the check
        for path in found
            .into_iter()
            .filter(|p| !p.ends_with("tool/tests/citations.rs"))
        {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for (line, clause) in citations(&text) {
                checked += 1;
                if let Some(problem) = citation_problem(&clause) {
                    let place = path.strip_prefix(&root).unwrap_or(&path).display();
                    problems.push(format!("{place}:{line}: {problem}"));
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} citations found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_citation_of_a_group_or_of_no_clause_is_a_problem() {
    // §6.4 is the Spider's group of clauses, §6.4.2 one of them (spec/rules.md)
    assert!(citation_problem("§6.4").is_some());
    assert!(citation_problem("§6.4.2").is_none());
    assert!(citation_problem("§99.1").is_some());
    assert_eq!(
        citations("a §5.3, §6.4.2. and §"),
        [(1, "§5.3".to_string()), (1, "§6.4.2".to_string())]
    );
}
