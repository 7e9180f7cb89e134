//! How a read answers: the version header and content type of each format.

use axum::http::header::{CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};

use crate::model::area::CustomerArea;
use crate::odata::format::{Format, Negotiated};

/// The service root URL as the client reached it, ending in `/`.
pub fn service_root(headers: &HeaderMap, area: CustomerArea) -> String {
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    format!("http://{host}/deliveryodata/{area}/")
}

pub(super) fn with_headers(
    mut response: Response,
    negotiated: Negotiated,
    content_type: &str,
) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        "DataServiceVersion",
        HeaderValue::from_static(negotiated.data_service_version()),
    );
    if let Ok(value) = HeaderValue::from_str(content_type) {
        headers.insert(CONTENT_TYPE, value);
    }
    response
}

/// A JSON document: `axum::Json` of a value, or a feed's streamed body.
pub(super) fn json_response(body: impl IntoResponse, negotiated: Negotiated) -> Response {
    let content_type = match negotiated.format {
        Format::JsonFullMetadata => {
            "application/json;odata=fullmetadata;streaming=true;charset=utf-8"
        }
        Format::JsonNoMetadata => "application/json;odata=nometadata;streaming=true;charset=utf-8",
        Format::JsonVerbose => "application/json;odata=verbose;charset=utf-8",
        Format::JsonLight | Format::Atom => {
            "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"
        }
    };
    with_headers(body.into_response(), negotiated, content_type)
}

/// An Atom document: an entry or a feed.
pub(super) fn atom_response(
    body: impl IntoResponse,
    negotiated: Negotiated,
    feed: bool,
) -> Response {
    let content_type = if feed {
        "application/atom+xml;type=feed;charset=utf-8"
    } else {
        "application/atom+xml;type=entry;charset=utf-8"
    };
    with_headers(body.into_response(), negotiated, content_type)
}

/// `updated` for Atom documents: now, to the second.
pub(super) fn atom_updated() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}
