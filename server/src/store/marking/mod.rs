//! Marking quality (docs/marking-quality.md): flags to a lead marker and their
//! answers.

mod flags;

pub use flags::{NewFlag, NewFlagAnswer, StoredFlag};
