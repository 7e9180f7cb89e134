//! `AssessmentStatistics` (our extension, issue 34, docs/statistics.md): a GET
//! function that computes an assessment's item analysis over its final results
//! as they are now, answers the test's figures, and stores each question's as the
//! `ItemStatistics` rows of that assessment (replaced whole).

use axum::response::Response;
use serde_json::json;

use crate::export::{read_report, ExportError};
use crate::feeds::handler::ActionRequest;
use crate::model::report::analysis::{distribution, Analysis};
use crate::model::report::AssessmentReport;
use crate::odata::ApiError;
use crate::store::now_millis;

/// What the functions say the assessment ID is (an example included).
pub(super) const ASSESSMENT_ID: &str = "the assessment's ID, as AssessmentID=2185231530100000L";

/// The assessment's report and analysis; 404 when the area has no such assessment.
pub(super) async fn report_of(
    request: &ActionRequest<'_>,
    assessment: i64,
) -> Result<(AssessmentReport, Analysis), ApiError> {
    match read_report(&request.state.store, request.area, assessment).await {
        Ok(read) => Ok(read),
        Err(ExportError::NoAssessment { .. }) => Err(ApiError::not_found(format!(
            "there is no assessment {assessment} in this customer area"
        ))),
        Err(ExportError::Store(e)) => Err(e.into()),
        Err(e) => Err(ApiError::Internal(e.into())),
    }
}

pub async fn invoke(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let assessment = request.required_int64("AssessmentID", ASSESSMENT_ID)?;
    let (report, analysis) = report_of(request, assessment).await?;
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
