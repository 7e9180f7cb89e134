//! The HTTP surface: `/health`, and the OData service under
//! `/deliveryodata/<customer_id>/`, one module per group of feeds.

mod access;
pub mod actions;
pub mod entities;
mod error_format;
mod health;
mod read;
mod scoring;
mod service_root;
mod write;

use axum::extract::{RawQuery, Request, State};
use axum::http::Method;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::{middleware, Extension, Router};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::trace::TraceLayer;

use crate::auth::{require_customer_area, CustomerArea, Principal};
use crate::odata::path::{self, EntityPath, ResourcePath, Suffix};
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;
use crate::AppState;

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
        .layer(middleware::from_fn(error_format::error_format))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such resource; the service is under /deliveryodata/<customer_id>/")
}

/// The resource path after `/deliveryodata/<customer_id>`, percent-decoded.
fn resource_path_text(request_path: &str) -> Result<String, ApiError> {
    let decoded = percent_encoding::percent_decode_str(request_path)
        .decode_utf8()
        .map_err(|_| ApiError::bad_request("the path is not valid UTF-8 once percent-decoded"))?;
    let mut segments = decoded.trim_start_matches('/').splitn(3, '/');
    let _service = segments.next();
    let _area = segments.next();
    Ok(segments.next().unwrap_or_default().to_owned())
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

/// Feeds whose reading is not a plain read, and arrives with their own issue.
fn not_served_yet(path: &EntityPath) -> Option<String> {
    if path.set.name == "AssessmentSnapshots" || path.target().name == "AssessmentSnapshots" {
        return Some("AssessmentSnapshots are not served yet".into());
    }
    None
}

/// Every OData request: the resource path is parsed here, not by the router, because
/// OData paths carry key predicates and percent-encoded punctuation.
async fn dispatch(
    State(state): State<AppState>,
    Extension(area): Extension<CustomerArea>,
    Extension(principal): Extension<Principal>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Result<Response, ApiError> {
    let (parts, body) = request.into_parts();
    let text = resource_path_text(parts.uri.path())?;
    // Actions are declared in $metadata; they are invoked with their own issues.
    let last_segment = text
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default();
    if let Some(action) = actions::ACTIONS.iter().find(|a| a.name == last_segment) {
        return Err(ApiError::NotImplemented(format!(
            "the action {} is not served yet",
            action.name
        )));
    }
    let resource = path::parse(&text, entities::by_name)?;
    let options = QueryOptions::parse(query.as_deref())?;
    let method = parts.method.clone();
    let reading = method == Method::GET || method == Method::HEAD;
    let path = match resource {
        ResourcePath::ServiceRoot if reading => {
            return service_root::service_document(&parts.headers, area.0, &options)
        }
        ResourcePath::Metadata if reading => return Ok(metadata_document()),
        ResourcePath::ServiceRoot | ResourcePath::Metadata => {
            return Err(ApiError::MethodNotAllowed(format!(
                "{method} is not allowed on this resource"
            )))
        }
        ResourcePath::Entities(path) => path,
    };
    access::check(&principal, path.set.name)?;
    access::check(&principal, path.target().name)?;
    if let Some(reason) = not_served_yet(&path) {
        return Err(ApiError::NotImplemented(reason));
    }
    if scoring::refuses_partial_updates(&path, &method) {
        return Err(ApiError::MethodNotAllowed(format!(
            "{method} is not allowed on {}: the scoring feeds take PUT of the whole entity",
            path.target().name
        )));
    }
    if !reading && path.suffix == Suffix::Count {
        return Err(ApiError::MethodNotAllowed(format!(
            "{method} is not allowed on $count, which is read-only"
        )));
    }
    if method == Method::PUT && path.suffix == Suffix::None {
        let put = write::PutRequest {
            state: &state,
            area: area.0,
            headers: &parts.headers,
            uri: &parts.uri,
            path: &path,
            options: &options,
            body: write::read_body(body, state.settings.max_body_bytes).await?,
        };
        if let Some(response) = scoring::put(&put).await {
            return response;
        }
    }
    if !reading {
        return Err(ApiError::NotImplemented(format!(
            "{method} on {} is not served yet",
            path.target().name
        )));
    }
    scoring::before_read(&state, area.0, &path).await?;
    let read_request = read::ReadRequest {
        area: area.0,
        headers: &parts.headers,
        uri: &parts.uri,
        head: method == Method::HEAD,
    };
    read::get(&state, read_request, &path, &options).await
}
