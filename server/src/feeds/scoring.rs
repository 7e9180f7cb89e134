//! The scoring feeds' own rules on top of the generic read.

use axum::http::Method;

use crate::odata::filter::Literal;
use crate::odata::path::EntityPath;
use crate::odata::ApiError;
use crate::store::ScoringResultCreation;
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

/// The feeds of the scoring workflow.
const SCORING_FEEDS: &[&str] = &["ScoringTasks", "ScoringResults", "DimensionScores"];

/// Spec, Endpoints: "The scoring feeds support PUT and do not support PATCH or MERGE."
pub fn refuses_partial_updates(path: &EntityPath, method: &Method) -> bool {
    let partial = method == Method::PATCH || method.as_str() == "MERGE";
    partial && SCORING_FEEDS.contains(&path.target().name)
}
