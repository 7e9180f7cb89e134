//! What a store error means to a client, decided once.

use crate::odata::ApiError;
use crate::store::StoreError;

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::NotFound => ApiError::NotFound("the entity does not exist".into()),
            StoreError::Conflict(_) => {
                ApiError::Conflict("the write conflicts with stored data".into())
            }
            StoreError::Contention => ApiError::Conflict(
                "another write to the same entities happened at the same moment; nothing was \
                 written, so try again"
                    .into(),
            ),
            StoreError::TimedOut => ApiError::ServiceUnavailable(
                "the database took too long to answer; try again, or ask for less".into(),
            ),
            StoreError::Unavailable(cause) => {
                tracing::warn!(error = %cause, "the database is unavailable");
                ApiError::ServiceUnavailable(
                    "the database is not answering now; nothing was written, so try again \
                     in a moment"
                        .into(),
                )
            }
            StoreError::DiskFull(cause) => {
                tracing::error!(error = %cause, "the database's disk is full");
                ApiError::InsufficientStorage(
                    "the database's disk is full; nothing was written. Reads go on; \
                     writes resume once the operator frees space"
                        .into(),
                )
            }
            other => ApiError::Internal(other.into()),
        }
    }
}
