//! `ExportResults` (our extension, issue 34, docs/exports.md): a GET function
//! answering an assessment's results as the file `export results` writes (CSV, an
//! Excel workbook, a OneRoster gradebook zip), as an `Edm.Binary` value (base64 in
//! JSON), for clients that cannot run the command: the desktop's "Save as…".

use axum::response::Response;
use base64::Engine;

use super::statistics::{report_of, ASSESSMENT_ID};
use crate::export::{render, Format};
use crate::feeds::handler::ActionRequest;
use crate::odata::ApiError;

pub async fn invoke(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let assessment = request.required_int64("AssessmentID", ASSESSMENT_ID)?;
    let format = request.required_text("Format", "csv, xlsx or oneroster")?;
    let format = Format::parse(&format).ok_or_else(|| {
        ApiError::bad_request(format!(
            "{}: Format is '{format}'; the formats are 'csv', 'xlsx' and 'oneroster'",
            request.name()
        ))
    })?;
    let (report, analysis) = report_of(request, assessment).await?;
    let bytes = tokio::task::spawn_blocking(move || render(&report, &analysis, format))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .map_err(|e| ApiError::Internal(e.into()))?;
    request.returned(
        "Edm.Binary",
        serde_json::Value::String(base64::engine::general_purpose::STANDARD.encode(bytes)),
    )
}
