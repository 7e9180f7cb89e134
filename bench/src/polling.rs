//! A client that reads one URL every 100 ms while other work runs, as a scorer's
//! client polls its queue, keeping each read's latency: what that work costs the
//! people reading meanwhile.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use reqwest::Client;
use tokio::task::JoinHandle;

/// How often: a scorer who takes the next task every 100 ms is a fast one.
const POLL_EVERY: Duration = Duration::from_millis(100);

/// Polls `url` until `done` is set; the task's result is every read's latency.
pub fn poll(
    url: &str,
    user: &str,
    password: &str,
    done: Arc<AtomicBool>,
) -> JoinHandle<anyhow::Result<Vec<Duration>>> {
    let (url, user, password) = (url.to_owned(), user.to_owned(), password.to_owned());
    tokio::spawn(async move {
        let client = Client::new();
        let mut took = Vec::new();
        while !done.load(Ordering::Relaxed) {
            let begun = Instant::now();
            let response = client
                .get(&url)
                .basic_auth(&user, Some(&password))
                .send()
                .await?;
            if !response.status().is_success() {
                bail!("{url}: {}", response.status());
            }
            response.bytes().await?;
            took.push(begun.elapsed());
            tokio::time::sleep(POLL_EVERY.saturating_sub(begun.elapsed())).await;
        }
        took.sort();
        anyhow::Ok(took)
    })
}

/// The `p` quantile of `sorted`, in milliseconds.
pub fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index].as_secs_f64() * 1000.0
}
