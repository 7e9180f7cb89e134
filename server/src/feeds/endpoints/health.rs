use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde_json::{json, Value};

use crate::feeds::handler::state::AppState;

/// Liveness for operators and load balancers, without authentication: 200 when the
/// database answers, 503 when it does not.
pub async fn health(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    match state.store.ping().await {
        Ok(()) => (
            StatusCode::OK,
            Json(json!({ "status": "ok", "database": "ok" })),
        ),
        Err(error) => {
            tracing::warn!(%error, "health check: database unavailable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "unavailable", "database": "unavailable" })),
            )
        }
    }
}
