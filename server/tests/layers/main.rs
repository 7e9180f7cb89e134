//! The layers of every crate of the workspace, checked on the sources: which
//! folder may use which (the drawings of docs/architecture.md), no cycle between
//! files in any crate, no SQL built outside the server's `store/`, no long files,
//! and the UI's desks kept apart. Test code (`#[cfg(test)]`) is left out: tests
//! may reach across.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod graph;
mod ui;

use std::path::{Path, PathBuf};

use graph::{against_drawing, code_only, cycles, sources, without_tests};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every crate's sources.
const CRATES: &[&str] = &[
    "server/src",
    "qti/src",
    "sheets/src",
    "src-tauri/src",
    "soak/src",
    "bench/src",
    "tests/src",
    "tests/paper/src",
    "tests/fuzz-harness/src",
];

/// Which top-level module of the server may use which (the root, `lib.rs`,
/// composes them all).
const SERVER: &[(&str, &[&str])] = &[
    ("model", &[]),
    // Text in the XML the server writes (Atom, snapshot documents).
    ("xml", &[]),
    ("documents", &["model", "xml"]),
    ("odata", &["xml"]),
    ("config", &[]),
    ("serve", &[]),
    ("telemetry", &["config"]),
    ("auth", &["model"]),
    ("store", &["model", "odata"]),
    ("seed", &["auth", "model", "store"]),
    // Bringing a customer's content in: packages read, planned, stored.
    ("import", &["documents", "model", "store"]),
    // Taking results out: the report read, analysed, written (docs/exports.md).
    ("export", &["documents", "model", "store"]),
    // An answer upload checked and stored: the feed's and `sheets scan`'s.
    ("uploads", &["documents", "model", "store"]),
    // The durable queue's runner: purges and replays (docs/purges.md).
    ("jobs", &["config", "model", "store"]),
    (
        "feeds",
        &[
            "auth",
            "config",
            "documents",
            "export",
            "import",
            "model",
            "odata",
            "store",
            "telemetry",
            "uploads",
        ],
    ),
    (
        "cli",
        &[
            "auth",
            "config",
            "documents",
            "export",
            "import",
            "model",
            "seed",
            "store",
            "telemetry",
            "uploads",
            "App",
        ],
    ),
];

/// The desktop's: the desks (scoring, delivery, content, people, marking) never use each other;
/// what they share is below them.
const DESKTOP: &[(&str, &[&str])] = &[
    ("error", &[]),
    ("private_file", &[]),
    ("rendering", &[]),
    // The system's file dialogs, as every desk asks for them.
    ("file_dialog", &[]),
    ("startup", &[]),
    ("literals", &["error"]),
    // The ScoringTasks filters every desk counts by.
    ("task_filters", &[]),
    ("client", &["error"]),
    // What a marker reads of a task: the scoring view's and second marking's.
    ("reading", &["client", "error"]),
    ("embedded", &["private_file"]),
    ("drafts", &["error", "private_file"]),
    ("saved_connection", &["private_file"]),
    (
        "state",
        &[
            "client",
            "embedded",
            "error",
            "reading",
            "saved_connection",
            "task_filters",
        ],
    ),
    (
        "scoring",
        &["client", "error", "literals", "reading", "task_filters"],
    ),
    // Print windows of server pages, shared by the delivery and people desks.
    ("print", &["client", "error", "literals", "state"]),
    (
        "delivery",
        &[
            "client",
            "error",
            "file_dialog",
            "literals",
            "print",
            "state",
            "task_filters",
        ],
    ),
    (
        "content",
        &["client", "error", "file_dialog", "literals", "state"],
    ),
    (
        "people",
        &[
            "client",
            "error",
            "file_dialog",
            "literals",
            "print",
            "state",
        ],
    ),
    // Flags to the lead marker (raised from the scoring view, answered on its desk)
    // and second marking, which reads a task as the scoring view does.
    (
        "marking",
        &["client", "error", "literals", "reading", "state"],
    ),
    (
        "commands",
        &[
            "client",
            "drafts",
            "error",
            "reading",
            "saved_connection",
            "scoring",
            "startup",
            "state",
        ],
    ),
    ("navigation", &["print"]),
];

#[test]
fn every_server_folder_uses_only_the_folders_the_drawing_allows() {
    let wrong = against_drawing(&sources(&workspace().join("server/src")), SERVER);
    assert!(
        wrong.is_empty(),
        "against the drawing:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_desktop_folder_uses_only_the_folders_the_drawing_allows() {
    let wrong = against_drawing(&sources(&workspace().join("src-tauri/src")), DESKTOP);
    assert!(
        wrong.is_empty(),
        "against the drawing:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_two_files_of_any_crate_depend_on_each_other_even_through_others() {
    let mut found = Vec::new();
    for root in CRATES {
        for cycle in cycles(&sources(&workspace().join(root))) {
            found.push(format!("{root}: {cycle}"));
        }
    }
    assert!(
        found.is_empty(),
        "files that depend on each other:\n{}",
        found.join("\n")
    );
}

/// The checks themselves: a crate of two files that use each other, the lower of
/// which so reaches above its layer, is caught by both.
#[test]
fn a_cycle_and_an_upward_use_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(src.join("lib.rs"), "mod low;\nmod high;\n").unwrap();
    std::fs::write(
        src.join("low.rs"),
        "use crate::high::Thing;\npub struct Base;\n",
    )
    .unwrap();
    std::fs::write(
        src.join("high.rs"),
        "use crate::low::Base;\npub struct Thing;\n",
    )
    .unwrap();
    let found = sources(src);
    assert_eq!(cycles(&found).len(), 1, "one cycle: low and high");
    let wrong = against_drawing(&found, &[("low", &[]), ("high", &["low"])]);
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(wrong[0].contains("low.rs uses high"), "{wrong:?}");
}

#[test]
fn no_sql_is_built_outside_the_store() {
    let sql_words = [
        "SELECT ",
        "INSERT INTO",
        "UPDATE ",
        "DELETE FROM",
        "sea_query",
        "sqlx::query",
    ];
    let mut wrong = Vec::new();
    for source in sources(&workspace().join("server/src")) {
        if source.module.first().is_some_and(|top| top == "store") {
            continue;
        }
        let code = code_only(&source.code);
        for word in sql_words {
            if code.contains(word) {
                wrong.push(format!("{} has {word}", source.file.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "SQL outside store/:\n{}",
        wrong.join("\n")
    );
}

/// The longest a source file may be: a Rust file once its tests are left out, in
/// any crate, and a UI file (component or module) whole.
const LONGEST: usize = 400;

/// No source file longer than [`LONGEST`] lines.
#[test]
fn no_source_file_is_long() {
    let mut long = Vec::new();
    for root in CRATES {
        let mut files = Vec::new();
        collect_any(&workspace().join(root), &mut files);
        for file in files {
            let code = without_tests(&std::fs::read_to_string(&file).unwrap());
            let lines = code.lines().count();
            if lines > LONGEST {
                long.push(format!(
                    "{} has {lines} lines besides its tests",
                    file.display()
                ));
            }
        }
    }
    let mut files = Vec::new();
    collect_any(&workspace().join("ui/src"), &mut files);
    for file in files {
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        if lines > LONGEST {
            long.push(format!("{} has {lines} lines", file.display()));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

fn collect_any(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.ends_with("bindings") {
                continue;
            }
            collect_any(&path, files);
        } else if path
            .extension()
            .is_some_and(|e| e == "rs" || e == "ts" || e == "svelte")
        {
            files.push(path);
        }
    }
}
