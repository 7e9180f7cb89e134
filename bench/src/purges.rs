//! A purge of one assessment's results (about 100,000 on the 1,000,000-task
//! database: the scale seed spreads its results over 10 assessments) through the
//! API and the durable queue, timed from the POST to its audit log entry closing;
//! meanwhile one client reads `Results?$top=50` and a scorer's client polls Q1,
//! each every 100 ms. The purge's pace is sampled from the queue as it runs, so
//! that a pace that decays as results go shows as a trend.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use reqwest::Client;
use serde_json::Value;

use crate::bare::Database;
use crate::polling;

pub struct Figures {
    pub results: i64,
    pub seconds: f64,
    /// The pace of the last fifth of the results against the first fifth.
    pub trend_percent: f64,
    pub reads: usize,
    pub read_p99_ms: f64,
    pub polls: usize,
    pub poll_p99_ms: f64,
}

impl Figures {
    pub fn per_second(&self) -> f64 {
        self.results as f64 / self.seconds
    }
}

async fn get(client: &Client, url: &str, user: &str, password: &str) -> anyhow::Result<String> {
    let response = client
        .get(url)
        .basic_auth(user, Some(password))
        .send()
        .await?;
    if !response.status().is_success() {
        bail!("{url}: {}", response.status());
    }
    Ok(response.text().await?)
}

async fn results_done(database: &Database) -> anyhow::Result<i64> {
    let sql = "SELECT CAST(COALESCE(MAX(results_done), 0) AS BIGINT) FROM jobs";
    Ok(match database {
        Database::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await?,
        Database::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await?,
    })
}

pub async fn run(
    root: &str,
    user: &str,
    password: &str,
    database: &Database,
    poll: &str,
) -> anyhow::Result<Figures> {
    let client = Client::new();
    let first: Value = serde_json::from_str(
        &get(&client, &format!("{root}/Results?$top=1"), user, password).await?,
    )?;
    let assessment = first["value"][0]["AssessmentID"]
        .as_str()
        .context("a result's AssessmentID")?
        .to_owned();
    let results: i64 = get(
        &client,
        &format!("{root}/Results/$count?$filter=AssessmentID%20eq%20{assessment}L"),
        user,
        password,
    )
    .await?
    .trim()
    .parse()?;
    let done = Arc::new(AtomicBool::new(false));
    let reader = polling::poll(
        &format!("{root}/Results?$top=50"),
        user,
        password,
        done.clone(),
    );
    let poller = polling::poll(poll, user, password, done.clone());
    let started = Instant::now();
    let response = client
        .post(format!("{root}/Results/PurgeResultsByAssessmentId"))
        .basic_auth(user, Some(password))
        .json(&serde_json::json!({ "AssessmentID": assessment }))
        .send()
        .await?;
    if response.status().as_u16() != 202 {
        bail!("purge: {} {}", response.status(), response.text().await?);
    }
    let entry = response
        .headers()
        .get("Location")
        .and_then(|v| v.to_str().ok())
        .context("the purge's Location")?
        .to_owned();
    let mut samples: Vec<(f64, i64)> = Vec::new();
    loop {
        let read: Value = serde_json::from_str(&get(&client, &entry, user, password).await?)?;
        if read["IsInQueue"] == Value::Bool(false) {
            if read["WasSuccessful"] != Value::Bool(true) || read["TotalResultsAffected"] != results
            {
                bail!("the purge ended as {read}, not {results} results purged");
            }
            break;
        }
        samples.push((
            started.elapsed().as_secs_f64(),
            results_done(database).await?,
        ));
        if started.elapsed() > Duration::from_secs(30 * 60) {
            bail!("the purge did not finish in 30 minutes");
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let seconds = started.elapsed().as_secs_f64();
    samples.push((seconds, results));
    done.store(true, Ordering::Relaxed);
    let (reads, polls) = (reader.await??, poller.await??);
    Ok(Figures {
        results,
        seconds,
        trend_percent: trend(&samples, results),
        reads: reads.len(),
        read_p99_ms: polling::percentile(&reads, 0.99),
        polls: polls.len(),
        poll_p99_ms: polling::percentile(&polls, 0.99),
    })
}

/// The pace over the last fifth of `total` against the first fifth, in percent.
fn trend(samples: &[(f64, i64)], total: i64) -> f64 {
    let when = |count: i64| {
        samples
            .iter()
            .find(|(_, done)| *done >= count)
            .map_or(0.0, |(at, _)| *at)
    };
    let first = when(total / 5) - when(0);
    let last = when(total) - when(total * 4 / 5);
    if first <= 0.0 || last <= 0.0 {
        return 0.0;
    }
    (first / last - 1.0) * 100.0
}
