//! The scoring feeds' own rules on top of the generic read: the ScoringResult
//! created on first retrieval, and PUT of tasks, ScoringResults and DimensionScores
//! (their declarations refuse PATCH and MERGE).

mod dimension_score;
mod scoring_result;
mod task_status;

use super::write::{stored_value, PutRequest, Written};
use crate::odata::filter::Literal;
use crate::odata::json::EntityOut;
use crate::odata::model::EntitySet;
use crate::odata::path::EntityPath;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{ScoringResultCreation, ScoringResultKey, WriteScope};
use crate::AppState;

/// Spec, ScoringTask rule 2: "The ScoringResult is created automatically when it is
/// retrieved through the ScoringTask's navigation property, addressed directly from
/// the ScoringTask URL." Expanding it (`$expand=ScoringResult`) never creates it, and
/// a question without a rubric leaves the collection empty.
pub async fn before_read(state: &AppState, area: i32, path: &EntityPath) -> Result<(), ApiError> {
    let [step] = path.steps.as_slice() else {
        return Ok(());
    };
    if path.set.name != "ScoringTasks" || step.navigation.name != "ScoringResult" {
        return Ok(());
    }
    let Some(key) = &path.key else { return Ok(()) };
    let value = |name: &str| {
        key.0
            .iter()
            .find(|(p, _)| p.name == name)
            .map(|(_, literal)| literal)
    };
    let (Some(Literal::Int64(question_id)), Some(Literal::Int32(result_id))) =
        (value("QuestionID"), value("ResultID"))
    else {
        return Ok(());
    };
    match state
        .store
        .ensure_scoring_result(area, *question_id, *result_id)
        .await?
    {
        ScoringResultCreation::NoTask => {
            Err(ApiError::not_found("there is no ScoringTask with that key"))
        }
        ScoringResultCreation::NoRubric | ScoringResultCreation::Exists => Ok(()),
    }
}

/// The feeds whose PUT this module serves.
const PUT_FEEDS: &[&str] = &["ScoringTasks", "ScoringResults", "DimensionScores"];

/// Whether a PUT on `set` is served here.
pub fn serves_put(set: &EntitySet) -> bool {
    PUT_FEEDS.contains(&set.name)
}

/// PUT on a scoring feed (routing sends only those for which [`serves_put`] holds),
/// written in `writes`.
pub async fn put(
    request: &PutRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    match request.path.target().name {
        "ScoringTasks" => task_status::put(request, writes).await,
        "ScoringResults" => scoring_result::put(request, writes).await,
        "DimensionScores" => dimension_score::put(request, writes).await,
        other => Err(ApiError::Internal(anyhow::anyhow!(
            "a PUT on {other} was routed to the scoring feeds"
        ))),
    }
}

/// The task (and ScoringResult) key of a stored scoring entity.
fn task_key(stored: &EntityOut) -> ScoringResultKey {
    let (Value::Int64(question_id), Value::Int32(result_id)) = (
        stored_value(stored, "QuestionID"),
        stored_value(stored, "ResultID"),
    ) else {
        unreachable!("scoring entities declare QuestionID as Int64 and ResultID as Int32")
    };
    ScoringResultKey {
        question_id: *question_id,
        result_id: *result_id,
    }
}

/// An Int32 property of a stored entity.
fn stored_int32(stored: &EntityOut, name: &str) -> i32 {
    match stored_value(stored, name) {
        Value::Int32(value) => *value,
        other => unreachable!("{name} is declared Int32, read {other:?}"),
    }
}
