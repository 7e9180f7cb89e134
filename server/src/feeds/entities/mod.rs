//! Every entity set of the spec and the contract, and our extensions, declared once,
//! one file per group of feeds. Property names and types follow the contract's "Entity fields" section.

mod content;
mod delivery;
mod extensions;
mod limits;
mod results;
mod scoring;

use crate::odata::model::EntitySet;

pub use content::{ANSWERS, ASSESSMENTS, GROUPS, PARTICIPANTS, QUESTIONS};
pub use delivery::{
    ANSWER_UPLOADS, ASSESSMENT_SNAPSHOTS, ASSESSMENT_SNAPSHOT_DATA, ATTEMPTS, PRINT_BATCHES,
};
pub use extensions::{BANKED_COMMENTS, DIMENSION_LEVELS, SCORING_EVENTS};
pub use results::{RESULTS, RESULTS_AUDIT_LOG, TOPIC_SCORES};
pub use scoring::{DIMENSIONS, DIMENSION_SCORES, RUBRICS, SCORING_RESULTS, SCORING_TASKS};

/// Every entity set, in the order `$metadata` and the service document list them.
pub static ALL: &[&EntitySet] = &[
    &ANSWER_UPLOADS,
    &ANSWERS,
    &ASSESSMENT_SNAPSHOT_DATA,
    &ASSESSMENT_SNAPSHOTS,
    &ASSESSMENTS,
    &ATTEMPTS,
    &BANKED_COMMENTS,
    &DIMENSION_LEVELS,
    &DIMENSION_SCORES,
    &DIMENSIONS,
    &GROUPS,
    &PARTICIPANTS,
    &PRINT_BATCHES,
    &QUESTIONS,
    &RESULTS,
    &RESULTS_AUDIT_LOG,
    &RUBRICS,
    &SCORING_EVENTS,
    &SCORING_RESULTS,
    &SCORING_TASKS,
    &TOPIC_SCORES,
];

pub fn by_name(name: &str) -> Option<&'static EntitySet> {
    ALL.iter().copied().find(|set| set.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_filterable_property_and_navigation_target_is_declared() {
        for set in ALL {
            for key in set.key {
                assert!(set.property(key).is_some(), "{}: key {key}", set.name);
            }
            for name in set.filterable {
                assert!(
                    set.property(name).is_some(),
                    "{}: filterable {name}",
                    set.name
                );
            }
            for navigation in set.navigations {
                assert!(
                    by_name(navigation.target).is_some(),
                    "{}: {}",
                    set.name,
                    navigation.name
                );
            }
        }
    }
}
