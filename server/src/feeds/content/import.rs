//! `ImportQtiPackage` (our extension, docs/content.md): a QTI content package, sent
//! as base64, imported into the caller's area (administrators only, as every
//! action), or previewed: the report says what is created, unchanged, revised and
//! skipped. A malformed or hostile package is a 400 naming the file and element,
//! and nothing is stored.

use axum::response::Response;

use crate::feeds::handler::ActionRequest;
use crate::import::{self, ImportError, Mode};
use crate::odata::ApiError;

pub async fn import_qti(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let package = request
        .arguments
        .binary("Package")
        .ok_or_else(|| {
            ApiError::bad_request(
                "ImportQtiPackage: the parameter Package is required: the package's zip, in base64",
            )
        })?
        .to_vec();
    let file_name = request.arguments.text("FileName").unwrap_or("").to_owned();
    let fallback_name = file_name
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .trim_end_matches(".zip")
        .to_owned();
    let mode = if request.arguments.boolean("Preview").unwrap_or(false) {
        Mode::Preview
    } else {
        Mode::Commit
    };
    let refused = |error: ImportError| match error {
        ImportError::Store(error) => ApiError::from(error),
        other => ApiError::bad_request(format!("ImportQtiPackage: {other}")),
    };
    // Reading is CPU work (XML, images): off the async threads.
    let read = tokio::task::spawn_blocking(move || import::read_qti(&package, &mut |_, _| {}))
        .await
        .map_err(|error| ApiError::Internal(anyhow::anyhow!("reading a package: {error}")))?
        .map_err(refused)?;
    let report = import::store_qti(
        &request.state.store,
        request.area,
        &read,
        &fallback_name,
        mode,
    )
    .await
    .map_err(refused)?;
    let body = serde_json::to_value(&report)
        .map_err(|error| ApiError::Internal(anyhow::anyhow!("writing a report: {error}")))?;
    request.returned("ScoreDesk.ContentImportReport", body)
}
