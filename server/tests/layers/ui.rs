//! The UI's layers: `lib/` (what runs without a window) imports only `lib/`; each
//! desk (`desks/<desk>/`: its components and its state) imports its own desk,
//! `desks/shared/` and `lib/`, never another desk's; `shared/` imports only
//! `shared/` and `lib/`. The root (`App.svelte`, `main.ts`) composes the desks: one
//! desk shown inside another (the results in delivery) is handed to it by the root.

use std::path::{Component, Path, PathBuf};

use super::workspace;

/// Where a UI file sits: `lib`, `desks/<desk>`, or the root.
fn area(relative: &Path) -> String {
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [first, ..] if first == "lib" => "lib".to_owned(),
        [first, desk, _, ..] if first == "desks" => format!("desks/{desk}"),
        [first, _] if first == "desks" => "desks".to_owned(),
        _ => "root".to_owned(),
    }
}

fn may_import(from: &str, to: &str) -> bool {
    from == "root"
        || to == "lib"
        || from == to
        || (to == "desks/shared" && from.starts_with("desks/"))
}

/// Every relative import of a Svelte or TypeScript file, resolved under `src`.
fn imports(src: &Path, file: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut found = Vec::new();
    for quote in ['"', '\''] {
        for marker in [format!("from {quote}"), format!("import {quote}")] {
            let mut rest = text.as_str();
            while let Some(at) = rest.find(&marker) {
                rest = &rest[at + marker.len()..];
                let Some(end) = rest.find(quote) else { break };
                let spec = &rest[..end];
                if spec.starts_with('.') {
                    found.push(normalise(&file.parent().unwrap().join(spec), src));
                }
            }
        }
    }
    found
}

/// `a/b/../c` as `a/c`, relative to `src`.
fn normalise(path: &Path, src: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.strip_prefix(src).unwrap_or(path).components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn ui_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if !path.ends_with("bindings") {
                ui_files(&path, files);
            }
        } else if path.extension().is_some_and(|e| e == "ts" || e == "svelte")
            && !path.to_string_lossy().ends_with(".test.ts")
        {
            files.push(path);
        }
    }
}

/// The wrong imports under `src`.
pub fn wrong_imports(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    ui_files(src, &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let from = area(file.strip_prefix(src).unwrap());
        for target in imports(src, &file) {
            let to = area(&target);
            if !may_import(&from, &to) {
                wrong.push(format!(
                    "{} imports {}",
                    file.strip_prefix(src).unwrap().display(),
                    target.display()
                ));
            }
        }
    }
    wrong
}

#[test]
fn a_desk_never_imports_another_desks_components() {
    let wrong = wrong_imports(&workspace().join("ui/src"));
    assert!(
        wrong.is_empty(),
        "against the UI's layers:\n{}",
        wrong.join("\n")
    );
}

/// The check itself: a scoring component importing the delivery desk's, and a
/// `lib/` module importing a component, are both caught.
#[test]
fn a_desk_reaching_into_another_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    for folder in ["lib", "desks/scoring", "desks/delivery"] {
        std::fs::create_dir_all(src.join(folder)).unwrap();
    }
    std::fs::write(
        src.join("desks/scoring/Screen.svelte"),
        "<script>\n  import View from \"../delivery/BatchView.svelte\";\n  import { api } from \"../../lib/api\";\n</script>\n",
    )
    .unwrap();
    std::fs::write(src.join("desks/delivery/BatchView.svelte"), "<p></p>\n").unwrap();
    std::fs::write(
        src.join("lib/api.ts"),
        "import Screen from '../desks/scoring/Screen.svelte';\nexport const api = 1;\n",
    )
    .unwrap();
    let mut wrong = wrong_imports(src);
    wrong.sort();
    assert_eq!(
        wrong,
        vec![
            "desks/scoring/Screen.svelte imports desks/delivery/BatchView.svelte",
            "lib/api.ts imports desks/scoring/Screen.svelte",
        ]
    );
}
