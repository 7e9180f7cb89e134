//! `/metrics` for Prometheus, and the layer that measures every request.
//!
//! Scraping takes a server administrator's credentials (an account of no customer
//! area), as every request here is authenticated: the figures span all areas.

use std::time::Instant;

use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::auth::Role;
use crate::feeds::handler::state::AppState;
use crate::feeds::pipeline::gate::{authenticate, client_address};
use crate::feeds::pipeline::route;
use crate::odata::ApiError;

const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Counts and times every request, by its route pattern (`route::pattern`).
pub async fn observe(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let begun = Instant::now();
    let _in_flight = state.metrics.request_started();
    let method = request.method().as_str().to_owned();
    let pattern = route::pattern(request.uri().path());
    let response = next.run(request).await;
    state.metrics.request_answered(
        &method,
        pattern,
        response.status().as_u16(),
        begun.elapsed(),
    );
    response
}

pub async fn metrics(
    State(state): State<AppState>,
    request: Request,
) -> Result<Response, ApiError> {
    let address = client_address(&state, &request);
    let authorization = request.headers().get(AUTHORIZATION).cloned();
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
