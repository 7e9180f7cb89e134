//! The database: one interface, SQLite and PostgreSQL behind it.
//!
//! Queries are written once with sea-query and rendered in the dialect of the backend
//! chosen from the database URL; every value travels as a bound parameter. Where the
//! two backends really differ (query-plan hints, row locking) the code says so with an
//! explicit `match` on [`Backend`].

mod accounts;
mod content;
mod delivery;
mod engine;
mod marking;
pub mod read;
mod results;
mod scoring;

use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::SqliteSynchronous;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};

pub use accounts::{AccountRecord, NewAccount};
pub use content::{seed_writes, GroupFields, PersonFields, RosterApplied, StoredAssessment};
pub use delivery::{
    AttemptForUpload, BatchForUpload, BatchSheets, CheckedUpload, NewAttempt, NewPrintBatch,
    NewSnapshot, SnapshotSource, StoredPrintBatch, StoredSnapshot, UploadWriter,
};
pub use engine::schema;
pub use engine::{
    BackupError, BackupMade, Built, MediaColumn, PlansMade, PoolUse, Record, Scalar, StoreError,
    TasksInStatus, Tx, WriteScope,
};
use engine::{ReadLane, SqliteWrites};
pub use marking::{
    AlikeTo, AnswerBlock, FoundRubric, GroupSource, NewFlag, NewFlagAnswer, NewGroupMarking,
    NewPause, NewRegrade, NewSeed, OpenPause, RegradeCounts, RegradeRefused, SeedCopy,
    SeedableTask, StoredAnnotation, StoredFlag, StoredMarking, SubmittedMarking, WaitingTask,
};
pub use results::{AuditRequest, ClaimedJob, Lease};
pub use scoring::{
    ConditionalDelete, ConditionalUpdate, NewBankedComment, Replaced, RevisedRow, RubricDeletion,
    ScoringResultCreation, ScoringResultValues, StatusChange, StoredBankedComment,
    StoredDimensionScore, StoredScoringResult, StoredTask,
};

/// Which database engine a [`Store`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Each backend's pool for transactions, its write permits, and the lane that
/// statements outside a transaction run on (engine/read_lane.rs).
#[derive(Clone)]
pub(crate) enum Pool {
    /// With one write permit and the checkpoint task: see [`Store::begin`] and
    /// engine/wal_checkpoints.rs.
    Sqlite(SqlitePool, SqliteWrites, ReadLane<sqlx::SqliteConnection>),
    /// With permits for [`POSTGRES_WRITERS`]: see [`Store::begin`].
    Postgres(PgPool, Arc<Semaphore>, ReadLane<sqlx::PgConnection>),
}

/// The `application_name` of the server's PostgreSQL sessions.
pub const APPLICATION_NAME: &str = "scoredesk-server";

/// Connections of a PostgreSQL store for transactions: its writers' and a few for
/// scripts and migrations.
const POSTGRES_CONNECTIONS: u32 = 10;

/// Write transactions a PostgreSQL store runs at once.
const POSTGRES_WRITERS: usize = 8;

/// Connections of a store's read lane, on either backend.
const READ_CONNECTIONS: usize = 8;

/// A connection pool to one database, SQLite or PostgreSQL.
#[derive(Clone)]
pub struct Store {
    pub(crate) pool: Pool,
    /// Bumped by every change to an account made through this store, so that what
    /// the process remembers of accounts is dropped at once (auth::CredentialCache).
    accounts_changed: Arc<AtomicU64>,
    /// Read statements built before (read/memo.rs).
    statements: read::memo::Statements,
}

impl Store {
    /// How many account changes this process has made; see `accounts_changed`.
    pub fn accounts_generation(&self) -> u64 {
        self.accounts_changed.load(Ordering::Acquire)
    }

    pub(crate) fn account_changed(&self) {
        self.accounts_changed.fetch_add(1, Ordering::AcqRel);
    }

