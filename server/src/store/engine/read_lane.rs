//! The connections that statements outside a transaction run on (nearly every
//! read a request makes), taken and given back without a round trip.
//!
//! sqlx's pool pings every connection given back to it before anyone may take it
//! again: on PostgreSQL a Sync message and its answer, on SQLite a command to the
//! connection's thread and its reply. For a one-row read such as a count, that
//! was a second round trip for every request, whatever the pool's options
//! (docs/benchmarks.md, "Reads without the pool's ping"). Here a connection given
//! back is ready for the next request at once. What the ping was for is done
//! where it costs nothing on a busy server: a connection that sat idle is pinged
//! when it is taken, as `before_acquire` did for PostgreSQL; one whose statement
//! failed because the database went away is dropped ([`LaneConnection::settle`]);
//! and one opened before the planner's statistics last changed is closed instead
//! of planning with the old ones ([`ReadLane::statistics_changed`]).
//!
//! Transactions keep sqlx's pool: a transaction's connection must be checked
//! (rolled back, or closed) before anyone else has it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use deadpool::managed::{self, Metrics, Object, PoolError, RecycleError, RecycleResult};
use sqlx::{ConnectOptions, Connection};

use super::error::{is_unavailable, StoreError};

/// How a lane opens and checks its connections.
pub(crate) struct Opener<C: Connection> {
    options: C::Options,
    /// Connections idle this long are pinged when taken; `None`: never (a
    /// SQLite file's connection cannot go stale).
    ping_after_idle: Option<Duration>,
    /// How long a refused connect is tried again, as sqlx's pool does, so that a
    /// database restarting answers late rather than not at all.
    connect_for: Duration,
    /// When the statistics last changed, in nanoseconds after `epoch`.
    statistics_at: AtomicU64,
    epoch: Instant,
}

/// Connections of one database for statements outside transactions.
pub(crate) struct ReadLane<C: Connection> {
    pool: managed::Pool<Opener<C>>,
}

impl<C: Connection> Clone for ReadLane<C> {
    fn clone(&self) -> Self {
        Self {
            pool: self.pool.clone(),
        }
    }
}

/// A connection taken from a [`ReadLane`]; given back when dropped.
pub(crate) struct LaneConnection<C: Connection>(Object<Opener<C>>);

impl<C: Connection> managed::Manager for Opener<C> {
    type Type = C;
    type Error = sqlx::Error;

    async fn create(&self) -> Result<C, sqlx::Error> {
        let deadline = Instant::now() + self.connect_for;
        let mut pause = Duration::from_millis(10);
        loop {
            match self.options.connect().await {
                Err(error) if is_unavailable(&error) && Instant::now() + pause < deadline => {
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
                opened => return opened,
            }
        }
    }

    async fn recycle(&self, connection: &mut C, metrics: &Metrics) -> RecycleResult<sqlx::Error> {
        if self.opened_before_statistics(metrics.created) {
            return Err(RecycleError::message(
                "opened before the statistics changed",
            ));
        }
        if let Some(idle) = self.ping_after_idle {
            if metrics.last_used() >= idle {
                connection.ping().await?;
            }
        }
        Ok(())
    }
}

impl<C: Connection> Opener<C> {
    fn opened_before_statistics(&self, created: Instant) -> bool {
        let opened = created.saturating_duration_since(self.epoch).as_nanos() as u64;
        opened < self.statistics_at.load(Ordering::Acquire)
    }
}

impl<C: Connection> ReadLane<C> {
    /// A lane of at most `size` connections opened with `options`; a statement
    /// waits at most `wait` for one.
    pub fn new(
        options: C::Options,
        size: usize,
        wait: Duration,
        ping_after_idle: Option<Duration>,
    ) -> Self {
        let opener = Opener {
            options,
            ping_after_idle,
            connect_for: wait,
            statistics_at: AtomicU64::new(0),
            epoch: Instant::now(),
        };
        let pool = managed::Pool::builder(opener)
            .max_size(size)
            .wait_timeout(Some(wait))
            // The connection given back last is taken first: it is the one whose
            // pages are in memory, and idle ones are left to be pinged less often.
            .queue_mode(managed::QueueMode::Lifo)
            .runtime(deadpool::Runtime::Tokio1)
            .build()
            .expect("a runtime is set, so a wait timeout is allowed");
        Self { pool }
    }

    pub async fn take(&self) -> Result<LaneConnection<C>, StoreError> {
        match self.pool.get().await {
            Ok(connection) => Ok(LaneConnection(connection)),
            Err(PoolError::Backend(error)) => Err(error.into()),
            Err(PoolError::Closed) => Err(StoreError::Unavailable(sqlx::Error::PoolClosed)),
            Err(_) => Err(StoreError::Unavailable(sqlx::Error::PoolTimedOut)),
        }
    }

    /// The planner's statistics changed (ANALYZE): connections opened before
    /// plan with the old ones until closed. The idle ones are closed now, those
    /// in use when they are next taken.
    pub async fn statistics_changed(&self) {
        let opener = self.pool.manager();
        let now = opener.epoch.elapsed().as_nanos() as u64;
        opener.statistics_at.store(now, Ordering::Release);
        let stale = self
            .pool
            .retain(|_, metrics| !opener.opened_before_statistics(metrics.created));
        for connection in stale.removed {
            let _ = connection.close().await;
        }
    }

