//! A budget for the request bodies being read and worked on at once. One large
//! upload is held a small multiple of its size while it is checked (the body, its
//! image decoded); without a budget, four 31 MB bodies at once took the server
//! from 150 to 829 MB (issue 31). So a request whose body is 1 MiB or more first
//! takes its size (by `Content-Length`; a body of unknown length, the largest
//! allowed) from `body_bytes_at_once`, waits while the budget is spent, and gives
//! it back with its answer. Waiting holds a connection, not memory, and the request
//! timeout bounds it. Small bodies pass at once: they are most requests, and each
//! costs little.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{CONTENT_LENGTH, TRANSFER_ENCODING};
use axum::middleware::Next;
use axum::response::Response;
use tokio::sync::Semaphore;

const MIB: usize = 1024 * 1024;

/// The budget, in MiB, and what a body of unknown length counts as.
#[derive(Clone)]
pub struct BodyBudget {
    mebibytes: Arc<Semaphore>,
    total: u32,
    largest_body: usize,
}

impl BodyBudget {
    pub fn new(bytes: usize, largest_body: usize) -> Self {
        let total = u32::try_from((bytes / MIB).max(1)).unwrap_or(u32::MAX);
        Self {
            mebibytes: Arc::new(Semaphore::new(total as usize)),
            total,
            largest_body,
        }
    }
}

pub async fn within_body_budget(
    State(budget): State<BodyBudget>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let length = headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.parse::<usize>().ok());
    let size = match length {
        Some(length) => length,
        None if headers.contains_key(TRANSFER_ENCODING) => budget.largest_body,
        None => 0,
    };
    if size < MIB {
        return next.run(request).await;
    }
    let weight = u32::try_from(size.div_ceil(MIB))
        .unwrap_or(u32::MAX)
        .min(budget.total);
    let _spent = Arc::clone(&budget.mebibytes)
        .acquire_many_owned(weight)
        .await
        .expect("the body budget is never closed");
    next.run(request).await
}
