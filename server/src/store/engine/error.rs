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
    /// The database cannot be reached or cannot take work now (PostgreSQL
    /// restarting or down, no connection free in time, SQLite's file locked past its
    /// busy timeout or failing to read or write). Nothing of the statement's
    /// transaction was written; the same request may succeed later.
    #[error("the database is unavailable: {0}")]
    Unavailable(sqlx::Error),
    /// The database's disk is full (SQLITE_FULL, PostgreSQL's disk_full): the write
    /// was rolled back whole; reads go on.
    #[error("the database's disk is full: {0}")]
    DiskFull(sqlx::Error),
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
            sqlx::Error::Database(db)
                if matches!(
                    db.code().as_deref().and_then(classify_code),
                    Some(Class::DiskFull)
                ) =>
            {
                StoreError::DiskFull(error)
            }
            _ if is_unavailable(&error) => StoreError::Unavailable(error),
            _ => StoreError::Database(error),
        }
    }
}

/// Whether `error` says the database cannot be reached or cannot take work now,
/// rather than anything about the statement: what becomes
/// [`StoreError::Unavailable`].
pub(crate) fn is_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Database(db) => matches!(
            db.code().as_deref().and_then(classify_code),
            Some(Class::Unavailable)
        ),
        // The connection is gone or never came: a restart, a network cut.
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        _ => false,
    }
}

enum Class {
    Unavailable,
    DiskFull,
}

/// What a database's error code says about the database itself, as opposed to
/// the statement. PostgreSQL's codes are five characters (SQLSTATE); SQLite's are
/// numbers whose low byte is the primary code.
fn classify_code(code: &str) -> Option<Class> {
    // A SQLSTATE is five characters, often all digits (08006, 53100); SQLite's
    // codes, extended ones included, have at most four digits.
    let sqlstate = code.len() == 5;
    if let Some(sqlite) = code.parse::<i32>().ok().filter(|_| !sqlstate) {
        return match sqlite & 0xff {
            // SQLITE_FULL.
            13 => Some(Class::DiskFull),
            // SQLITE_BUSY and SQLITE_LOCKED past the busy timeout, SQLITE_IOERR,
            // SQLITE_CANTOPEN.
            5 | 6 | 10 | 14 => Some(Class::Unavailable),
            _ => None,
        };
    }
    match code {
        "53100" => Some(Class::DiskFull),
        // Connection exceptions (class 08), too many connections, and the server
        // shutting down, crashed or starting (57P01 to 57P03).
        _ if code.starts_with("08") => Some(Class::Unavailable),
        "53300" | "57P01" | "57P02" | "57P03" => Some(Class::Unavailable),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_that_speak_of_the_database_are_told_from_those_of_a_statement() {
        assert!(matches!(classify_code("13"), Some(Class::DiskFull)));
        assert!(matches!(classify_code("53100"), Some(Class::DiskFull)));
        // SQLITE_IOERR_WRITE (778) and SQLITE_BUSY_SNAPSHOT (517): by their low byte.
        assert!(matches!(classify_code("778"), Some(Class::Unavailable)));
        assert!(matches!(classify_code("517"), Some(Class::Unavailable)));
        assert!(matches!(classify_code("57P01"), Some(Class::Unavailable)));
        assert!(matches!(classify_code("08006"), Some(Class::Unavailable)));
        // A constraint (SQLITE_CONSTRAINT_CHECK 275, check_violation 23514) is the
        // statement's fault, not the database's.
        assert!(classify_code("275").is_none());
        assert!(classify_code("23514").is_none());
    }
}
