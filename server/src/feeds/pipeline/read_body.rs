//! A request's body read into memory, within the size limit.

use axum::body::{Body, Bytes};
use bytes::BytesMut;
use futures::StreamExt;

use crate::odata::ApiError;

/// The whole body, at most `limit` bytes, gathered into one buffer as it comes:
/// `expected` (the `Content-Length`) bytes are set aside at once, since collecting
/// the pieces first and joining them after would hold the body twice.
pub async fn read_body(
    body: Body,
    limit: usize,
    expected: Option<usize>,
) -> Result<Bytes, ApiError> {
    let too_large = || ApiError::PayloadTooLarge(format!("the body is larger than {limit} bytes"));
    let mut gathered = BytesMut::with_capacity(expected.unwrap_or(0).min(limit));
    let mut stream = body.into_data_stream();
    while let Some(piece) = stream.next().await {
        // The body limit's own error, or a client gone: either way nothing to read.
        let piece = piece.map_err(|_| too_large())?;
        if gathered.len() + piece.len() > limit {
            return Err(too_large());
        }
        gathered.extend_from_slice(&piece);
    }
    Ok(gathered.freeze())
}
