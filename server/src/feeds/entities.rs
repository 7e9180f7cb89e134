//! Every entity set of the spec and the contract, declared once. Property names and
//! types follow the contract's "Entity fields" section.

use crate::odata::edm::EdmType::{Boolean, DateTime, Double, Int16, Int32, Int64, String as Str};
use crate::odata::model::{
    many, one, prop, EntitySet, Media, MediaType, Navigation, Through, Verb, Writes, READ_ONLY,
};

/// The longest overall comment on a ScoringResult, in characters: feedback on an
/// essay runs to a few thousand words at most.
const COMMENTS_LENGTH: u32 = 16_000;
/// The longest comment on one dimension, in characters.
const COMMENT_LENGTH: u32 = 4_000;
/// Names and identifiers clients give (snapshots, print batches, attempts).
const NAME_LENGTH: u32 = 256;

/// The scoring feeds: spec, "The scoring feeds support PUT and do not support PATCH or MERGE."
const PUT_ONLY: Writes = Writes {
    entity: &[Verb::Put],
    collection: &[],
};

/// The external-delivery feeds: entities are created by POST to the collection.
const CREATE_ONLY: Writes = Writes {
    entity: &[],
    collection: &[Verb::Post],
};

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
    ],
    navigations: &[many("Dimensions", "Dimensions", &[("id", "rubric_id")])],
    concurrency: None,
    filterable: &["ID"],
    media: None,
    writes: READ_ONLY,
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

pub static QUESTIONS: EntitySet = EntitySet {
    name: "Questions",
    type_name: "Question",
    table: "questions",
    key: &["QuestionID"],
    properties: &[
        prop("QuestionID", "id", Int64, false),
        prop("Revision", "revision", Int32, false),
        prop("Language", "language", Str, true),
        prop("Description", "description", Str, true),
        prop("QuestionType", "question_type", Str, false),
        prop("MaxScore", "max_score", Int32, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
    ],
    // Typed as a collection of at most one, as the spec says.
    navigations: &[many("Rubric", "Rubrics", &[("id", "question_id")])],
    concurrency: None,
    filterable: &["QuestionID"],
    media: Some(Media {
        content_column: "markup",
        media_type: MediaType::Fixed("application/xhtml+xml"),
    }),
    writes: READ_ONLY,
};

pub static ANSWERS: EntitySet = EntitySet {
    name: "Answers",
    type_name: "Answer",
    table: "answers",
    key: &["QuestionID", "ResultID", "Occurrence", "BlockNumber"],
    properties: &[
        prop("QuestionID", "question_id", Int64, false),
        prop("ResultID", "result_id", Int32, false),
        prop("Occurrence", "occurrence", Int16, false),
        prop("BlockNumber", "block_number", Int16, false),
        prop("QuestionNumber", "question_number", Int32, false),
        prop("MaxScore", "max_score", Int32, false),
        prop("ActualScore", "actual_score", Int32, true),
        prop("Revision", "revision", Int32, false),
    ],
    navigations: &[
        one("Question", "Questions", &[("question_id", "id")], true),
        one("Result", "Results", &[("result_id", "id")], true),
    ],
    concurrency: None,
    filterable: &["QuestionID", "ResultID"],
    media: Some(Media {
        content_column: "content",
        media_type: MediaType::Column("media_type"),
    }),
    writes: READ_ONLY,
};

pub static PARTICIPANTS: EntitySet = EntitySet {
    name: "Participants",
    type_name: "Participant",
    table: "participants",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("Name", "name", Str, false),
        prop("FirstName", "first_name", Str, true),
        prop("LastName", "last_name", Str, true),
        prop("PrimaryEmail", "primary_email", Str, true),
    ],
    navigations: &[Navigation {
        name: "Groups",
        target: "Groups",
        many: true,
        on: &[("id", "id")],
        required: false,
        copied: &[],
        through: Some(Through {
            table: "group_participants",
            near: "participant_id",
            far: "group_id",
        }),
    }],
    concurrency: None,
    filterable: &["ID", "Name"],
    media: None,
    writes: READ_ONLY,
};

pub static GROUPS: EntitySet = EntitySet {
    name: "Groups",
    type_name: "Group",
    table: "groups",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("Name", "name", Str, false),
        prop("Description", "description", Str, true),
    ],
    navigations: &[Navigation {
        name: "Participants",
        target: "Participants",
        many: true,
        on: &[("id", "id")],
        required: false,
        copied: &[],
        through: Some(Through {
            table: "group_participants",
            near: "group_id",
            far: "participant_id",
        }),
    }],
    concurrency: None,
    filterable: &["ID", "Name"],
    media: None,
    writes: READ_ONLY,
};

