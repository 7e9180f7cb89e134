//! Marking quality (docs/marking-quality.md), our extensions: flags to a lead
//! marker and the lead's answers (docs/odata.md, "Extensions").

mod collection_only;
mod flag_answers;
mod flags;

use crate::feeds::handler::Feature;

pub use flag_answers::FLAG_ANSWERS;
pub use flags::FLAGS;

pub static FEATURE: Feature = Feature {
    feeds: &[&flags::FEED, &flag_answers::FEED],
    actions: &[],
    complex_types: &[],
};
