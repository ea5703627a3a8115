//! The shape of `src/`: the layers of the crate, no cycle between files, and
//! files and functions a reader can hold.
//!
//! **Layers.** Every top-level module of the library sits on a layer of
//! [`LAYERS`], and may use only modules on lower layers: the rules (`core`,
//! `rules`, both engines) know nothing of the tools built on them, the views
//! (`explain`, `render`) nothing of the files and protocols that carry them,
//! and the checker nothing of the page. A module missing from the table fails
//! the test, so a new module must be placed. The binary (`src/main.rs`,
//! `src/cli/`) sits above everything and reaches the library only through
//! `hive_oracle::`.
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
//! The test reads the source as text with a small lexer that skips comments,
//! strings and character literals, so a path in a comment or a message is not
//! a use.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers of the library, lowest first. A module may use only modules of
/// lower layers (never one of its own layer).
const LAYERS: &[&[&str]] = &[
    // the shared vocabulary: hexes, pieces, game types, moves, notation
    &["core"],
    // the spec's clause titles; the engine trait and what is written once on it
    &["clauses", "rules"],
    // the two engines
    &["reference", "fast"],
    // built on the engines: engine agreement, the case corpus, pictures, search
    &["agreement", "cases", "render", "search"],
    // why a move is legal or illegal
    &["explain"],
    // game records: readers, writer, replay
    &["records"],
    // what game a user gave: GameString, game type, record file and ply
    // and the files the tool writes, checked at the start and replaced whole
    &["input", "output_file"],
    // the UHP engine session
    &["uhp"],
    // test support: our own engine made wrong on purpose (feature `faults`)
    &["faults"],
    // checking another UHP engine
    &["check"],
    // the fuzz targets' properties; the web page's bindings
    &["fuzzing", "web"],
];

