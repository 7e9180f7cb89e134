use thiserror::Error;

/// What can go wrong in the store. Only `NotFound` and `Conflict` carry meaning for a
/// client; everything else is an internal failure whose text stays in the log.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("not found")]
    NotFound,
    /// A unique or foreign-key constraint refused the write.
    #[error("conflict: {0}")]
    Conflict(String),
    /// Two transactions wanted each other's rows (PostgreSQL's deadlock detector chose
    /// this one): nothing of it was written, and it may simply be tried again.
    #[error("the write collided with another at the same moment")]
    Contention,
    /// PostgreSQL stopped a statement that ran past `statement_timeout`.
    #[error("the statement ran past the statement timeout")]
    TimedOut,
    /// A stored value breaks a rule the service keeps (a task status outside 0 to 3).
    #[error("stored data is not valid: {0}")]
    Corrupt(String),
    /// The task that writes answer uploads is gone (store::upload_writer).
    #[error("the upload writer has stopped")]
    WriterStopped,
    #[error("the database URL must start with sqlite: or postgres://")]
    UnsupportedUrl,
    #[error(transparent)]
    Database(sqlx::Error),
    #[error(transparent)]
    Migration(#[from] sqlx::migrate::MigrateError),
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        match &error {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                StoreError::Conflict(db.message().to_owned())
            }
            // deadlock_detected and serialization_failure.
            sqlx::Error::Database(db)
                if matches!(db.code().as_deref(), Some("40P01") | Some("40001")) =>
            {
                StoreError::Contention
            }
            // PostgreSQL's query_canceled, which statement_timeout raises.
            sqlx::Error::Database(db) if db.code().as_deref() == Some("57014") => {
                StoreError::TimedOut
            }
            _ => StoreError::Database(error),
        }
    }
}