    /// Connects to `url`: `sqlite:<path>` (created if missing) or `postgres://...`,
    /// with no limit on how long a statement runs (migrations, seeding).
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Self::connect_with(url, None).await
    }

    /// Connects as [`Store::connect`] does; on PostgreSQL each statement is stopped
    /// after `statement_timeout` (SQLite has no such limit: there the request timeout
    /// bounds what a client waits).
    pub async fn connect_with(
        url: &str,
        statement_timeout: Option<Duration>,
    ) -> Result<Self, StoreError> {
        let pool = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let mut options = PgConnectOptions::from_str(url)?;
            // Named in pg_stat_activity (an operator's view, and the crash tests'
            // wait for a killed server's sessions), unless the URL names it.
            if options.get_application_name().is_none() {
                options = options.application_name(APPLICATION_NAME);
            }
            if let Some(timeout) = statement_timeout {
                options =
                    options.options([("statement_timeout", format!("{}ms", timeout.as_millis()))]);
            }
            // A request waits for a connection no longer than a statement may run,
            // so that a database that is down answers 503 within that bound.
            let acquire = statement_timeout.unwrap_or(Duration::from_secs(10));
            let pool = PgPoolOptions::new()
                .max_connections(POSTGRES_CONNECTIONS)
                .acquire_timeout(acquire.min(Duration::from_secs(10)))
                // sqlx pings every connection before handing it out by default: a
                // round trip to the server per request. A connection in use moments
                // ago is alive; one that sat idle (across a restart, say) is pinged.
                .test_before_acquire(false)
                .before_acquire(|connection, meta| {
                    Box::pin(async move {
                        use sqlx::Connection;
                        if meta.idle_for >= PING_AFTER_IDLE {
                            connection.ping().await?;
                        }
                        Ok(true)
                    })
                })
                .connect_with(options.clone())
                .await?;
            let reads = ReadLane::new(options, READ_CONNECTIONS, acquire, Some(PING_AFTER_IDLE));
            Pool::Postgres(pool, Arc::new(Semaphore::new(POSTGRES_WRITERS)), reads)
        } else if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(10));
            let options = SqliteWrites::connection_options(options);
            // A file's connection cannot go stale: no ping (a round trip to the
            // connection's thread, which costs a thread wake-up) before each use.
            let pool = SqlitePoolOptions::new()
                .max_connections(4)
                .test_before_acquire(false)
                .after_release(|connection, _| Box::pin(release_whole(connection)))
                .connect_with(options.clone())
                .await?;
            let reads = ReadLane::new(
                options.clone(),
                READ_CONNECTIONS,
                Duration::from_secs(10),
                None,
            );
            Pool::Sqlite(pool, SqliteWrites::start(options), reads)
        } else {
            return Err(StoreError::UnsupportedUrl);
        };
        Ok(Self {
            pool,
            accounts_changed: Arc::default(),
            statements: Default::default(),
        })
    }

    /// How many write transactions may run at once: one on SQLite (its one write
    /// lock), the writer permits on PostgreSQL.
    pub fn concurrent_writers(&self) -> usize {
        match &self.pool {
            Pool::Sqlite(..) => 1,
            Pool::Postgres(..) => POSTGRES_WRITERS,
        }
    }

    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(..) => Backend::Sqlite,
            Pool::Postgres(..) => Backend::Postgres,
        }
    }

    /// Applies the embedded migrations of this backend that have not run yet. When any
    /// ran, statistics are refreshed: a new index without them can make SQLite's
    /// planner pick a plan a thousand times slower.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        let before = self.applied_migrations().await;
        match &self.pool {
            Pool::Sqlite(pool, ..) => sqlx::migrate!("./migrations/sqlite").run(pool).await?,
            Pool::Postgres(pool, ..) => sqlx::migrate!("./migrations/postgres").run(pool).await?,
        }
        let keyed = self.key_typed_answers().await?;
        if keyed > 0 {
            tracing::info!(answers = keyed, "typed answers keyed for answer groups");
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
            Pool::Sqlite(pool, ..) => sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await,
            Pool::Postgres(pool, ..) => sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await,
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
    ///
    /// On PostgreSQL at most [`POSTGRES_WRITERS`] transactions are open at once,
    /// leaving the pool's other connections to scripts. A request (or a `$batch`
    /// change set) that reads through the store while its transaction is open
    /// reads on the read lane, whose connections never wait for a transaction's.
    pub async fn begin(&self) -> Result<Tx, StoreError> {
        Ok(match &self.pool {
            Pool::Sqlite(pool, writes, _) => {
                let permit = writes.permit().await;
                Tx::Sqlite(pool.begin_with("BEGIN IMMEDIATE").await?, permit)
            }
            Pool::Postgres(pool, writers, _) => {
                let permit = Arc::clone(writers)
                    .acquire_owned()
                    .await
                    .expect("the write semaphore is never closed");
                Tx::Postgres(pool.begin().await?, permit)
            }
        })
    }

    /// Runs `ANALYZE` so that the planner knows the data it has (after bulk loads).
    /// On PostgreSQL a `VACUUM` too: it marks the pages all rows of which are
    /// visible, so that counts read the index alone instead of every row's page;
    /// there, tables without rows are left unanalysed (below).
    pub async fn analyze(&self) -> Result<(), StoreError> {
        match &self.pool {
            Pool::Sqlite(pool, _, reads) => {
                sqlx::query("ANALYZE").execute(pool).await?;
                // A connection reads the statistics when it opens: the others
                // would go on planning without them. Close the idle ones; the
                // pool opens fresh ones as they are needed.
                while let Some(connection) = pool.try_acquire() {
                    connection.close().await?;
                }
                reads.statistics_changed().await;
            }
            Pool::Postgres(pool, ..) => {
                // Only the tables that have rows. A table analysed while empty is
                // recorded as 0 rows, and a key lookup prepared on it is then kept
                // as a sequential scan that stays while the table fills, until an
                // autovacuum analyses it (docs/benchmarks.md, "Why PostgreSQL's
                // scoring round trips dip"). Left alone, an empty table stays
                // "never analysed", which the planner takes for at least 10 pages.
                let tables: Vec<String> = sqlx::query_scalar(
                    "SELECT c.relname::text FROM pg_class c \
                     JOIN pg_namespace n ON n.oid = c.relnamespace \
                     WHERE c.relkind = 'r' AND n.nspname = current_schema() ORDER BY 1",
                )
                .fetch_all(pool)
                .await?;
                let mut with_rows = Vec::new();
                for table in tables {
                    let quoted = format!("\"{}\"", table.replace('"', "\"\""));
                    let has_rows: bool =
                        sqlx::query_scalar(&format!("SELECT EXISTS (SELECT 1 FROM {quoted})"))
                            .persistent(false)
                            .fetch_one(pool)
                            .await?;
                    if has_rows {
                        with_rows.push(quoted);
                    }
                }
                if !with_rows.is_empty() {
                    sqlx::query(&format!("VACUUM ANALYZE {}", with_rows.join(", ")))
                        .persistent(false)
                        .execute(pool)
                        .await?;
                }
            }
        };
        Ok(())
    }

    pub async fn close(&self) {
        match &self.pool {
            Pool::Sqlite(pool, writes, reads) => {
                reads.close().await;
                pool.close().await;
                writes.close().await;
            }
            Pool::Postgres(pool, _, reads) => {
                reads.close().await;
                pool.close().await;
            }
        }
    }
}

