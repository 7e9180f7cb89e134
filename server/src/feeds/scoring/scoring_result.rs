//! `PUT ScoringResults(QuestionID=<id>L,RubricID=<id>,ResultID=<id>)`: the overall
//! `Score` and `Comments`, under optimistic concurrency (spec, Errors: "PUT of a
//! ScoringResult whose last-modified value differs from the stored current revision:
//! the entry is not updated"). The body's `ModifiedDateTime` and an `If-Match` ETag
//! mean the same; either suffices, both must hold.

use axum::http::header::IF_MATCH;

use super::stored;
use crate::feeds::entities::SCORING_RESULTS;
use crate::feeds::write::{check_unchanged, PutRequest, Written};
use crate::model::scoring::check_score;
use crate::odata::etag;
use crate::odata::value::{format_datetime, Value};
use crate::odata::ApiError;
use crate::store::{ConditionalUpdate, ScoringResultValues, WriteScope};

pub async fn put(
    request: &PutRequest<'_>,
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
    let stored_modified = current.modified_at;
    let stale = || {
        ApiError::PreconditionFailed(format!(
            "the ScoringResult was changed by someone else (it is now the revision of {}); \
             read it again and apply your changes to that revision",
            format_datetime(stored_modified)
        ))
    };
    let if_match = request
        .headers
        .get(IF_MATCH)
        .map(|value| {
            value.to_str().map_err(|_| {
                ApiError::bad_request("the If-Match header is not a list of ETags in ASCII")
            })
        })
        .transpose()?;
    let sent_modified = match body.get("ModifiedDateTime") {
        Some(Value::DateTime(sent)) => Some(*sent),
        _ => None,
    };
    if sent_modified.is_none() && if_match.is_none() {
        return Err(ApiError::bad_request(
            "ScoringResult.ModifiedDateTime is required: send back the value you read \
             (or an If-Match header with the ETag)",
        ));
    }
    let current_tag = etag::for_value(&Value::DateTime(stored_modified));
    if if_match.is_some_and(|header| !etag::if_match_admits(header, &current_tag)) {
        return Err(stale());
    }
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
            // A stale body value is refused by the conditional write itself, the one
            // check that also holds between concurrent writers.
            sent_modified.unwrap_or(stored_modified),
            ScoringResultValues { score, comments },
        )
        .await?;
    match update {
        ConditionalUpdate::Stale => Err(stale()),
        ConditionalUpdate::Written { modified_at } => Ok(Written {
            etag: Some(etag::for_value(&Value::DateTime(modified_at))),
        }),
    }
}