pub static ASSESSMENTS: EntitySet = EntitySet {
    name: "Assessments",
    type_name: "Assessment",
    table: "assessments",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int64, false),
        prop("Name", "name", Str, false),
        prop("Language", "language", Str, true),
        prop("Description", "description", Str, true),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
    ],
    navigations: &[],
    concurrency: None,
    filterable: &["ID", "Name"],
    media: None,
    writes: READ_ONLY,
};

pub static ASSESSMENT_SNAPSHOTS: EntitySet = EntitySet {
    name: "AssessmentSnapshots",
    type_name: "AssessmentSnapshot",
    table: "assessment_snapshots",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
        prop("AssessmentID", "assessment_id", Int64, false),
        prop("Name", "name", Str, true).max_length(NAME_LENGTH),
        prop("Language", "language", Str, true),
        prop("ExpiresDateTime", "expires_at", DateTime, true),
        // Signed, time-limited links computed per request.
        prop("PrintableDocumentSourceUrl", "", Str, true),
        prop("PrintableDocumentWithAnswersSourceUrl", "", Str, true),
    ],
    navigations: &[one(
        "AssessmentSnapshotData",
        "AssessmentSnapshotData",
        &[("id", "id")],
        true,
    )],
    concurrency: None,
    filterable: &["ID", "AssessmentID"],
    media: None,
    writes: CREATE_ONLY,
};

pub static ASSESSMENT_SNAPSHOT_DATA: EntitySet = EntitySet {
    name: "AssessmentSnapshotData",
    type_name: "AssessmentSnapshotData",
    table: "assessment_snapshots",
    key: &["ID"],
    properties: &[prop("ID", "id", Int32, false)],
    navigations: &[],
    concurrency: None,
    filterable: &["ID"],
    media: Some(Media {
        content_column: "data_xml",
        media_type: MediaType::Fixed("application/xml"),
    }),
    writes: READ_ONLY,
};

pub static PRINT_BATCHES: EntitySet = EntitySet {
    name: "PrintBatches",
    type_name: "PrintBatch",
    table: "print_batches",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
        prop("GroupID", "group_id", Int32, false),
        prop("SnapshotID", "snapshot_id", Int32, false),
        prop("Name", "name", Str, true).max_length(NAME_LENGTH),
        prop("LastUploadedDateTime", "last_uploaded_at", DateTime, true),
    ],
    navigations: &[
        one("Group", "Groups", &[("group_id", "id")], true),
        one(
            "AssessmentSnapshot",
            "AssessmentSnapshots",
            &[("snapshot_id", "id")],
            true,
        ),
    ],
    concurrency: None,
    filterable: &["ID", "GroupID"],
    media: None,
    writes: CREATE_ONLY,
};

pub static ATTEMPTS: EntitySet = EntitySet {
    name: "Attempts",
    type_name: "Attempt",
    table: "attempts",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("ParticipantID", "participant_id", Int32, true),
        prop("AssessmentID", "assessment_id", Int64, true),
        prop("AssessmentSnapshotID", "snapshot_id", Int32, true),
        prop("ExternalAttemptID", "external_attempt_id", Str, true).max_length(NAME_LENGTH),
        prop("LockStatus", "lock_status", Boolean, false),
        prop("LockRequired", "lock_required", Boolean, false),
        prop("ResultID", "result_id", Int32, true),
        prop("LastModifiedDateTime", "last_modified_at", DateTime, false),
    ],
    navigations: &[],
    concurrency: None,
    filterable: &["ID", "ExternalAttemptID"],
    media: None,
    writes: CREATE_ONLY,
};

pub static ANSWER_UPLOADS: EntitySet = EntitySet {
    name: "AnswerUploads",
    type_name: "AnswerUpload",
    table: "answer_uploads",
    key: &["AttemptID"],
    properties: &[
        prop("AttemptID", "attempt_id", Int32, false),
        prop("UploadedDateTime", "uploaded_at", DateTime, false),
    ],
    navigations: &[],
    concurrency: None,
    filterable: &["AttemptID"],
    media: Some(Media {
        content_column: "content",
        media_type: MediaType::Column("content_type"),
    }),
    writes: CREATE_ONLY,
};

