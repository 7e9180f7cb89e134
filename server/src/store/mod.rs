//! The database: one interface, SQLite and PostgreSQL behind it.
//!
//! Queries are written once with sea-query and rendered in the dialect of the backend
//! chosen from the database URL; every value travels as a bound parameter. Where the
//! two backends really differ (query-plan hints, row locking) the code says so with an
//! explicit `match` on [`Backend`].

mod accounts;
mod error;
mod exec;
mod result_scores;
pub mod schema;
mod scoring;
mod scoring_updates;
pub mod seed_writes;
mod values;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::SqliteSynchronous;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};

pub use accounts::{AccountRecord, NewAccount};
pub use error::StoreError;
pub use exec::{Record, Scalar, Tx};
pub use scoring::ScoringResultCreation;
pub use scoring_updates::{ConditionalUpdate, ScoringResultKey, ScoringResultValues, StatusChange};
pub use values::MediaColumn;

/// Which database engine a [`Store`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub(crate) enum Pool {
    /// With one write permit: see [`Store::begin`].
    Sqlite(SqlitePool, Arc<Semaphore>),
    Postgres(PgPool),
}

/// A connection pool to one database, SQLite or PostgreSQL.
#[derive(Clone)]
pub struct Store {
    pub(crate) pool: Pool,
}

impl Store {
    /// Connects to `url`: `sqlite:<path>` (created if missing) or `postgres://...`.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let pool = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(10))
                .connect(url)
                .await?;
            Pool::Postgres(pool)
        } else if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(10));
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .connect_with(options)
                .await?;
            Pool::Sqlite(pool, Arc::new(Semaphore::new(1)))
        } else {
            return Err(StoreError::UnsupportedUrl);
        };
        Ok(Self { pool })
    }

    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(..) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// Applies the embedded migrations of this backend that have not run yet. When any
    /// ran, statistics are refreshed: a new index without them can make SQLite's
    /// planner pick a plan a thousand times slower.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        let before = self.applied_migrations().await;
        match &self.pool {
            Pool::Sqlite(pool, _) => sqlx::migrate!("./migrations/sqlite").run(pool).await?,
            Pool::Postgres(pool) => sqlx::migrate!("./migrations/postgres").run(pool).await?,
        }
        if self.applied_migrations().await != before {
            self.analyze().await?;
        }
        Ok(())
    }

    /// How many migrations the database records (0 before the first run).
    async fn applied_migrations(&self) -> i64 {
        let sql = "SELECT COUNT(*) FROM _sqlx_migrations";
        let count = match &self.pool {
            Pool::Sqlite(pool, _) => sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await,
            Pool::Postgres(pool) => sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await,
        };
        count.unwrap_or(0)
    }

    /// Starts a write transaction; dropped without [`Tx::commit`] it rolls back.
    ///
    /// On SQLite it is `BEGIN IMMEDIATE`: a deferred transaction that reads and then
    /// writes fails at once (SQLITE_BUSY, which the busy timeout does not cover) when
    /// another writer committed in between; taking the write lock first makes
    /// concurrent writers wait their turn instead.
    ///
    /// SQLite has one writer at a time. Our own writers also queue on a permit before
    /// `BEGIN IMMEDIATE`, so they wait their turn in order instead of in SQLite's busy
    /// handler, which sleeps in steps of up to 100 ms (it made a p99 of 280 ms out of
    /// 5 ms writes in the scoring benchmark). The busy timeout still covers writers in
    /// other processes.
    pub async fn begin(&self) -> Result<Tx, StoreError> {
        Ok(match &self.pool {
            Pool::Sqlite(pool, writers) => {
                let permit = Arc::clone(writers)
                    .acquire_owned()
                    .await
                    .expect("the write semaphore is never closed");
                Tx::Sqlite(pool.begin_with("BEGIN IMMEDIATE").await?, permit)
            }
            Pool::Postgres(pool) => Tx::Postgres(pool.begin().await?),
        })
    }

    /// Runs `ANALYZE` so that the planner knows the data it has (after bulk loads).
    pub async fn analyze(&self) -> Result<(), StoreError> {
        match &self.pool {
            Pool::Sqlite(pool, _) => sqlx::query("ANALYZE").execute(pool).await.map(drop)?,
            Pool::Postgres(pool) => sqlx::query("ANALYZE").execute(pool).await.map(drop)?,
        };
        Ok(())
    }

    pub async fn close(&self) {
        match &self.pool {
            Pool::Sqlite(pool, _) => pool.close().await,
            Pool::Postgres(pool) => pool.close().await,
        }
    }
}

/// Milliseconds since the Unix epoch, UTC: how every date-time is stored.
pub fn now_millis() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

impl Store {
    /// A trivial query: is the database answering?
    pub async fn ping(&self) -> Result<(), StoreError> {
        match &self.pool {
            Pool::Sqlite(pool, _) => sqlx::query("SELECT 1").execute(pool).await.map(drop)?,
            Pool::Postgres(pool) => sqlx::query("SELECT 1").execute(pool).await.map(drop)?,
        };
        Ok(())
    }
}
