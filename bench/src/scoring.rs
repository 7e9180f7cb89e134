//! Complete scoring round trips through the HTTP API, as a scoring tool makes them:
//! poll the next open task, claim it (Status 1), follow it to its ScoringResult
//! (which creates it), read the dimension scores, PUT each, PUT the ScoringResult with
//! the ModifiedDateTime it read, and set the task to 3 (which rescores the result).
//! Each worker scores its own group's tasks, as scorers assigned to groups do, so
//! that workers never collide on a task.

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use reqwest::{Client, Method, StatusCode};
use serde_json::{json, Value};

pub struct Figures {
    pub workers: usize,
    pub round_trips: usize,
    pub seconds: f64,
    pub requests_per_round_trip: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// Mean time per round trip spent in each step (all of a step's requests).
    pub step_ms: Vec<(&'static str, f64)>,
    /// Throughput as the run went on (see [`throughput_over_time`]).
    pub over_time: Vec<(usize, f64, f64)>,
}

impl Figures {
    pub fn round_trips_per_second(&self) -> f64 {
        self.round_trips as f64 / self.seconds
    }
}

struct Api {
    client: Client,
    root: String,
    user: String,
    password: String,
    requests: usize,
    /// Time spent per step of the round trip, by step name.
    steps: std::collections::BTreeMap<&'static str, Duration>,
}

impl Api {
    async fn call(
        &mut self,
        step: &'static str,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> anyhow::Result<Value> {
        let begun = Instant::now();
        let value = self.send(method, path, body).await;
        *self.steps.entry(step).or_default() += begun.elapsed();
        value
    }

