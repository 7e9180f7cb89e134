//! Error bodies in the client's format: the contract's JSON light body by default,
//! `{"error": {...}}` for clients that asked for verbose JSON (or are version 2),
//! `m:error` for clients that asked for Atom or XML; and the same body for errors
//! that arise below the OData layer.

use axum::body::{to_bytes, Body};
use axum::http::header::{ACCEPT, CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
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

/// The error body's form a request asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorForm {
    Json,
    Verbose,
    Xml,
}

/// Whether a request asked for XML (Atom): by `$format`, or by `Accept`.
pub fn wants_xml(headers: &HeaderMap, query: Option<&str>) -> bool {
    let format = query.and_then(|query| {
        form_urlencoded::parse(query.as_bytes())
            .find(|(name, _)| name == "$format")
            .map(|(_, value)| value.into_owned())
    });
    match format.as_deref() {
        Some("atom" | "xml") => true,
        Some(_) => false,
        None => matches!(
            crate::odata::format::negotiate(headers, None, false),
            Ok(negotiated) if negotiated.format == crate::odata::format::Format::Atom
        ),
    }
}

/// The form of the error body for a request with these headers and query.
pub fn error_form(headers: &HeaderMap, query: Option<&str>) -> ErrorForm {
    if wants_xml(headers, query) {
        ErrorForm::Xml
    } else if wants_verbose(headers, query) {
        ErrorForm::Verbose
    } else {
        ErrorForm::Json
    }
}

/// What decides a request's error form, kept from the request for the rare answer
/// that is an error: the three headers `error_form` reads (clones of shared bytes),
/// rather than the form worked out for every request.
pub struct AskedForm {
    headers: [(HeaderName, Option<HeaderValue>); 3],
}

impl AskedForm {
    pub fn of(headers: &HeaderMap) -> Self {
        let kept = |name: HeaderName| {
            let value = headers.get(&name).cloned();
            (name, value)
        };
        Self {
            headers: [
                kept(ACCEPT),
                kept(HeaderName::from_static("maxdataserviceversion")),
                kept(HeaderName::from_static("dataserviceversion")),
            ],
        }
    }

    /// The error form asked for, with the request's `query`.
    pub fn form(&self, query: Option<&str>) -> ErrorForm {
        let mut headers = HeaderMap::new();
        for (name, value) in &self.headers {
            if let Some(value) = value {
                headers.insert(name.clone(), value.clone());
            }
        }
        error_form(&headers, query)
    }
}

/// Whether `status` is one the error body is written for.
pub fn is_error(status: StatusCode) -> bool {
    status.is_client_error() || status.is_server_error()
}

/// `response` with the contract's error body in the asked-for form, if it is an error.
pub async fn formatted(form: ErrorForm, response: Response) -> Response {
    let status = response.status();
    if !is_error(status) {
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
    parts.headers.remove(CONTENT_LENGTH);
    let (body, content_type) = match form {
        ErrorForm::Verbose => (
            json!({ "error": inner }).to_string().into_bytes(),
            "application/json;charset=utf-8",
        ),
        ErrorForm::Json => (
            json!({ "odata.error": inner }).to_string().into_bytes(),
            "application/json;charset=utf-8",
        ),
        ErrorForm::Xml => (
            crate::odata::atom::error_document(
                inner["code"].as_str().unwrap_or_default(),
                inner["message"]["value"].as_str().unwrap_or_default(),
            ),
            "application/xml;charset=utf-8",
        ),
    };
    parts
        .headers
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    Response::from_parts(parts, Body::from(body))
}
