//! The clauses of the spec, as the spec files write them.
//!
//! Every clause of `spec/rules.md`, `spec/notation.md` and `spec/game-records.md`
//! starts with a label
//! line, alone on its line and starting in the first column: the label, one
//! space and the clause's title, `[§6.4.2] Spider never revisits`
//! (spec/README.md, "Clauses"). A clause whose sources disagree has a line
//! `Ruling: see rulings.md#<anchor>` naming the section of `spec/rulings.md`
//! that argues it, and each section there opens with a one-line
//! `**Summary.**`. The files are embedded in the crate when it is built, so
//! the titles and summaries shown next to clause numbers are the spec's own
//! and cannot drift from it: renaming a clause is an edit of its label line.

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The spec files that define clauses, read at build time.
pub const SPEC_FILES: [&str; 3] = [
    include_str!("../spec/rules.md"),
    include_str!("../spec/notation.md"),
    include_str!("../spec/game-records.md"),
];

/// `spec/rulings.md`, one section per disputed point: a heading
/// `## <anchor>`, then a line `**Summary.** …`.
pub const RULINGS: &str = include_str!("../spec/rulings.md");

/// The ruling behind a clause: the section of `spec/rulings.md` that its
/// `Ruling:` line names, and that section's one-line summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The section's anchor, its heading: `beetle-height-gates` for
    /// `rulings.md#beetle-height-gates`.
    pub anchor: &'static str,
    /// The section's `**Summary.**` line without its label; empty if the
    /// section has none (tests/spec_coverage.rs requires one).
    pub summary: &'static str,
}

/// The ruling that argues a clause (`"§5.6"` → `beetle-height-gates`);
/// `None` for a clause with no `Ruling:` line or that the spec does not
/// define.
pub fn clause_ruling(clause: &str) -> Option<Ruling> {
    let anchor = ruling_anchors().get(clause).copied()?;
    let summary = ruling_summaries().get(anchor).copied().unwrap_or("");
    Some(Ruling { anchor, summary })
}

/// Clause → the anchor on its `Ruling: see rulings.md#<anchor>` line, read
/// from the lines between its label line and the next label or heading.
fn ruling_anchors() -> &'static BTreeMap<&'static str, &'static str> {
    static ANCHORS: OnceLock<BTreeMap<&'static str, &'static str>> = OnceLock::new();
    ANCHORS.get_or_init(|| {
        let mut anchors = BTreeMap::new();
        for text in SPEC_FILES {
            let mut clause = None;
            for line in text.lines() {
                if let Some((label, _)) = label_line(line) {
                    clause = Some(label);
                } else if line.starts_with('#') {
                    clause = None;
                } else if let (Some(c), Some(anchor)) =
                    (clause, line.strip_prefix("Ruling: see rulings.md#"))
                {
                    anchors.insert(c, anchor.trim());
                }
            }
        }
        anchors
    })
}

/// Anchor → the text of the section's `**Summary.**` line.
fn ruling_summaries() -> &'static BTreeMap<&'static str, &'static str> {
    static SUMMARIES: OnceLock<BTreeMap<&'static str, &'static str>> = OnceLock::new();
    SUMMARIES.get_or_init(|| {
        let mut summaries = BTreeMap::new();
        let mut anchor = None;
        for line in RULINGS.lines() {
            if let Some(heading) = line.strip_prefix("## ") {
                anchor = Some(heading.trim());
            } else if let (Some(a), Some(summary)) = (anchor, line.strip_prefix("**Summary.** ")) {
                summaries.entry(a).or_insert(summary.trim());
            }
        }
        summaries
    })
}

/// The short title of a clause, written after its label in the spec, such as
/// `"Spider never revisits"` for `"§6.4.2"`; the empty string for a clause the
/// spec does not define. The title is a slice of the embedded spec text.
pub fn clause_title(clause: &str) -> &'static str {
    titles().get(clause).copied().unwrap_or("")
}

/// Whether the spec defines `clause` (`"§6.4.2"`): what a test of a
/// package built on this one checks of every clause its code cites.
pub fn is_defined(clause: &str) -> bool {
    titles().contains_key(clause)
}

/// What is wrong with citing `clause` (such as `"§6.4.2"`) in code or a test, if
/// anything: the spec defines no such clause, or it is a group of clauses
/// (cite the most specific one), or it is withdrawn (cite its successor:
/// spec/README.md, "Stability"). `None` for a live leaf clause.
pub fn citation_problem(clause: &str) -> Option<String> {
    let group = format!("{clause}.");
    let has_children = titles().keys().any(|k| k.starts_with(&group));
    match titles().get(clause) {
        _ if has_children => Some(format!(
            "{clause} has sub-clauses: cite the most specific one"
        )),
        None => Some(format!("{clause} is no clause of the spec")),
        Some(title) if title.starts_with("withdrawn") => Some(format!(
            "{clause} is withdrawn: cite the clause it names ({title})"
        )),
        Some(_) => None,
    }
}

