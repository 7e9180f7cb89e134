//! Which role may use which feed (the contract's roles). Administrators may use all.

use crate::auth::{Principal, Role};
use crate::odata::ApiError;

/// Feeds a scorer works with: the scoring feeds and what they read.
const SCORER_FEEDS: &[&str] = &[
    "ScoringTasks",
    "ScoringResults",
    "DimensionScores",
    "Questions",
    "Answers",
    "Groups",
    "Results",
    "Assessments",
];

/// Feeds a coordinator works with: external delivery, and reading results.
const COORDINATOR_FEEDS: &[&str] = &[
    "Assessments",
    "AssessmentSnapshots",
    "PrintBatches",
    "Attempts",
    "AnswerUploads",
    "Groups",
    "Participants",
    "Questions",
    "Results",
    "TopicScores",
];

/// Refuses with 403 a feed outside the principal's role.
pub fn check(principal: &Principal, entity_set: &str) -> Result<(), ApiError> {
    let allowed = match principal.role {
        Role::Admin => true,
        Role::Scorer => SCORER_FEEDS.contains(&entity_set),
        Role::Coordinator => COORDINATOR_FEEDS.contains(&entity_set),
    };
    if allowed {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!(
            "the {} role may not use the {entity_set} feed",
            principal.role
        )))
    }
}
