//! The spec rendered for the web page: `spec/rules.md`, `spec/notation.md`,
//! `spec/game-records.md` and `spec/rulings.md` as HTML, with an anchor on
//! every clause (`id="clause-5.3"` on the label line `[§5.3] One Hive`) and
//! on every ruling (`id="ruling-stack-colour"`), and every clause number and
//! ruling named in the prose turned into a link to its anchor.
//!
//! The files are the ones the crate embeds for clause titles
//! ([`hive_oracle_rules::clauses`]), so the page shows the spec the engine was built
//! with.

use pulldown_cmark::{html, Options, Parser};

use hive_oracle_rules::clauses::{label_line, RULINGS, SPEC_FILES};

/// The four spec files as one HTML fragment, one `<section>` per file.
pub(crate) fn spec_html() -> String {
    let files = [
        ("rules", SPEC_FILES[0]),
        ("notation", SPEC_FILES[1]),
        ("game-records", SPEC_FILES[2]),
        ("rulings", RULINGS),
    ];
    let mut out = String::new();
    for (name, text) in files {
        out.push_str(&format!(
            "<section class=\"spec-file\" id=\"spec-{name}\">\n"
        ));
        let prepared = prepare(text, name == "rulings");
        let parser = Parser::new_ext(
            &prepared,
            Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES,
        );
        html::push_html(&mut out, parser);
        out.push_str("</section>\n");
    }
    out
}

/// The Markdown of one file with anchors and links added, outside fenced
/// code blocks: a label line becomes an anchored, bold label followed by a
/// line break; a ruling's heading gets its anchor; elsewhere, clause numbers
/// and `rulings.md#…` become links.
fn prepare(text: &'static str, rulings: bool) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut in_fence = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence || line.starts_with("```") {
            out.push_str(line);
        } else if let Some((clause, title)) = label_line(line) {
            let id = anchor(clause);
            // A withdrawn clause's title names its successors
            // (`withdrawn → §4.5`), which become links.
            out.push_str(&format!(
                "<a class=\"label\" id=\"{id}\" href=\"#{id}\">{clause}</a> <strong>{}</strong><br>",
                linkify(&escape(title))
            ));
        } else if let (true, Some(slug)) = (rulings, line.strip_prefix("## ")) {
            out.push_str(&format!("## {slug} {{#ruling-{}}}", slug.trim()));
        } else {
            out.push_str(&linkify(line));
        }
        out.push('\n');
    }
    out
}

/// The anchor of a clause: `§5.3` → `clause-5.3`.
pub(crate) fn anchor(clause: &str) -> String {
    format!("clause-{}", clause.trim_start_matches('§'))
}

/// Minimal HTML escaping of a title.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One line of prose with its clause numbers (`§6.4.2`) and ruling names
/// (`rulings.md#stack-colour`) made into Markdown links; code spans are left
/// as written.
fn linkify(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code && c == '§' {
            let number = clause_number(&rest['§'.len_utf8()..]);
            if !number.is_empty() {
                out.push_str(&format!("[§{number}](#clause-{number})"));
                rest = &rest['§'.len_utf8() + number.len()..];
                continue;
            }
        } else if !in_code && rest.starts_with("rulings.md#") {
            let slug: String = rest["rulings.md#".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            let slug = slug.trim_end_matches('-');
            if !slug.is_empty() {
                out.push_str(&format!("[rulings.md#{slug}](#ruling-{slug})"));
                rest = &rest["rulings.md#".len() + slug.len()..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The clause number at the start of `text` (`6.4.2` of `6.4.2, the …`):
/// digits and dots, never ending with a dot; empty when `text` starts with
/// no digit.
fn clause_number(text: &str) -> &str {
    let end = text
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.'))
        .map_or(text.len(), |(i, _)| i);
    text[..end].trim_end_matches('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_withdrawn_clause_links_its_successors() {
        let html = spec_html();
        assert!(
            html.contains(r##"<strong>withdrawn → <a href="#clause-4.5">§4.5</a></strong>"##),
            "the withdrawn clause before §4.5 should link it from its title"
        );
    }
}
