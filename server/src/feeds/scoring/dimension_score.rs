//! `PUT DimensionScores(QuestionID=<id>L,RubricID=<id>,ResultID=<id>,Order=<n>)`: a
//! dimension's `Score` (0 to the dimension's `MaxScore`) and `Comment`.

use super::{stored_int32, task_key};
use crate::feeds::entities::DIMENSION_SCORES;
use crate::feeds::write::{check_unchanged, PutRequest, Written};
use crate::model::scoring::check_score;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::WriteScope;

pub async fn put(
    request: &PutRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let stored = request.stored().await?;
    let body = request.entity(&DIMENSION_SCORES)?;
    check_unchanged(&body, &stored, &["Score", "Comment"])?;
    let order = stored_int32(&stored, "Order");
    let score = match body.get("Score") {
        Some(Value::Int16(score)) => Some(*score),
        _ => None,
    };
    if let Some(score) = score {
        let rubric_id = stored_int32(&stored, "RubricID");
        let max = request
            .state
            .store
            .dimension_max_score(request.area, rubric_id, order)
            .await?;
        check_score(
            &format!("DimensionScore.Score of dimension {order}"),
            i32::from(score),
            i32::from(max),
        )
        .map_err(ApiError::BadRequest)?;
    }
    let comment = match body.get("Comment") {
        Some(Value::String(comment)) => Some(comment.clone()),
        _ => None,
    };
    let written = writes
        .tx()
        .await?
        .update_dimension_score(request.area, task_key(&stored), order, score, comment)
        .await?;
    if !written {
        return Err(ApiError::not_found(
            "there is no DimensionScore with that key",
        ));
    }
    Ok(Written { etag: None })
}
