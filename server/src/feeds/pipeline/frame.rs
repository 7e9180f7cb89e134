//! What every request passes on its way in and out, in one layer: the `Host`
//! check (`allowed_host`), the error body in the form the client asked for
//! (`error_format`), the request counted and timed by its route (`/metrics`), and
//! `Connection: close` when a body was left unread (`unread_body`).
//!
//! One layer rather than four: each `from_fn` layer boxes its future and the
//! service inside it, and clones every service inside it, on every request; the
//! layers around a one-row read took 14 % of the server's CPU, about half of it
//! that machinery (docs/benchmarks.md, "One layer for the request's frame").

use std::time::Instant;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error_format::{formatted, is_error, AskedForm};
use super::route::{self, RoutePattern};
use super::{allowed_host, unread_body};
use crate::feeds::handler::state::AppState;

/// The layers' work, in the order they stood as layers, outermost first: the
/// unread body, the count, the error format, the host.
pub async fn frame(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let begun = Instant::now();
    let _in_flight = state.metrics.request_started();
    let method = request.method().clone();
    let uri = request.uri().clone();
    let asked = AskedForm::of(request.headers());
    let (request, read_to_end) = unread_body::watch(request);
    let mut response = match allowed_host::check(&state, &request) {
        Ok(()) => next.run(request).await,
        Err(refused) => refused.into_response(),
    };
    if is_error(response.status()) {
        response = formatted(asked.form(uri.query()), response).await;
    }
    // Counted as the client got it: after the error format.
    let label = match response.extensions_mut().remove::<RoutePattern>() {
        Some(RoutePattern(label)) => label,
        None => route::pattern(uri.path()),
    };
    state.metrics.request_answered(
        method.as_str(),
        label,
        response.status().as_u16(),
        begun.elapsed(),
    );
    unread_body::close_if_unread(read_to_end.as_deref(), &mut response);
    response
}
