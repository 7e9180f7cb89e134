//! Every 10 s: the server process's memory, threads and open files (/proc), its
//! connection pool (`/metrics`), the database's size, and the window of requests
//! the recorder gathered: count, p50 and p99 per route, and statuses. Each sample
//! is also appended to `samples.jsonl` as it is taken, so that a run that dies
//! keeps what it saw.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::actors::Load;
use crate::client::Person;
use crate::database::Database;
use crate::recorder::quantile_ms;

pub const EVERY: Duration = Duration::from_secs(10);

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RouteFigures {
    pub count: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sample {
    pub seconds: f64,
    pub rss_mb: f64,
    pub threads: u64,
    pub open_files: u64,
    pub pool_in_use: f64,
    pub pool_idle: f64,
    pub database_mb: f64,
    pub flooding: bool,
    pub routes: BTreeMap<String, RouteFigures>,
    /// p99 of every request of real people (the flood's guesses not counted).
    pub p99_ms: f64,
    pub statuses: BTreeMap<u16, u64>,
    /// Every real request's time (µs), for quantiles over spans of samples.
    #[serde(skip, default)]
    pub times: Vec<u32>,
}

pub async fn run(
    load: Arc<Load>,
    pid: u32,
    metrics: Person,
    database: Arc<Database>,
    out: &Path,
) -> anyhow::Result<Vec<Sample>> {
    let mut file = std::fs::File::create(out.join("samples.jsonl"))?;
    let mut samples = Vec::new();
    let mut ticker = tokio::time::interval(EVERY);
    ticker.tick().await;
    loop {
        ticker.tick().await;
        let sample = take(&load, pid, &metrics, &database).await;
        writeln!(file, "{}", serde_json::to_string(&sample)?)?;
        samples.push(sample);
        if load.stopping() {
            return Ok(samples);
        }
    }
}

async fn take(load: &Load, pid: u32, metrics: &Person, database: &Database) -> Sample {
    let window = load.recorder.drain();
    let mut everyone = Vec::new();
    let mut routes = BTreeMap::new();
    for (route, mut times) in window.times {
        if !route.starts_with("flood") {
            everyone.extend_from_slice(&times);
        }
        routes.insert(
            route.to_owned(),
            RouteFigures {
                count: times.len(),
                p50_ms: quantile_ms(&mut times, 0.50),
                p99_ms: quantile_ms(&mut times, 0.99),
            },
        );
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let open_files = std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count()) as u64;
    let text = metrics
        .get(
            "sampler: metrics",
            &format!("{}/metrics", metrics.root),
            &[200],
        )
        .await
        .body;
    let gauge = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.trim().parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    Sample {
        seconds: load.started.elapsed().as_secs_f64(),
        rss_mb: field("VmRSS:") as f64 / 1024.0,
        threads: field("Threads:"),
        open_files,
        pool_in_use: gauge("scoredesk_db_connections{state=\"in_use\"}"),
        pool_idle: gauge("scoredesk_db_connections{state=\"idle\"}"),
        database_mb: database.size().await.unwrap_or(0) as f64 / 1e6,
        flooding: load.flooding(),
        routes,
        p99_ms: quantile_ms(&mut everyone, 0.99),
        statuses: window.statuses,
        times: everyone,
    }
}
