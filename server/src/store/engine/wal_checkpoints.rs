//! SQLite's checkpoints taken off the writer's path (docs/benchmarks.md,
//! "Checkpoints off the writer").
//!
//! Left to itself SQLite checkpoints in the COMMIT that takes the log past 1,000
//! pages: that writer copies the pages into the database file, with `fsync`s,
//! while it holds the one write lock and every other writer waits. The store's
//! connections turn that off (`wal_autocheckpoint = 0`) and one task of the
//! store's, on a connection of its own, checkpoints shortly after writes instead,
//! `PASSIVE`ly: it takes no lock a writer or reader waits on.
//!
//! A passive checkpoint never stops the log from growing while writers follow
//! each other without a gap: SQLite starts writing the log from its beginning
//! again only when a writer finds every page of it copied, and a page written
//! since the checkpoint began is never copied by it. So when the log has grown
//! past [`RESTART_AT_FRAMES`], the task takes the store's write permit for one more
//! checkpoint, with no writer running, and the next writer starts the log afresh.
//! (Without that, the log grew to 3.2 GB in 60 seconds of scoring.)

use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

/// How long after a write the task checkpoints: writes that follow each other
/// closely share one checkpoint.
const CHECKPOINT_AFTER: Duration = Duration::from_millis(100);

/// Pages in the log (of 4 KiB each: 16 MiB) past which the task stops writers for
/// one checkpoint, so that the log is written from its start again.
const RESTART_AT_FRAMES: i64 = 4_000;

/// What the store tells its checkpoint task.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Told {
    Written,
    Closed,
}

/// A SQLite store's one write permit and its checkpoint task.
#[derive(Clone)]
pub(crate) struct SqliteWrites {
    permits: Arc<Semaphore>,
    told: Arc<watch::Sender<Told>>,
    task: Arc<Mutex<Option<JoinHandle<()>>>>,
}

/// The right to write to a SQLite store, held for one transaction; given back, it
/// tells the checkpoint task that there may be pages to copy.
pub struct WritePermit {
    _permit: OwnedSemaphorePermit,
    told: Arc<watch::Sender<Told>>,
}

impl Drop for WritePermit {
    fn drop(&mut self) {
        self.told.send_replace(Told::Written);
    }
}

impl SqliteWrites {
    /// `options` as every connection of the store has them: without checkpoints
    /// in COMMIT.
    pub fn connection_options(options: SqliteConnectOptions) -> SqliteConnectOptions {
        options.pragma("wal_autocheckpoint", "0")
    }

    /// Starts the checkpoint task, on a connection made with `options`. It ends
    /// after [`SqliteWrites::close`], or when the last clone is dropped.
    pub fn start(options: SqliteConnectOptions) -> Self {
        Self::start_restarting_at(options, RESTART_AT_FRAMES)
    }

    /// [`SqliteWrites::start`] with the log restarted past `restart_at_frames`
    /// (tests use a short log to see restarts in a few megabytes).
    fn start_restarting_at(options: SqliteConnectOptions, restart_at_frames: i64) -> Self {
        let permits = Arc::new(Semaphore::new(1));
        let (told, receiver) = watch::channel(Told::Written);
        let task = tokio::spawn(checkpoint_after_writes(
            options,
            receiver,
            Arc::clone(&permits),
            restart_at_frames,
        ));
        Self {
            permits,
            told: Arc::new(told),
            task: Arc::new(Mutex::new(Some(task))),
        }
    }

    /// Waits for the write permit: SQLite's writers take turns in order here
    /// rather than in its busy handler (see `Store::begin`).
    pub async fn permit(&self) -> WritePermit {
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .expect("the write semaphore is never closed");
        WritePermit {
            _permit: permit,
            told: Arc::clone(&self.told),
        }
    }

    /// Has the task checkpoint what is left and close its connection, and waits
    /// for it: called after the store's other connections are closed, so that
    /// the last one closed removes the log file.
    pub async fn close(&self) {
        self.told.send_replace(Told::Closed);
        let task = self.task.lock().expect("never poisoned").take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}

/// The task: a checkpoint [`CHECKPOINT_AFTER`] each write (writes in between
/// share it), and a last one when the store closes.
async fn checkpoint_after_writes(
    options: SqliteConnectOptions,
    mut told: watch::Receiver<Told>,
    permits: Arc<Semaphore>,
    restart_at_frames: i64,
) {
    let mut connection = None;
    loop {
        let mut closing = match told.changed().await {
            Ok(()) => *told.borrow_and_update() == Told::Closed,
            Err(_) => true,
        };
        if !closing {
            tokio::time::sleep(CHECKPOINT_AFTER).await;
            closing = *told.borrow_and_update() == Told::Closed;
        }
        if let Err(error) = checkpoint(&options, &mut connection, &permits, restart_at_frames).await
        {
            tracing::warn!(%error, "a SQLite checkpoint failed; it is tried again after the next write");
            connection = None;
        }
        if closing {
            if let Some(connection) = connection {
                let _ = connection.close().await;
            }
            return;
        }
    }
}

/// One passive checkpoint, and a second with writers held off when the log has
/// grown long.
async fn checkpoint(
    options: &SqliteConnectOptions,
    connection: &mut Option<SqliteConnection>,
    permits: &Semaphore,
    restart_at_frames: i64,
) -> Result<(), sqlx::Error> {
    let connection = match connection {
        Some(connection) => connection,
        None => connection.insert(options.connect().await?),
    };
    let frames = passive_checkpoint(connection).await?;
    if frames >= restart_at_frames {
        let _no_writer = permits.acquire().await.expect("never closed");
        passive_checkpoint(connection).await?;
    }
    Ok(())
}

/// Runs `PRAGMA wal_checkpoint(PASSIVE)`; the pages in the log (-1 when the
/// database is not in WAL mode, as in memory).
async fn passive_checkpoint(connection: &mut SqliteConnection) -> Result<i64, sqlx::Error> {
    let (_busy, log_frames, _copied): (i64, i64, i64) =
        sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&mut *connection)
            .await?;
    Ok(log_frames)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use crate::store::{Pool, Store};

