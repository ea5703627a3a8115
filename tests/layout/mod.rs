//! The machinery of the layout tests (`tests/boundaries.rs` here, and the
//! tool's `tool/tests/boundaries.rs`, which includes this file): a small
//! lexer that keeps code and drops comments, strings and character literals
//! (so a path in a comment or a message is not a use), the uses between the
//! files of a crate, the layers they must respect, the cycles between
//! files, and the sizes of files and functions. Each check returns what it
//! found, one line each, so that a test fails with all of it at once.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

// --- a lexer that keeps code and drops comments, strings and chars ---------

/// A token of code: an identifier or one punctuation character, with its
/// 1-based line. `::` is kept as two `:` tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub line: usize,
}

/// The tokens of a Rust source text, without comments, string literals,
/// character literals, lifetimes and numbers.
pub fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let count_lines = |from: usize, to: usize, line: &mut usize| {
        *line += chars[from..to.min(chars.len())]
            .iter()
            .filter(|&&c| c == '\n')
            .count();
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // block comments nest in Rust
            let start = i;
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            count_lines(start, i, &mut line);
        } else if let Some(end) = raw_string_end(&chars, i) {
            count_lines(i, end, &mut line);
            i = end;
        } else if c == '"' || (c == 'b' && next == Some('"')) {
            let start = i;
            i += if c == 'b' { 2 } else { 1 };
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            count_lines(start, i, &mut line);
        } else if c == '\'' || (c == 'b' && next == Some('\'')) {
            i = char_or_lifetime_end(&chars, i);
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                text: chars[start..i].iter().collect(),
                line,
            });
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else {
            out.push(Token {
                text: c.to_string(),
                line,
            });
            i += 1;
        }
    }
    out
}

/// The end of a raw string literal (`r"…"`, `r#"…"#`, `br"…"`) starting at
/// `i`, if one starts there.
pub fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    if i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return None;
    }
    let mut j = i;
    if chars.get(j) == Some(&'b') {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(chars.len())
}

/// The end of a character literal (`'a'`, `'\n'`, `b'x'`) or of a lifetime
/// (`'a`) starting at `i`.
pub fn char_or_lifetime_end(chars: &[char], i: usize) -> usize {
    let quote = if chars[i] == 'b' { i + 1 } else { i };
    let mut j = quote + 1;
    if chars.get(j) == Some(&'\\') {
        // an escape: up to the closing quote
        j += 2;
        while j < chars.len() && chars[j] != '\'' {
            j += 1;
        }
        return j + 1;
    }
    if chars.get(j + 1) == Some(&'\'') {
        return j + 2; // one character
    }
    // a lifetime or a label: skip the quote, the name is an identifier
    quote + 1
}

// --- the uses of a file ----------------------------------------------------

/// A module path inside one crate, from its root.
pub type ModulePath = Vec<String>;

