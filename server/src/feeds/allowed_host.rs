//! Refuses requests whose `Host` is not one the server answers to, when the settings
//! name any (`allowed_hosts`). A web page that learns the desktop app's port and
//! points its own name at 127.0.0.1 (DNS rebinding) sends its own name as `Host`, so
//! its requests never reach the service.

use axum::extract::{Request, State};
use axum::http::header::HOST;
use axum::middleware::Next;
use axum::response::Response;

use crate::feeds::state::AppState;
use crate::odata::ApiError;

pub async fn allowed_host(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let allowed = &state.settings.allowed_hosts;
    if allowed.is_empty() {
        return Ok(next.run(request).await);
    }
    let host = request
        .headers()
        .get(HOST)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.to_string()))
        .unwrap_or_default();
    if allowed.iter().any(|name| name.eq_ignore_ascii_case(&host)) {
        return Ok(next.run(request).await);
    }
    tracing::warn!(%host, "request for a host this server does not answer to");
    Err(ApiError::MisdirectedRequest(format!(
        "this server does not answer to the host '{host}'"
    )))
}
