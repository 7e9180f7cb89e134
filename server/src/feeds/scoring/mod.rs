//! Subjective scoring (spec, "Subjective scoring"): tasks, their ScoringResults and
//! DimensionScores (PUT only: the spec refuses PATCH and MERGE), the rubrics and
//! dimensions they score against; and our extensions: rubric authoring, banked
//! comments, dimension levels and scoring events (docs/odata.md, "Extensions").

mod banked_comments;
mod dimension_scores;
mod rubrics;
mod scoring_results;
mod scoring_tasks;
mod sets;
mod stored;

use crate::feeds::handler::{Feature, Feed};

pub use banked_comments::BANKED_COMMENTS;
pub use dimension_scores::DIMENSION_SCORES;
pub use rubrics::RUBRICS;
pub use scoring_results::SCORING_RESULTS;
pub use scoring_tasks::SCORING_TASKS;
pub use sets::{DIMENSIONS, DIMENSION_LEVELS, SCORING_EVENTS};

pub static FEATURE: Feature = Feature {
    feeds: &[
        &scoring_tasks::FEED,
        &scoring_results::FEED,
        &dimension_scores::FEED,
        &rubrics::FEED,
        &Feed::read_only(&DIMENSIONS),
        &Feed::read_only(&DIMENSION_LEVELS),
        &banked_comments::FEED,
        &Feed::read_only(&SCORING_EVENTS),
    ],
    actions: &[],
    complex_types: &[],
};
