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
            other => ApiError::Internal(other.into()),
        }
    }
}