    /// A commit leaves its pages in the log (no checkpoint in COMMIT), and the
    /// store's task copies them into the database file soon after; closing the
    /// store removes the log.
    #[tokio::test]
    async fn writes_are_checkpointed_into_the_file_by_the_stores_task_not_by_the_commit() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("checkpoints.db");
        let url = format!("sqlite:{}", path.display());
        let store = Store::connect(&url).await.unwrap();
        let Pool::Sqlite(pool, ..) = &store.pool else {
            panic!("a SQLite store");
        };
        let every: i64 = sqlx::query_scalar("PRAGMA wal_autocheckpoint")
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(every, 0, "no checkpoint in COMMIT");
        let before = std::fs::metadata(&path).unwrap().len();

        let mut tx = store.begin().await.unwrap();
        if let crate::store::Tx::Sqlite(tx, _) = &mut tx {
            sqlx::query("CREATE TABLE blobs (b BLOB)")
                .execute(&mut **tx)
                .await
                .unwrap();
            sqlx::query("INSERT INTO blobs VALUES (zeroblob(2000000))")
                .execute(&mut **tx)
                .await
                .unwrap();
        }
        tx.commit().await.unwrap();

        let wal = path.with_file_name("checkpoints.db-wal");
        let started = Instant::now();
        while std::fs::metadata(&path).unwrap().len() < before + 2_000_000 {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the pages never reached the database file (log: {:?} bytes)",
                std::fs::metadata(&wal).map(|m| m.len())
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        store.close().await;
        assert!(!wal.exists(), "the log is removed when the store closes");
    }

    /// Under writers that follow each other without a gap, the log is still
    /// written from its start again (its header's checkpoint sequence moves on)
    /// and its file stays far shorter than what was written; with passive
    /// checkpoints alone it would hold all of it.
    #[tokio::test]
    async fn the_log_restarts_under_writers_that_never_pause() {
        use sqlx::sqlite::{SqliteJournalMode, SqlitePoolOptions};

        use super::SqliteWrites;

        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("restarts.db");
        let options = SqliteWrites::connection_options(
            sqlx::sqlite::SqliteConnectOptions::new()
                .filename(&path)
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal),
        );
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await
            .unwrap();
        sqlx::query("CREATE TABLE blobs (b BLOB)")
            .execute(&pool)
            .await
            .unwrap();
        let writes = SqliteWrites::start_restarting_at(options, 256);

        let wal = path.with_file_name("restarts.db-wal");
        let sequence = || {
            let header = std::fs::read(&wal).unwrap_or_default();
            header
                .get(12..16)
                .map(|b| u32::from_be_bytes(b.try_into().unwrap()))
        };
        let (mut restarts, mut last, mut written) = (0, sequence(), 0u64);
        // Until the log has restarted a few times after 32 MB, or 64 MB without.
        // The file's length is the log's longest, which a checkpoint task kept
        // waiting by other tests on two busy cores lets grow a few MB past the
        // restart point (7 MB of 12 MB once): 32 MB keeps that well under half.
        while written < 32_000_000 || (restarts < 3 && written < 64_000_000) {
            let permit = writes.permit().await;
            let mut tx = pool.begin().await.unwrap();
            sqlx::query("INSERT INTO blobs VALUES (zeroblob(64000))")
                .execute(&mut *tx)
                .await
                .unwrap();
            tx.commit().await.unwrap();
            drop(permit);
            written += 64_000;
            let now = sequence();
            if now != last {
                restarts += 1;
                last = now;
            }
        }
        let log_bytes = std::fs::metadata(&wal).unwrap().len();
        pool.close().await;
        writes.close().await;
        assert!(
            restarts >= 3,
            "the log restarted {restarts} times while {written} bytes were written"
        );
        assert!(
            log_bytes < written / 2,
            "the log file holds {log_bytes} bytes of the {written} written"
        );
    }
}
