//! `PUT ScoringResults(QuestionID=<id>L,RubricID=<id>,ResultID=<id>)`: the overall
//! `Score` and `Comments`, under optimistic concurrency (spec, Errors: "PUT of a
//! ScoringResult whose last-modified value differs from the stored current revision:
//! the entry is not updated"). The body's `ModifiedDateTime` and an `If-Match` ETag
//! mean the same; either suffices, both must hold.

use super::stored;
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::feeds::marking;
use crate::model::scoring::check_score;
use crate::odata::edm::EdmType::{DateTime, Int32, Int64, String as Str};
use crate::odata::etag;
use crate::odata::model::{many, one, prop, EntitySet};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{ConditionalUpdate, ScoringResultValues, WriteScope};

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

pub static FEED: Feed = Feed {
    put: Some(write_handler!(put)),
    ..Feed::read_only(&SCORING_RESULTS)
};

async fn put(request: &WriteRequest<'_>, writes: &mut WriteScope<'_>) -> Result<Written, ApiError> {
    let state = request.state;
    let scope = request.scope().await?;
    let current = state
        .store
        .scoring_result_at(request.area, &scope)
        .await?
        .ok_or_else(|| request.missing())?;
    let body = request.entity(&SCORING_RESULTS)?;
    check_unchanged(
        &body,
        &SCORING_RESULTS,
        &stored::scoring_result(&current),
        &["Score", "Comments"],
    )?;
    let sent_modified = match body.get("ModifiedDateTime") {
        Some(Value::DateTime(sent)) => Some(*sent),
        _ => None,
    };
    let read = request
        .revision_read(sent_modified, current.modified_at)?
        .ok_or_else(|| {
            ApiError::bad_request(
                "ScoringResult.ModifiedDateTime is required: send back the value you read \
                 (or an If-Match header with the ETag)",
            )
        })?;
    let score = match body.get("Score") {
        Some(Value::Int32(score)) => Some(*score),
        _ => None,
    };
    if let Some(score) = score {
        let max = state
            .store
            .rubric_max_score(request.area, current.rubric_id)
            .await?;
        check_score("ScoringResult.Score", score, i32::from(max)).map_err(ApiError::BadRequest)?;
    }
    let comments = match body.get("Comments") {
        Some(Value::String(comments)) => Some(comments.clone()),
        _ => None,
    };
    let tx = writes.tx().await?;
    tx.lock_result(request.area, current.key.result_id).await?;
    marking::refuse_while_waiting(tx, request.area, current.key).await?;
    let update = tx
        .update_scoring_result(
            request.area,
            current.key,
            read,
            ScoringResultValues { score, comments },
        )
        .await?;
    match update {
        ConditionalUpdate::Stale => Err(request.stale(current.modified_at)),
        ConditionalUpdate::Written { modified_at } => Ok(Written::Replaced {
            etag: Some(etag::for_value(&Value::DateTime(modified_at))),
        }),
    }
}
