//! The specification and the code are checked against each other in both
//! directions (spec/README.md, spec/sources/style-notes.md habit 3):
//!
//! * every clause label `[§N.M]` in `spec/` is defined exactly once, and
//!   every leaf clause carries a title on its label line;
//! * every citation `§N.M` in `src/`, `tests/` and `spec/` names a clause that
//!   exists, and code and tests cite leaf clauses, never a clause that has
//!   sub-clauses;
//! * every leaf clause is cited by the reference implementation (the
//!   reference engine in `src/reference/`, and the shared notation and game
//!   vocabulary in `src/core/` that it uses for chapter 9) and by at least
//!   one test in `tests/` (this file excluded);
//! * the fast engine (`src/fast/`) cites existing leaf clauses one by one,
//!   never a range such as `§6.4.1–§6.4.3`, and cites
//!   every leaf clause of chapters 3 to 8, the rules of move generation and
//!   of the game state, but those in `FAST_ENGINE_EXEMPT`;
//! * every test that `spec/rulings.md` names as pinning a ruling exists;
//! * every leaf clause has an `Example:` with a UHP GameString or a `Cases:`
//!   line, every case a `Cases:` line names exists and cites the clause,
//!   and every GameString in the examples of a leaf clause loads on the
//!   reference engine;
//! * no leaf clause's paragraph is over `MAX_CLAUSE_WORDS` words unless
//!   `LONG_CLAUSES` gives the reason.
//!
//! `ALLOWED_WITHOUT_CODE` holds the clauses that have no code by nature,
//! each with its reason. Run with `--nocapture` to see the coverage tables
//! of the reference engine and of the fast engine.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use regex::Regex;

/// Clauses that no engine code can implement, with the reason.
const ALLOWED_WITHOUT_CODE: &[(&str, &str)] = &[];

/// The chapters whose leaf clauses the fast engine must cite: placement, the
/// queen and the opening, movement, the bugs, turns and the end of the game.
/// Chapters 1 and 2 define the pieces and the geometry those rules are stated
/// in, and chapter 9 is the notation, which the fast engine leaves to the
/// shared code in `src/core/`; their citations are checked but not required.
const FAST_ENGINE_CHAPTERS: std::ops::RangeInclusive<u32> = 3..=8;

