//! `PUT ScoringTasks(QuestionID=<id>L,ResultID=<id>)`: the body is the task, and only
//! its Status may change (spec, ScoringTask; States and transitions). The rule is
//! `model::scoring` (`TaskStatus`, `transition`); the store applies its effects.

use super::stored;
use crate::feeds::entities::SCORING_TASKS;
use crate::feeds::write::{check_unchanged, WriteRequest, Written};
use crate::model::scoring::TaskStatus;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{StatusChange, WriteScope};

pub async fn put(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let state = request.state;
    let scope = request.scope().await?;
    let task = state
        .store
        .scoring_task_at(request.area, &scope)
        .await?
        .ok_or_else(|| request.missing())?;
    let body = request.entity(&SCORING_TASKS)?;
    check_unchanged(&body, &SCORING_TASKS, &stored::task(&task), &["Status"])?;
    let status = match body.get("Status") {
        Some(Value::Int32(status)) => {
            TaskStatus::try_from(*status).map_err(ApiError::BadRequest)?
        }
        _ => {
            return Err(ApiError::bad_request(
                "ScoringTask.Status is required: a PUT carries the whole task",
            ))
        }
    };
    match writes
        .tx()
        .await?
        .set_task_status(request.area, task.key, status, &request.principal.username)
        .await?
    {
        StatusChange::NoTask => Err(request.missing()),
        StatusChange::Written(_) => Ok(Written::Replaced { etag: None }),
    }
}
