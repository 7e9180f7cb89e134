//! Results (spec, "Results feed"): results and their status changes, their topic
//! scores, the audit log of the actions on them, and those actions (purges,
//! replays, the retention period).

mod actions;
mod export;
mod progress;
mod purges;
mod replay;
mod results_feed;
mod sets;
mod statistics;

use crate::feeds::handler::{Feature, Feed};

pub use results_feed::RESULTS;
pub use sets::{ITEM_STATISTICS, RESULTS_AUDIT_LOG, TOPIC_SCORES};

pub static FEATURE: Feature = Feature {
    feeds: &[
        &results_feed::FEED,
        &Feed::read_only(&RESULTS_AUDIT_LOG),
        &Feed::read_only(&TOPIC_SCORES),
        &Feed::read_only(&ITEM_STATISTICS),
    ],
    actions: actions::ACTIONS,
    complex_types: actions::COMPLEX_TYPES,
};
