//! An online, consistent copy of a SQLite database (`scoredesk-server backup`):
//! `VACUUM INTO` reads one snapshot of the database while servers keep writing to it,
//! and writes a compact copy. PostgreSQL has its own tools for this (`pg_dump`,
//! base backups); docs/operations.md says which.

use std::path::Path;

use sqlx::Connection;

use crate::store::{Pool, Store, StoreError};

/// What a backup wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupMade {
    pub bytes: u64,
    /// `PRAGMA integrity_check` of the copy: `ok`, or what is wrong.
    pub integrity: String,
}

/// Why there is no backup.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0} already exists; a backup never overwrites a file")]
    Exists(String),
    #[error("backups of PostgreSQL are made with pg_dump or a base backup (docs/operations.md)")]
    NotSqlite,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}: {1}")]
    File(String, std::io::Error),
}

impl Store {
    /// Writes a consistent copy of the database to `target`, which must not exist:
    /// first under `<target>.partial`, renamed once complete and checked, so that a
    /// file at `target` is always a whole backup.
    pub async fn backup_into(&self, target: &Path) -> Result<BackupMade, BackupError> {
        let Pool::Sqlite(pool, ..) = &self.pool else {
            return Err(BackupError::NotSqlite);
        };
        let shown = target.display().to_string();
        if target.exists() {
            return Err(BackupError::Exists(shown));
        }
        let partial = target.with_extension("partial");
        let _ = std::fs::remove_file(&partial);
        let partial_text = partial.to_string_lossy().into_owned();
        sqlx::query("VACUUM INTO ?")
            .bind(&partial_text)
            .execute(pool)
            .await
            .map_err(StoreError::from)?;
        let mut copy = sqlx::SqliteConnection::connect(&format!("sqlite:{partial_text}"))
            .await
            .map_err(StoreError::from)?;
        let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(&mut copy)
            .await
            .map_err(StoreError::from)?;
        copy.close().await.map_err(StoreError::from)?;
        let bytes = std::fs::metadata(&partial)
            .map_err(|e| BackupError::File(partial_text.clone(), e))?
            .len();
        std::fs::rename(&partial, target).map_err(|e| BackupError::File(shown, e))?;
        Ok(BackupMade { bytes, integrity })
    }
}
