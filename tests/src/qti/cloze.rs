//! Moodle cloze questions written by a third-party library (moocloze), and what
//! each was made from (`tests/fixtures/qti/make_cloze.py`).

use super::{written_by, Qti12};

/// moocloze's Moodle XML/Cloze bank and its source.
pub fn moodle_cloze() -> Qti12 {
    written_by("make_cloze.py", "cloze.xml", "cloze.json")
}
