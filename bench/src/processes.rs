//! Scoring round trips with the scorers spread over 1, 2, 3… `scoredesk-server`
//! processes on one PostgreSQL database, as operators run it behind a load balancer:
//! scorer `i` talks to process `i % n`. Each count of processes runs on the same
//! database copy in turn (the tasks scored before stay scored).

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use tokio::process::{Child, Command};

use crate::scoring;

/// The figures of one count of processes.
pub struct Run {
    pub processes: usize,
    pub scoring: scoring::Figures,
}

/// What each run scores.
pub struct Load<'a> {
    pub user: &'a str,
    pub password: &'a str,
    pub scorers: usize,
    pub tasks: usize,
    pub warm_up: usize,
}

/// Runs the scoring round trips once per entry of `counts`, with that many
/// processes of `server` on the database at `url` and its area `customer`.
pub async fn run(
    server: &Path,
    url: &str,
    customer: i32,
    counts: &[usize],
    load: &Load<'_>,
) -> anyhow::Result<Vec<Run>> {
    let mut runs = Vec::new();
    for &processes in counts {
        eprintln!("measuring: scoring round trips on {processes} server process(es)");
        let mut children = Vec::new();
        let mut roots = Vec::new();
        for _ in 0..processes {
            let (child, address) = start(server, url).await?;
            children.push(child);
            roots.push(format!("{address}/deliveryodata/{customer}"));
        }
        let limit = Duration::from_secs(30 * 60);
        if load.warm_up > 0 {
            scoring::run(
                &roots,
                load.user,
                load.password,
                load.scorers,
                load.warm_up,
                limit,
            )
            .await?;
        }
        let figures = scoring::run(
            &roots,
            load.user,
            load.password,
            load.scorers,
            load.tasks,
            limit,
        )
        .await?;
        for mut child in children {
            child.kill().await?;
        }
        runs.push(Run {
            processes,
            scoring: figures,
        });
    }
    Ok(runs)
}

/// Starts `serve` on a free port and waits for its health check.
async fn start(server: &Path, url: &str) -> anyhow::Result<(Child, String)> {
    let port = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await?
        .local_addr()?
        .port();
    let address = format!("127.0.0.1:{port}");
    let child = Command::new(server)
        .args(["serve", "--bind", &address])
        .env_remove("SCOREDESK_CONFIG")
        .env("SCOREDESK_DATABASE_URL", url)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("starting {}", server.display()))?;
    let health = format!("http://{address}/health");
    let client = reqwest::Client::new();
    let begun = Instant::now();
    while begun.elapsed() < Duration::from_secs(60) {
        if let Ok(response) = client.get(&health).send().await {
            if response.status().is_success() {
                return Ok((child, format!("http://{address}")));
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!(
        "{} did not answer {health} within a minute",
        server.display()
    )
}
