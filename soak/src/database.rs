//! The soak's own reads of the database, apart from the server: its size while
//! the load runs, and the reconciliation at the end. Plain SQL that both
//! dialects take; the values in it are integers the soak made.

use std::path::PathBuf;

use anyhow::Context;
use sqlx::{PgPool, SqlitePool};

pub enum Database {
    Sqlite { pool: SqlitePool, file: PathBuf },
    Postgres(PgPool),
}

/// Runs the same `query_as` on either pool.
macro_rules! fetch_all {
    ($database:expr, $sql:expr, $row:ty) => {
        match $database {
            Database::Sqlite { pool, .. } => sqlx::query_as::<_, $row>($sql).fetch_all(pool).await,
            Database::Postgres(pool) => sqlx::query_as::<_, $row>($sql).fetch_all(pool).await,
        }
    };
}
pub(crate) use fetch_all;

impl Database {
    pub async fn connect(url: &str) -> anyhow::Result<Database> {
        if let Some(path) = url.strip_prefix("sqlite:") {
            let file = PathBuf::from(path.split('?').next().unwrap_or(path));
            let pool = SqlitePool::connect(url)
                .await
                .context("opening the SQLite file")?;
            Ok(Database::Sqlite { pool, file })
        } else {
            Ok(Database::Postgres(
                PgPool::connect(url)
                    .await
                    .context("connecting to PostgreSQL")?,
            ))
        }
    }

    /// Bytes on disk: the SQLite file and its WAL, or PostgreSQL's database.
    pub async fn size(&self) -> anyhow::Result<u64> {
        match self {
            Database::Sqlite { file, .. } => {
                let wal = PathBuf::from(format!("{}-wal", file.display()));
                let len = |p: &PathBuf| std::fs::metadata(p).map_or(0, |m| m.len());
                Ok(len(file) + len(&wal))
            }
            Database::Postgres(pool) => {
                let bytes: i64 = sqlx::query_scalar("SELECT pg_database_size(current_database())")
                    .fetch_one(pool)
                    .await?;
                Ok(bytes.max(0) as u64)
            }
        }
    }

    pub async fn count(&self, sql: &str) -> anyhow::Result<i64> {
        let rows = fetch_all!(self, sql, (i64,))?;
        Ok(rows.first().map_or(0, |(n,)| *n))
    }

    /// SQLite's `PRAGMA integrity_check`; PostgreSQL keeps its own.
    pub async fn integrity(&self) -> anyhow::Result<String> {
        match self {
            Database::Sqlite { pool, .. } => {
                let rows: Vec<(String,)> = sqlx::query_as("PRAGMA integrity_check")
                    .fetch_all(pool)
                    .await?;
                Ok(rows
                    .into_iter()
                    .map(|(r,)| r)
                    .collect::<Vec<_>>()
                    .join("; "))
            }
            Database::Postgres(_) => Ok("ok".to_owned()),
        }
    }
}
