//! The SGF container (§10.7; spec/sources/records-notes.md section 3.2): game trees `( … )`, nodes `;`,
//! properties `ID[value]` with backslash escapes. Only the main line of the
//! first game tree is returned; later trees, variations and text after the
//! tree are noted and ignored.

use crate::records::RecordError;

/// One property value with its identifier, as `ID[value]` wrote it, the
/// escapes resolved (`\\wQ` is `\wQ`, `\]` is `]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Property {
    /// The identifier, as written (`GM`, `P0`, `P-1`, `TM`).
    pub id: String,
    /// The value, escapes resolved, soft line breaks (`\` newline) removed.
    pub value: String,
    /// The 1-based line where the identifier is written.
    pub line: usize,
}

/// One node (`;` and its properties).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Node {
    /// The properties, in file order; a property with several values
    /// (`AB[aa][bb]`) gives one entry per value.
    pub properties: Vec<Property>,
}

/// The main line of the first game tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Tree {
    /// The 1-based line of the tree's opening `(`.
    pub line: usize,
    /// The nodes of the main line (the first variation at each branch), root first.
    pub nodes: Vec<Node>,
    /// What was ignored: variations, later trees, trailing text.
    pub notes: Vec<String>,
}

/// The most nodes, and the most property values, an SGF file may hold (a
/// limit of the reader, as the PGN reader's of games per file, stated in
/// the tool's docs/limits.md): a game of 10,000 plies writes about 50,000. Read, a node takes
/// about 24 bytes and a value about 90 whatever their text: without the
/// limit a file of 64 MiB of `;` or `[]` took gigabytes.
pub const MAX_SGF_ITEMS: usize = 1_000_000;

/// A cursor over the text that counts lines, and the nodes and values read.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    nodes: usize,
    values: usize,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }
}

/// Whether `c` may be part of a property identifier. SGF wants capital
/// letters; boardspace writes `P0`, `P1` and `P-1`, so anything that is not
/// blank and not SGF punctuation is taken.
fn is_id_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '[' | ']' | '(' | ')' | ';')
}

/// Describes a character for messages.
fn shown(c: Option<char>) -> String {
    match c {
        Some(c) if c.is_control() || c.is_whitespace() => format!("{:?}", c),
        Some(c) => format!("\"{c}\""),
        None => "the end of the file".to_string(),
    }
}