    async fn send(
        &mut self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> anyhow::Result<Value> {
        let mut request = self
            .client
            .request(method.clone(), format!("{}/{path}", self.root))
            .basic_auth(&self.user, Some(&self.password));
        if let Some(body) = body {
            request = request.json(&body);
        }
        self.requests += 1;
        let response = request.send().await?;
        let status = response.status();
        if !status.is_success() {
            bail!("{method} {path}: {status} {}", response.text().await?);
        }
        if status == StatusCode::NO_CONTENT {
            return Ok(Value::Null);
        }
        Ok(response.json().await?)
    }

    /// One complete round trip on the next open task of `group`; false when the group
    /// has no open task left.
    async fn score_next(&mut self, group: &str) -> anyhow::Result<bool> {
        let queue = self
            .call(
                "1 poll",
                Method::GET,
                &format!(
                    "ScoringTasks?$filter=Status eq 0 and Group/Name eq '{group}'&$orderby=Result/WhenFinished desc&$top=1"
                ),
                None,
            )
            .await?;
        let Some(task) = queue["value"].get(0) else {
            return Ok(false);
        };
        let question = task["QuestionID"]
            .as_str()
            .context("QuestionID")?
            .to_owned();
        let result = task["ResultID"].as_i64().context("ResultID")?;
        let task_path = format!("ScoringTasks(QuestionID={question}L,ResultID={result})");
        self.call(
            "2 claim (Status 1)",
            Method::PUT,
            &task_path,
            Some(json!({"Status": 1})),
        )
        .await?;
        let created = self
            .call(
                "3 follow to ScoringResult (creates it)",
                Method::GET,
                &format!("{task_path}/ScoringResult"),
                None,
            )
            .await?;
        let scoring_result = created["value"].get(0).context("no ScoringResult")?.clone();
        let rubric = scoring_result["RubricID"].as_i64().context("RubricID")?;
        let result_path =
            format!("ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})");
        let dimensions = self
            .call(
                "4 read DimensionScores",
                Method::GET,
                &format!("{result_path}/DimensionScores"),
                None,
            )
            .await?;
        let mut total = 0;
        for dimension in dimensions["value"].as_array().context("dimension scores")? {
            let order = dimension["Order"].as_i64().context("Order")?;
            total += 3;
            self.call(
                "5 PUT a DimensionScore",
                Method::PUT,
                &format!(
                    "DimensionScores(QuestionID={question}L,RubricID={rubric},ResultID={result},Order={order})"
                ),
                Some(json!({"Score": 3, "Comment": "benchmark"})),
            )
            .await?;
        }
        self.call(
            "6 PUT the ScoringResult",
            Method::PUT,
            &result_path,
            Some(json!({
                "Score": total,
                "Comments": "benchmark",
                "ModifiedDateTime": scoring_result["ModifiedDateTime"],
            })),
        )
        .await?;
        self.call(
            "7 set Status 3 (rescores the Result)",
            Method::PUT,
            &task_path,
            Some(json!({"Status": 3})),
        )
        .await?;
        Ok(true)
    }
}

/// Runs `workers` scorers until `tasks` tasks are scored between them (or `limit`
/// has passed); worker `i` talks to the service root `roots[i % roots.len()]`.
pub async fn run(
    roots: &[String],
    user: &str,
    password: &str,
    workers: usize,
    tasks: usize,
    limit: Duration,
) -> anyhow::Result<Figures> {
    let started = Instant::now();
    let deadline = started + limit;
    let scored = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut handles = Vec::new();
    for worker in 0..workers {
        let mut api = Api {
            client: Client::new(),
            root: roots[worker % roots.len()].clone(),
            user: user.to_owned(),
            password: password.to_owned(),
            requests: 0,
            steps: Default::default(),
        };
        // One group per worker, spread over the scale seed's 100 groups.
        let group = format!("Group-{:03}", (worker * 7) % 100);
        let scored = scored.clone();
        handles.push(tokio::spawn(async move {
            // (when it ended, how long it took) per round trip.
            let mut trips = Vec::new();
            while Instant::now() < deadline
                && scored.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < tasks
            {
                let begun = Instant::now();
                if !api.score_next(&group).await? {
                    break;
                }
                trips.push((begun.elapsed() + (begun - started), begun.elapsed()));
            }
            anyhow::Ok((trips, api.requests, api.steps))
        }));
    }
    let mut trips = Vec::new();
    let mut requests = 0;
    let mut steps: std::collections::BTreeMap<&'static str, Duration> = Default::default();
    for handle in handles {
        let (worker_trips, worker_requests, worker_steps) = handle.await??;
        trips.extend(worker_trips);
        requests += worker_requests;
        for (step, spent) in worker_steps {
            *steps.entry(step).or_default() += spent;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    if trips.is_empty() {
        bail!("no task was scored: are there open tasks with rubrics?");
    }
    trips.sort();
    let mut latencies: Vec<Duration> = trips.iter().map(|(_, took)| *took).collect();
    latencies.sort();
    let percentile = |p: f64| {
        let index = ((latencies.len() as f64 * p).ceil() as usize).clamp(1, latencies.len()) - 1;
        latencies[index].as_secs_f64() * 1000.0
    };
    Ok(Figures {
        workers,
        round_trips: latencies.len(),
        seconds,
        requests_per_round_trip: requests / latencies.len().max(1),
        p50_ms: percentile(0.50),
        p99_ms: percentile(0.99),
        step_ms: steps
            .into_iter()
            .map(|(step, spent)| (step, spent.as_secs_f64() * 1000.0 / latencies.len() as f64))
            .collect(),
        over_time: throughput_over_time(&trips, OVER_TIME_SLICES),
    })
}

/// How many slices the run is cut into to show decay.
const OVER_TIME_SLICES: usize = 10;

/// Round trips per second in each of `slices` equal runs of consecutive round trips
/// (by the time each ended): `(tasks scored by the slice's end, round trips/s, p99 ms)`.
fn throughput_over_time(trips: &[(Duration, Duration)], slices: usize) -> Vec<(usize, f64, f64)> {
    let size = (trips.len() / slices).max(1);
    let mut out = Vec::new();
    let mut begun = Duration::ZERO;
    let mut start = 0;
    while start < trips.len() {
        // The last slice takes the remainder, so that no slice is a handful of trips.
        let end = if trips.len() - start < 2 * size {
            trips.len()
        } else {
            start + size
        };
        let slice = &trips[start..end];
        let ended = slice.last().map(|(at, _)| *at).unwrap_or(begun);
        let seconds = (ended - begun).as_secs_f64().max(1e-6);
        let mut took: Vec<Duration> = slice.iter().map(|(_, took)| *took).collect();
        took.sort();
        let p99 = took[((took.len() as f64 * 0.99).ceil() as usize).clamp(1, took.len()) - 1];
        out.push((
            end,
            slice.len() as f64 / seconds,
            p99.as_secs_f64() * 1000.0,
        ));
        begun = ended;
        start = end;
    }
    out
}
