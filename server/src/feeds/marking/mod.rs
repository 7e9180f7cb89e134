//! Marking quality (docs/marking-quality.md), our extensions: flags to a lead
//! marker and the lead's answers; double-blind second marking's plans, markings,
//! their scores and the queue of tasks waiting for one (docs/odata.md,
//! "Extensions").

mod agreement;
mod collection_only;
mod double_marking;
mod flag_answers;
mod flags;
mod marking_plans;
mod marking_scores;
mod markings;
mod queue;

use crate::feeds::handler::Feature;

pub use double_marking::{keep_first_marking_if_chosen, refuse_while_waiting};
pub use flag_answers::FLAG_ANSWERS;
pub use flags::FLAGS;
pub use marking_plans::MARKING_PLANS;
pub use marking_scores::MARKING_SCORES;
pub use markings::MARKINGS;
pub use queue::SECOND_MARKING_QUEUE;

pub static FEATURE: Feature = Feature {
    feeds: &[
        &flags::FEED,
        &flag_answers::FEED,
        &marking_plans::FEED,
        &markings::FEED,
        &marking_scores::FEED,
        &queue::FEED,
    ],
    actions: agreement::ACTIONS,
    complex_types: agreement::COMPLEX_TYPES,
};
