//! The administrator: every 30 s purges ten uploaded results one by one
//! (`Results(<id>)/Purge`, 202, then the audit log entry it names until it
//! closes) and replays twenty scored results (`ReplayResultsByIDList`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{json, Value};

use super::Load;
use crate::client::Person;
use crate::ledger::{lock, Ledger};

const PURGES_PER_ROUND: usize = 10;
const REPLAYS_PER_ROUND: usize = 20;

pub async fn run(load: Arc<Load>, me: Person) {
    load.pause(30_000, 30_000).await;
    while !load.stopping() {
        purge_some(&load, &me).await;
        replay_some(&load, &me).await;
        load.pause(30_000, 30_000).await;
    }
}

async fn purge_some(load: &Load, me: &Person) {
    let chosen: Vec<i64> = {
        let purged = lock(&load.ledger.purged);
        lock(&load.ledger.uploads)
            .values()
            .map(|u| u.result)
            .filter(|r| !purged.contains(r))
            .take(PURGES_PER_ROUND)
            .collect()
    };
    for result in chosen {
        let accepted = me
            .json(
                "admin: purge",
                Method::POST,
                &format!("Results({result})/Purge"),
                &json!({}),
                &[202],
            )
            .await;
        let Some(entry) = accepted.location.clone().filter(|_| accepted.is(202)) else {
            continue;
        };
        match closed(load, me, &entry).await {
            Some(read)
                if read["WasSuccessful"] == json!(true)
                    && read["TotalResultsAffected"] == json!(1) =>
            {
                lock(&load.ledger.purged).insert(result);
            }
            Some(read) => me
                .recorder()
                .fail(format!("the purge of result {result} ended as {read}")),
            None => me
                .recorder()
                .fail(format!("the purge of result {result} did not end in 60 s")),
        }
    }
}

/// The audit log entry at `entry` once it leaves the queue.
async fn closed(load: &Load, me: &Person, entry: &str) -> Option<Value> {
    let begun = Instant::now();
    while begun.elapsed() < Duration::from_secs(60) {
        let read = me.get("admin: audit entry", entry, &[200]).await.json();
        if read["IsInQueue"] == json!(false) {
            return Some(read);
        }
        if load.stopping() && begun.elapsed() > Duration::from_secs(20) {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    None
}

async fn replay_some(load: &Load, me: &Person) {
    let results: Vec<i64> = lock(&load.ledger.scored)
        .keys()
        .rev()
        .take(REPLAYS_PER_ROUND)
        .map(|(_, result)| *result)
        .collect();
    if results.is_empty() {
        return;
    }
    let outcome = me
        .json(
            "admin: replay",
            Method::POST,
            "ReplayResultsByIDList",
            &json!({"ResultIds": results}),
            &[200],
        )
        .await
        .json();
    if outcome["FailureCount"] != json!(0) {
        me.recorder()
            .fail(format!("a replay of {results:?} failed: {outcome}"));
    }
    Ledger::add(&load.ledger.replays);
}
