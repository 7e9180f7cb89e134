//! The HTTP surface: `/health`, and the OData service under
//! `/deliveryodata/<customer_id>/`, one module per group of feeds.

mod access;
pub mod actions;
mod allowed_host;
mod batch;
pub mod entities;
mod error_format;
mod gate;
mod health;
mod read;
mod route;
mod scoring;
mod service_root;
mod state;
mod store_errors;
mod write;

pub use state::AppState;

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::{middleware, Extension, Router};
use std::time::Duration;

use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::auth::Principal;
use crate::model::area::CustomerArea;
use crate::odata::path::EntityPath;
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;
use crate::store::WriteScope;
use gate::require_customer_area;
use route::{Incoming, Routed, Target};

pub fn router(state: AppState) -> Router {
    let service = Router::new()
        .route("/deliveryodata/{*rest}", any(dispatch))
        .route("/deliveryodata", any(dispatch))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            require_customer_area,
        ));
    let request_timeout = Duration::from_secs(state.settings.request_timeout_seconds.max(1));
    Router::new()
        .route("/health", get(health::health))
        .merge(service)
        .fallback(not_found)
        .layer(RequestBodyLimitLayer::new(state.settings.max_body_bytes))
        // 408 once a request (its body included) takes longer than this.
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            request_timeout,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            allowed_host::allowed_host,
        ))
        .layer(middleware::from_fn(error_format::error_format))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such resource; the service is under /deliveryodata/<customer_id>/")
}

/// `$metadata`, generated once: the declarations do not change while we run.
fn metadata_document() -> Response {
    static DOCUMENT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let body = DOCUMENT.get_or_init(|| {
        crate::odata::metadata::document(
            entities::ALL,
            actions::ACTIONS,
            actions::COMPLEX_TYPES,
            entities::by_name,
        )
    });
    (
        [
            ("Content-Type", "application/xml;charset=utf-8"),
            ("DataServiceVersion", "3.0;"),
        ],
        body.clone(),
    )
        .into_response()
}

/// Every OData request: routed (see `route`), then served. The resource path is
/// parsed there, not by axum's router, because OData paths carry key predicates and
/// percent-encoded punctuation.
async fn dispatch(
    State(state): State<AppState>,
    Extension(area): Extension<CustomerArea>,
    Extension(principal): Extension<Principal>,
    request: Request,
) -> Result<Response, ApiError> {
    let (parts, body) = request.into_parts();
    let incoming = Incoming {
        method: parts.method,
        uri: parts.uri,
        headers: parts.headers,
    };
    let routed = route::route(&principal, &incoming)?;
    let body = match routed.target {
        Target::Batch | Target::Put { .. } => {
            write::read_body(body, state.settings.max_body_bytes).await?
        }
        _ => Bytes::new(),
    };
    let service = Service {
        state: &state,
        area,
        principal: &principal,
    };
    service.serve(&incoming, routed, body).await
}

/// What serving a request needs besides the request itself.
pub(crate) struct Service<'a> {
    pub state: &'a AppState,
    pub area: CustomerArea,
    pub principal: &'a Principal,
}

impl Service<'_> {
    /// Serves a routed request; a PUT is written in a transaction of its own.
    async fn serve(
        &self,
        incoming: &Incoming,
        routed: Routed,
        body: Bytes,
    ) -> Result<Response, ApiError> {
        match &routed.target {
            Target::Batch => batch::run(self, incoming, body).await,
            Target::Put { path } => {
                let put = self.put_request(incoming, path, &routed.options, body);
                let mut writes = WriteScope::new(&self.state.store);
                let written = scoring::put(&put, &mut writes).await?;
                writes.commit().await?;
                put.respond(written).await
            }
            _ => self.read(incoming, routed).await,
        }
    }

    /// Serves a routed read (service document, `$metadata`, an entity path).
    async fn read(&self, incoming: &Incoming, routed: Routed) -> Result<Response, ApiError> {
        match routed.target {
            Target::ServiceDocument => {
                service_root::service_document(&incoming.headers, self.area, &routed.options)
            }
            Target::Metadata => Ok(metadata_document()),
            Target::Read { path, head } => {
                scoring::before_read(self.state, self.area, &path).await?;
                let read_request = read::ReadRequest {
                    area: self.area,
                    headers: &incoming.headers,
                    uri: &incoming.uri,
                    head,
                };
                read::get(self.state, read_request, &path, &routed.options).await
            }
            Target::Batch | Target::Put { .. } => Err(ApiError::Internal(anyhow::anyhow!(
                "a write was served as a read"
            ))),
        }
    }

    fn put_request<'r>(
        &'r self,
        incoming: &'r Incoming,
        path: &'r EntityPath,
        options: &'r QueryOptions,
        body: Bytes,
    ) -> write::PutRequest<'r> {
        write::PutRequest {
            state: self.state,
            area: self.area,
            headers: &incoming.headers,
            uri: &incoming.uri,
            path,
            options,
            body,
        }
    }
}
