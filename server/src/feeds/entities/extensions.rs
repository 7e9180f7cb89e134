//! ScoreDesk's own feeds, beyond the spec and the contract (docs/odata.md,
//! "Extensions"): declared in `$metadata` like the others, and never changing how
//! the spec's feeds behave.

use crate::odata::edm::EdmType::{DateTime, Int16, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet, Verb, Writes, READ_ONLY};

/// The longest banked comment, in characters: as long as a dimension's comment,
/// which it is inserted into.
pub const BANKED_COMMENT_LENGTH: u32 = super::limits::COMMENT_LENGTH;

/// The comment bank: comments saved once and inserted again, shared by the scorers
/// of a customer area, per question and (optionally) per dimension of its rubric.
pub static BANKED_COMMENTS: EntitySet = EntitySet {
    name: "BankedComments",
    type_name: "BankedComment",
    table: "banked_comments",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        // The dimension's Order in the question's rubric; null: an overall comment.
        prop("DimensionOrder", "dimension_order", Int32, true),
        prop("Text", "text", Str, false).max_length(BANKED_COMMENT_LENGTH),
        prop("CreatedBy", "created_by", Str, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
    ],
    navigations: &[one("Question", "Questions", &[("question_id", "id")], true)],
    concurrency: Some("ModifiedDateTime"),
    filterable: &["ID", "QuestionID", "DimensionOrder", "CreatedBy"],
    media: None,
    writes: Writes {
        entity: &[Verb::Put, Verb::Delete],
        collection: &[Verb::Post],
    },
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
