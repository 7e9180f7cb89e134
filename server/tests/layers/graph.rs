//! The module graph of one crate, read from its sources: which file names which
//! module (`crate::`, `super::`, a child), test code left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One source file: its module path (`odata::filter::literal`) and its code with test
/// code removed.
pub struct Source {
    pub module: Vec<String>,
    pub file: PathBuf,
    pub code: String,
}

pub fn sources(root: &Path) -> Vec<Source> {
    let mut files = Vec::new();
    collect(root, &mut files);
    let test_only = test_only_modules(&files, root);
    files
        .into_iter()
        .filter_map(|file| {
            let module = module_of(root, &file);
            if test_only.contains(&module) {
                return None;
            }
            let code = without_tests(&std::fs::read_to_string(&file).unwrap());
            Some(Source { module, file, code })
        })
        .collect()
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Modules declared as `#[cfg(test)] mod name;`: test code in a file of its own.
fn test_only_modules(files: &[PathBuf], root: &Path) -> BTreeSet<Vec<String>> {
    let mut modules = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for pair in lines.windows(2) {
            if pair[0].trim() == "#[cfg(test)]" {
                let declaration = pair[1].trim().trim_start_matches("pub(crate) ");
                if let Some(name) = declaration
                    .strip_prefix("mod ")
                    .and_then(|rest| rest.strip_suffix(';'))
                {
                    let mut module = module_of(root, file);
                    module.push(name.to_owned());
                    modules.insert(module);
                }
            }
        }
    }
    modules
}

/// The code without `#[cfg(test)]` items (a module block, or a one-line item).
pub fn without_tests(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let Some(item) = lines.next() else { break };
        if !item.trim_end().ends_with('{') {
            continue;
        }
        let mut depth = item.matches('{').count() as i64 - item.matches('}').count() as i64;
        while depth > 0 {
            let Some(inner) = lines.next() else { break };
            depth += inner.matches('{').count() as i64 - inner.matches('}').count() as i64;
        }
    }
    out
}

/// The code without comments and string literals' contents, for looking at paths.
pub fn code_only(code: &str) -> String {
    code.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path a file names that starts with `crate::`, `super::` or a child module,
/// resolved to the module it points into, leaving out `pub use` re-exports and `mod`
/// declarations (a module's interface, not a dependency of its code).
pub fn references(source: &Source, modules: &BTreeSet<Vec<String>>) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    let code = code_only(&source.code);
    let is_dir_module = source
        .file
        .file_name()
        .is_some_and(|n| n == "mod.rs" || n == "lib.rs");
    let here: Vec<String> = source.module.clone();
    // `super::` is relative to the module's parent: for a file `a/b.rs` (module a::b)
    // that is `a`; for `a/b/mod.rs` (module a::b) it is also `a`.
    let parent: Vec<String> = here[..here.len().saturating_sub(1)].to_vec();
    for statement in code.split(';') {
        let trimmed = statement.trim_start();
        if trimmed.starts_with("pub use")
            || trimmed.starts_with("mod ")
            || trimmed.starts_with("pub mod ")
            || trimmed.starts_with("pub(crate) mod ")
        {
            continue;
        }
        // A module's own children are named without a prefix: `lexer::lex`.
        let children: Vec<(String, Vec<String>)> = modules
            .iter()
            .filter(|m| m.len() == here.len() + 1 && m.starts_with(&here))
            .map(|m| (format!("{}::", m.last().unwrap()), here.clone()))
            .collect();
        let mut starts: Vec<(String, Vec<String>)> = vec![
            ("crate::".to_owned(), Vec::new()),
            ("super::".to_owned(), parent.clone()),
        ];
        starts.extend(children);
        for (start, base) in &starts {
            let (start, base) = (start.as_str(), base.clone());
            let mut rest = statement;
            while let Some(at) = rest.find(start) {
                let before = rest[..at].chars().last();
                rest = &rest[at + start.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let path: Vec<String> = rest
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .next()
                    .unwrap_or_default()
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect();
                // A braced list: `crate::odata::{a, b}` names each.
                let mut targets = vec![path.clone()];
                let after_path = if path.is_empty() {
                    rest
                } else {
                    &rest[path.join("::").len()..]
                };
                let list = after_path
                    .strip_prefix("::{")
                    .or_else(|| after_path.strip_prefix('{').filter(|_| path.is_empty()));
                if let Some(inner) = list {
                    let inner = &inner[..inner.find('}').unwrap_or(inner.len())];
                    targets = inner
                        .split(',')
                        .map(|item| {
                            let mut p = path.clone();
                            p.extend(
                                item.trim()
                                    .split("::")
                                    .filter(|s| !s.is_empty())
                                    .map(str::to_owned),
                            );
                            p
                        })
                        .collect();
                }
                for target in targets {
                    let mut full = base.clone();
                    if start != "crate::" && start != "super::" {
                        full.push(start.trim_end_matches("::").to_owned());
                    }
                    full.extend(target);
                    if let Some(module) = longest_module(&full, modules) {
                        found.insert(module);
                    } else if full.len() == 1 {
                        found.insert(full);
                    }
                }
            }
        }
    }
    let _ = is_dir_module;
    found.remove(&here);
    found
}

fn longest_module(path: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|prefix| modules.contains(prefix))
}

