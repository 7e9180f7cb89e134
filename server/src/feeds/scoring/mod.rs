//! The scoring feeds' own rules on top of the generic read: the ScoringResult
//! created on first retrieval, and PUT of tasks, ScoringResults and DimensionScores
//! (their declarations refuse PATCH and MERGE).

mod dimension_score;
mod scoring_result;
mod stored;
mod task_status;

use super::write::{WriteRequest, Written};
use crate::feeds::state::AppState;
use crate::model::area::CustomerArea;
use crate::model::scoring::TaskKey;
use crate::odata::model::EntitySet;
use crate::odata::path::{EntityPath, Key};
use crate::odata::typed::key_values;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{ScoringResultCreation, WriteScope};

/// Spec, ScoringTask rule 2: "The ScoringResult is created automatically when it is
/// retrieved through the ScoringTask's navigation property, addressed directly from
/// the ScoringTask URL." Expanding it (`$expand=ScoringResult`) never creates it, and
/// a question without a rubric leaves the collection empty.
pub async fn before_read(
    state: &AppState,
    area: CustomerArea,
    path: &EntityPath,
) -> Result<(), ApiError> {
    let [step] = path.steps.as_slice() else {
        return Ok(());
    };
    if path.set.name != "ScoringTasks" || step.navigation.name != "ScoringResult" {
        return Ok(());
    }
    let Some(key) = path.key.as_ref().map(task_key).transpose()? else {
        return Ok(());
    };
    match state.store.ensure_scoring_result(area, key).await? {
        ScoringResultCreation::NoTask => {
            Err(ApiError::not_found("there is no ScoringTask with that key"))
        }
        ScoringResultCreation::NoRubric | ScoringResultCreation::Exists => Ok(()),
    }
}

/// The task a ScoringTask key from the URL names.
fn task_key(key: &Key) -> Result<TaskKey, ApiError> {
    let mut task = TaskKey {
        question_id: 0,
        result_id: 0,
    };
    for (property, value) in key_values(key)? {
        match (property.name, value) {
            ("QuestionID", Value::Int64(id)) => task.question_id = id,
            ("ResultID", Value::Int32(id)) => task.result_id = id,
            (name, value) => {
                return Err(ApiError::Internal(anyhow::anyhow!(
                    "a ScoringTask key part {name} of {value:?}"
                )))
            }
        }
    }
    Ok(task)
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
    request: &WriteRequest<'_>,
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
