//! `PUT DimensionScores(QuestionID=<id>L,RubricID=<id>,ResultID=<id>,Order=<n>)`: a
//! dimension's `Score` (0 to the dimension's `MaxScore`) and `Comment`.

use super::stored;
use crate::feeds::entities::DIMENSION_SCORES;
use crate::feeds::write::{check_unchanged, WriteRequest, Written};
use crate::model::scoring::check_score;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::WriteScope;

pub async fn put(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let state = request.state;
    let scope = request.scope().await?;
    let dimension = state
        .store
        .dimension_score_at(request.area, &scope)
        .await?
        .ok_or_else(|| request.missing())?;
    let body = request.entity(&DIMENSION_SCORES)?;
    check_unchanged(
        &body,
        &DIMENSION_SCORES,
        &stored::dimension_score(&dimension),
        &["Score", "Comment"],
    )?;
    let order = dimension.order;
    let score = match body.get("Score") {
        Some(Value::Int16(score)) => Some(*score),
        _ => None,
    };
    if let Some(score) = score {
        let max = state
            .store
            .dimension_max_score(request.area, dimension.rubric_id, order)
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
        .update_dimension_score(request.area, dimension.key, order, score, comment)
        .await?;
    if !written {
        return Err(request.missing());
    }
    Ok(Written::Replaced { etag: None })
}
