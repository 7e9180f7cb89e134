//! `ScoringProgress` (our extension, issue 34, docs/odata.md): a GET function
//! that counts an assessment's scoring tasks by status for the whole assessment,
//! per question, per group and per scorer, with the tasks finished in each of the
//! last eight hours ([`crate::model::progress`]).

use axum::response::Response;
use serde_json::{json, Value};

use super::statistics::ASSESSMENT_ID;
use crate::feeds::handler::ActionRequest;
use crate::model::progress::{progress, By, PACE_HOURS};
use crate::odata::ApiError;
use crate::store::now_millis;

pub async fn invoke(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let assessment = request.required_int64("AssessmentID", ASSESSMENT_ID)?;
    let store = &request.state.store;
    let area = request.area;
    if !store.assessment_exists(area, assessment).await? {
        return Err(ApiError::not_found(format!(
            "there is no assessment {assessment} in this customer area"
        )));
    }
    let now = now_millis();
    let since = now - PACE_HOURS as i64 * 3_600_000;
    let counts = store.task_counts(area, assessment).await?;
    let held = store.held_counts(area, assessment).await?;
    let finished = store.finished_since(area, assessment, since).await?;
    let (questions, groups) = store.progress_names(area, assessment).await?;
    let mut rows = progress(&counts, &held, &finished, now);
    // Questions in the assessment's order.
    rows.sort_by_key(|row| {
        let place = match row.by {
            By::Question => row
                .key
                .parse::<i64>()
                .ok()
                .and_then(|id| questions.get(&id))
                .map_or(i32::MAX, |(position, _)| *position),
            _ => 0,
        };
        (row.by, place)
    });
    let value: Vec<Value> = rows
        .iter()
        .map(|row| {
            let name = match row.by {
                By::Assessment => "All questions".to_owned(),
                By::Question => row
                    .key
                    .parse::<i64>()
                    .ok()
                    .and_then(|id| questions.get(&id))
                    .map(|(position, description)| match description {
                        Some(text) => format!("Q{position}: {text}"),
                        None => format!("Q{position}"),
                    })
                    .unwrap_or_else(|| format!("Question {}", row.key)),
                By::Group => row
                    .key
                    .parse::<i32>()
                    .ok()
                    .and_then(|id| groups.get(&id).cloned())
                    .unwrap_or_else(|| "No group".to_owned()),
                By::Scorer => row.key.clone(),
            };
            json!({
                "By": row.by.as_str(),
                "Key": row.key,
                "Name": name,
                "Open": row.open,
                "BeingScored": row.being_scored,
                "Saved": row.saved,
                "Scored": row.scored,
                "ScoredByHour": row.pace,
            })
        })
        .collect();
    request.returned(
        "Collection(ScoreDesk.ScoringProgressRow)",
        Value::Array(value),
    )
}
