//! `PUT ScoringResults(QuestionID=<id>L,RubricID=<id>,ResultID=<id>)`: the overall
//! `Score` and `Comments`, under optimistic concurrency (spec, Errors: "PUT of a
//! ScoringResult whose last-modified value differs from the stored current revision:
//! the entry is not updated"). The body's `ModifiedDateTime` and an `If-Match` ETag
//! mean the same; either suffices, both must hold.

use super::stored;
use crate::feeds::entities::SCORING_RESULTS;
use crate::feeds::write::{check_unchanged, WriteRequest, Written};
use crate::model::scoring::check_score;
use crate::odata::etag;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{ConditionalUpdate, ScoringResultValues, WriteScope};

pub async fn put(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
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
    let update = writes
        .tx()
        .await?
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
