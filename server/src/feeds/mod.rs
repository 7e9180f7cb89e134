//! The HTTP surface: `/health`, and the OData service under
//! `/deliveryodata/<customer_id>/`, one module per group of feeds.

mod access;
mod health;
mod resource_path;
mod scoring_tasks;
mod service_root;

use axum::extract::{RawQuery, Request};
use axum::http::Method;
use axum::response::Response;
use axum::routing::{any, get};
use axum::{middleware, Extension, Router};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::trace::TraceLayer;

use crate::auth::{require_customer_area, CustomerArea, Principal};
use crate::odata::ApiError;
use crate::AppState;
use resource_path::ResourcePath;

pub fn router(state: AppState) -> Router {
    let service = Router::new()
        .route("/deliveryodata/{*rest}", any(dispatch))
        .route("/deliveryodata", any(dispatch))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            require_customer_area,
        ));
    Router::new()
        .route("/health", get(health::health))
        .merge(service)
        .fallback(not_found)
        .layer(RequestBodyLimitLayer::new(state.settings.max_body_bytes))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such resource; the service is under /deliveryodata/<customer_id>/")
}

/// Every OData request: the resource path is parsed here, not by the router, because
/// OData paths carry key predicates and percent-encoded punctuation.
async fn dispatch(
    axum::extract::State(state): axum::extract::State<AppState>,
    Extension(area): Extension<CustomerArea>,
    Extension(principal): Extension<Principal>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Result<Response, ApiError> {
    let path = ResourcePath::parse(request.uri().path())?;
    let method = request.method().clone();
    if let Some(feed) = path.entity_set() {
        access::check(&principal, feed)?;
    }
    match (&path, &method) {
        (ResourcePath::ServiceRoot { root }, &Method::GET) => {
            Ok(service_root::service_document(&request, root))
        }
        (ResourcePath::Count { entity_set }, &Method::GET) if entity_set == "ScoringTasks" => {
            scoring_tasks::count(&state, area, query.as_deref()).await
        }
        (ResourcePath::Count { entity_set }, &Method::GET)
        | (ResourcePath::Other { entity_set }, _) => Err(ApiError::NotImplemented(format!(
            "the {entity_set} feed is not served yet"
        ))),
        (ResourcePath::ServiceRoot { .. }, _) | (ResourcePath::Count { .. }, _) => Err(
            ApiError::MethodNotAllowed(format!("{method} is not allowed on this resource")),
        ),
    }
}
