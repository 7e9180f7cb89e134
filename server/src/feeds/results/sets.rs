//! The results feed's read-only companions: the topic scores of each result and
//! the audit log of the actions taken on results.

use crate::odata::edm::EdmType::{Boolean, DateTime, Double, Int32, String as Str};
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
