//! Error bodies in the client's format: the contract's JSON light body by default,
//! `{"error": {...}}` for clients that asked for verbose JSON (or are version 2).

use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::header::{ACCEPT, CONTENT_LENGTH};
use axum::middleware::Next;
use axum::response::Response;

/// The largest error body rewrapped; ours are a few hundred bytes.
const MAX_ERROR_BODY: usize = 64 * 1024;

fn wants_verbose(request: &Request) -> bool {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let accept = header(ACCEPT.as_str()).to_ascii_lowercase();
    let max_version = header("MaxDataServiceVersion");
    let format_verbose = request
        .uri()
        .query()
        .is_some_and(|q| q.contains("format=verbosejson"));
    let version_2 = max_version
        .split(';')
        .next()
        .and_then(|v| v.trim().parse::<f32>().ok())
        .is_some_and(|v| v < 3.0);
    accept.contains("odata=verbose") || format_verbose || version_2
}

pub async fn error_format(request: Request, next: Next) -> Response {
    let verbose = wants_verbose(&request);
    let response = next.run(request).await;
    if !verbose || !(response.status().is_client_error() || response.status().is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_ERROR_BODY).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let rewrapped = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|mut value| value.get_mut("odata.error").map(serde_json::Value::take))
        .map(|inner| serde_json::json!({ "error": inner }).to_string());
    match rewrapped {
        Some(text) => {
            parts.headers.remove(CONTENT_LENGTH);
            Response::from_parts(parts, Body::from(text))
        }
        None => Response::from_parts(parts, Body::from(bytes)),
    }
}
