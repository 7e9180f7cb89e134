//! `PUT DimensionScores(QuestionID=<id>L,RubricID=<id>,ResultID=<id>,Order=<n>)`: a
//! dimension's `Score` (0 to the dimension's `MaxScore`) and `Comment`.

use super::stored;
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::feeds::marking;
use crate::model::scoring::check_score;
use crate::odata::edm::EdmType::{Int16, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::WriteScope;

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

pub static FEED: Feed = Feed {
    put: Some(write_handler!(put)),
    ..Feed::read_only(&DIMENSION_SCORES)
};

async fn put(request: &WriteRequest<'_>, writes: &mut WriteScope<'_>) -> Result<Written, ApiError> {
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
    let tx = writes.tx().await?;
    tx.lock_result(request.area, dimension.key.result_id)
        .await?;
    marking::refuse_while_waiting(tx, request.area, dimension.key).await?;
    let written = tx
        .update_dimension_score(request.area, dimension.key, order, score, comment)
        .await?;
    if !written {
        return Err(request.missing());
    }
    Ok(Written::Replaced { etag: None })
}
