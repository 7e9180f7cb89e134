//! The HTTP surface: `/health`, `/metrics`, printable snapshots under `/print/`
//! (signed links), and the OData service under `/deliveryodata/<customer_id>/`.
//!
//! - `pipeline/`: a request from the socket to its handler and back: the gate
//!   (authentication, the customer area), routing, access, `$batch`, the error
//!   format, the limits on bodies and hosts.
//! - `endpoints/`: what is not OData (health, metrics, printable pages).
//! - `handler/`: what a feature's feeds and actions are written against.
//! - `read/`: the generic read every feed shares.
//! - `catalogue`: the features served; `scoring/`, `delivery/`, `results/`,
//!   `content/`, `marking/`: the features, each declaring its feeds with their handlers.

pub mod catalogue;
pub mod content;
pub mod delivery;
mod endpoints;
pub mod handler;
pub mod marking;
mod pipeline;
mod read;
pub mod results;
pub mod scoring;

pub use handler::AppState;
pub use pipeline::{default_hosts, BodyBudget};

use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use axum::response::IntoResponse;
use axum::routing::{any, get};
use axum::{middleware, Router};
use tower::ServiceBuilder;
use tower_http::body::Limited;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnFailure, TraceLayer};
use tracing::Level;

use crate::odata::ApiError;
use endpoints::{health, marked_script, metrics, print};
use pipeline::dispatch::dispatch;
use pipeline::{body_budget, frame};

pub fn router(state: AppState) -> Router {
    let service = Router::new()
        .route("/deliveryodata/{*rest}", any(dispatch))
        .route("/deliveryodata", any(dispatch));
    let routes = Router::new()
        .route("/health", get(health::health))
        .route("/metrics", get(metrics::metrics))
        .route("/print/{area}/snapshots/{snapshot}", get(print::page))
        .route("/print/{area}/batches/{batch}", get(print::sheets))
        .route("/print/{area}/groups/{group}", get(print::class_list))
        .route("/print/{area}/scripts/{result}", get(marked_script::page))
        .merge(service)
        .fallback(not_found)
        .with_state(state.clone());
    let request_timeout = Duration::from_secs(state.settings.request_timeout_seconds.max(1));
    // The layers every request passes, outermost first, composed around the routes
    // as one service rather than with `Router::layer`: that boxes each layer around
    // each route, and every request then cloned the boxes one by one
    // (docs/benchmarks.md, "Q1 planned once on PostgreSQL").
    let layers = ServiceBuilder::new()
        // A 5xx answer is a warning here: one that is our fault (500) is logged as
        // an error with its cause where it arises; a 503 while the database
        // restarts is the service working as it should (docs/operations.md).
        .layer(TraceLayer::new_for_http().on_failure(DefaultOnFailure::new().level(Level::WARN)))
        // The host, the error format, the count and the unread body, in one layer.
        .layer(middleware::from_fn_with_state(state.clone(), frame::frame))
        // 408 once a request (its body included) takes longer than this.
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            request_timeout,
        ))
        // The limit wraps the body in its own types, each way; the layers inside
        // and the timeout's answer take axum's.
        .map_response(IntoResponse::into_response)
        .layer(RequestBodyLimitLayer::new(state.settings.max_body_bytes))
        .map_request(|request: Request<Limited<Body>>| request.map(Body::new))
        .layer(middleware::from_fn_with_state(
            state.body_budget.clone(),
            body_budget::within_body_budget,
        ));
    Router::new().fallback_service(layers.service(routes))
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such resource; the service is under /deliveryodata/<customer_id>/")
}