/// The module a file is, from the crate root (`src/lib.rs` and
/// `src/main.rs` are the root; `a/mod.rs` is `a`).
pub fn file_module(relative: &str) -> ModulePath {
    let mut parts: Vec<String> = relative
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Every module path a file names through `crate::`, `super::` or `self::`,
/// or through a child module's name (`grid::neighbour`, `use grid::CELLS`),
/// with use trees expanded (`use crate::{a::b, c}` names `a::b` and `c`),
/// each with its line. Inline modules (`mod tests { … }`) are followed, so
/// that `super::` inside one names the file's own module. `modules` are the
/// crate's file modules, to tell a child module from anything else.
pub fn named_paths(
    text: &str,
    module: &ModulePath,
    modules: &BTreeSet<ModulePath>,
) -> Vec<(usize, ModulePath)> {
    let tokens = tokens(text);
    let mut out = Vec::new();
    // the inline modules open at this point, with the brace depth inside each
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    // whether the tokens are inside a re-export (`pub use …;`, `pub(crate) use …;`)
    let mut in_reexport = false;
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i].text.as_str();
        if t == "use" {
            let before = &tokens[..i];
            in_reexport = before.last().is_some_and(|p| p.text == "pub")
                || (before.len() >= 4
                    && before[before.len() - 1].text == ")"
                    && before[before.len() - 4].text == "pub");
        } else if t == ";" {
            in_reexport = false;
        }
        match t {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if inline.last().is_some_and(|(_, d)| *d > depth) {
                    inline.pop();
                }
            }
            "mod" if tokens.get(i + 2).is_some_and(|n| n.text == "{") => {
                inline.push((tokens[i + 1].text.clone(), depth + 1));
            }
            _ => {}
        }
        let follows_a_path = i >= 2 && is_path_sep(&tokens, i - 2);
        let relative = matches!(t, "crate" | "super" | "self");
        let child = inline.is_empty() && {
            let mut named = module.clone();
            named.push(t.to_string());
            modules.contains(&named)
        };
        if (relative || child) && is_path_sep(&tokens, i + 1) && !follows_a_path {
            let mut here = module.clone();
            here.extend(inline.iter().map(|(name, _)| name.clone()));
            // a child module's name is a path from the module itself
            let prefix = if child {
                vec!["self".to_string()]
            } else {
                Vec::new()
            };
            let (paths, end) = use_tree(&tokens, i, prefix);
            for path in paths {
                let Some(resolved) = resolve(&here, &path) else {
                    continue;
                };
                // A module's re-export of its own children is its surface,
                // not a use: the children are read first, then the facade.
                let own_child = resolved.len() > module.len() && resolved.starts_with(module);
                if !(in_reexport && own_child) {
                    out.push((tokens[i].line, resolved));
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

/// Whether tokens `i` and `i + 1` are `::`.
pub fn is_path_sep(tokens: &[Token], i: usize) -> bool {
    tokens.get(i).is_some_and(|t| t.text == ":") && tokens.get(i + 1).is_some_and(|t| t.text == ":")
}

/// Reads a path or a use tree from token `i`: the full paths it names (a
/// `{…}` group names each of its trees) and the index after it.
pub fn use_tree(tokens: &[Token], mut i: usize, prefix: Vec<String>) -> (Vec<Vec<String>>, usize) {
    let mut path = prefix;
    loop {
        match tokens.get(i).map(|t| t.text.as_str()) {
            Some("{") => {
                let mut paths = Vec::new();
                i += 1;
                while i < tokens.len() && tokens[i].text != "}" {
                    if tokens[i].text == "," {
                        i += 1;
                        continue;
                    }
                    let (inner, end) = use_tree(tokens, i, path.clone());
                    paths.extend(inner);
                    // skip `as name` and anything else up to the separator
                    i = end;
                    while i < tokens.len() && tokens[i].text != "," && tokens[i].text != "}" {
                        i += 1;
                    }
                }
                return (paths, i + 1);
            }
            Some(word) if word.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                path.push(word.to_string());
                i += 1;
                if is_path_sep(tokens, i) {
                    i += 2;
                } else {
                    return (vec![path], i);
                }
            }
            // `*` or the end of the path
            _ => return (vec![path], i),
        }
    }
}

/// The absolute module path that `path` (starting with `crate`, `super` or
/// `self`) names from module `here`.
pub fn resolve(here: &ModulePath, path: &[String]) -> Option<ModulePath> {
    let mut current = here.clone();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            current.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                current.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    current.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(current)
}

/// One crate's files: each file's module path, and the file of each module.
pub struct Crate {
    /// The files, by their path below `src/`, with their text.
    pub files: BTreeMap<String, String>,
    /// The file that is each module.
    pub modules: BTreeMap<ModulePath, String>,
}

impl Crate {
    pub fn new(files: BTreeMap<String, String>) -> Crate {
        let modules = files.keys().map(|f| (file_module(f), f.clone())).collect();
        Crate { files, modules }
    }

    /// The file a module path lands in: the longest prefix that is a file.
    pub fn file_of(&self, path: &ModulePath) -> Option<&String> {
        (0..=path.len())
            .rev()
            .find_map(|n| self.modules.get(&path[..n]))
    }

    /// The uses between files: for each file, the files it names, each with
    /// the first line naming it.
    pub fn file_graph(&self) -> BTreeMap<String, BTreeMap<String, usize>> {
        let mut graph = BTreeMap::new();
        for (file, text) in &self.files {
            let uses: &mut BTreeMap<String, usize> = graph.entry(file.clone()).or_default();
            let modules: BTreeSet<ModulePath> = self.modules.keys().cloned().collect();
            for (line, path) in named_paths(text, &file_module(file), &modules) {
                if let Some(target) = self.file_of(&path) {
                    if target != file {
                        uses.entry(target.clone()).or_insert(line);
                    }
                }
            }
        }
        graph
    }
}

/// The cycles of a graph: its strongly connected components of more than one
/// node (Tarjan's algorithm), each sorted.
pub fn cycles(graph: &BTreeMap<String, BTreeMap<String, usize>>) -> Vec<Vec<String>> {
    struct Search<'a> {
        graph: &'a BTreeMap<String, BTreeMap<String, usize>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, node: &'a str) {
            let n = self.index.len();
            self.index.insert(node, n);
            self.low.insert(node, n);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.graph.get(node).into_iter().flat_map(|m| m.keys()) {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(top);
                    component.push(top.to_string());
                    if top == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut search = Search {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !search.index.contains_key(node.as_str()) {
            search.visit(node);
        }
    }
    search.found.sort();
    search.found
}

/// A cycle shown with the line of each use that closes it.
pub fn show_cycle(graph: &BTreeMap<String, BTreeMap<String, usize>>, cycle: &[String]) -> String {
    let members: BTreeSet<&String> = cycle.iter().collect();
    let mut lines = Vec::new();
    for file in cycle {
        for (target, line) in &graph[file] {
            if members.contains(target) {
                lines.push(format!("  {file}:{line} uses {target}"));
            }
        }
    }
    lines.join("\n")
}

// --- sizes -------------------------------------------------------------------

/// The functions of a source text that have a body: (name, first line, last
/// line).
pub fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let tokens = tokens(text);
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.text != "fn" {
            continue;
        }
        // `fn(` is a pointer type; `fn $name` a macro's pattern
        let Some(name) = tokens.get(i + 1) else {
            continue;
        };
        if !name.text.chars().all(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        // the body is the first `{` before any `;` (a declaration has none)
        let Some(open) = tokens[i + 2..]
            .iter()
            .position(|t| t.text == "{" || t.text == ";")
            .map(|p| p + i + 2)
        else {
            continue;
        };
        if tokens[open].text == ";" {
            continue;
        }
        let mut depth = 0;
        for close in &tokens[open..] {
            match close.text.as_str() {
                "{" => depth += 1,
                "}" => {
                    depth -= 1;
                    if depth == 0 {
                        out.push((name.text.clone(), t.line, close.line));
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

// --- the checks --------------------------------------------------------------

/// A crate's source files below `src`, each by its path below `src/`
/// (`/` separators), with its text; `skip` leaves files out (the path below
/// `src/` given).
pub fn read_crate(src: &Path, skip: impl Fn(&str) -> bool) -> Crate {
    let mut files = BTreeMap::new();
    for path in rust_files(src) {
        let name = below(src, &path);
        if skip(&name) {
            continue;
        }
        files.insert(name, fs::read_to_string(&path).unwrap_or_default());
    }
    Crate::new(files)
}

/// `path` below `src`, with `/` separators.
pub fn below(src: &Path, path: &Path) -> String {
    path.strip_prefix(src)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The layer of a top-level module in `layers`, if the table places it.
pub fn layer_of(layers: &[&[&str]], module: &str) -> Option<usize> {
    layers.iter().position(|layer| layer.contains(&module))
}

/// The top-level module of a file (`lib.rs` has none).
pub fn top_module(file: &str) -> Option<String> {
    file_module(file).first().cloned()
}

/// The modules a crate root declares with `mod NAME;`.
pub fn declared_modules(root_text: &str) -> Vec<String> {
    let tokens = tokens(root_text);
    let mut declared = Vec::new();
    for triple in tokens.windows(3) {
        if triple[0].text == "mod" && triple[2].text == ";" {
            declared.push(triple[1].text.clone());
        }
    }
    declared
}

/// The modules a crate root declares that `layers` does not place, and
/// those `layers` places that the root does not declare.
pub fn unplaced_modules(root_text: &str, layers: &[&[&str]]) -> Vec<String> {
    let declared = declared_modules(root_text);
    let mut found: Vec<String> = declared
        .iter()
        .filter(|m| layer_of(layers, m).is_none())
        .map(|m| format!("module {m} is on no layer: place it in LAYERS"))
        .collect();
    for placed in layers.iter().flat_map(|l| l.iter()) {
        if !declared.iter().any(|d| d == placed) {
            found.push(format!(
                "LAYERS names {placed}, which the crate does not declare"
            ));
        }
    }
    found
}

/// Every use of a module of the same or a higher layer, shown as
/// `PREFIX/FILE:LINE`.
pub fn layer_violations(krate: &Crate, layers: &[&[&str]], prefix: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (file, uses) in krate.file_graph() {
        let Some(from) = top_module(&file) else {
            continue;
        };
        for (target, line) in uses {
            let Some(to) = top_module(&target) else {
                continue;
            };
            if from == to {
                continue;
            }
            match (layer_of(layers, &from), layer_of(layers, &to)) {
                (Some(a), Some(b)) if b < a => {}
                (Some(a), Some(b)) => found.push(format!(
                    "{prefix}/{file}:{line}: {from} (layer {a}) uses {to} (layer {b})"
                )),
                _ => found.push(format!(
                    "{prefix}/{file}:{line}: {from} or {to} is on no layer"
                )),
            }
        }
    }
    found
}

/// Every cycle between the files of `krate`, each use shown.
pub fn cycle_report(krate: &Crate) -> Vec<String> {
    let graph = krate.file_graph();
    cycles(&graph)
        .iter()
        .map(|c| show_cycle(&graph, c))
        .collect()
}

/// The files below `src` over `max_lines` lines, shown as `PREFIX/FILE`.
pub fn long_files(src: &Path, prefix: &str, max_lines: usize) -> Vec<String> {
    let mut found = Vec::new();
    for path in rust_files(src) {
        let lines = fs::read_to_string(&path)
            .unwrap_or_default()
            .lines()
            .count();
        if lines > max_lines {
            found.push(format!("{prefix}/{}: {lines} lines", below(src, &path)));
        }
    }
    found
}

/// The functions below `src` over `max_lines` lines, but those listed in
/// `allowed` as (file, function, reason); and each allowed function that
/// is no longer over the limit.
pub fn long_functions(
    src: &Path,
    prefix: &str,
    max_lines: usize,
    allowed: &[(&str, &str, &str)],
) -> Vec<String> {
    let mut found = Vec::new();
    let mut allowed_seen = BTreeSet::new();
    for path in rust_files(src) {
        let file = below(src, &path);
        let text = fs::read_to_string(&path).unwrap_or_default();
        for (name, first, last) in functions(&text) {
            let lines = last - first + 1;
            if lines <= max_lines {
                continue;
            }
            if allowed.iter().any(|(f, n, _)| *f == file && *n == name) {
                allowed_seen.insert((file.clone(), name));
                continue;
            }
            found.push(format!("{prefix}/{file}:{first}: fn {name}, {lines} lines"));
        }
    }
    for (file, name, _) in allowed {
        if !allowed_seen.contains(&(file.to_string(), name.to_string())) {
            found.push(format!(
                "{file}::{name} is allowed to be long but is no longer over the limit: remove it"
            ));
        }
    }
    found
}