/// Whether a SQLite connection may go back to the pool: not when a transaction it
/// began could not end. A COMMIT that fails on a full disk finds SQLite has rolled
/// the transaction back already, so sqlx's ROLLBACK after it fails too and sqlx
/// goes on counting the transaction as open: every BEGIN on that connection would
/// then fail ("non-zero transaction depth") long after the disk has room again.
/// Such a connection is closed instead (docs/reliability.md, "Faults").
async fn release_whole(connection: &mut sqlx::SqliteConnection) -> Result<bool, sqlx::Error> {
    use sqlx::sqlite::SqliteTransactionManager;
    use sqlx::{Connection, TransactionManager};
    if SqliteTransactionManager::get_transaction_depth(connection) == 0 {
        return Ok(true);
    }
    // A transaction dropped without COMMIT queues its ROLLBACK on the connection's
    // worker: a ping runs after it.
    connection.ping().await?;
    Ok(SqliteTransactionManager::get_transaction_depth(connection) == 0)
}

/// Milliseconds since the Unix epoch, UTC: how every date-time is stored.
pub fn now_millis() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// How long a PostgreSQL connection may sit idle before it is pinged when taken.
const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

impl Store {
    /// A trivial query: is the database answering?
    pub async fn ping(&self) -> Result<(), StoreError> {
        match &self.pool {
            Pool::Sqlite(_, _, reads) => {
                let mut connection = reads.take().await?;
                let answered = sqlx::query("SELECT 1").execute(&mut *connection).await;
                connection.settle(answered).map(drop)?
            }
            Pool::Postgres(_, _, reads) => {
                let mut connection = reads.take().await?;
                let answered = sqlx::query("SELECT 1").execute(&mut *connection).await;
                connection.settle(answered).map(drop)?
            }
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Pool, Store};

    /// SQLite is built without STAT4 (.cargo/config.toml): with it, every statement
    /// whose plan a bound value might change is compiled again at each execution.
    /// And without memory statistics, whose one mutex every allocation took.
    #[tokio::test]
    async fn sqlite_is_built_without_stat4_or_memory_statistics() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let Pool::Sqlite(pool, ..) = &store.pool else {
            panic!("an in-memory SQLite store");
        };
        let options: Vec<String> = sqlx::query_scalar("PRAGMA compile_options")
            .fetch_all(pool)
            .await
            .unwrap();
        assert!(
            options.iter().any(|o| o.starts_with("THREADSAFE")),
            "{options:?}"
        );
        assert!(!options.iter().any(|o| o.contains("STAT4")), "{options:?}");
        assert!(
            options.iter().any(|o| o == "DEFAULT_MEMSTATUS=0"),
            "{options:?}"
        );
    }
}
