//! Error bodies in the client's format: the contract's JSON light body by default,
//! `{"error": {...}}` for clients that asked for verbose JSON (or are version 2);
//! and the same body for errors that arise below the OData layer.

use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::header::{ACCEPT, CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::{json, Value};

use crate::odata::error::error_body;

/// The largest error body rewrapped; ours are a few hundred bytes.
const MAX_ERROR_BODY: usize = 64 * 1024;

/// Whether a request with these headers and query asked for verbose JSON (or is from
/// a version 2 client, which gets it).
pub fn wants_verbose(headers: &HeaderMap, query: Option<&str>) -> bool {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let accept = header(ACCEPT.as_str()).to_ascii_lowercase();
    let max_version = header("MaxDataServiceVersion");
    let format_verbose = query.is_some_and(|q| q.contains("format=verbosejson"));
    let version_2 = max_version
        .split(';')
        .next()
        .and_then(|v| v.trim().parse::<f32>().ok())
        .is_some_and(|v| v < 3.0);
    accept.contains("odata=verbose") || format_verbose || version_2
}

pub async fn error_format(request: Request, next: Next) -> Response {
    let verbose = wants_verbose(request.headers(), request.uri().query());
    let response = next.run(request).await;
    formatted(verbose, response).await
}

/// `response` with the contract's error body in the asked-for format, if it is an error.
pub async fn formatted(verbose: bool, response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let bytes = to_bytes(body, MAX_ERROR_BODY).await.unwrap_or_default();
    let odata_error = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|mut value| value.get_mut("odata.error").map(Value::take));
    // Errors raised below the OData layer (the body size limit, say) get the
    // contract's error body too, so that no client ever has to parse anything else.
    let inner = odata_error.unwrap_or_else(|| {
        let text = String::from_utf8_lossy(&bytes);
        let reason = status.canonical_reason().unwrap_or("error");
        let message = match text.trim() {
            "" => reason,
            short if short.len() <= 200 => short,
            _ => reason,
        };
        let code: String = reason.split_whitespace().collect();
        error_body(&code, message)["odata.error"].take()
    });
    let body = if verbose {
        json!({ "error": inner })
    } else {
        json!({ "odata.error": inner })
    };
    parts.headers.remove(CONTENT_LENGTH);
    parts.headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/json;charset=utf-8"),
    );
    Response::from_parts(parts, Body::from(body.to_string()))
}