/// Reads the main line of the first game tree of `text`.
pub(super) fn first_tree(file: &str, text: &str) -> Result<Tree, RecordError> {
    let mut cursor = Cursor {
        chars: text.chars().peekable(),
        line: 1,
        nodes: 0,
        values: 0,
    };
    let error = |line: usize, message: String| RecordError::new(file, line, message);
    let start = open_tree(&mut cursor, file)?;
    let mut nodes = Vec::new();
    let mut notes = Vec::new();
    // The main line goes on until the first ")"; any "(" after that opens a
    // variation, skipped.
    let mut main_open = true;
    let mut variation_noted = false;
    let mut depth = 1usize;
    loop {
        cursor.skip_whitespace();
        let line = cursor.line;
        match cursor.bump() {
            None => {
                return Err(error(
                    line,
                    format!(
                        "the file ends inside the game tree opened at line {start} (no closing \")\"): truncated"
                    ),
                ))
            }
            Some(';') => {
                let node = read_node(&mut cursor, file)?;
                if main_open {
                    nodes.push(node);
                }
            }
            Some('(') => {
                depth += 1;
                if !main_open && !variation_noted {
                    variation_noted = true;
                    notes.push(format!(
                        "line {line}: a variation of the game tree ignored (only the main line is read)"
                    ));
                }
            }
            Some(')') => {
                main_open = false;
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Some(c) => {
                return Err(error(
                    line,
                    format!(
                        "unexpected {} in the game tree: expected \";\", \"(\" or \")\"",
                        shown(Some(c))
                    ),
                ))
            }
        }
    }
    cursor.skip_whitespace();
    let line = cursor.line;
    match cursor.peek() {
        None => {}
        Some('(') => notes.push(format!(
            "line {line}: a further game tree ignored (only the first is read)"
        )),
        Some(_) => notes.push(format!("line {line}: text after the game tree ignored")),
    }
    Ok(Tree {
        line: start,
        nodes,
        notes,
    })
}

/// Reads the opening `(` of the first game tree and checks that a node
/// follows it: the line of the `(`.
fn open_tree(cursor: &mut Cursor<'_>, file: &str) -> Result<usize, RecordError> {
    let error = |line: usize, message: String| RecordError::new(file, line, message);
    cursor.skip_whitespace();
    let start = cursor.line;
    match cursor.bump() {
        Some('(') => {}
        None => return Err(error(start, "the file is empty: not an SGF record".into())),
        other => {
            return Err(error(
                start,
                format!(
                    "not an SGF record: expected \"(\" at the start, found {}",
                    shown(other)
                ),
            ))
        }
    }
    cursor.skip_whitespace();
    if cursor.peek() != Some(';') {
        let line = cursor.line;
        return Err(error(
            line,
            format!(
                "not an SGF game tree: expected \";\" (a node) after the \"(\" of line {start}, found {}",
                shown(cursor.peek())
            ),
        ));
    }
    Ok(start)
}

/// Reads the properties of a node, after its `;` (the node counted
/// against [`MAX_SGF_ITEMS`]).
fn read_node(cursor: &mut Cursor<'_>, file: &str) -> Result<Node, RecordError> {
    cursor.nodes += 1;
    if cursor.nodes > MAX_SGF_ITEMS {
        return Err(RecordError::new(
            file,
            cursor.line,
            format!("too many nodes: an SGF record may hold at most {MAX_SGF_ITEMS}"),
        ));
    }
    let mut properties = Vec::new();
    loop {
        cursor.skip_whitespace();
        match cursor.peek() {
            Some(c) if is_id_char(c) => {}
            _ => return Ok(Node { properties }),
        }
        let line = cursor.line;
        let mut id = String::new();
        while let Some(c) = cursor.peek().filter(|&c| is_id_char(c)) {
            id.push(c);
            cursor.bump();
        }
        cursor.skip_whitespace();
        if cursor.peek() != Some('[') {
            let found = cursor.peek();
            return Err(RecordError::new(
                file,
                cursor.line,
                format!(
                    "the property {} has no value: expected \"[\", found {}",
                    quoted(&id),
                    shown(found)
                ),
            ));
        }
        while cursor.peek() == Some('[') {
            cursor.values += 1;
            if cursor.values > MAX_SGF_ITEMS {
                return Err(RecordError::new(
                    file,
                    cursor.line,
                    format!(
                        "too many property values: an SGF record may hold at most {MAX_SGF_ITEMS}"
                    ),
                ));
            }
            cursor.bump();
            let value = read_value(cursor, file, &id, line)?;
            properties.push(Property {
                id: id.clone(),
                value,
                line,
            });
            cursor.skip_whitespace();
        }
    }
}

/// Reads a value after its `[`, up to the unescaped `]`.
fn read_value(
    cursor: &mut Cursor<'_>,
    file: &str,
    id: &str,
    line: usize,
) -> Result<String, RecordError> {
    let truncated = |cursor: &Cursor<'_>| {
        RecordError::new(
            file,
            cursor.line,
            format!(
                "the file ends inside the value of {} opened at line {line}: truncated",
                quoted(id)
            ),
        )
    };
    let mut value = String::new();
    loop {
        match cursor.bump() {
            None => return Err(truncated(cursor)),
            Some(']') => return Ok(value),
            Some('\\') => match cursor.bump() {
                None => return Err(truncated(cursor)),
                // a soft line break
                Some('\n') => {}
                Some(c) => value.push(c),
            },
            Some(c) => value.push(c),
        }
    }
}

/// An identifier for messages, at most 20 characters.
fn quoted(id: &str) -> String {
    let short: String = id.chars().take(20).collect();
    if short.len() < id.len() {
        format!("\"{short}…\"")
    } else {
        format!("\"{short}\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_lines() {
        // section 3.2: a doubled backslash is one, escaped brackets stay in the value.
        let tree = first_tree(
            "t.sgf",
            " (;GM[27]\n; P0[1 Dropb wQ N 14 \\\\wL]TM[5]\n; P-1[Pop P0\\[0 Start P0\\]])",
        )
        .unwrap();
        assert_eq!(tree.nodes.len(), 3);
        let p = &tree.nodes[1].properties;
        assert_eq!(
            (p[0].id.as_str(), p[0].value.as_str(), p[0].line),
            ("P0", "1 Dropb wQ N 14 \\wL", 2)
        );
        assert_eq!(tree.nodes[2].properties[0].value, "Pop P0[0 Start P0]");
    }

    #[test]
    fn variations_and_later_trees_are_noted() {
        let tree = first_tree("t.sgf", "(;A[1];B[2](;C[3])(;D[4]))\n(;E[5])").unwrap();
        let ids: Vec<_> = tree
            .nodes
            .iter()
            .flat_map(|n| n.properties.iter().map(|p| p.id.as_str()))
            .collect();
        assert_eq!(ids, ["A", "B", "C"]);
        assert_eq!(tree.notes.len(), 2, "{:?}", tree.notes);
    }
}
