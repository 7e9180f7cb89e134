//! The scoring feeds (spec, "Subjective scoring"): tasks, their ScoringResults and
//! DimensionScores, and the rubrics and dimensions they score against.

use crate::odata::edm::EdmType::{DateTime, Int16, Int32, Int64, String as Str};
use crate::odata::model::{many, one, prop, EntitySet, Navigation, Verb, Writes, READ_ONLY};

use super::limits::*;

pub static SCORING_TASKS: EntitySet = EntitySet {
    name: "ScoringTasks",
    type_name: "ScoringTask",
    table: "scoring_tasks",
    key: &["QuestionID", "ResultID"],
    properties: &[
        prop("QuestionID", "question_id", Int64, false),
        prop("ResultID", "result_id", Int32, false),
        prop("Status", "status", Int32, false),
    ],
    navigations: &[
        many(
            "ScoringResult",
            "ScoringResults",
            &[("question_id", "question_id"), ("result_id", "result_id")],
        ),
        one("Question", "Questions", &[("question_id", "id")], true),
        // The queue's order, `Result/WhenFinished`, is copied onto the task
        // (migration 5): finalised results never change when they finished.
        Navigation {
            copied: &[("WhenFinished", "result_finished_at")],
            ..one("Result", "Results", &[("result_id", "id")], true)
        },
        one(
            "Answer",
            "Answers",
            &[("question_id", "question_id"), ("result_id", "result_id")],
            true,
        ),
        one("Group", "Groups", &[("group_id", "id")], false),
        one(
            "Assessment",
            "Assessments",
            &[("assessment_id", "id")],
            true,
        ),
    ],
    concurrency: None,
    filterable: &["QuestionID", "ResultID", "Status"],
    media: None,
    writes: PUT_ONLY,
};

pub static SCORING_RESULTS: EntitySet = EntitySet {
    name: "ScoringResults",
    type_name: "ScoringResult",
    table: "scoring_results",
    key: &["QuestionID", "RubricID", "ResultID"],
    properties: &[
        prop("QuestionID", "question_id", Int64, false),
        prop("RubricID", "rubric_id", Int32, false),
        prop("ResultID", "result_id", Int32, false),
        prop("Score", "score", Int32, true),
        prop("Comments", "comments", Str, true).max_length(COMMENTS_LENGTH),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
    ],
    navigations: &[
        one(
            "ScoringTask",
            "ScoringTasks",
            &[("question_id", "question_id"), ("result_id", "result_id")],
            true,
        ),
        one("Rubric", "Rubrics", &[("rubric_id", "id")], true),
        many(
            "DimensionScores",
            "DimensionScores",
            &[("question_id", "question_id"), ("result_id", "result_id")],
        ),
    ],
    concurrency: Some("ModifiedDateTime"),
    filterable: &["QuestionID", "RubricID", "ResultID"],
    media: None,
    writes: PUT_ONLY,
};

pub static DIMENSION_SCORES: EntitySet = EntitySet {
    name: "DimensionScores",
    type_name: "DimensionScore",
    table: "dimension_scores",
    key: &["QuestionID", "RubricID", "ResultID", "Order"],
    properties: &[
        prop("QuestionID", "question_id", Int64, false),
        prop("RubricID", "rubric_id", Int32, false),
        prop("ResultID", "result_id", Int32, false),
        prop("Order", "dimension_order", Int32, false),
        prop("Score", "score", Int16, true),
        prop("Comment", "comment", Str, true).max_length(COMMENT_LENGTH),
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
    filterable: &["QuestionID", "RubricID", "ResultID", "Order"],
    media: None,
    writes: PUT_ONLY,
};

pub static RUBRICS: EntitySet = EntitySet {
    name: "Rubrics",
    type_name: "Rubric",
    table: "rubrics",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("Name", "name", Str, false),
        prop("Instructions", "instructions", Str, true),
        prop("MaxScore", "max_score", Int16, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
        // Our extension (migration 18): the question it is for, and when a newer
        // rubric replaced it for new scoring (null: the question's current one).
        prop("QuestionID", "question_id", Int64, false),
        prop("ReplacedDateTime", "replaced_at", DateTime, true),
    ],
    navigations: &[many("Dimensions", "Dimensions", &[("id", "rubric_id")])],
    concurrency: None,
    filterable: &["ID", "QuestionID"],
    media: None,
    // Our extension: administrators author rubrics (feeds/rubric_authoring.rs).
    writes: Writes {
        entity: &[Verb::Delete],
        collection: &[Verb::Post],
    },
};

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
