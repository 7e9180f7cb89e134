//! External delivery (spec, "External delivery"): snapshots and their data, print
//! batches, attempts and answer uploads. Reads are the generic read layer's.

mod attempts;
mod batches;
mod fields;
mod sets;
mod snapshots;
mod uploads;

use crate::feeds::handler::{Feature, Feed};

pub use attempts::ATTEMPTS;
pub use batches::PRINT_BATCHES;
pub use sets::ASSESSMENT_SNAPSHOT_DATA;
pub use snapshots::ASSESSMENT_SNAPSHOTS;
pub use uploads::ANSWER_UPLOADS;

pub static FEATURE: Feature = Feature {
    feeds: &[
        &uploads::FEED,
        &Feed::read_only(&ASSESSMENT_SNAPSHOT_DATA),
        &snapshots::FEED,
        &attempts::FEED,
        &batches::FEED,
    ],
    actions: &[],
    complex_types: &[],
};
