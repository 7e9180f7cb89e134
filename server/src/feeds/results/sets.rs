//! The results feed's read-only companions: the topic scores of each result and
//! the audit log of the actions taken on results.

use crate::odata::edm::EdmType::{Boolean, DateTime, Double, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet, READ_ONLY};

pub static TOPIC_SCORES: EntitySet = EntitySet {
    name: "TopicScores",
    type_name: "TopicScore",
    table: "topic_scores",
    key: &["ResultID", "TopicID"],
    properties: &[
        prop("ResultID", "result_id", Int32, false),
        prop("TopicID", "topic_id", Int32, false),
        prop("PercentageScore", "percentage_score", Double, false),
        prop("TotalScore", "total_score", Int32, false),
        prop("MaxScore", "max_score", Int32, false),
        prop("ScoreBandTitle", "score_band_title", Str, true),
        prop("NumQuestions", "num_questions", Int32, false),
        prop("TopicPath", "topic_path", Str, true),
    ],
    navigations: &[one("Result", "Results", &[("result_id", "id")], true)],
    // The spec's "ID" filter: a topic score is identified by its result and topic.
    concurrency: None,
    filterable: &["ResultID", "TopicID"],
    media: None,
    writes: READ_ONLY,
};

pub static RESULTS_AUDIT_LOG: EntitySet = EntitySet {
    name: "ResultsAuditLog",
    type_name: "ResultAuditLog",
    table: "results_audit_log",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("MessageID", "message_id", Str, false),
        prop("RequestUserID", "request_user_id", Int32, false),
        prop("RequestType", "request_type", Str, false),
        prop("RequestData", "request_data", Str, true),
        prop("Source", "source", Str, true),
        prop("RequestDateTime", "request_at", DateTime, false),
        prop("IsInQueue", "is_in_queue", Boolean, false),
        prop("ProcessedDateTime", "processed_at", DateTime, true),
        prop("WasSuccessful", "was_successful", Boolean, true),
        prop(
            "TotalResultsAffected",
            "total_results_affected",
            Int32,
            false,
        ),
    ],
    navigations: &[],
    concurrency: None,
    filterable: &["ID", "MessageID", "RequestUserID", "RequestDateTime"],
    media: None,
    writes: READ_ONLY,
};

/// Our extension (issue 34, docs/statistics.md): each question's figures in its
/// assessment's item analysis, as the `AssessmentStatistics` function last
/// computed them (`ComputedDateTime`).
pub static ITEM_STATISTICS: EntitySet = EntitySet {
    name: "ItemStatistics",
    type_name: "ItemStatistic",
    table: "item_statistics",
    key: &["AssessmentID", "QuestionID"],
    properties: &[
        prop("AssessmentID", "assessment_id", Int64, false),
        prop("QuestionID", "question_id", Int64, false),
        prop("Position", "position", Int32, false),
        prop("MaxScore", "max_score", Int32, false),
        prop("N", "n", Int32, false),
        prop("Facility", "facility", Double, false),
        prop("Discrimination", "discrimination", Double, true),
        prop("Flags", "flags", Str, false),
        prop("ComputedDateTime", "computed_at", DateTime, false),
    ],
    navigations: &[
        one(
            "Assessment",
            "Assessments",
            &[("assessment_id", "id")],
            true,
        ),
        one("Question", "Questions", &[("question_id", "id")], true),
    ],
    concurrency: None,
    filterable: &[
        "AssessmentID",
        "QuestionID",
        "Position",
        "Facility",
        "Discrimination",
        "N",
    ],
    media: None,
    writes: READ_ONLY,
};
