//! `PUT MarkingScores(MarkingID=<id>,Order=<n>)`: a dimension's `Score` (0 to the
//! dimension's `MaxScore`) and `Comment` in a marking not yet submitted, by its
//! marker. Made with the marking, one per dimension of its rubric; a scorer reads
//! only his own (`rows_seen`), as with `Markings`.

use crate::auth::Principal;
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::model::scoring::check_score;
use crate::odata::edm::EdmType::{Int16, Int32, String as Str};
use crate::odata::model::{one, prop, EntitySet};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::read::Constraint;
use crate::store::WriteScope;

pub static MARKING_SCORES: EntitySet = EntitySet {
    name: "MarkingScores",
    type_name: "MarkingScore",
    table: "marking_scores",
    key: &["MarkingID", "Order"],
    properties: &[
        prop("MarkingID", "marking_id", Int32, false),
        prop("Order", "dimension_order", Int32, false),
        prop("MarkedBy", "marked_by", Str, false),
        prop("Score", "score", Int16, true),
        prop("Comment", "comment", Str, true).max_length(COMMENT_LENGTH),
    ],
    navigations: &[one("Marking", "Markings", &[("marking_id", "id")], true)],
    concurrency: None,
    filterable: &["MarkingID", "Order"],
    media: None,
    writes: PUT_ONLY,
};

pub static FEED: Feed = Feed {
    put: Some(write_handler!(put)),
    rows_seen: Some(own_scores),
    ..Feed::read_only(&MARKING_SCORES)
};

fn own_scores(principal: &Principal) -> Vec<Constraint> {
    super::markings::own_rows(&MARKING_SCORES, principal)
}

async fn put(request: &WriteRequest<'_>, writes: &mut WriteScope<'_>) -> Result<Written, ApiError> {
    let state = request.state;
    let scope = request.scope().await?;
    let (marking_id, order) = state
        .store
        .marking_score_at(request.area, &scope)
        .await?
        .ok_or_else(|| request.missing())?;
    let stored = request.stored_values(&MARKING_SCORES).await?;
    let body = request.entity(&MARKING_SCORES)?;
    check_unchanged(&body, &MARKING_SCORES, &stored, &["Score", "Comment"])?;
    let score = match body.get("Score") {
        Some(Value::Int16(score)) => Some(*score),
        _ => None,
    };
    let comment = match body.get("Comment") {
        Some(Value::String(comment)) => Some(comment.as_str()),
        _ => None,
    };
    let area = request.area;
    let tx = writes.tx().await?;
    let marking = tx
        .marking(area, marking_id)
        .await?
        .ok_or_else(|| request.missing())?;
    tx.lock_result(area, marking.task.result_id).await?;
    let marking = tx
        .marking(area, marking_id)
        .await?
        .ok_or_else(|| request.missing())?;
    if marking.marked_by != request.principal.username {
        return Err(ApiError::Conflict(
            "a marking is written by its marker only".into(),
        ));
    }
    if marking.is_submitted {
        return Err(ApiError::Conflict(format!(
            "Markings({marking_id}) is submitted: its scores do not change"
        )));
    }
    if let Some(score) = score {
        let max = state
            .store
            .dimension_max_score(area, marking.rubric_id, order)
            .await?;
        check_score(
            &format!("MarkingScore.Score of dimension {order}"),
            i32::from(score),
            i32::from(max),
        )
        .map_err(ApiError::BadRequest)?;
    }
    tx.set_marking_score(area, marking_id, order, score, comment)
        .await?;
    Ok(Written::Replaced { etag: None })
}
