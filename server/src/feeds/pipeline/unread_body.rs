//! `Connection: close` on every answer given before the request's body was read to
//! its end (a 401 from the gate, a 413, a 404 for a PUT to nowhere). hyper cannot
//! reuse such a connection unless it drains the rest first, and when it gives up
//! it closes the connection without having said so: the client's next request on
//! it then fails with "connection closed". Saying so lets every client open a new
//! connection for its next request instead.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::header::{CONNECTION, CONTENT_LENGTH, TRANSFER_ENCODING};
use axum::http::HeaderValue;
use axum::response::Response;
use futures::StreamExt;

/// Watches `request`'s body, if it has one: the flag returned is set once the
/// body has been read to its end.
pub fn watch(request: Request) -> (Request, Option<Arc<AtomicBool>>) {
    if !has_body(&request) {
        return (request, None);
    }
    let read_to_end = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&read_to_end);
    let request = request.map(|body| {
        let end = futures::stream::once(async move {
            flag.store(true, Ordering::Release);
            Ok::<_, axum::Error>(Bytes::new())
        });
        Body::from_stream(body.into_data_stream().chain(end))
    });
    (request, Some(read_to_end))
}

/// `Connection: close` on `response` if the body `watch` saw was not read to its end.
pub fn close_if_unread(read_to_end: Option<&AtomicBool>, response: &mut Response) {
    if read_to_end.is_some_and(|read| !read.load(Ordering::Acquire)) {
        response
            .headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
    }
}

fn has_body(request: &Request) -> bool {
    let headers = request.headers();
    headers.contains_key(TRANSFER_ENCODING)
        || headers
            .get(CONTENT_LENGTH)
            .is_some_and(|length| length.as_bytes() != b"0")
}
