//! A request's head, as routing and the handlers need it.

use axum::http::{HeaderMap, Method, Uri};

pub struct Incoming {
    pub method: Method,
    pub uri: Uri,
    pub headers: HeaderMap,
    /// The client's address (the audit log's Source).
    pub remote: Option<std::net::IpAddr>,
}
