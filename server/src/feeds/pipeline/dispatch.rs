//! Every OData request's way in: admitted (`gate`), routed (`route`), then served by a [`Service`],
//! or run operation by operation when it is a `$batch`.

use axum::body::Bytes;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request, State};
use axum::response::{IntoResponse, Response};

use super::route::{self, Target};
use super::service::Service;
use super::{batch, gate, read_body};
use crate::feeds::handler::state::AppState;
use crate::feeds::handler::Incoming;
use crate::odata::ApiError;

/// Every OData request: admitted (see `gate`), routed (see `route`), then served. The resource path is
/// parsed there, not by axum's router, because OData paths carry key predicates and
/// percent-encoded punctuation.
pub async fn dispatch(
    State(state): State<AppState>,
    request: Request,
) -> Result<Response, ApiError> {
    let (parts, body) = request.into_parts();
    let (area, principal) = gate::admit(&state, &parts).await?;
    let remote = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(address)| address.ip());
    let incoming = Incoming {
        method: parts.method,
        uri: parts.uri,
        headers: parts.headers,
        remote,
    };
    let routed = route::route(&principal, &incoming)?;
    let body = match routed.target {
        Target::Batch | Target::Write { .. } | Target::Action { .. } => {
            let expected = incoming
                .headers
                .get(axum::http::header::CONTENT_LENGTH)
                .and_then(|value| value.to_str().ok()?.parse().ok());
            read_body::read_body(body, state.settings.max_body_bytes, expected).await?
        }
        _ => Bytes::new(),
    };
    let service = Service {
        state: &state,
        area,
        principal: &principal,
    };
    let pattern = routed.pattern.clone();
    let answered = match routed.target {
        Target::Batch => batch::run(&service, &incoming, body).await,
        _ => service.serve(&incoming, routed, body).await,
    };
    let mut response = answered.into_response();
    response.extensions_mut().insert(pattern);
    Ok(response)
}
