use axum::extract::Request;
use axum::http::header::{ACCEPT, HOST};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::odata::service_document;

/// The service document, in verbose JSON when the client asks for it.
pub fn service_document(request: &Request, root_path: &str) -> Response {
    let wants_verbose = request
        .headers()
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("odata=verbose"));
    let host = request
        .headers()
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    let body = if wants_verbose {
        service_document::json_verbose()
    } else {
        service_document::json_light(&format!("http://{host}{root_path}"))
    };
    ([("DataServiceVersion", "3.0;")], Json(body)).into_response()
}
