//! The map stays true: every import table in docs/ARCHITECTURE.md (a table after a
//! `<!-- layering: crates/X/src -->` line) must list exactly the imports the code
//! makes between the modules of that crate, and every module must have a row.
//!
//! An import is a `crate::m` path outside comments, in a `use` or inline, including
//! each name of a `use crate::{a::…, b::…}` group; `m` is a top-level module of the
//! crate (a file or folder under `src/`). A module importing what its row does not
//! allow fails here, and so does a row that allows what the code no longer imports.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The top-level modules of the crate at `src` and the files of each.
fn modules(src: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut out = BTreeMap::new();
    for entry in fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            let mut files = Vec::new();
            let mut todo = vec![path.clone()];
            while let Some(dir) = todo.pop() {
                for e in fs::read_dir(&dir).unwrap() {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        todo.push(p);
                    } else if p.extension().is_some_and(|x| x == "rs") {
                        files.push(p);
                    }
                }
            }
            out.insert(name, files);
        } else if path.extension().is_some_and(|x| x == "rs") && name != "lib" && name != "main" {
            out.insert(name, vec![path]);
        }
    }
    out
}

/// The text of a Rust file without its `//` comments (whole-line and trailing ones
/// outside string literals; good enough for paths, which never sit in strings).
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut in_str = false;
        let mut prev = ' ';
        let mut cut = line.len();
        for (i, c) in line.char_indices() {
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            }
            if !in_str && c == '/' && prev == '/' {
                cut = i - 1;
                break;
            }
            prev = c;
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

/// The module names `text` reaches through `crate::`.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let bytes = text.as_bytes();
    let ident = |from: usize| -> String {
        text[from..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut at = 0;
    while let Some(i) = text[at..].find("crate::") {
        let start = at + i;
        let before = start.checked_sub(1).map(|b| bytes[b]);
        at = start + "crate::".len();
        // `chuhan_engine::crate::` does not occur; a preceding identifier
        // character means another word (`$crate::` in macros is fine either way).
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
            continue;
        }
        if bytes.get(at) == Some(&b'{') {
            // The top-level names of the group.
            let mut depth = 0;
            let mut expect_name = true;
            let mut j = at;
            while j < bytes.len() {
                match bytes[j] {
                    b'{' => {
                        depth += 1;
                        expect_name = depth == 1;
                    }
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    b',' if depth == 1 => expect_name = true,
                    c if expect_name && depth == 1 && (c.is_ascii_alphabetic() || c == b'_') => {
                        found.insert(ident(j));
                        expect_name = false;
                    }
                    _ => {}
                }
                j += 1;
            }
            at = j;
        } else {
            found.insert(ident(at));
        }
    }
    found
}

/// What the code of the crate at `src` imports, module by module.
fn measured(src: &Path) -> Graph {
    let mods = modules(src);
    let mut graph = Graph::new();
    for (name, files) in &mods {
        let mut uses = BTreeSet::new();
        for f in files {
            for m in crate_paths(&code(&fs::read_to_string(f).unwrap())) {
                if &m != name && mods.contains_key(&m) {
                    uses.insert(m);
                }
            }
        }
        graph.insert(name.clone(), uses);
    }
    graph
}

/// The tables of docs/ARCHITECTURE.md: crate folder → the graph it states.
fn documented(doc: &str) -> BTreeMap<String, Graph> {
    let mut out = BTreeMap::new();
    let mut lines = doc.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(folder) = line
            .trim()
            .strip_prefix("<!-- layering: ")
            .and_then(|r| r.strip_suffix(" -->"))
        else {
            continue;
        };
        let mut graph = Graph::new();
        while lines.peek().is_some_and(|l| !l.starts_with('|')) {
            lines.next();
        }
        for row in lines.by_ref().take_while(|l| l.starts_with('|')).skip(2) {
            let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
            let list = |cell: &str| -> BTreeSet<String> {
                cell.split(',')
                    .map(|w| w.trim().trim_matches('`').to_string())
                    .filter(|w| !w.is_empty() && w != "nothing")
                    .collect()
            };
            for module in list(cells[0]) {
                graph.insert(module, list(cells[1]));
            }
        }
        out.insert(folder.to_string(), graph);
    }
    out
}

/// The table rows of `graph`, for a failure message.
fn rows(graph: &Graph) -> String {
    graph
        .iter()
        .map(|(m, uses)| {
            let list: Vec<&str> = uses.iter().map(String::as_str).collect();
            let list = if list.is_empty() {
                "nothing".to_string()
            } else {
                list.join(", ")
            };
            format!("| `{m}` | {list} |")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The differences between what the table says and what the code does.
fn differences(said: &Graph, real: &Graph) -> Vec<String> {
    let mut out = Vec::new();
    for (m, uses) in real {
        match said.get(m) {
            None => out.push(format!("module `{m}` has no row")),
            Some(allowed) => {
                for u in uses.difference(allowed) {
                    out.push(format!("`{m}` imports `{u}`, which its row does not allow"));
                }
                for u in allowed.difference(uses) {
                    out.push(format!(
                        "`{m}`'s row allows `{u}`, which it no longer imports"
                    ));
                }
            }
        }
    }
    for m in said.keys().filter(|m| !real.contains_key(*m)) {
        out.push(format!("the row of `{m}` names no module"));
    }
    out
}

#[test]
fn every_import_is_one_the_map_allows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    let tables = documented(&doc);
    let mut failures = Vec::new();
    for folder in ["crates/engine/src", "crates/arena/src", "crates/serve/src"] {
        let Some(said) = tables.get(folder) else {
            failures.push(format!("docs/ARCHITECTURE.md has no table for {folder}"));
            continue;
        };
        let real = measured(&root.join(folder));
        let diff = differences(said, &real);
        if !diff.is_empty() {
            failures.push(format!(
                "{folder}: the map and the code disagree:\n{}\nThe code's table:\n{}",
                diff.join("\n"),
                rows(&real)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_reader_finds_grouped_inline_and_commented_paths() {
    let text = "use crate::{core::{Move, Position}, rules::X};\n\
                fn f() { crate::search::go(); } // crate::book::x\n\
                /// [`crate::engine::Engine`]\n\
                let s = \"//\"; let t = crate::eval::e;";
    let found = crate_paths(&code(text));
    let want: BTreeSet<String> = ["core", "rules", "search", "eval"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, want);
}

#[test]
fn a_wrong_import_is_reported() {
    let said: Graph = [("core".to_string(), BTreeSet::new())].into();
    let real: Graph = [("core".to_string(), ["search".to_string()].into())].into();
    assert_eq!(
        differences(&said, &real),
        vec!["`core` imports `search`, which its row does not allow"]
    );
}