/// Leaf clauses of `FAST_ENGINE_CHAPTERS` that the fast engine need not cite
/// because no code of its own constrains move generation or the game state
/// by them, each with the reason. An entry the fast engine does cite is
/// stale and fails the check.
const FAST_ENGINE_EXEMPT: &[(&str, &str)] = &[(
    // §8.6: a draw by agreement is no state of the game.
    "8.6",
    "it places draws by agreement outside the engine: no guard can enforce \
     it, and the type that cannot record one is the shared GameState of \
     src/core/game.rs, which cites it",
)];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_under(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path, extension));
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The spec's own Markdown files: `spec/` without `spec/sources/`, whose
/// vendored notes use `§` for their own sections.
fn spec_files() -> Vec<PathBuf> {
    let sources = root().join("spec/sources");
    files_under(&root().join("spec"), "md")
        .into_iter()
        .filter(|p| !p.starts_with(&sources))
        .collect()
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A label line: `[§N.M]` or `[§N.M.K]` alone, or followed by one space and
/// the clause's title (spec/README.md, "Clauses"). Captures the clause number
/// and the title, if any.
fn label_regex() -> Regex {
    Regex::new(r"^\[§(\d+(?:\.\d+)*)\](?: +(.*?))?\s*$").expect("regex")
}

/// Clause label → (file, line) of each definition.
fn labels() -> BTreeMap<String, Vec<String>> {
    let label = label_regex();
    let mut defined: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in spec_files() {
        for (i, line) in read(&path).lines().enumerate() {
            if let Some(c) = label.captures(line) {
                let place = format!("{}:{}", path.display(), i + 1);
                defined.entry(c[1].to_string()).or_default().push(place);
            }
        }
    }
    defined
}

/// Clause label → the title on each of its label lines ("" when a label
/// line has none).
fn titles() -> BTreeMap<String, Vec<String>> {
    let label = label_regex();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in spec_files() {
        for line in read(&path).lines() {
            if let Some(c) = label.captures(line) {
                let title = c.get(2).map_or("", |m| m.as_str().trim());
                out.entry(c[1].to_string())
                    .or_default()
                    .push(title.to_string());
            }
        }
    }
    out
}

/// Withdrawn clauses: a label whose next line is a tombstone `*Withdrawn (…`
/// (spec/README.md, "Stability"). They stay defined but are no leaves.
fn withdrawn() -> BTreeSet<String> {
    let label = label_regex();
    let mut out = BTreeSet::new();
    for path in spec_files() {
        let text = read(&path);
        let lines: Vec<&str> = text.lines().collect();
        for pair in lines.windows(2) {
            if let Some(c) = label.captures(pair[0]) {
                if pair[1].starts_with("*Withdrawn") {
                    out.insert(c[1].to_string());
                }
            }
        }
    }
    out
}

/// Every citation `§N.M` in the given files: clause → citing places. A range
/// `§a–§b` counts as its two ends.
fn citations(files: &[PathBuf]) -> BTreeMap<String, Vec<String>> {
    let cite = Regex::new(r"§(\d+(?:\.\d+)*)").expect("regex");
    let mut cited: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in files {
        for (i, line) in read(path).lines().enumerate() {
            for c in cite.captures_iter(line) {
                let place = format!("{}:{}", path.display(), i + 1);
                cited.entry(c[1].to_string()).or_default().push(place);
            }
        }
    }
    cited
}

fn is_parent(clause: &str, all: &BTreeMap<String, Vec<String>>) -> bool {
    let prefix = format!("{clause}.");
    all.keys().any(|k| k.starts_with(&prefix))
}

fn leaves(all: &BTreeMap<String, Vec<String>>) -> BTreeSet<String> {
    let withdrawn = withdrawn();
    all.keys()
        .filter(|k| !is_parent(k, all) && !withdrawn.contains(*k))
        .cloned()
        .collect()
}

/// Every range of clauses in the given files, `§a–§b`, `§a-§b`, `§a—§b`,
/// `§a to §b` (the second `§` may be missing): the citing place and the
/// range as written.
fn ranges(files: &[PathBuf]) -> Vec<String> {
    let range =
        Regex::new(r"§\d+(?:\.\d+)+(?:\s*[–—-]\s*|\s+to\s+)§?\d+(?:\.\d+)+").expect("regex");
    let mut out = Vec::new();
    for path in files {
        for (i, line) in read(path).lines().enumerate() {
            for m in range.find_iter(line) {
                out.push(format!("{}:{}: {}", path.display(), i + 1, m.as_str()));
            }
        }
    }
    out
}

/// What is wrong with each citation in `cited`: it names no clause, a
/// heading-only group, a withdrawn clause or a clause with sub-clauses.
fn citation_problems(
    cited: &BTreeMap<String, Vec<String>>,
    all: &BTreeMap<String, Vec<String>>,
) -> Vec<String> {
    let sections = sections(all);
    let withdrawn = withdrawn();
    let mut problems = Vec::new();
    for (clause, places) in cited {
        if sections.contains(clause) && !all.contains_key(clause) {
            problems.push(format!(
                "§{clause} is a group of clauses; cite the most specific one at {}",
                places.join(", ")
            ));
        } else if !all.contains_key(clause) {
            problems.push(format!(
                "§{clause} does not exist, cited at {}",
                places.join(", ")
            ));
        } else if withdrawn.contains(clause) {
            problems.push(format!(
                "§{clause} is withdrawn; cite the clause that replaced it at {}",
                places.join(", ")
            ));
        } else if is_parent(clause, all) {
            problems.push(format!(
                "§{clause} has sub-clauses; cite the most specific one at {}",
                places.join(", ")
            ));
        }
    }
    problems
}

/// Every clause and every heading above one: a heading such as "6.2 Beetle"
/// groups leaves and may be named in prose.
fn sections(all: &BTreeMap<String, Vec<String>>) -> BTreeSet<String> {
    all.keys()
        .flat_map(|k| {
            let parts: Vec<&str> = k.split('.').collect();
            (1..=parts.len()).map(move |n| parts[..n].join("."))
        })
        .collect()
}

fn chapter_of(clause: &str) -> u32 {
    clause
        .split('.')
        .next()
        .and_then(|c| c.parse().ok())
        .unwrap_or_default()
}

fn implementation_files() -> Vec<PathBuf> {
    let mut files = files_under(&root().join("src/reference"), "rs");
    files.extend(files_under(&root().join("src/core"), "rs"));
    // chapter 10: the record readers and the replay (spec/game-records.md)
    files.extend(files_under(&root().join("src/records"), "rs"));
    // §9.42 and §9.44: the checks of a set-up position and the history search
    files.extend(files_under(&root().join("src/rules"), "rs"));
    files.push(root().join("src/history.rs"));
    files
}

/// The chapter of game records (spec/game-records.md): its clauses are pinned by
/// the record files of `tests/records/`, which a `Records:` line under each
/// names, not by cases, whose positions are GameStrings.
const RECORDS_CHAPTER: u32 = 10;

fn test_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = files_under(&root().join("tests"), "rs")
        .into_iter()
        .filter(|p| !p.ends_with("spec_coverage.rs") && !p.ends_with("common/mod.rs"))
        .collect();
    files.extend(case_files());
    files
}

/// The case corpus (spec/cases.md): its `clauses` count as test citations.
fn case_files() -> Vec<PathBuf> {
    files_under(&root().join("tests/cases"), "toml")
}

/// The fast engine, checked against the reference engine by the differential
/// tests and against the spec here.
fn fast_engine_files() -> Vec<PathBuf> {
    files_under(&root().join("src/fast"), "rs")
}

#[test]
fn spec_has_clauses() {
    let all = labels();
    assert!(all.len() >= 80, "spec/ defines only {} clauses", all.len());
}

