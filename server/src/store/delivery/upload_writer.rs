//! Answer uploads written in groups: every upload that is waiting when a
//! transaction begins goes into it. An upload's transaction is a handful of
//! statements, each a round trip to the database (on SQLite to the connection's
//! thread), and on SQLite one transaction writes at a time: one transaction for
//! eight waiting uploads costs about what one costs for one, which is what lets
//! uploads keep up with many clients (docs/benchmarks.md, "Answer uploads").
//!
//! Uploads inside a `$batch` change set do not come here: they belong to the change
//! set's own transaction.

use std::sync::OnceLock;

use tokio::sync::{mpsc, oneshot};

use crate::store::{CheckedUpload, Store, StoreError};

/// At most this many uploads in one transaction: their answers make a few
/// thousand rows, and a failed group is written again one upload at a time.
const GROUP_MAX: usize = 16;

type Reply = oneshot::Sender<Result<i32, StoreError>>;

/// Hands uploads to the tasks that write them in groups: one per process on
/// SQLite, as many as may write at once on PostgreSQL.
#[derive(Clone)]
pub struct UploadWriter {
    store: Store,
    /// Started by the first upload (a task needs the runtime that serves).
    jobs: std::sync::Arc<OnceLock<mpsc::Sender<(CheckedUpload, Reply)>>>,
}

impl UploadWriter {
    pub fn new(store: Store) -> Self {
        Self {
            store,
            jobs: std::sync::Arc::default(),
        }
    }

    /// Writes `upload` with whatever else is waiting; its new ResultID, or
    /// `Conflict` when its attempt has a result already.
    pub async fn record(&self, upload: CheckedUpload) -> Result<i32, StoreError> {
        let jobs = self.jobs.get_or_init(|| {
            let (sender, receiver) = mpsc::channel(GROUP_MAX * 16);
            let receiver = std::sync::Arc::new(tokio::sync::Mutex::new(receiver));
            // PostgreSQL takes several write transactions at once; SQLite one.
            for _ in 0..self.store.concurrent_writers() {
                tokio::spawn(write_groups(self.store.clone(), receiver.clone()));
            }
            sender
        });
        let (reply, answer) = oneshot::channel();
        jobs.send((upload, reply))
            .await
            .map_err(|_| StoreError::WriterStopped)?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }
}

type Jobs = std::sync::Arc<tokio::sync::Mutex<mpsc::Receiver<(CheckedUpload, Reply)>>>;

/// One writer: takes what is waiting (while the others write theirs), writes it.
async fn write_groups(store: Store, jobs: Jobs) {
    loop {
        let group = {
            let mut jobs = jobs.lock().await;
            let Some(first) = jobs.recv().await else {
                return;
            };
            let mut group = vec![first];
            while group.len() < GROUP_MAX {
                match jobs.try_recv() {
                    Ok(job) => group.push(job),
                    Err(_) => break,
                }
            }
            group
        };
        write_group(&store, group).await;
    }
}

/// One transaction for the group; if it fails as a whole, each upload again in a
/// transaction of its own, so that one upload's failure is its alone.
async fn write_group(store: &Store, group: Vec<(CheckedUpload, Reply)>) {
    let (uploads, replies): (Vec<CheckedUpload>, Vec<Reply>) = group.into_iter().unzip();
    match write(store, &uploads).await {
        Ok(outcomes) => {
            for (reply, outcome) in replies.into_iter().zip(outcomes) {
                // The client may have gone; its upload is stored all the same.
                let _ = reply.send(outcome);
            }
        }
        Err(error) if uploads.len() == 1 => {
            let _ = replies
                .into_iter()
                .next()
                .map(|reply| reply.send(Err(error)));
        }
        Err(error) => {
            tracing::warn!(%error, uploads = uploads.len(), "a group of uploads failed; writing them one at a time");
            for (upload, reply) in uploads.iter().zip(replies) {
                let outcome = write(store, std::slice::from_ref(upload))
                    .await
                    .and_then(|mut outcomes| outcomes.pop().expect("one outcome per upload"));
                let _ = reply.send(outcome);
            }
        }
    }
}

async fn write(
    store: &Store,
    uploads: &[CheckedUpload],
) -> Result<Vec<Result<i32, StoreError>>, StoreError> {
    let mut tx = store.begin().await?;
    let outcomes = tx.record_uploads(uploads).await?;
    tx.commit().await?;
    Ok(outcomes)
}