/// Every reference against `drawing` (which top-level module may use which); the
/// root (`lib.rs`, `main.rs`) composes everything.
pub fn against_drawing(sources: &[Source], drawing: &[(&str, &[&str])]) -> Vec<String> {
    let modules: BTreeSet<Vec<String>> = sources.iter().map(|s| s.module.clone()).collect();
    let allowed: BTreeMap<&str, &[&str]> = drawing.iter().copied().collect();
    let mut wrong = Vec::new();
    for source in sources {
        let Some(top) = source.module.first() else {
            continue;
        };
        if top == "main" {
            continue;
        }
        let Some(may) = allowed.get(top.as_str()) else {
            wrong.push(format!(
                "{top} is not in the drawing: add it and docs/architecture.md"
            ));
            continue;
        };
        for reference in references(source, &modules) {
            let target = &reference[0];
            if target != top && !may.contains(&target.as_str()) {
                wrong.push(format!(
                    "{} uses {}",
                    source.file.display(),
                    reference.join("::")
                ));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    wrong
}

/// Every group of files that depend on each other, even through others.
pub fn cycles(sources: &[Source]) -> Vec<String> {
    let modules: BTreeSet<Vec<String>> = sources.iter().map(|s| s.module.clone()).collect();
    let edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = sources
        .iter()
        .map(|s| (s.module.clone(), references(s, &modules)))
        .collect();
    // Tarjan's strongly connected components: each group of more than one file is
    // a cycle.
    struct Tarjan<'e> {
        edges: &'e BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<Vec<String>, usize>,
        low: BTreeMap<Vec<String>, usize>,
        stack: Vec<Vec<String>>,
        on_stack: BTreeSet<Vec<String>>,
        groups: Vec<Vec<Vec<String>>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, node: &Vec<String>) {
            let n = self.index.len();
            self.index.insert(node.clone(), n);
            self.low.insert(node.clone(), n);
            self.stack.push(node.clone());
            self.on_stack.insert(node.clone());
            for next in self.edges.get(node).into_iter().flatten() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node.clone(), low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node.clone(), low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut group = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(&member);
                    let done = &member == node;
                    group.push(member);
                    if done {
                        break;
                    }
                }
                if group.len() > 1 {
                    self.groups.push(group);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        edges: &edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for node in edges.keys().filter(|m| !m.is_empty()) {
        if !tarjan.index.contains_key(node) {
            tarjan.visit(node);
        }
    }
    tarjan
        .groups
        .iter()
        .map(|group| {
            group
                .iter()
                .map(|m| m.join("::"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect()
}