/// Every clause the spec defines, in the spec's order of numbers as text
/// (`§10.1` sorts before `§2.1`).
pub fn defined_clauses() -> impl Iterator<Item = &'static str> {
    titles().keys().copied()
}

/// Clause (`"§6.4.2"`) → title, from every label line of the spec files,
/// parsed once.
fn titles() -> &'static BTreeMap<&'static str, &'static str> {
    static TITLES: OnceLock<BTreeMap<&'static str, &'static str>> = OnceLock::new();
    TITLES.get_or_init(|| {
        SPEC_FILES
            .iter()
            .flat_map(|text| text.lines())
            .filter_map(label_line)
            .collect()
    })
}

/// The clause and title of a label line, `[§N.M] title` or `[§N.M.K] title`
/// (the title empty when the line has none); `None` for any other line.
pub fn label_line(line: &'static str) -> Option<(&'static str, &'static str)> {
    let rest = line.strip_prefix('[')?;
    let (clause, title) = rest.split_once(']')?;
    let number = clause.strip_prefix('§')?;
    let is_number = !number.is_empty()
        && number
            .split('.')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()));
    if !is_number || !(title.is_empty() || title.starts_with(' ')) {
        return None;
    }
    Some((clause, title.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clause_has_the_title_of_its_label_line() {
        assert_eq!(clause_title("§5.3"), "One Hive");
        assert_eq!(clause_title("§6.4.2"), "Spider never revisits");
        assert_eq!(clause_title("§9.14"), "refusals say why");
    }

    #[test]
    fn a_clause_with_a_ruling_line_has_its_ruling_and_summary() {
        let ruling = clause_ruling("§6.2.2").expect("§6.2.2 has a Ruling: line");
        assert_eq!(ruling.anchor, "beetle-height-gates");
        assert!(
            ruling
                .summary
                .starts_with("Every beetle step obeys the height gate"),
            "{}",
            ruling.summary
        );
        assert_eq!(clause_ruling("§6.4.2"), None, "§6.4.2 has no ruling");
        assert_eq!(clause_ruling(concat!("§", "99.1")), None);
    }

    #[test]
    fn every_ruling_line_has_a_summary() {
        // tests/spec_coverage.rs checks the spec files; this checks that
        // the parsing here finds what they hold.
        assert!(ruling_anchors().len() >= 20, "{:?}", ruling_anchors());
        for (clause, anchor) in ruling_anchors() {
            let ruling = clause_ruling(clause).expect("a ruling");
            assert_eq!(ruling.anchor, *anchor);
            assert!(
                !ruling.summary.is_empty(),
                "{clause}: {anchor} has no summary"
            );
        }
    }

    #[test]
    fn an_unknown_clause_has_no_title() {
        // Written with `concat!` so that tests/spec_coverage.rs does not read
        // a citation of a clause that does not exist or of the group 6.4.
        assert_eq!(clause_title(concat!("§", "99.1")), "");
        assert_eq!(clause_title(concat!("§", "6.4")), "");
        assert_eq!(clause_title("6.4.2"), "");
        assert_eq!(clause_title(""), "");
    }

    #[test]
    fn label_lines_are_recognised_and_nothing_else() {
        assert_eq!(label_line("[§6.4.2] Spider"), Some(("§6.4.2", "Spider")));
        assert_eq!(label_line("[§6.4.2]"), Some(("§6.4.2", "")));
        assert_eq!(label_line("[§6.4.2]Spider"), None);
        assert_eq!(label_line("  [§6.4.2] Spider"), None);
        assert_eq!(label_line("[§] Spider"), None);
        assert_eq!(label_line(concat!("[§", "6..2] Spider")), None);
        assert_eq!(label_line("see [§6.4.2]"), None);
    }

    #[test]
    fn every_clause_in_the_spec_has_a_title() {
        // A withdrawn clause (spec/README.md, "Stability") is no clause to
        // cite, and needs no title.
        let mut clauses = 0;
        let mut untitled = Vec::new();
        for text in SPEC_FILES {
            let lines: Vec<&'static str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let Some((clause, title)) = label_line(line) else {
                    continue;
                };
                let withdrawn = lines
                    .get(i + 1)
                    .is_some_and(|next| next.starts_with("*Withdrawn"));
                if withdrawn {
                    continue;
                }
                clauses += 1;
                if title.is_empty() {
                    untitled.push(clause);
                }
                assert_eq!(clause_title(clause), title);
            }
        }
        assert!(clauses >= 80, "the spec defines only {clauses} clauses");
        assert!(
            untitled.is_empty(),
            "clauses without a title on their label line: {}",
            untitled.join(", ")
        );
    }
}
