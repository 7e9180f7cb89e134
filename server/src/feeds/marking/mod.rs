//! Marking quality (docs/marking-quality.md), our extensions: flags to a lead
//! marker and the lead's answers; double-blind second marking's plans, markings,
//! their scores and the queue of tasks waiting for one; seeds, their markings,
//! and the pauses they cause; answer groups marked at once; annotations on
//! the script; regrades after a rubric change (docs/odata.md, "Extensions").

mod agreement;
mod annotations;
mod answer_groups;
mod collection_only;
mod double_marking;
mod flag_answers;
mod flags;
mod marked_scripts;
mod marker_statistics;
mod marking_plans;
mod marking_scores;
mod markings;
mod pauses;
mod queue;
mod regrades;
mod seeding;
mod seeds;

use crate::feeds::handler::{Feature, ServedAction};
use crate::odata::model::ComplexType;

pub use annotations::ANNOTATIONS;
pub use answer_groups::{ANSWER_GROUP_MARKINGS, ANSWER_GROUP_MEMBERS};
pub use double_marking::{keep_first_marking_if_chosen, refuse_while_waiting};
pub use flag_answers::FLAG_ANSWERS;
pub use flags::FLAGS;
pub use marking_plans::MARKING_PLANS;
pub use marking_scores::MARKING_SCORES;
pub use markings::MARKINGS;
pub use pauses::{refuse_while_paused, MARKER_PAUSES, MARKER_RELEASES};
pub use queue::SECOND_MARKING_QUEUE;
pub use regrades::RUBRIC_REGRADES;
pub use seeding::{after_status, seed_copy_at};
pub use seeds::{SEEDS, SEED_MARKINGS};

pub static FEATURE: Feature = Feature {
    feeds: &[
        &flags::FEED,
        &flag_answers::FEED,
        &marking_plans::FEED,
        &markings::FEED,
        &marking_scores::FEED,
        &queue::FEED,
        &seeds::SEEDS_FEED,
        &seeds::SEED_MARKINGS_FEED,
        &pauses::PAUSES_FEED,
        &pauses::RELEASES_FEED,
        &answer_groups::MARKINGS_FEED,
        &answer_groups::MEMBERS_FEED,
        &annotations::FEED,
        &regrades::FEED,
    ],
    actions: ACTIONS,
    complex_types: COMPLEX_TYPES,
};

/// The figures of marking: double marking's agreement, and each marker's.
static ACTIONS: &[ServedAction] = &[
    agreement::AGREEMENT,
    marker_statistics::STATISTICS,
    marker_statistics::DRIFT,
    answer_groups::ALIKE,
    marked_scripts::MARKED_SCRIPT,
    regrades::REGRADE_COUNT,
];

static COMPLEX_TYPES: &[ComplexType] = &[
    agreement::AGREEMENT_ROW,
    marker_statistics::STATISTICS_ROW,
    marker_statistics::DRIFT_ROW,
    answer_groups::ALIKE_ROW,
    marked_scripts::MARKED_SCRIPT_LINK,
    regrades::REGRADE_COUNT_ROW,
];
