//! Moodle cloze questions written by a third-party library (moocloze), and what
//! each was made from (`tests/fixtures/qti/make_cloze.py`).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::{tool, Qti12};

/// moocloze's Moodle XML/Cloze bank and its source.
pub fn moodle_cloze() -> Qti12 {
    let dir = tempfile::tempdir().expect("the cloze fixture");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/qti/make_cloze.py");
    let status = Command::new(tool("SCOREDESK_QTI_PYTHON"))
        .arg(&script)
        .arg(dir.path())
        .status()
        .expect("the cloze fixture");
    assert!(status.success(), "moocloze wrote the bank");
    Qti12 {
        bytes: std::fs::read(dir.path().join("cloze.xml")).expect("the cloze fixture"),
        source: serde_json::from_slice::<Value>(
            &std::fs::read(dir.path().join("cloze.json")).expect("the cloze fixture"),
        )
        .expect("the cloze fixture")
        .as_array()
        .expect("the cloze fixture")
        .clone(),
    }
}