#[test]
fn every_clause_is_defined_once() {
    let twice: Vec<String> = labels()
        .into_iter()
        .filter(|(_, places)| places.len() > 1)
        .map(|(clause, places)| format!("§{clause} at {}", places.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "clauses defined more than once:\n{}",
        twice.join("\n")
    );
}

#[test]
fn every_leaf_clause_has_a_title() {
    // clause titles come from the spec's label lines
    // (`[§6.4.2] Spider never revisits`), which src/clauses.rs reads at
    // build time; every leaf clause needs one.
    let all = labels();
    let titles = titles();
    let untitled: Vec<String> = leaves(&all)
        .into_iter()
        .filter(|clause| {
            titles
                .get(clause)
                .is_none_or(|t| t.iter().any(|title| title.is_empty()))
        })
        .map(|clause| format!("§{clause} at {}", all[&clause].join(", ")))
        .collect();
    assert!(
        untitled.is_empty(),
        "{} leaf clauses have no title on their label line; write it after \
         the label, `[§N.M] short title` (spec/README.md, \"Clauses\"):\n{}",
        untitled.len(),
        untitled.join("\n")
    );
}

#[test]
fn every_citation_names_an_existing_clause() {
    let all = labels();
    let sections = sections(&all);
    let mut code_files = files_under(&root().join("src"), "rs");
    code_files.extend(files_under(&root().join("tests"), "rs"));
    code_files.extend(case_files());
    let mut problems = citation_problems(&citations(&code_files), &all);
    for (clause, places) in citations(&spec_files()) {
        if !sections.contains(&clause) {
            problems.push(format!(
                "§{clause} does not exist, cited at {}",
                places.join(", ")
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "bad citations:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_leaf_clause_is_implemented_and_tested() {
    let all = labels();
    let implemented = citations(&implementation_files());
    let tested = citations(&test_files());
    let allowed: BTreeMap<&str, &str> = ALLOWED_WITHOUT_CODE.iter().copied().collect();
    let mut problems = Vec::new();
    let mut table: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for clause in leaves(&all) {
        let chapter = clause.split('.').next().unwrap_or_default().to_string();
        let row = table.entry(chapter).or_default();
        row.0 += 1;
        let in_code = implemented.contains_key(&clause) || allowed.contains_key(clause.as_str());
        let in_tests = tested.contains_key(&clause);
        if in_code {
            row.1 += 1;
        } else {
            problems.push(format!("§{clause} is cited by no reference code"));
        }
        if in_tests {
            row.2 += 1;
        } else {
            problems.push(format!("§{clause} is cited by no test"));
        }
    }
    for (clause, reason) in ALLOWED_WITHOUT_CODE {
        assert!(
            !reason.is_empty(),
            "§{clause} is allowed without code but gives no reason"
        );
        assert!(
            all.contains_key(*clause),
            "allow-list names missing clause §{clause}"
        );
    }
    println!("chapter  leaves  in-code  in-tests");
    for (chapter, (n, code, tests)) in &table {
        println!("{chapter:>7}  {n:>6}  {code:>7}  {tests:>8}");
    }
    assert!(
        problems.is_empty(),
        "coverage gaps:\n{}",
        problems.join("\n")
    );
}

#[test]
fn fast_engine_cites_existing_leaf_clauses_never_ranges() {
    // (a) every citation in src/fast/ names an existing
    // leaf clause; (b) ranges are refused, not expanded: a range hides which
    // clause a guard enforces and sweeps in clauses the code does not, so
    // the fast engine lists the leaves it means.
    let all = labels();
    let files = fast_engine_files();
    assert!(!files.is_empty(), "src/fast/ holds no Rust file");
    let mut problems = citation_problems(&citations(&files), &all);
    for place in ranges(&files) {
        problems.push(format!(
            "a range of clauses; cite the leaves it means at {place}"
        ));
    }
    assert!(
        problems.is_empty(),
        "bad citations in the fast engine:\n{}",
        problems.join("\n")
    );
}

#[test]
fn fast_engine_cites_every_leaf_clause_of_chapters_3_to_8() {
    // the fast engine cites every rule of move generation
    // and of the game state, at the guard that enforces it.
    let all = labels();
    let leaves = leaves(&all);
    let cited = citations(&fast_engine_files());
    let exempt: BTreeMap<&str, &str> = FAST_ENGINE_EXEMPT.iter().copied().collect();
    let mut problems = Vec::new();
    for (clause, reason) in FAST_ENGINE_EXEMPT {
        if reason.trim().is_empty() {
            problems.push(format!("§{clause} is exempt but gives no reason"));
        }
        if !leaves.contains(*clause) {
            problems.push(format!(
                "the exempt list names §{clause}, which is no leaf clause"
            ));
        } else if !FAST_ENGINE_CHAPTERS.contains(&chapter_of(clause)) {
            problems.push(format!(
                "the exempt list names §{clause}, outside chapters {FAST_ENGINE_CHAPTERS:?}"
            ));
        }
        if let Some(places) = cited.get(*clause) {
            problems.push(format!(
                "§{clause} is exempt but cited at {}; remove it from FAST_ENGINE_EXEMPT",
                places.join(", ")
            ));
        }
    }
    // chapter → (leaves, exempt, cited, the leaves cited)
    let mut table: BTreeMap<u32, (usize, usize, usize, Vec<String>)> = BTreeMap::new();
    for clause in &leaves {
        let chapter = chapter_of(clause);
        let row = table.entry(chapter).or_default();
        row.0 += 1;
        let required = FAST_ENGINE_CHAPTERS.contains(&chapter);
        if cited.contains_key(clause) {
            row.2 += 1;
            row.3.push(format!("§{clause}"));
        } else if exempt.contains_key(clause.as_str()) {
            row.1 += 1;
        } else if required {
            problems.push(format!("§{clause} is cited by no code of the fast engine"));
        }
    }
    println!("fast engine (src/fast/): leaf clauses cited");
    println!("chapter  leaves  exempt  cited  required  clauses cited");
    for (chapter, (n, exempt, cited, clauses)) in &table {
        let required = if FAST_ENGINE_CHAPTERS.contains(chapter) {
            "yes"
        } else {
            "no"
        };
        println!(
            "{chapter:>7}  {n:>6}  {exempt:>6}  {cited:>5}  {required:>8}  {}",
            clauses.join(" ")
        );
    }
    for (clause, reason) in FAST_ENGINE_EXEMPT {
        println!("exempt: §{clause}: {reason}");
    }
    assert!(
        problems.is_empty(),
        "fast engine coverage gaps:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_test_named_by_a_ruling_exists() {
    let path = root().join("spec/rulings.md");
    let text = read(&path);
    // `tests/FILE.rs::NAME` is a test of this package; `tool/tests/FILE.rs::NAME`
    // one of the tool's, checked where the tool is beside this package (the
    // repository: the published package ships the rules alone)
    let named = Regex::new(r"((?:tool/)?tests/[a-z_]+\.rs)::([a-z0-9_]+)").expect("regex");
    let mut problems = Vec::new();
    let mut count = 0;
    for c in named.captures_iter(&text) {
        if c[1].starts_with("tool/") && !root().join("tool").is_dir() {
            continue;
        }
        count += 1;
        let file = root().join(&c[1]);
        let Ok(source) = fs::read_to_string(&file) else {
            problems.push(format!("{} does not exist", file.display()));
            continue;
        };
        let function = Regex::new(&format!(r"fn {}\s*\(", regex::escape(&c[2]))).expect("regex");
        if !function.is_match(&source) {
            problems.push(format!("{} has no test {}", &c[1], &c[2]));
        }
    }
    assert!(count > 0, "spec/rulings.md names no test");
    assert!(
        problems.is_empty(),
        "rulings name missing tests:\n{}",
        problems.join("\n")
    );
}

/// Leaf clauses that no case can pin, each with its reason and the Rust
/// tests that pin it instead. An entry that a case does cite is stale and
/// fails the check.
const CLAUSES_WITHOUT_CASE: &[(&str, &str)] = &[
    (
        "9.44",
        "the history search answers with a GameString, not a position a case can assert on; \
         tests/position_strings.rs replays what it finds",
    ),
    (
        "9.32",
        "a GameString with an empty field is refused whole, and a case's `game` must load \
         (spec/cases.md); tests/notation.rs refuses such strings, and the refused examples under the clause",
    ),
    (
        "9.34",
        "a GameString with an illegal or unreadable move is refused whole, and a case's \
         `game` must load (spec/cases.md); tests/notation.rs, tool/tests/cli.rs and the \
         refused example under the clause pin it",
    ),
    (
        "9.35",
        "a case asserts sets of moves, which cannot hold a move twice; \
         tool/tests/hostile_engines.rs pins it on engines that list every move twice \
         or repeat the list",
    ),
];

/// The clauses of position strings (spec/notation.md §9.36 to §9.43, §9.45), which
/// no case can pin: position strings are an extension of this engine, and
/// the corpus holds GameStrings that any UHP engine loads (spec/cases.md);
/// tests/position_strings.rs pins them.
const POSITION_STRING_CLAUSES: &[&str] = &[
    "9.36", "9.37", "9.38", "9.39", "9.40", "9.41", "9.42", "9.43", "9.45",
];

#[test]
fn every_leaf_clause_has_a_case() {
    // the corpus pins every leaf clause (spec/cases.md, "Coverage")
    let all = labels();
    let cited = citations(&case_files());
    let leaf_clauses = leaves(&all);
    let exempt: BTreeSet<&str> = CLAUSES_WITHOUT_CASE
        .iter()
        .map(|&(c, _)| c)
        .chain(POSITION_STRING_CLAUSES.iter().copied())
        .collect();
    let missing: Vec<String> = leaf_clauses
        .iter()
        .filter(|clause| !cited.contains_key(*clause) && !exempt.contains(clause.as_str()))
        .filter(|clause| chapter_of(clause) != RECORDS_CHAPTER)
        .map(|clause| format!("§{clause}"))
        .collect();
    assert!(
        missing.is_empty(),
        "{} leaf clauses have no case in tests/cases: {}",
        missing.len(),
        missing.join(", ")
    );
    let stale: Vec<String> = CLAUSES_WITHOUT_CASE
        .iter()
        .filter(|&&(c, reason)| {
            cited.contains_key(c) || !leaf_clauses.contains(c) || reason.trim().is_empty()
        })
        .map(|&(c, _)| c)
        .chain(
            POSITION_STRING_CLAUSES
                .iter()
                .copied()
                .filter(|c| cited.contains_key(*c) || !leaf_clauses.contains(*c)),
        )
        .map(|c| format!("§{c}"))
        .collect();
    assert!(
        stale.is_empty(),
        "CLAUSES_WITHOUT_CASE entries that a case cites, that name no leaf clause or that give no reason: {}",
        stale.join(", ")
    );
}

#[test]
fn every_ruling_links_cases_that_exist() {
    // spec/rulings.md links each ruling to the cases that pin it
    let text = read(&root().join("spec/rulings.md"));
    let link = Regex::new(r"tests/cases/([a-z0-9-]+\.toml)::([a-z0-9-]+)").expect("regex");
    let corpus = hive_oracle_rules::cases::builtin_corpus().unwrap_or_else(|e| panic!("{e}"));
    let ids: BTreeSet<String> = corpus.iter().map(|c| c.id()).collect();
    let record_file = Regex::new(r"tests/records/[a-z0-9]+/[A-Za-z0-9._-]+").expect("regex");
    let mut problems = Vec::new();
    for section in text.split("\n## ").skip(1) {
        let title = section.lines().next().unwrap_or_default().to_string();
        let links: Vec<String> = link
            .captures_iter(section)
            .map(|c| format!("{}::{}", &c[1], &c[2]))
            .collect();
        // A ruling no case can pin says so, with its reason: "**Cases.** none: …".
        let none_with_reason = section.contains("**Cases.** none: ");
        if links.is_empty() && !none_with_reason {
            problems.push(format!("ruling \"{title}\" links no case"));
        }
        for id in links {
            if !ids.contains(&id) {
                problems.push(format!("ruling \"{title}\" links missing case {id}"));
            }
        }
        // The rulings on game records (chapter 10) name record files instead.
        for m in record_file.find_iter(section) {
            if !root().join(m.as_str()).is_file() {
                problems.push(format!(
                    "ruling \"{title}\" names missing record file {}",
                    m.as_str()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// --- examples, `Cases:` lines and clause length ---

/// The most words a leaf clause's paragraph may have unless `LONG_CLAUSES`
/// gives the reason it needs more.
const MAX_CLAUSE_WORDS: usize = 60;

/// Leaf clauses whose paragraph is longer than `MAX_CLAUSE_WORDS` because
/// what they state cannot be said shorter without dropping a requirement,
/// each with its reason. An entry for a clause that is no longer too long is
/// stale and fails the check.
const LONG_CLAUSES: &[(&str, &str)] = &[
    (
        "2.2",
        "the six directions, each with its axial delta and its UHP glyph: \
         a table written as one sentence, which §2.8, §2.9 and chapter 9 read",
    ),
    (
        "5.6",
        "the height-gate formula with its four terms defined, the steps it \
         binds (every bug's step and both halves of a throw) and §5.5 as its \
         ground case",
    ),
];

/// The fewest GameStrings the examples of the leaf clauses must hold: the
/// check below loads each one, and must not pass by finding none.
const MIN_EXAMPLE_GAME_STRINGS: usize = 60;

/// One clause as written in a spec file: its label line, the paragraph on
/// the line after it and every line up to the next label or heading.
struct ClauseBlock {
    label: String,
    /// `file:line` of the label line.
    place: String,
    paragraph: String,
    /// The lines after the paragraph, outside fenced blocks: `Source:`,
    /// `Ruling:`, `Cases:` and the examples, with their line numbers.
    rest: Vec<(usize, String)>,
}

impl ClauseBlock {
    fn chapter(&self) -> u32 {
        chapter_of(&self.label)
    }

    /// The lines that may hold examples: all but `Source:`, `Ruling:` and
    /// `Cases:` (spec/README.md, "Clauses").
    fn example_lines(&self) -> impl Iterator<Item = &(usize, String)> {
        self.rest.iter().filter(|(_, line)| {
            !["Source: ", "Ruling: ", "Cases: "]
                .iter()
                .any(|p| line.starts_with(p))
        })
    }

    fn file_line(&self, line: usize) -> String {
        let file = self.place.rsplit_once(':').map_or("", |(f, _)| f);
        format!("{file}:{line}")
    }
}

/// Every clause block of the spec's Markdown files, tombstones included.
/// Fenced blocks (diagrams, the grammar) are skipped, and a heading or label
/// inside one ends nothing.
fn clause_blocks() -> Vec<ClauseBlock> {
    let label = label_regex();
    let mut blocks = Vec::new();
    for path in spec_files() {
        let text = read(&path);
        let mut current: Option<ClauseBlock> = None;
        let mut fenced = false;
        for (i, line) in text.lines().enumerate() {
            if line.starts_with("```") {
                fenced = !fenced;
                continue;
            }
            if fenced {
                continue;
            }
            if let Some(c) = label.captures(line) {
                blocks.extend(current.take());
                current = Some(ClauseBlock {
                    label: c[1].to_string(),
                    place: format!("{}:{}", path.display(), i + 1),
                    paragraph: String::new(),
                    rest: Vec::new(),
                });
                continue;
            }
            if line.starts_with('#') {
                blocks.extend(current.take());
                continue;
            }
            if let Some(block) = current.as_mut() {
                if block.paragraph.is_empty() && block.rest.is_empty() {
                    block.paragraph = line.to_string();
                } else if !line.trim().is_empty() {
                    block.rest.push((i + 1, line.to_string()));
                }
            }
        }
        blocks.extend(current);
    }
    blocks
}

/// The blocks of the leaf clauses: no tombstones, no clauses with
/// sub-clauses.
fn leaf_blocks() -> Vec<ClauseBlock> {
    let leaves = leaves(&labels());
    clause_blocks()
        .into_iter()
        .filter(|b| leaves.contains(&b.label))
        .collect()
}

/// A UHP GameString in backticks (§9.31): a game type in the standard
/// spelling, a state, a turn and the moves. Lenient spellings (`base+mlp`)
/// and strings without a TurnString are not matched.
fn game_string_regex() -> Regex {
    Regex::new(
        r"`((Base(\+[MLP]+)?);(NotStarted|InProgress|Draw|WhiteWins|BlackWins);(White|Black)\[\d+\][^`]*)`",
    )
    .expect("regex")
}

/// An example paragraph: a line that starts with `Example:`, `Examples:` or
/// `Example (…):`, or has one after a sentence.
fn example_regex() -> Regex {
    Regex::new(r"(?:^|\. )Examples?(?: \([^)]*\))?: ").expect("regex")
}

/// A `Cases:` line: one or more case ids in backticks, separated by ", ".
fn cases_line_regex() -> Regex {
    Regex::new(r"^Cases: `tests/cases/[a-z0-9-]+\.toml::[a-z0-9-]+`(?:, `tests/cases/[a-z0-9-]+\.toml::[a-z0-9-]+`)*$")
        .expect("regex")
}

/// Whether the text right after a GameString presents it as a refused
/// string rather than a position: "`…` is refused", or the end of a list
/// "`…`, `…` and `…` are refused". "in `…`, `wA1 -wQ-` is refused" refuses
/// the move, not the position, and does not match.
fn presented_as_refused(after: &str) -> bool {
    let single = Regex::new(r"^\s+is\s+refused").expect("regex");
    let list =
        Regex::new(r"^(?:(?:,\s*|\s+(?:and|or)\s+)`[^`]*`)*\s+are\s+refused").expect("regex");
    single.is_match(after) || list.is_match(after)
}

/// The rules options an example's text asks for (rules.md, "Conventions
/// used by the examples": default rules unless the example says otherwise).
fn example_options(text: &str) -> hive_oracle_rules::core::RulesOptions {
    let lower = text.to_lowercase();
    hive_oracle_rules::core::RulesOptions {
        tournament_opening: !lower.contains("standard opening"),
        repetition_draw: lower.contains("repetition"),
    }
}

#[test]
fn every_leaf_clause_has_an_example() {
    // below every leaf clause, an `Example:` paragraph
    // with a UHP GameString, or a `Cases:` line naming the cases that pin
    // it. A diagram or a position in axial coordinates alone is not enough.
    let game_string = game_string_regex();
    let example = example_regex();
    let blocks = leaf_blocks();
    assert!(
        blocks.len() >= 80,
        "found only {} leaf clause blocks in spec/",
        blocks.len()
    );
    let mut missing = Vec::new();
    let (mut by_cases, mut by_example) = (0, 0);
    for block in &blocks {
        let has_cases = block.rest.iter().any(|(_, l)| {
            l.starts_with("Cases: ")
                || (chapter_of(&block.label) == RECORDS_CHAPTER && l.starts_with("Records: "))
        });
        let has_example = block
            .example_lines()
            .any(|(_, l)| example.is_match(l) && game_string.is_match(l));
        by_cases += usize::from(has_cases);
        by_example += usize::from(has_example);
        if !has_cases && !has_example {
            missing.push(format!("§{} at {}", block.label, block.place));
        }
    }
    println!(
        "{} leaf clauses: {by_cases} with a Cases line, {by_example} with a GameString example",
        blocks.len()
    );
    assert!(
        missing.is_empty(),
        "{} leaf clauses have neither an `Example:` with a GameString in \
         backticks nor a `Cases:` line (spec/README.md, \"Clauses\"):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_cases_line_names_cases_that_pin_the_clause() {
    // a `Cases:` line names cases that exist and that
    // cite the clause in their `clauses` field (spec/cases.md).
    let corpus = hive_oracle_rules::cases::builtin_corpus().unwrap_or_else(|e| panic!("{e}"));
    let clauses_of: BTreeMap<String, Vec<String>> = corpus
        .iter()
        .map(|c| (c.id(), c.case.clauses.clone()))
        .collect();
    let entry = Regex::new(r"`tests/cases/([a-z0-9-]+\.toml)::([a-z0-9-]+)`").expect("regex");
    let format = cases_line_regex();
    let leaves = leaves(&labels());
    let mut problems = Vec::new();
    let mut count = 0;
    for block in clause_blocks() {
        for (line, text) in block.rest.iter().filter(|(_, l)| l.starts_with("Cases:")) {
            let place = block.file_line(*line);
            if !leaves.contains(&block.label) {
                problems.push(format!(
                    "{place}: §{} is no leaf clause and takes no Cases line",
                    block.label
                ));
            }
            if !format.is_match(text) {
                problems.push(format!(
                    "{place}: write `Cases: ` and case ids in backticks separated by \", \", \
                     such as `tests/cases/end.toml::no-move-after-a-win`: {text}"
                ));
            }
            for c in entry.captures_iter(text) {
                count += 1;
                let id = format!("{}::{}", &c[1], &c[2]);
                let cited = format!("§{}", block.label);
                if !root().join("tests/cases").join(&c[1]).is_file() {
                    problems.push(format!("{place}: tests/cases/{} does not exist", &c[1]));
                } else if let Some(clauses) = clauses_of.get(&id) {
                    if !clauses.contains(&cited) {
                        problems.push(format!(
                            "{place}: case {id} does not cite {cited} in its clauses ({})",
                            clauses.join(", ")
                        ));
                    }
                } else {
                    problems.push(format!(
                        "{place}: tests/cases/{} has no [[case]] named {}",
                        &c[1], &c[2]
                    ));
                }
            }
        }
    }
    assert!(count > 0, "no Cases line in spec/ names a case");
    assert!(
        problems.is_empty(),
        "bad Cases lines:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_example_game_string_loads() {
    // every GameString an example of a leaf clause shows
    // as a position loads on the reference engine, under the rules options
    // its text names ("repetition" turns the repetition draw on, "standard
    // opening" turns the tournament opening off). In chapter 9 a string the
    // text calls refused ("`…` is refused") must be refused instead.
    use hive_oracle_rules::reference::ReferenceEngine;
    use hive_oracle_rules::rules::Rules;
    let game_string = game_string_regex();
    let mut problems = Vec::new();
    let (mut loaded, mut refused) = (0, 0);
    for block in leaf_blocks() {
        for (line, text) in block.example_lines() {
            let options = example_options(text);
            for c in game_string.captures_iter(text) {
                let whole = c.get(0).expect("match");
                let gs = &c[1];
                let place = block.file_line(*line);
                let result = ReferenceEngine::load_with(gs, options);
                if block.chapter() == 9 && presented_as_refused(&text[whole.end()..]) {
                    refused += 1;
                    if result.is_ok() {
                        problems.push(format!(
                            "§{} at {place}: `{gs}` is called refused but loads ({options:?})",
                            block.label
                        ));
                    }
                } else {
                    loaded += 1;
                    if let Err(e) = result {
                        problems.push(format!(
                            "§{} at {place}: `{gs}` does not load ({options:?}): {e}",
                            block.label
                        ));
                    }
                }
            }
        }
    }
    println!("example GameStrings: {loaded} positions loaded, {refused} refusals checked");
    assert!(
        problems.is_empty(),
        "example GameStrings that are wrong:\n{}",
        problems.join("\n")
    );
    assert!(
        loaded >= MIN_EXAMPLE_GAME_STRINGS,
        "the examples of the leaf clauses hold only {loaded} GameStrings, \
         fewer than {MIN_EXAMPLE_GAME_STRINGS}: is the GameString pattern still \
         matching the spec's examples?"
    );
}

#[test]
fn no_leaf_clause_is_over_long_without_a_reason() {
    // no clause over about 60 words without a reason.
    let blocks = leaf_blocks();
    let words: BTreeMap<String, usize> = blocks
        .iter()
        .map(|b| (b.label.clone(), b.paragraph.split_whitespace().count()))
        .collect();
    let allowed: BTreeMap<&str, &str> = LONG_CLAUSES.iter().copied().collect();
    let mut problems = Vec::new();
    for (clause, reason) in LONG_CLAUSES {
        if reason.trim().is_empty() {
            problems.push(format!("LONG_CLAUSES: §{clause} gives no reason"));
        }
        match words.get(*clause) {
            None => problems.push(format!("LONG_CLAUSES names §{clause}, no leaf clause")),
            Some(&n) if n <= MAX_CLAUSE_WORDS => problems.push(format!(
                "LONG_CLAUSES: §{clause} has {n} words, no more than {MAX_CLAUSE_WORDS}; \
                 remove the stale entry"
            )),
            Some(_) => {}
        }
    }
    for block in &blocks {
        let n = words[&block.label];
        if n > MAX_CLAUSE_WORDS && !allowed.contains_key(block.label.as_str()) {
            problems.push(format!(
                "§{} at {} has {n} words, more than {MAX_CLAUSE_WORDS}: trim it without \
                 changing what it requires, or give the reason in LONG_CLAUSES",
                block.label, block.place
            ));
        }
    }
    for (clause, reason) in LONG_CLAUSES {
        println!(
            "long clause §{clause} ({} words): {reason}",
            words.get(*clause).copied().unwrap_or(0)
        );
    }
    assert!(
        problems.is_empty(),
        "over-long clauses:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_records_line_names_record_files_that_exist() {
    // a clause of chapter 10 names the test record files that pin
    // it, each `tests/records/...` in backticks; each must exist, and every
    // leaf clause of the chapter must have such a line.
    let file = Regex::new(r"`(tests/records/[^`]+)`").expect("regex");
    let mut problems = Vec::new();
    let mut named = 0;
    for block in leaf_blocks() {
        if chapter_of(&block.label) != RECORDS_CHAPTER {
            continue;
        }
        let lines: Vec<&(usize, String)> = block
            .rest
            .iter()
            .filter(|(_, l)| l.starts_with("Records: "))
            .collect();
        if lines.is_empty() {
            problems.push(format!(
                "§{} at {} has no `Records:` line",
                block.label, block.place
            ));
        }
        for (line, text) in lines {
            let files: Vec<&str> = file
                .captures_iter(text)
                .filter_map(|c| c.get(1))
                .map(|m| m.as_str())
                .collect();
            if files.is_empty() {
                problems.push(format!(
                    "{}: a `Records:` line names no file",
                    block.file_line(*line)
                ));
            }
            for path in files {
                named += 1;
                if !root().join(path).is_file() {
                    problems.push(format!("{}: {path} does not exist", block.file_line(*line)));
                }
            }
        }
    }
    assert!(named >= 14, "only {named} record files named by chapter 10");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// --- the clause index, tombstone titles and ruling summaries ---

/// The clause index: every label in numeric order with its title and file,
/// generated from the label lines by `the_clause_index_is_current`.
const INDEX_FILE: &str = "spec/index.md";

/// The environment variable that makes `the_clause_index_is_current` write
/// the index instead of failing on a stale one.
const UPDATE_INDEX_VAR: &str = "UPDATE_SPEC_INDEX";

/// A clause number as numbers, `6.4.2` → `[6, 4, 2]`, so that `9.2` sorts
/// before `9.15`.
fn numeric_key(clause: &str) -> Vec<u32> {
    clause
        .split('.')
        .map(|part| part.parse().unwrap_or(u32::MAX))
        .collect()
}

/// Every label line of the spec: (clause number, title, file name), in
/// numeric order.
fn label_entries() -> Vec<(String, String, String)> {
    let label = label_regex();
    let mut entries = Vec::new();
    for path in spec_files() {
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        for line in read(&path).lines() {
            if let Some(c) = label.captures(line) {
                let title = c.get(2).map_or("", |m| m.as_str().trim());
                entries.push((c[1].to_string(), title.to_string(), file.clone()));
            }
        }
    }
    entries.sort_by_key(|(clause, _, _)| numeric_key(clause));
    entries
}

/// The text of `spec/index.md` as the label lines give it.
fn clause_index() -> String {
    let mut out = String::from("# Clause index\n\n");
    out.push_str(&format!(
        "This file is generated from the label lines of the spec files by the test \
         `the_clause_index_is_current` of `tests/spec_coverage.rs`; do not edit it. \
         After adding, withdrawing or retitling a clause, regenerate it with \
         `{UPDATE_INDEX_VAR}=1 cargo test -p hive-oracle-rules --test integration spec_coverage::`.\n\n"
    ));
    out.push_str(
        "A clause number is never reused or renumbered (`README.md`, \"Stability\"), so a \
         clause added later stands beside the clauses it belongs with under a number out of \
         order. This index lists every number in numeric order with the clause's title and \
         the file that holds it; a withdrawn clause's title names the clauses that replaced it.\n\n",
    );
    out.push_str("| clause | title | file |\n|---|---|---|\n");
    for (clause, title, file) in label_entries() {
        out.push_str(&format!("| §{clause} | {title} | [{file}]({file}) |\n"));
    }
    out
}

#[test]
fn the_clause_index_is_current() {
    // spec/index.md is how a reader finds a clause by its number; it is
    // regenerated here and compared, line by line.
    let path = root().join(INDEX_FILE);
    let expected = clause_index();
    if std::env::var(UPDATE_INDEX_VAR).is_ok_and(|v| v == "1") {
        fs::write(&path, &expected)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let actual = fs::read_to_string(&path).unwrap_or_default();
    if actual == expected {
        return;
    }
    let have: BTreeSet<&str> = actual.lines().collect();
    let want: BTreeSet<&str> = expected.lines().collect();
    let mut problems: Vec<String> = want
        .difference(&have)
        .map(|line| format!("missing: {line}"))
        .collect();
    problems.extend(
        have.difference(&want)
            .map(|line| format!("stale:   {line}")),
    );
    if problems.is_empty() {
        problems.push("the lines are right but out of order".to_string());
    }
    panic!(
        "{INDEX_FILE} is not the index of the spec's label lines; regenerate it with \
         `{UPDATE_INDEX_VAR}=1 cargo test -p hive-oracle-rules --test integration spec_coverage::`:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_tombstone_title_names_its_successors() {
    // A withdrawn clause's title is `withdrawn → ` and the clauses its
    // tombstone line sends the reader to, so that a search for a title
    // lands on the live clause, never on the tombstone (spec/README.md,
    // "Stability").
    let tombstone =
        Regex::new(r"^\*Withdrawn \(\d{4}-\d{2}-\d{2}\): .*; see (.+)\.\*$").expect("regex");
    let cite = Regex::new(r"§(\d+(?:\.\d+)*)").expect("regex");
    let label = label_regex();
    let all = labels();
    let withdrawn = withdrawn();
    let titles = titles();
    let live_titles: BTreeMap<&str, &str> = titles
        .iter()
        .filter(|(clause, _)| !withdrawn.contains(*clause))
        .flat_map(|(clause, ts)| ts.iter().map(move |t| (t.as_str(), clause.as_str())))
        .collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for path in spec_files() {
        let text = read(&path);
        let lines: Vec<&str> = text.lines().collect();
        for (i, pair) in lines.windows(2).enumerate() {
            let Some(c) = label.captures(pair[0]) else {
                continue;
            };
            if !pair[1].starts_with("*Withdrawn") {
                continue;
            }
            checked += 1;
            let place = format!("{}:{}", path.display(), i + 1);
            let clause = &c[1];
            let title = c.get(2).map_or("", |m| m.as_str().trim());
            let Some(t) = tombstone.captures(pair[1]) else {
                problems.push(format!(
                    "{place}: §{clause}'s tombstone is not `*Withdrawn (YYYY-MM-DD): \
                     reason; see §X.Y.*`"
                ));
                continue;
            };
            let successors = &t[1];
            let wanted = format!("withdrawn → {successors}");
            if title != wanted {
                problems.push(format!(
                    "{place}: §{clause}'s title is \"{title}\"; write `[§{clause}] {wanted}`"
                ));
            }
            if let Some(live) = live_titles.get(title) {
                problems.push(format!(
                    "{place}: §{clause} is withdrawn but has the title of §{live}"
                ));
            }
            let named: Vec<&str> = cite
                .captures_iter(successors)
                .filter_map(|m| m.get(1))
                .map(|m| m.as_str())
                .collect();
            if named.is_empty() {
                problems.push(format!("{place}: §{clause}'s tombstone names no successor"));
            }
            for successor in named {
                if !all.contains_key(successor) || withdrawn.contains(successor) {
                    problems.push(format!(
                        "{place}: §{clause} sends the reader to §{successor}, which is no live clause"
                    ));
                }
            }
        }
    }
    assert!(checked >= 10, "found only {checked} tombstones in spec/");
    assert!(
        problems.is_empty(),
        "tombstone titles that do not name their successors:\n{}",
        problems.join("\n")
    );
}

/// The most words of a ruling's `**Summary.**` line, which `explain`
/// prints beside a clause that has the ruling.
const MAX_SUMMARY_WORDS: usize = 25;

/// The sections of `spec/rulings.md`: (anchor, the section's lines after
/// its heading).
fn ruling_sections() -> Vec<(String, Vec<String>)> {
    let text = read(&root().join("spec/rulings.md"));
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(anchor) = line.strip_prefix("## ") {
            sections.push((anchor.trim().to_string(), Vec::new()));
        } else if let Some((_, lines)) = sections.last_mut() {
            lines.push(line.to_string());
        }
    }
    sections
}

#[test]
fn every_ruling_opens_with_a_short_summary() {
    // The first paragraph of a ruling is one line, `**Summary.** …`, of at
    // most MAX_SUMMARY_WORDS words: what `explain` prints with the anchor.
    let sections = ruling_sections();
    assert!(
        sections.len() >= 20,
        "spec/rulings.md has only {} sections",
        sections.len()
    );
    let mut problems = Vec::new();
    for (anchor, lines) in &sections {
        let first = lines.iter().find(|l| !l.trim().is_empty());
        let summaries = lines
            .iter()
            .filter(|l| l.starts_with("**Summary.**"))
            .count();
        match first.and_then(|l| l.strip_prefix("**Summary.** ")) {
            None => problems.push(format!(
                "{anchor}: the section does not open with a `**Summary.** …` line"
            )),
            Some(summary) => {
                let words = summary.split_whitespace().count();
                if words > MAX_SUMMARY_WORDS {
                    problems.push(format!(
                        "{anchor}: the summary has {words} words, more than {MAX_SUMMARY_WORDS}"
                    ));
                }
            }
        }
        if summaries > 1 {
            problems.push(format!("{anchor}: {summaries} summary lines, not one"));
        }
    }
    assert!(
        problems.is_empty(),
        "rulings without a one-line summary:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_ruling_named_exists() {
    // Every `Ruling:` line of a clause is `Ruling: see rulings.md#<anchor>`,
    // and every `rulings.md#<anchor>` in the spec, the code and the tests
    // names a section of spec/rulings.md.
    let anchors: BTreeSet<String> = ruling_sections().into_iter().map(|(a, _)| a).collect();
    let named = Regex::new(r"rulings\.md#([a-z0-9-]+)").expect("regex");
    let ruling_line = Regex::new(r"^Ruling: see rulings\.md#[a-z0-9-]+$").expect("regex");
    let mut files = spec_files();
    files.extend(files_under(&root().join("src"), "rs"));
    files.extend(test_files());
    let mut problems = Vec::new();
    let mut count = 0;
    for block in clause_blocks() {
        for (line, text) in block.rest.iter().filter(|(_, l)| l.starts_with("Ruling:")) {
            if !ruling_line.is_match(text) {
                problems.push(format!(
                    "{}: write `Ruling: see rulings.md#<anchor>`: {text}",
                    block.file_line(*line)
                ));
            }
        }
    }
    for path in files {
        for (i, line) in read(&path).lines().enumerate() {
            for c in named.captures_iter(line) {
                count += 1;
                let anchor = c[1].trim_end_matches('-');
                if !anchors.contains(anchor) {
                    problems.push(format!(
                        "{}:{}: rulings.md#{anchor} names no section of spec/rulings.md",
                        path.display(),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(count >= 20, "only {count} rulings named");
    assert!(
        problems.is_empty(),
        "rulings named that do not exist:\n{}",
        problems.join("\n")
    );
}
