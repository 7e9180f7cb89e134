//! One claimed job: a purge a group of results at a time, a replay result by result.

use std::time::Instant;

use tokio::sync::watch;

use super::groups::GroupSize;
use super::pace::Pace;
use crate::model::area::CustomerArea;
use crate::model::purge::JobTarget;
use crate::store::{now_millis, ClaimedJob, Lease, Store, StoreError};

/// A job that keeps failing is closed as unsuccessful after this many tries.
const MOST_ATTEMPTS: i32 = 5;
/// How often a replay checks its lease between results.
const CHECK_LEASE_EVERY: usize = 100;

enum Stopped {
    /// Another process holds the job now (this one was too slow to renew).
    LostLease,
    /// The server is stopping: the job goes back to the queue.
    ShuttingDown,
    Failed(String),
}

impl From<StoreError> for Stopped {
    fn from(error: StoreError) -> Self {
        Stopped::Failed(error.to_string())
    }
}

pub async fn job(
    store: &Store,
    owner: &str,
    pace: Pace,
    job: ClaimedJob,
    stop: &watch::Receiver<bool>,
) {
    let outcome = match (
        CustomerArea::new(job.area),
        JobTarget::from_payload(&job.payload),
    ) {
        (Some(area), Ok(target)) => work(store, owner, pace, &job, area, &target, stop).await,
        (None, _) => Err(Stopped::Failed(format!("area {} is not valid", job.area))),
        (_, Err(error)) => Err(Stopped::Failed(error)),
    };
    let now = now_millis();
    let closed = match outcome {
        Ok(()) => store
            .finish_job(&job, owner, true, now)
            .await
            .map(|closed| {
                if closed {
                    tracing::info!(job = job.id, area = job.area, "job done");
                }
            }),
        Err(Stopped::LostLease) => {
            tracing::warn!(job = job.id, "another process took over the job");
            Ok(())
        }
        Err(Stopped::ShuttingDown) => {
            store
                .release_job(job.id, owner, "the server stopped", now)
                .await
        }
        Err(Stopped::Failed(error)) if job.attempts < MOST_ATTEMPTS => {
            tracing::warn!(job = job.id, attempt = job.attempts, %error, "a job failed; it is tried again");
            let backoff = 1_000 * 2_i64.pow(job.attempts.clamp(0, 10) as u32);
            store
                .release_job(job.id, owner, &error, now + backoff)
                .await
        }
        Err(Stopped::Failed(error)) => {
            tracing::error!(job = job.id, %error, "a job failed {MOST_ATTEMPTS} times; it is closed unsuccessful");
            store.finish_job(&job, owner, false, now).await.map(drop)
        }
    };
    if let Err(error) = closed {
        tracing::warn!(job = job.id, %error, "closing a job failed; its lease will run out");
    }
}

/// A claimed job being worked, with what every step of it needs.
struct Worker<'a> {
    store: &'a Store,
    owner: &'a str,
    job: &'a ClaimedJob,
    area: CustomerArea,
    lease_ms: i64,
    stop: &'a watch::Receiver<bool>,
}

async fn work(
    store: &Store,
    owner: &str,
    pace: Pace,
    job: &ClaimedJob,
    area: CustomerArea,
    target: &JobTarget,
    stop: &watch::Receiver<bool>,
) -> Result<(), Stopped> {
    let results = store.results_of_job(area, target).await?;
    let worker = Worker {
        store,
        owner,
        job,
        area,
        lease_ms: pace.lease.as_millis() as i64,
        stop,
    };
    if target.purges() {
        worker.purge_in_groups(&results).await?;
    } else {
        worker.replay_each(&results).await?;
    }
    if let JobTarget::ParticipantAndResults { name } = target {
        store.purge_participants(area, name).await?;
    }
    Ok(())
}

impl Worker<'_> {
    /// Removes `results` a group at a time, each group in a transaction that also
    /// counts it to the job; the lease is checked (and the audit entry's progress
    /// written) before each group.
    async fn purge_in_groups(&self, results: &[(i32, Option<i32>)]) -> Result<(), Stopped> {
        let mut size = GroupSize::new();
        let mut rest = results;
        while !rest.is_empty() {
            if *self.stop.borrow() {
                return Err(Stopped::ShuttingDown);
            }
            if !self.renew(0).await? {
                return Err(Stopped::LostLease);
            }
            let (group, after) = rest.split_at(size.get().min(rest.len()));
            let lease = Lease {
                job_id: self.job.id,
                owner: self.owner,
                until: now_millis() + self.lease_ms,
            };
            let started = Instant::now();
            self.store.purge_results(self.area, &lease, group).await?;
            size.after(group.len(), started.elapsed());
            rest = after;
        }
        if !self.renew(0).await? {
            return Err(Stopped::LostLease);
        }
        Ok(())
    }

    /// Replays `results` one at a time, each in its own transaction, counting them
    /// to the job as the lease is renewed.
    async fn replay_each(&self, results: &[(i32, Option<i32>)]) -> Result<(), Stopped> {
        let mut replayed = 0;
        for (done, (result_id, _)) in results.iter().enumerate() {
            if *self.stop.borrow() {
                self.renew(replayed).await?;
                return Err(Stopped::ShuttingDown);
            }
            if done % CHECK_LEASE_EVERY == CHECK_LEASE_EVERY - 1 {
                if !self.renew(replayed).await? {
                    return Err(Stopped::LostLease);
                }
                replayed = 0;
            }
            if self.store.replay_result(self.area, *result_id).await? {
                replayed += 1;
            }
        }
        if !self.renew(replayed).await? {
            return Err(Stopped::LostLease);
        }
        Ok(())
    }

    /// Renews the lease and adds `count` to the job's tally; whether it is still held.
    async fn renew(&self, count: i32) -> Result<bool, StoreError> {
        self.store
            .renew_job(self.job, self.owner, count, now_millis() + self.lease_ms)
            .await
    }
}
