//! The scoring feeds that are only read: a rubric's dimensions, their levels (our
//! extension), and the log of scoring events (our extension).

use crate::odata::edm::EdmType::{DateTime, Int16, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet, READ_ONLY};

pub static DIMENSIONS: EntitySet = EntitySet {
    name: "Dimensions",
    type_name: "Dimension",
    table: "dimensions",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("RubricID", "rubric_id", Int32, false),
        prop("Order", "dimension_order", Int32, false),
        prop("Name", "name", Str, false),
        prop("Instructions", "instructions", Str, true),
        prop("MaxScore", "max_score", Int16, false),
    ],
    navigations: &[],
    concurrency: None,
    filterable: &["ID", "RubricID"],
    media: None,
    writes: READ_ONLY,
};

/// What earns each score of a rubric's dimension, shown to scorers beside the number
/// keys. Identified as DimensionScores identify their dimension: the rubric and the
/// dimension's `Order`. Read-only here; rubrics are authored with their content.
pub static DIMENSION_LEVELS: EntitySet = EntitySet {
    name: "DimensionLevels",
    type_name: "DimensionLevel",
    table: "dimension_levels",
    key: &["RubricID", "Order", "Score"],
    properties: &[
        prop("RubricID", "rubric_id", Int32, false),
        prop("Order", "dimension_order", Int32, false),
        prop("Score", "score", Int16, false),
        prop("Description", "description", Str, false),
    ],
    navigations: &[one(
        "Dimension",
        "Dimensions",
        &[
            ("rubric_id", "rubric_id"),
            ("dimension_order", "dimension_order"),
        ],
        true,
    )],
    concurrency: None,
    filterable: &["RubricID", "Order", "Score"],
    media: None,
    writes: READ_ONLY,
};

/// Every change of a ScoringTask's status: who, when, from what to what, with the
/// score saved or submitted. Written by the server with each change (never by a
/// client); read by moderators ("saved by") and by a scorer's history on any
/// computer. The spec's ScoringTask has no navigation to it, so it stays unchanged.
pub static SCORING_EVENTS: EntitySet = EntitySet {
    name: "ScoringEvents",
    type_name: "ScoringEvent",
    table: "scoring_events",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int64, false),
        prop("QuestionID", "question_id", Int64, false),
        prop("ResultID", "result_id", Int32, false),
        prop("PreviousStatus", "previous_status", Int32, false),
        prop("Status", "status", Int32, false),
        prop("Score", "score", Int32, true),
        prop("Account", "account", Str, false),
        prop("At", "at", DateTime, false),
    ],
    navigations: &[one(
        "ScoringTask",
        "ScoringTasks",
        &[("question_id", "question_id"), ("result_id", "result_id")],
        true,
    )],
    concurrency: None,
    filterable: &["ID", "QuestionID", "ResultID", "Status", "Account", "At"],
    media: None,
    writes: READ_ONLY,
};
