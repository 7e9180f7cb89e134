//! Work the server does on its own, from the durable queue in the database
//! (docs/purges.md): the purges and replays the actions queue, and the daily
//! retention purge. Every process runs one runner; on PostgreSQL any number of
//! them drain the queue together, each job held by one at a time under a lease
//! that it renews with every group of results, so that a job whose process died
//! is taken up again once its lease runs out.

mod groups;
mod pace;
mod run;
mod schedule;

pub use pace::Pace;

use std::sync::Arc;

use tokio::sync::{watch, Notify};

use crate::store::{now_millis, Store};

/// Runs jobs until `stop` turns true: the job in hand stops after the group in
/// flight and goes back to the queue at once, for this or another process.
pub async fn run(store: Store, pace: Pace, queued: Arc<Notify>, mut stop: watch::Receiver<bool>) {
    let owner = uuid::Uuid::new_v4().to_string();
    let mut next_schedule_check = now_millis();
    loop {
        if *stop.borrow() {
            return;
        }
        if now_millis() >= next_schedule_check {
            if let Err(error) = schedule::queue_due_retention_purges(&store).await {
                tracing::warn!(%error, "looking for the daily retention purges failed");
            }
            next_schedule_check = now_millis() + pace.schedule_check.as_millis() as i64;
        }
        let lease_ms = pace.lease.as_millis() as i64;
        let now = now_millis();
        match store.claim_job(&owner, now, now + lease_ms).await {
            Ok(Some(job)) => run::job(&store, &owner, pace, job, &stop).await,
            Ok(None) => {
                tokio::select! {
                    _ = queued.notified() => {}
                    _ = tokio::time::sleep(pace.poll) => {}
                    _ = stop.changed() => {}
                }
            }
            Err(error) => {
                tracing::warn!(%error, "claiming a job failed");
                tokio::select! {
                    _ = tokio::time::sleep(pace.poll) => {}
                    _ = stop.changed() => {}
                }
            }
        }
    }
}
