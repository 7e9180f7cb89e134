//! The page a marked script's signed link opens (`MarkedScript`, our
//! extension, docs/odata.md), at
//! `/print/<area>/scripts/<result>?variant=marked-script&expires=…&signature=…`:
//! no credentials, the signature is the credential (auth::links), as for the
//! printable snapshots.

use axum::extract::{Path, Query, State};
use axum::response::Response;

use super::print::{printable_response, verified, SHEETS_POLICY};
use crate::auth::links::PrintVariant;
use crate::documents::marked_script;
use crate::feeds::handler::state::AppState;
use crate::odata::ApiError;

pub async fn page(
    State(state): State<AppState>,
    Path((area, result)): Path<(String, String)>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let (area, result, _) = verified(
        &state,
        &area,
        &result,
        &query,
        &[PrintVariant::MarkedScript],
    )
    .await?;
    let script = state
        .store
        .marked_script(area, result)
        .await?
        .ok_or_else(|| ApiError::not_found("there is no such result"))?;
    let printed = chrono::Utc::now().format("%-d %B %Y").to_string();
    let html = marked_script::render(&script, &printed)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("marked script: {e}")))?;
    Ok(printable_response(html, SHEETS_POLICY))
}
