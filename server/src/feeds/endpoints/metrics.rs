//! `/metrics` for Prometheus (every request is counted and timed by
//! `pipeline::frame`).
//!
//! Scraping takes a server administrator's credentials (an account of no customer
//! area), as every request here is authenticated: the figures span all areas.

use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};

use crate::auth::Role;
use crate::feeds::handler::state::AppState;
use crate::feeds::pipeline::gate::{authenticate, client_address};
use crate::odata::ApiError;

const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

pub async fn metrics(
    State(state): State<AppState>,
    request: Request,
) -> Result<Response, ApiError> {
    let (request, _) = request.into_parts();
    let address = client_address(&state, &request);
    let authorization = request.headers.get(AUTHORIZATION).cloned();
    let principal = authenticate(&state, authorization, address).await?;
    if principal.area.is_some() || principal.role != Role::Admin {
        return Err(ApiError::Forbidden(format!(
            "account '{}' is not a server administrator; /metrics spans every customer area",
            principal.username
        )));
    }
    let tasks = state.store.scoring_tasks_by_status().await?;
    let pool = state.store.pool_use();
    state.metrics.set_pool(pool.open, pool.idle, pool.max);
    state
        .metrics
        .set_scoring_tasks(tasks.into_iter().map(|t| (t.area, t.status, t.tasks)));
    let text = state.metrics.render();
    Ok((
        [(CONTENT_TYPE, HeaderValue::from_static(OPENMETRICS))],
        text,
    )
        .into_response())
}
