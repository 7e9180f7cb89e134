//! The scoring entities' stored rows as the values of their declared properties:
//! what a PUT body is compared with (a client sends back the whole entity it read).

use crate::odata::value::Value;
use crate::store::{StoredDimensionScore, StoredScoringResult, StoredTask};

pub fn task(stored: &StoredTask) -> [(&'static str, Value); 3] {
    [
        ("QuestionID", Value::Int64(stored.key.question_id)),
        ("ResultID", Value::Int32(stored.key.result_id)),
        ("Status", Value::Int32(stored.status.code())),
    ]
}

pub fn scoring_result(stored: &StoredScoringResult) -> [(&'static str, Value); 7] {
    [
        ("QuestionID", Value::Int64(stored.key.question_id)),
        ("RubricID", Value::Int32(stored.rubric_id)),
        ("ResultID", Value::Int32(stored.key.result_id)),
        ("Score", stored.score.map_or(Value::Null, Value::Int32)),
        (
            "Comments",
            stored.comments.clone().map_or(Value::Null, Value::String),
        ),
        ("CreatedDateTime", Value::DateTime(stored.created_at)),
        ("ModifiedDateTime", Value::DateTime(stored.modified_at)),
    ]
}

pub fn dimension_score(stored: &StoredDimensionScore) -> [(&'static str, Value); 6] {
    [
        ("QuestionID", Value::Int64(stored.key.question_id)),
        ("RubricID", Value::Int32(stored.rubric_id)),
        ("ResultID", Value::Int32(stored.key.result_id)),
        ("Order", Value::Int32(stored.order)),
        ("Score", stored.score.map_or(Value::Null, Value::Int16)),
        (
            "Comment",
            stored.comment.clone().map_or(Value::Null, Value::String),
        ),
    ]
}
