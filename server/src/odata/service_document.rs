//! The service document: what `GET` on the service root lists.

use serde_json::{json, Value};

/// Every feed the service has, in the order the service document lists them.
pub const ENTITY_SETS: &[&str] = &[
    "AnswerUploads",
    "Answers",
    "AssessmentSnapshotData",
    "AssessmentSnapshots",
    "Assessments",
    "Attempts",
    "DimensionScores",
    "Dimensions",
    "Groups",
    "Participants",
    "PrintBatches",
    "Questions",
    "Results",
    "ResultsAuditLog",
    "Rubrics",
    "ScoringResults",
    "ScoringTasks",
    "TopicScores",
];

/// The JSON light service document for the service root at `root` (ending in `/`).
pub fn json_light(root: &str) -> Value {
    let sets: Vec<Value> = ENTITY_SETS
        .iter()
        .map(|name| json!({ "name": name, "url": name }))
        .collect();
    json!({ "odata.metadata": format!("{root}$metadata"), "value": sets })
}

/// The verbose JSON service document, for version 2 clients.
pub fn json_verbose() -> Value {
    json!({ "d": { "EntitySets": ENTITY_SETS } })
}