/// The longest file of `src/`, in lines.
const MAX_FILE_LINES: usize = 600;
/// The longest function, in lines from `fn` to its closing brace.
const MAX_FUNCTION_LINES: usize = 100;
/// Functions allowed to be longer, as (file, function, reason).
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file below `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
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

/// A file of `src/` by its path below `src/`, with `/` separators.
fn shown(path: &Path) -> String {
    path.strip_prefix(root().join("src"))
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

// --- a lexer that keeps code and drops comments, strings and chars ---------

/// A token of code: an identifier or one punctuation character, with its
/// 1-based line. `::` is kept as two `:` tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Token {
    text: String,
    line: usize,
}

/// The tokens of a Rust source text, without comments, string literals,
/// character literals, lifetimes and numbers.
fn tokens(text: &str) -> Vec<Token> {
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
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
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
fn char_or_lifetime_end(chars: &[char], i: usize) -> usize {
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
type ModulePath = Vec<String>;

/// The module a file is, from the crate root (`src/lib.rs` and
/// `src/main.rs` are the root; `a/mod.rs` is `a`).
fn file_module(relative: &str) -> ModulePath {
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
fn named_paths(
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
fn is_path_sep(tokens: &[Token], i: usize) -> bool {
    tokens.get(i).is_some_and(|t| t.text == ":") && tokens.get(i + 1).is_some_and(|t| t.text == ":")
}

/// Reads a path or a use tree from token `i`: the full paths it names (a
/// `{…}` group names each of its trees) and the index after it.
fn use_tree(tokens: &[Token], mut i: usize, prefix: Vec<String>) -> (Vec<Vec<String>>, usize) {
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
fn resolve(here: &ModulePath, path: &[String]) -> Option<ModulePath> {
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
struct Crate {
    /// The files, by their path below `src/`, with their text.
    files: BTreeMap<String, String>,
    /// The file that is each module.
    modules: BTreeMap<ModulePath, String>,
}

impl Crate {
    fn new(files: BTreeMap<String, String>) -> Crate {
        let modules = files.keys().map(|f| (file_module(f), f.clone())).collect();
        Crate { files, modules }
    }

    /// The file a module path lands in: the longest prefix that is a file.
    fn file_of(&self, path: &ModulePath) -> Option<&String> {
        (0..=path.len())
            .rev()
            .find_map(|n| self.modules.get(&path[..n]))
    }

    /// The uses between files: for each file, the files it names, each with
    /// the first line naming it.
    fn file_graph(&self) -> BTreeMap<String, BTreeMap<String, usize>> {
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

/// The library's files (everything below `src/` but the binary's).
fn library() -> Crate {
    let mut files = BTreeMap::new();
    for path in rust_files(&root().join("src")) {
        let name = shown(&path);
        if name == "main.rs" || name.starts_with("cli/") {
            continue;
        }
        files.insert(name, fs::read_to_string(&path).unwrap_or_default());
    }
    Crate::new(files)
}

/// The binary's files (`src/main.rs` and `src/cli/`).
fn binary() -> Crate {
    let mut files = BTreeMap::new();
    for path in rust_files(&root().join("src")) {
        let name = shown(&path);
        if name == "main.rs" || name.starts_with("cli/") {
            files.insert(name, fs::read_to_string(&path).unwrap_or_default());
        }
    }
    Crate::new(files)
}

/// The layer of a top-level module, if the table places it.
fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The top-level module of a file of the library (`lib.rs` has none).
fn top_module(file: &str) -> Option<String> {
    file_module(file).first().cloned()
}

/// The cycles of a graph: its strongly connected components of more than one
/// node (Tarjan's algorithm), each sorted.
fn cycles(graph: &BTreeMap<String, BTreeMap<String, usize>>) -> Vec<Vec<String>> {
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
fn show_cycle(graph: &BTreeMap<String, BTreeMap<String, usize>>, cycle: &[String]) -> String {
    let members: BTreeSet<&String> = cycle.iter().collect();
    let mut lines = Vec::new();
    for file in cycle {
        for (target, line) in &graph[file] {
            if members.contains(target) {
                lines.push(format!("  src/{file}:{line} uses src/{target}"));
            }
        }
    }
    lines.join("\n")
}

// --- the tests -----------------------------------------------------------------

#[test]
fn every_module_of_the_library_is_on_a_layer() {
    let lib = fs::read_to_string(root().join("src/lib.rs")).unwrap_or_default();
    let mut declared = Vec::new();
    let tokens = tokens(&lib);
    for pair in tokens.windows(3) {
        if pair[0].text == "mod" && pair[2].text == ";" {
            declared.push(pair[1].text.clone());
        }
    }
    assert!(
        declared.len() >= 10,
        "lib.rs declares modules: {declared:?}"
    );
    let missing: Vec<&String> = declared.iter().filter(|m| layer_of(m).is_none()).collect();
    assert!(
        missing.is_empty(),
        "modules on no layer of tests/boundaries.rs: {missing:?}; place each in LAYERS"
    );
    let placed: BTreeSet<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    let stale: Vec<&&str> = placed
        .iter()
        .filter(|m| !declared.iter().any(|d| d == *m))
        .collect();
    assert!(
        stale.is_empty(),
        "LAYERS names modules lib.rs does not declare: {stale:?}"
    );
}

#[test]
fn every_module_uses_only_lower_layers() {
    let lib = library();
    let mut found = Vec::new();
    for (file, uses) in lib.file_graph() {
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
            match (layer_of(&from), layer_of(&to)) {
                (Some(a), Some(b)) if b < a => {}
                (Some(a), Some(b)) => found.push(format!(
                    "src/{file}:{line}: {from} (layer {a}) uses {to} (layer {b})"
                )),
                _ => found.push(format!("src/{file}:{line}: {from} or {to} is on no layer")),
            }
        }
    }
    assert!(
        found.is_empty(),
        "uses of a module on the same or a higher layer:\n{}",
        found.join("\n")
    );
}

/// Fails with every cycle between the files of `krate`, each use shown.
fn assert_no_cycle(krate: &Crate) {
    let graph = krate.file_graph();
    let found = cycles(&graph);
    let shown: Vec<String> = found.iter().map(|c| show_cycle(&graph, c)).collect();
    assert!(
        found.is_empty(),
        "cycles between files:\n{}",
        shown.join("\n\n")
    );
}

#[test]
fn no_cycle_between_files_of_the_library() {
    assert_no_cycle(&library());
}

#[test]
fn no_cycle_between_files_of_the_binary() {
    assert_no_cycle(&binary());
}

#[test]
fn the_binary_reaches_the_library_only_by_its_name() {
    // `crate::` in the binary is the binary itself; a library module path
    // there would be a second copy of the library compiled into it
    // (`#[path]` or `mod` of a library file).
    let mut found = Vec::new();
    for (file, text) in &binary().files {
        for pair in tokens(text).windows(2) {
            if pair[0].text == "path" && pair[1].text == "=" {
                found.push(format!("src/{file}:{}: #[path]", pair[0].line));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

// --- sizes -------------------------------------------------------------------

/// The functions of a source text that have a body: (name, first line, last
/// line).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
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

#[test]
fn no_file_of_src_is_over_the_limit() {
    let mut found = Vec::new();
    for path in rust_files(&root().join("src")) {
        let lines = fs::read_to_string(&path)
            .unwrap_or_default()
            .lines()
            .count();
        if lines > MAX_FILE_LINES {
            found.push(format!("src/{}: {lines} lines", shown(&path)));
        }
    }
    assert!(
        found.is_empty(),
        "files over {MAX_FILE_LINES} lines (split them by concept):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_function_of_src_is_over_the_limit() {
    let mut found = Vec::new();
    let mut excepted_seen = BTreeSet::new();
    for path in rust_files(&root().join("src")) {
        let file = shown(&path);
        let text = fs::read_to_string(&path).unwrap_or_default();
        for (name, first, last) in functions(&text) {
            let lines = last - first + 1;
            if lines <= MAX_FUNCTION_LINES {
                continue;
            }
            if LONG_FUNCTIONS
                .iter()
                .any(|(f, n, _)| *f == file && *n == name)
            {
                excepted_seen.insert((file.clone(), name));
                continue;
            }
            found.push(format!("src/{file}:{first}: fn {name}, {lines} lines"));
        }
    }
    assert!(
        found.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines:\n{}",
        found.join("\n")
    );
    for (file, name, _) in LONG_FUNCTIONS {
        assert!(
            excepted_seen.contains(&(file.to_string(), name.to_string())),
            "LONG_FUNCTIONS lists {file}::{name}, which is no longer over the limit: remove it"
        );
    }
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