pub static RESULTS: EntitySet = EntitySet {
    name: "Results",
    type_name: "Result",
    table: "results",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("AssessmentID", "assessment_id", Int64, false),
        prop("ParticipantName", "participant_name", Str, true),
        prop("GroupName", "group_name", Str, true),
        prop("TestCenterName", "test_center_name", Str, true),
        prop("ParticipantDetails", "participant_details", Str, true),
        prop("Status", "status", Int16, false),
        prop("MaxScore", "max_score", Int32, false),
        prop("TotalScore", "total_score", Int32, false),
        prop("ScoreBandTitle", "score_band_title", Str, true),
        prop("PercentageScore", "percentage_score", Int16, false),
        prop("WhenFinished", "when_finished", DateTime, true),
        prop("WhenStarted", "when_started", DateTime, true),
        prop("ExtraTime", "extra_time", Int32, false),
        prop("Special1", "special1", Str, true),
        prop("Special2", "special2", Str, true),
        prop("Special3", "special3", Str, true),
        prop("Special4", "special4", Str, true),
        prop("Special5", "special5", Str, true),
        prop("Special6", "special6", Str, true),
        prop("Special7", "special7", Str, true),
        prop("Special8", "special8", Str, true),
        prop("Special9", "special9", Str, true),
        prop("Special10", "special10", Str, true),
        prop("StillGoing", "still_going", Boolean, false),
        prop("TimeTaken", "time_taken", Int32, false),
        prop("ScheduleName", "schedule_name", Str, true),
        prop("FirstName", "first_name", Str, true),
        prop("LastName", "last_name", Str, true),
        prop("Language", "language", Str, true),
        prop("AttemptId", "attempt_id", Int32, true),
        prop("ExternalResultID", "external_result_id", Str, true),
        prop("ExternalResultInfo", "external_result_info", Str, true),
    ],
    navigations: &[
        one(
            "Assessment",
            "Assessments",
            &[("assessment_id", "id")],
            true,
        ),
        many("Answers", "Answers", &[("id", "result_id")]),
        many("ScoringTasks", "ScoringTasks", &[("id", "result_id")]),
        one("Attempt", "Attempts", &[("attempt_id", "id")], false),
        many("TopicScores", "TopicScores", &[("id", "result_id")]),
    ],
    concurrency: None,
    filterable: &[
        "ID",
        "AssessmentID",
        "ParticipantName",
        "GroupName",
        "WhenFinished",
    ],
    media: None,
    writes: Writes {
        // Spec, Results feed: "Only Status and ExtraTime may be changed", by PATCH,
        // MERGE or PUT; purges are actions.
        entity: &[Verb::Put, Verb::Patch, Verb::Merge],
        collection: &[],
    },
};

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

/// Every entity set, in the order `$metadata` and the service document list them.
pub static ALL: &[&EntitySet] = &[
    &ANSWER_UPLOADS,
    &ANSWERS,
    &ASSESSMENT_SNAPSHOT_DATA,
    &ASSESSMENT_SNAPSHOTS,
    &ASSESSMENTS,
    &ATTEMPTS,
    &DIMENSION_SCORES,
    &DIMENSIONS,
    &GROUPS,
    &PARTICIPANTS,
    &PRINT_BATCHES,
    &QUESTIONS,
    &RESULTS,
    &RESULTS_AUDIT_LOG,
    &RUBRICS,
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

#[cfg(test)]
mod query_plans {
    use super::*;
    use crate::odata::filter::parse;
    use crate::odata::orderby;
    use crate::odata::typed::Paths;
    use crate::store::read::{sqlite_sql, RowsQuery, Scope};

    fn sql(set: &'static EntitySet, filter: &str, order: &str, nulls_smallest: bool) -> String {
        let paths = Paths::new(set, by_name);
        let filter = paths.condition(&parse(filter).unwrap()).unwrap();
        let order = paths.order(&orderby::parse(order).unwrap()).unwrap();
        let read = RowsQuery {
            scope: &Scope::all(set),
            filter: Some(&filter),
            order: &order,
            after: None,
            limit: 51,
            offset: None,
            extra: &[],
            lookup: by_name,
        };
        sqlite_sql(&read, nulls_smallest)
    }

    #[test]
    fn the_queue_orders_tasks_by_the_copied_finish_time_without_a_join() {
        for nulls_smallest in [true, false] {
            let sql = sql(
                &SCORING_TASKS,
                "Status eq 0 and Group/Name eq 'G'",
                "Result/WhenFinished desc",
                nulls_smallest,
            );
            assert!(
                sql.contains(r#"FROM "scoring_tasks" AS "t""#) && !sql.contains("results"),
                "{sql}"
            );
            assert!(
                sql.contains(r#"ORDER BY "t"."result_finished_at" DESC, "t"."result_id" DESC, "t"."question_id" DESC"#),
                "{sql}"
            );
        }
    }

    #[test]
    fn on_sqlite_answers_ordered_by_result_time_walk_results_first_with_a_fixed_join_order() {
        let sql = sql(&ANSWERS, "ResultID ge 0", "Result/WhenFinished desc", true);
        assert!(
            sql.contains(r#"FROM "results" AS "n_Result" CROSS JOIN "answers" AS "t""#),
            "{sql}"
        );
        assert!(
            sql.contains(r#"ORDER BY "n_Result"."when_finished" DESC, "n_Result"."id" DESC"#),
            "{sql}"
        );
    }

    #[test]
    fn elsewhere_the_base_table_leads_and_the_planner_chooses() {
        let sql = sql(&ANSWERS, "ResultID ge 0", "Result/WhenFinished desc", false);
        assert!(
            sql.contains(r#"FROM "answers" AS "t""#) && !sql.contains("CROSS JOIN"),
            "{sql}"
        );
    }
}
