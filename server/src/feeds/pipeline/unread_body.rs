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
use axum::middleware::Next;
use axum::response::Response;
use futures::StreamExt;

pub async fn close_if_body_unread(request: Request, next: Next) -> Response {
    if !has_body(&request) {
        return next.run(request).await;
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
    let mut response = next.run(request).await;
    if !read_to_end.load(Ordering::Acquire) {
        response
            .headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

fn has_body(request: &Request) -> bool {
    let headers = request.headers();
    headers.contains_key(TRANSFER_ENCODING)
        || headers
            .get(CONTENT_LENGTH)
            .is_some_and(|length| length.as_bytes() != b"0")
}
