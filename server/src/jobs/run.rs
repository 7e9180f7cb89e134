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
    if target.purges() {
        purge_in_groups(store, owner, pace, job, area, &results, stop).await?;
    } else {
        replay_each(store, owner, pace, job, area, &results, stop).await?;
    }
    if let JobTarget::ParticipantAndResults { name } = target {
        store.purge_participants(area, name).await?;
    }
    Ok(())
}

/// Removes `results` a group at a time, each group in a transaction that also
/// counts it to the job; the lease is checked (and the audit entry's progress
/// written) before each group.
async fn purge_in_groups(
    store: &Store,
    owner: &str,
    pace: Pace,
    job: &ClaimedJob,
    area: CustomerArea,
    results: &[(i32, Option<i32>)],
    stop: &watch::Receiver<bool>,
) -> Result<(), Stopped> {
    let lease_ms = pace.lease.as_millis() as i64;
    let mut size = GroupSize::new();
    let mut rest = results;
    while !rest.is_empty() {
        if *stop.borrow() {
            return Err(Stopped::ShuttingDown);
        }
        if !renew(store, job, owner, 0, lease_ms).await? {
            return Err(Stopped::LostLease);
        }
        let (group, after) = rest.split_at(size.get().min(rest.len()));
        let lease = Lease {
            job_id: job.id,
            owner,
            until: now_millis() + lease_ms,
        };
        let started = Instant::now();
        store.purge_results(area, &lease, group).await?;
        size.after(group.len(), started.elapsed());
        rest = after;
    }
    if !renew(store, job, owner, 0, lease_ms).await? {
        return Err(Stopped::LostLease);
    }
    Ok(())
}

/// Replays `results` one at a time, each in its own transaction, counting them to
/// the job as the lease is renewed.
async fn replay_each(
    store: &Store,
    owner: &str,
    pace: Pace,
    job: &ClaimedJob,
    area: CustomerArea,
    results: &[(i32, Option<i32>)],
    stop: &watch::Receiver<bool>,
) -> Result<(), Stopped> {
    let lease_ms = pace.lease.as_millis() as i64;
    let mut replayed = 0;
    for (done, (result_id, _)) in results.iter().enumerate() {
        if *stop.borrow() {
            renew(store, job, owner, replayed, lease_ms).await?;
            return Err(Stopped::ShuttingDown);
        }
        if done % CHECK_LEASE_EVERY == CHECK_LEASE_EVERY - 1 {
            if !renew(store, job, owner, replayed, lease_ms).await? {
                return Err(Stopped::LostLease);
            }
            replayed = 0;
        }
        if store.replay_result(area, *result_id).await? {
            replayed += 1;
        }
    }
    if !renew(store, job, owner, replayed, lease_ms).await? {
        return Err(Stopped::LostLease);
    }
    Ok(())
}

/// Renews the lease and adds `count` to the job's tally; whether it is still held.
async fn renew(
    store: &Store,
    job: &ClaimedJob,
    owner: &str,
    count: i32,
    lease_ms: i64,
) -> Result<bool, StoreError> {
    store
        .renew_job(job, owner, count, now_millis() + lease_ms)
        .await
}
