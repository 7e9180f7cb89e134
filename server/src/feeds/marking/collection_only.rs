//! What the sets of marking quality share when a client creates one of their
//! entities: a write reached through a navigation is refused, and the task a
//! body names is read from its `QuestionID` and `ResultID`.

use crate::feeds::handler::WriteRequest;
use crate::model::scoring::TaskKey;
use crate::odata::body::EntityBody;
use crate::odata::value::Value;
use crate::odata::ApiError;

/// These sets are written at their own collection only: the rules of a flag do
/// not change with the URL it is reached by.
pub(super) fn at_the_collection(request: &WriteRequest<'_>) -> Result<(), ApiError> {
    if request.path.steps.is_empty() {
        return Ok(());
    }
    let set = request.path.target().name;
    Err(ApiError::bad_request(format!(
        "{set} are written by POST to {set}, not through a navigation"
    )))
}

/// The ScoringTask a new `entity` (a `Flag`, a `Marking`) names, or a 400 naming
/// the missing part; `what` says what the task is to it.
pub(super) fn task_named(body: &EntityBody, entity: &str, what: &str) -> Result<TaskKey, ApiError> {
    let question_id = match body.get("QuestionID") {
        Some(Value::Int64(id)) => *id,
        _ => {
            return Err(ApiError::bad_request(format!(
                "{entity}.QuestionID is required: the question of the {what}"
            )))
        }
    };
    let result_id = match body.get("ResultID") {
        Some(Value::Int32(id)) => *id,
        _ => {
            return Err(ApiError::bad_request(format!(
                "{entity}.ResultID is required: the result of the {what}"
            )))
        }
    };
    Ok(TaskKey {
        question_id,
        result_id,
    })
}