    /// Closes every connection: the idle ones now, the others when given back.
    pub async fn close(&self) {
        let idle = self.pool.retain(|_, _| false);
        self.pool.close();
        for connection in idle.removed {
            let _ = connection.close().await;
        }
    }

    /// `(open, idle, most)` connections.
    pub fn status(&self) -> (u32, u32, u32) {
        let status = self.pool.status();
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        (
            count(status.size),
            count(status.available),
            count(status.max_size),
        )
    }
}

impl<C: Connection> LaneConnection<C> {
    /// What a statement on this connection gave, as the store's error; when the
    /// error says the database went away (or the connection broke), the
    /// connection is dropped rather than given back for the next request to fail on.
    pub fn settle<T>(self, outcome: Result<T, sqlx::Error>) -> Result<T, StoreError> {
        outcome.map_err(|error| {
            if is_unavailable(&error) {
                drop(Object::take(self.0));
            }
            error.into()
        })
    }
}

impl<C: Connection> std::ops::Deref for LaneConnection<C> {
    type Target = C;
    fn deref(&self) -> &C {
        &self.0
    }
}

impl<C: Connection> std::ops::DerefMut for LaneConnection<C> {
    fn deref_mut(&mut self) -> &mut C {
        &mut self.0
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use sqlx::postgres::{PgConnectOptions, PgConnection};
    use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};

    use super::*;

    const WAIT: Duration = Duration::from_secs(10);

    fn sqlite_lane(file: &tempfile::TempDir) -> ReadLane<SqliteConnection> {
        let options = SqliteConnectOptions::new()
            .filename(file.path().join("lane.db"))
            .create_if_missing(true);
        ReadLane::new(options, 2, WAIT, None)
    }

    fn postgres_lane(ping_after_idle: Option<Duration>) -> ReadLane<PgConnection> {
        let url = std::env::var("SCOREDESK_TEST_PG_URL").unwrap_or_else(|_| {
            panic!("SCOREDESK_TEST_PG_URL is not set: run the tests with scripts/test, which starts a private PostgreSQL")
        });
        let options = PgConnectOptions::from_str(&url).unwrap();
        ReadLane::new(options, 2, WAIT, ping_after_idle)
    }

    /// Whether the connection has the temporary table that `mark` made on it.
    async fn marked(connection: &mut SqliteConnection) -> bool {
        sqlx::query("SELECT 1 FROM temp.marked")
            .fetch_optional(connection)
            .await
            .is_ok()
    }

    async fn mark(connection: &mut SqliteConnection) {
        sqlx::query("CREATE TEMP TABLE marked (x)")
            .execute(connection)
            .await
            .unwrap();
    }

    async fn backend_pid(connection: &mut PgConnection) -> i32 {
        sqlx::query_scalar("SELECT pg_backend_pid()")
            .fetch_one(connection)
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn a_connection_given_back_is_the_one_taken_next() {
        let dir = tempfile::tempdir().unwrap();
        let lane = sqlite_lane(&dir);
        let mut first = lane.take().await.unwrap();
        mark(&mut first).await;
        drop(first);
        let mut again = lane.take().await.unwrap();
        assert!(marked(&mut again).await);
        assert_eq!(lane.status(), (1, 0, 2));
    }

    #[tokio::test]
    async fn connections_opened_before_the_statistics_changed_are_not_taken_again() {
        let dir = tempfile::tempdir().unwrap();
        let lane = sqlite_lane(&dir);
        let mut idle = lane.take().await.unwrap();
        let mut busy = lane.take().await.unwrap();
        mark(&mut idle).await;
        mark(&mut busy).await;
        drop(idle);
        lane.statistics_changed().await;
        // The idle one is closed at once; the busy one when it comes back.
        assert_eq!(lane.status().0, 1);
        drop(busy);
        let mut first = lane.take().await.unwrap();
        let mut second = lane.take().await.unwrap();
        assert!(!marked(&mut first).await);
        assert!(!marked(&mut second).await);
    }

    #[tokio::test]
    async fn a_connection_the_database_ended_is_dropped_and_the_next_read_gets_a_new_one() {
        let lane = postgres_lane(None);
        let mut doomed = lane.take().await.unwrap();
        let pid = backend_pid(&mut doomed).await;
        let ended = sqlx::query("SELECT pg_terminate_backend(pg_backend_pid())")
            .execute(&mut *doomed)
            .await;
        let error = doomed.settle(ended).unwrap_err();
        assert!(matches!(error, StoreError::Unavailable(_)), "{error:?}");
        assert_eq!(lane.status().0, 0, "the ended connection is not kept");
        let mut next = lane.take().await.unwrap();
        assert_ne!(backend_pid(&mut next).await, pid);
    }

    #[tokio::test]
    async fn an_idle_connection_is_pinged_when_taken_and_replaced_if_it_is_gone() {
        let lane = postgres_lane(Some(Duration::ZERO));
        let mut connection = lane.take().await.unwrap();
        let pid = backend_pid(&mut connection).await;
        drop(connection);
        let mut other = postgres_lane(None).take().await.unwrap();
        let ended: bool = sqlx::query_scalar("SELECT pg_terminate_backend($1, 5000)")
            .bind(pid)
            .fetch_one(&mut *other)
            .await
            .unwrap();
        assert!(ended);
        // Without the ping this statement would fail on the ended connection.
        let mut taken = lane.take().await.unwrap();
        assert_ne!(backend_pid(&mut taken).await, pid);
    }
}
