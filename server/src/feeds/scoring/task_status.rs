//! `PUT ScoringTasks(QuestionID=<id>L,ResultID=<id>)`: the body is the task, and only
//! its Status may change (spec, ScoringTask; States and transitions).

use super::task_key;
use crate::feeds::entities::SCORING_TASKS;
use crate::feeds::write::{check_unchanged, PutRequest, Written};
use crate::model::scoring::check_status;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{StatusChange, WriteScope};

pub async fn put(
    request: &PutRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let stored = request.stored().await?;
    let body = request.entity(&SCORING_TASKS)?;
    check_unchanged(&body, &stored, &["Status"])?;
    let status = match body.get("Status") {
        Some(Value::Int32(status)) => *status,
        _ => {
            return Err(ApiError::bad_request(
                "ScoringTask.Status is required: a PUT carries the whole task",
            ))
        }
    };
    check_status(status).map_err(ApiError::BadRequest)?;
    match writes
        .tx()
        .await?
        .set_task_status(request.area, task_key(&stored), status)
        .await?
    {
        StatusChange::NoTask => Err(ApiError::not_found("there is no ScoringTask with that key")),
        StatusChange::Written { .. } => Ok(Written { etag: None }),
    }
}
