//! `AssessmentStatistics` (our extension, issue 34, docs/statistics.md): a GET
//! function that computes an assessment's item analysis over its final results
//! as they are now, answers the test's figures, and stores each question's as the
//! `ItemStatistics` rows of that assessment (replaced whole).

use axum::response::Response;
use serde_json::json;

use crate::export::{read_report, ExportError};
use crate::feeds::handler::ActionRequest;
use crate::model::report::analysis::distribution;
use crate::odata::ApiError;
use crate::store::now_millis;

pub async fn invoke(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let assessment = request.arguments.int64("AssessmentID").ok_or_else(|| {
        ApiError::bad_request(format!(
            "{}: the parameter AssessmentID is required: the assessment's ID, as AssessmentID=2185231530100000L",
            request.name()
        ))
    })?;
    let (report, analysis) = match read_report(&request.state.store, request.area, assessment).await
    {
        Ok(read) => read,
        Err(ExportError::NoAssessment { .. }) => {
            return Err(ApiError::not_found(format!(
                "there is no assessment {assessment} in this customer area"
            )))
        }
        Err(ExportError::Store(e)) => return Err(e.into()),
        Err(e) => return Err(ApiError::Internal(e.into())),
    };
    let at = now_millis();
    request
        .state
        .store
        .replace_item_statistics(request.area, assessment, &analysis, at)
        .await?;
    let test = &analysis.test;
    let computed = chrono::DateTime::from_timestamp_millis(at)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%S%.3f").to_string());
    request.returned(
        "ScoreDesk.AssessmentStatistics",
        json!({
            "AssessmentID": assessment.to_string(),
            "N": analysis.n,
            "LeftOut": analysis.left_out,
            // No final result, no mean (not a mean of 0).
            "Mean": (analysis.n > 0).then_some(test.mean),
            "StandardDeviation": test.standard_deviation,
            "Alpha": test.alpha,
            "Dichotomous": test.dichotomous,
            "StandardErrorOfMeasurement": test.standard_error_of_measurement,
            "GroupSize": analysis.group_size,
            "Distribution": distribution(&report),
            "ComputedDateTime": computed,
        }),
    )
}
