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

/// The labels of the rows of docs/limits.md: the first cell of each table
/// row, `` `label` ``.
fn limit_labels(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once("` |").map(|(label, _)| label.to_string()))
        .collect()
}

/// The labels a text cites as `` docs/limits.md `label` ``, with their lines
/// (a citation may break after `docs/limits.md` at a line's end).
fn limit_citations(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        for (at, _) in line.match_indices("limits.md") {
            let mut rest = line[at + "limits.md".len()..].trim_start().to_string();
            if rest.is_empty() {
                // the label on the next line, after the comment's `//`/`///`
                let next = lines.get(i + 1).map_or("", |l| l.trim_start());
                rest = next.trim_start_matches('/').trim_start().to_string();
            }
            let label = rest
                .strip_prefix('`')
                .and_then(|r| r.split_once('`'))
                .map(|(label, _)| label);
            if let Some(label) = label.filter(|l| !l.is_empty()) {
                out.push((i + 1, label.to_string()));
            }
        }
    }
    out
}

/// Every row of docs/limits.md has a label, each label is cited by at least
/// one test of the tool or of the rules package, and every citation names a
/// row: the promises of that page are each proven, as the spec's clauses are.
#[test]
fn every_row_of_the_limits_page_is_cited_by_a_test_and_every_citation_names_a_row() {
    let root = crate::common::root();
    let page = std::fs::read_to_string(root.join("docs/limits.md")).expect("docs/limits.md");
    let rows = page
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| label") && !l.starts_with("|---"))
        .count();
    let labels = limit_labels(&page);
    assert_eq!(labels.len(), rows, "a row without a label: {labels:?}");
    assert!(labels.len() >= 30, "{labels:?}");
    let mut cited = std::collections::BTreeSet::new();
    let mut problems = Vec::new();
    for folder in ["tool/tests", "tests"] {
        for path in files(&root.join(folder), &["rs"])
            .into_iter()
            .filter(|p| !p.ends_with("tool/tests/citations.rs"))
        {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for (line, label) in limit_citations(&text) {
                if labels.contains(&label) {
                    cited.insert(label);
                } else {
                    let place = path.strip_prefix(&root).unwrap_or(&path).display();
                    problems.push(format!(
                        "{place}:{line}: docs/limits.md has no row `{label}`"
                    ));
                }
            }
        }
    }
    let uncited: Vec<&String> = labels.iter().filter(|l| !cited.contains(*l)).collect();
    assert!(uncited.is_empty(), "rows no test cites: {uncited:?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_limits_citation_is_read_across_a_line_break() {
    assert_eq!(
        limit_citations("/// see docs/limits.md `a-b`, and docs/limits.md\n/// `c` too"),
        [(1, "a-b".to_string()), (1, "c".to_string())]
    );
    assert_eq!(
        limit_labels("| label | x |\n|---|---|\n| `one` | 1 |\n| `two` | 2 |\n"),
        ["one", "two"]
    );
}
