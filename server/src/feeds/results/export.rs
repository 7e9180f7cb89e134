//! `ExportResults` (our extension, issue 34, docs/exports.md): a GET function
//! answering an assessment's results as the file `export results` writes (CSV, an
//! Excel workbook, a OneRoster gradebook zip), as an `Edm.Binary` value (base64 in
//! JSON), for clients that cannot run the command: the desktop's "Save as…".

use axum::response::Response;
use base64::Engine;

use crate::export::{read_report, render, ExportError, Format};
use crate::feeds::handler::ActionRequest;
use crate::odata::ApiError;

pub async fn invoke(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let assessment = request.arguments.int64("AssessmentID").ok_or_else(|| {
        ApiError::bad_request(format!(
            "{}: the parameter AssessmentID is required: the assessment's ID, as AssessmentID=2185231530100000L",
            request.name()
        ))
    })?;
    let format = request.required_text("Format", "csv, xlsx or oneroster")?;
    let format = Format::parse(&format).ok_or_else(|| {
        ApiError::bad_request(format!(
            "{}: Format is '{format}'; the formats are 'csv', 'xlsx' and 'oneroster'",
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
    let bytes = tokio::task::spawn_blocking(move || render(&report, &analysis, format))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .map_err(|e| ApiError::Internal(e.into()))?;
    request.returned(
        "Edm.Binary",
        serde_json::Value::String(base64::engine::general_purpose::STANDARD.encode(bytes)),
    )
}
