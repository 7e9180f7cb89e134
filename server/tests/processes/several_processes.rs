//! Three server processes on one PostgreSQL database behind a load balancer, as
//! operators run ScoreDesk for many scorers: 50 scorers submit scores for the same
//! few tasks at once, as the desktop app does (one `$batch` change set: the
//! ScoringResult with the ModifiedDateTime it read, every DimensionScore, the task
//! to 2 and then to 3, which rescores the participant's Result). Half the scorers
//! stay on one process, half go to each process in turn.
//!
//! Optimistic concurrency must hold across processes: no submission may win over a
//! version it did not read (no lost update), every 412 must be for a version that
//! another submission had replaced, the losers leave nothing behind, and every
//! Result's total must equal the scores stored for its answers.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use chrono::NaiveDateTime;
use reqwest::{Client, StatusCode};
use scoredesk_e2e::{Backend, TestDatabase};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};
use sqlx::postgres::PgPool;

use crate::support::ServerProcess;

const PROCESSES: usize = 3;
const SCORERS: usize = 50;
const ROUNDS: usize = 6;
const CONTESTED_TASKS: usize = 6;
const SCORER: &str = "northwind-scorer";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Task {
    question: i64,
    result: i32,
}

/// One dimension of a task's rubric.
#[derive(Debug, Clone)]
struct Dimension {
    order: i64,
    max: i64,
}

/// What the scorers need to know about a contested task.
#[derive(Debug, Clone)]
struct Contested {
    task: Task,
    rubric: i64,
    dimensions: Vec<Dimension>,
}

/// What one submission did.
#[derive(Debug, Clone)]
enum Outcome {
    /// Every write of the change set was applied.
    Won {
        read: NaiveDateTime,
        tag: String,
        scores: Vec<i64>,
    },
    /// The change set answered 412: the version read had been replaced.
    Stale { read: NaiveDateTime },
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_scorers_on_three_processes_lose_no_update() {
    let (database, areas) = TestDatabase::create_from_demo(Backend::Postgres).await;
    let pool = PgPool::connect(database.url()).await.expect("the database");
    let mut processes = Vec::new();
    for _ in 0..PROCESSES {
        processes.push(ServerProcess::start(database.url(), &[]).await);
    }
    let roots: Vec<String> = processes
        .iter()
        .map(|p| p.url(&format!("/deliveryodata/{}/", areas[0])))
        .collect();
    let contested = Arc::new(prepare(&pool, &roots[0]).await);

    let mut scorers = Vec::new();
    for scorer in 0..SCORERS {
        let roots = roots.clone();
        let contested = Arc::clone(&contested);
        scorers.push(tokio::spawn(async move {
            let client = Client::new();
            let mut outcomes = Vec::new();
            for round in 0..ROUNDS {
                // Even scorers stay on one process; odd ones go to each in turn.
                let root = if scorer % 2 == 0 {
                    &roots[scorer % PROCESSES]
                } else {
                    &roots[(scorer + round) % PROCESSES]
                };
                let task = &contested[(scorer * 7 + round * 5) % contested.len()];
                let outcome = submit(&client, root, task, scorer, round, true).await;
                outcomes.push((task.task, outcome));
            }
            outcomes
        }));
    }
    let mut by_task: HashMap<Task, Vec<Outcome>> = HashMap::new();
    for scorer in scorers {
        for (task, outcome) in scorer.await.expect("a scorer finished") {
            by_task.entry(task).or_default().push(outcome);
        }
    }

    let (mut won, mut stale) = (0, 0);
    for contested in contested.iter() {
        let outcomes = &by_task[&contested.task];
        let winners = check_versions(contested.task, outcomes);
        won += winners;
        stale += outcomes.len() - winners;
        check_stored(&pool, contested, outcomes).await;
    }
    eprintln!("{won} submissions won, {stale} were refused as stale");
    assert_eq!(won + stale, SCORERS * ROUNDS);
    assert!(
        stale >= SCORERS,
        "the scorers contended ({won} won, {stale} stale)"
    );
    check_results(&pool, &contested).await;
    rescore_on_two_processes_at_once(&pool, &roots, &contested).await;
    check_kept_counts(&pool).await;
    for process in &processes {
        let errors: Vec<String> = process
            .log()
            .into_iter()
            .filter(|line| line.contains("\"level\":\"ERROR\""))
            .collect();
        assert!(errors.is_empty(), "errors logged: {errors:#?}");
    }
}

/// The first open tasks with a rubric (two of them of one result, so that results
/// are rescored by several processes at once), each followed to its ScoringResult
/// once, which creates it.
async fn prepare(pool: &PgPool, root: &str) -> Vec<Contested> {
    let rows: Vec<(i64, i32)> = sqlx::query_as(
        "SELECT t.question_id, t.result_id FROM scoring_tasks t \
         JOIN rubrics r ON r.question_id = t.question_id \
         WHERE t.status = 0 AND t.result_id IN ( \
             SELECT result_id FROM scoring_tasks s JOIN rubrics q ON q.question_id = s.question_id \
             WHERE s.status = 0 GROUP BY result_id HAVING COUNT(*) >= 2) \
         ORDER BY t.result_id, t.question_id LIMIT $1",
    )
    .bind(CONTESTED_TASKS as i64)
    .fetch_all(pool)
    .await
    .expect("open tasks");
    assert_eq!(
        rows.len(),
        CONTESTED_TASKS,
        "the demo has enough open tasks"
    );
    let client = Client::new();
    let mut contested = Vec::new();
    for (question, result) in rows {
        let task = Task { question, result };
        let (status, body) = get(
            &client,
            &format!("{root}ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let rubric = body["value"][0]["RubricID"].as_i64().expect("RubricID");
        let (status, body) = get(
            &client,
            &format!(
                "{}/DimensionScores?$expand=Dimension",
                scoring_result_url(root, task, rubric)
            ),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let dimensions = body["value"]
            .as_array()
            .expect("dimension scores")
            .iter()
            .map(|d| Dimension {
                order: d["Order"].as_i64().expect("Order"),
                max: d["Dimension"]["MaxScore"].as_i64().expect("MaxScore"),
            })
            .collect();
        contested.push(Contested {
            task,
            rubric,
            dimensions,
        });
    }
    contested
}

/// Reads the ScoringResult and submits scores for it as one change set; `finish`:
/// with the task set to 2 and then 3, as the desktop's Submit does.
async fn submit(
    client: &Client,
    root: &str,
    contested: &Contested,
    scorer: usize,
    round: usize,
    finish: bool,
) -> Outcome {
    let url = scoring_result_url(root, contested.task, contested.rubric);
    let (status, read) = get(client, &url).await;
    assert_eq!(status, StatusCode::OK, "{read}");
    let modified = read["ModifiedDateTime"].clone();
    let read_at = parse_time(&modified);
    let tag = format!("scorer {scorer} round {round}");
    let scores: Vec<i64> = contested
        .dimensions
        .iter()
        .map(|d| (scorer as i64 * 31 + round as i64 * 17 + d.order * 7) % (d.max + 1))
        .collect();
    let Task { question, result } = contested.task;
    let relative = |path: String| path.strip_prefix(root).expect("under the root").to_owned();
    let mut operations = vec![(
        relative(url.clone()),
        json!({"Score": scores.iter().sum::<i64>(), "Comments": tag, "ModifiedDateTime": modified}),
    )];
    for (dimension, score) in contested.dimensions.iter().zip(&scores) {
        operations.push((
            format!(
                "DimensionScores(QuestionID={question}L,RubricID={},ResultID={result},Order={})",
                contested.rubric, dimension.order
            ),
            json!({"Score": score, "Comment": tag}),
        ));
    }
    let task = format!("ScoringTasks(QuestionID={question}L,ResultID={result})");
    if finish {
        operations.push((task.clone(), json!({"Status": 2})));
        operations.push((task, json!({"Status": 3})));
    }
    let response = client
        .post(format!("{root}$batch"))
        .basic_auth(SCORER, Some(DEMO_PASSWORD))
        .header("Content-Type", "multipart/mixed; boundary=batch_s")
        .body(change_set(&operations))
        .send()
        .await
        .expect("the batch is sent");
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let text = response.text().await.expect("the batch's answer");
    let inner: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("HTTP/1.1 "))
        .map(|rest| &rest[..3])
        .collect();
    if inner.len() == operations.len() && inner.iter().all(|s| *s == "204") {
        Outcome::Won {
            read: read_at,
            tag,
            scores,
        }
    } else if inner == ["412"] {
        Outcome::Stale { read: read_at }
    } else {
        panic!("a submission neither won nor was refused as stale: {text}")
    }
}

/// One change set of PUTs, written by hand as a client writes it.
fn change_set(operations: &[(String, Value)]) -> String {
    let mut body =
        String::from("--batch_s\r\nContent-Type: multipart/mixed; boundary=changeset_s\r\n\r\n");
    for (url, json) in operations {
        body.push_str(&format!(
            "--changeset_s\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nPUT {url} HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{json}\r\n"
        ));
    }
    body.push_str("--changeset_s--\r\n--batch_s--\r\n");
    body
}

/// Each version of a task is won once at most, and every 412 is for a version that
/// a winning submission had read (and so replaced). Returns how many won.
fn check_versions(task: Task, outcomes: &[Outcome]) -> usize {
    let mut winners: BTreeMap<NaiveDateTime, &str> = BTreeMap::new();
    for outcome in outcomes {
        if let Outcome::Won { read, tag, .. } = outcome {
            if let Some(other) = winners.insert(*read, tag) {
                panic!("{task:?}: {tag} and {other} both won over the version of {read}: a lost update");
            }
        }
    }
    for outcome in outcomes {
        if let Outcome::Stale { read } = outcome {
            assert!(
                winners.contains_key(read),
                "{task:?}: a 412 for the version of {read}, which no submission replaced"
            );
        }
    }
    winners.len()
}

/// What is stored is the last winner's submission, whole: its scores, its comments,
/// and the total of its dimensions; a ScoringEvent for each of the winners' status
/// changes and none for the losers'.
async fn check_stored(pool: &PgPool, contested: &Contested, outcomes: &[Outcome]) {
    let Task { question, result } = contested.task;
    let last = outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Won { read, tag, scores } => Some((read, tag, scores)),
            Outcome::Stale { .. } => None,
        })
        .max_by_key(|(read, _, _)| **read)
        .expect("every contested task was won at least once");
    let stored: Vec<(Option<i16>, Option<String>)> = sqlx::query_as(
        "SELECT score, comment FROM dimension_scores WHERE question_id = $1 AND result_id = $2 ORDER BY dimension_order",
    )
    .bind(question)
    .bind(result)
    .fetch_all(pool)
    .await
    .expect("dimension scores");
    let expected: Vec<(Option<i16>, Option<String>)> = last
        .2
        .iter()
        .map(|s| (Some(*s as i16), Some(last.1.clone())))
        .collect();
    assert_eq!(
        stored, expected,
        "{:?}: the last winner's dimensions",
        contested.task
    );
    let (score, comments, status): (Option<i32>, Option<String>, i32) = sqlx::query_as(
        "SELECT s.score, s.comments, t.status FROM scoring_results s JOIN scoring_tasks t \
         ON t.question_id = s.question_id AND t.result_id = s.result_id \
         WHERE s.question_id = $1 AND s.result_id = $2",
    )
    .bind(question)
    .bind(result)
    .fetch_one(pool)
    .await
    .expect("the scoring result");
    assert_eq!(score, Some(last.2.iter().sum::<i64>() as i32));
    assert_eq!(comments.as_deref(), Some(last.1.as_str()));
    assert_eq!(status, 3);
    let events: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM scoring_events WHERE question_id = $1 AND result_id = $2",
    )
    .bind(question)
    .bind(result)
    .fetch_one(pool)
    .await
    .expect("scoring events");
    let won = outcomes
        .iter()
        .filter(|o| matches!(o, Outcome::Won { .. }))
        .count();
    assert_eq!(
        events,
        2 * won as i64,
        "{:?}: two status changes per winner",
        contested.task
    );
}

/// Every Result's total is the sum of its answers' scores, each essay's being the
/// total of its stored dimensions.
async fn check_results(pool: &PgPool, contested: &[Contested]) {
    for contested in contested {
        let Task { question, result } = contested.task;
        let answer: Option<i32> = sqlx::query_scalar(
            "SELECT actual_score FROM answers WHERE question_id = $1 AND result_id = $2 \
             ORDER BY occurrence, block_number LIMIT 1",
        )
        .bind(question)
        .bind(result)
        .fetch_one(pool)
        .await
        .expect("the answer");
        let dimensions: Option<i64> = sqlx::query_scalar(
            "SELECT SUM(score) FROM dimension_scores WHERE question_id = $1 AND result_id = $2",
        )
        .bind(question)
        .bind(result)
        .fetch_one(pool)
        .await
        .expect("the dimensions");
        assert_eq!(answer.map(i64::from), dimensions, "{:?}", contested.task);
    }
    let results: Vec<i32> = contested.iter().map(|c| c.task.result).collect();
    let wrong: Vec<(i32, i32, i64)> = sqlx::query_as(
        "SELECT r.id, r.total_score, COALESCE(SUM(a.actual_score), 0) FROM results r \
         JOIN answers a ON a.result_id = r.id WHERE r.id = ANY($1) \
         GROUP BY r.id, r.total_score HAVING r.total_score <> COALESCE(SUM(a.actual_score), 0)",
    )
    .bind(&results)
    .fetch_all(pool)
    .await
    .expect("result totals");
    assert!(
        wrong.is_empty(),
        "Results whose total is not their answers' sum: {wrong:?}"
    );
}

/// Both essays of a result set to 3 at the same moment on two processes, again and
/// again: each rescores the Result, and neither score may be lost.
async fn rescore_on_two_processes_at_once(
    pool: &PgPool,
    roots: &[String],
    contested: &[Contested],
) {
    let client = Client::new();
    let pairs: Vec<(Task, Task)> = contested
        .windows(2)
        .map(|pair| (pair[0].task, pair[1].task))
        .filter(|(a, b)| a.result == b.result)
        .collect();
    assert!(!pairs.is_empty(), "results with two contested essays");
    for round in 0..10 {
        for (first, second) in &pairs {
            for task in [first, second] {
                assert_eq!(
                    set_status(&client, &roots[0], *task, 2).await,
                    StatusCode::NO_CONTENT
                );
                // New scores, so that a rescore that missed the other's would show.
                let contested = contested
                    .iter()
                    .find(|c| c.task == *task)
                    .expect("contested");
                let outcome =
                    submit(&client, &roots[0], contested, SCORERS + round, round, false).await;
                assert!(matches!(outcome, Outcome::Won { .. }), "{outcome:?}");
            }
            let (a, b) = tokio::join!(
                set_status(&client, &roots[round % PROCESSES], *first, 3),
                set_status(&client, &roots[(round + 1) % PROCESSES], *second, 3)
            );
            assert_eq!((a, b), (StatusCode::NO_CONTENT, StatusCode::NO_CONTENT));
        }
        check_results(pool, contested).await;
    }
}

async fn set_status(client: &Client, root: &str, task: Task, status: i32) -> StatusCode {
    client
        .put(format!(
            "{root}ScoringTasks(QuestionID={}L,ResultID={})",
            task.question, task.result
        ))
        .basic_auth(SCORER, Some(DEMO_PASSWORD))
        .json(&json!({"Status": status}))
        .send()
        .await
        .expect("the request is sent")
        .status()
}

/// The counts the triggers keep still equal the tasks, after concurrent changes.
async fn check_kept_counts(pool: &PgPool) {
    let differences: Vec<(i32, i32, i64, i64)> = sqlx::query_as(
        "SELECT COALESCE(k.customer_id, t.customer_id), COALESCE(k.status, t.status), \
                COALESCE(k.tasks, 0), COALESCE(t.tasks, 0) \
         FROM (SELECT customer_id, status, SUM(tasks)::BIGINT AS tasks FROM scoring_task_counts GROUP BY 1, 2) k \
         FULL JOIN (SELECT customer_id, status, COUNT(*) AS tasks FROM scoring_tasks GROUP BY 1, 2) t \
         ON k.customer_id = t.customer_id AND k.status = t.status \
         WHERE COALESCE(k.tasks, 0) <> COALESCE(t.tasks, 0)",
    )
    .fetch_all(pool)
    .await
    .expect("kept counts");
    assert!(
        differences.is_empty(),
        "kept counts differ: {differences:?}"
    );
}

fn scoring_result_url(root: &str, task: Task, rubric: i64) -> String {
    format!(
        "{root}ScoringResults(QuestionID={}L,RubricID={rubric},ResultID={})",
        task.question, task.result
    )
}

async fn get(client: &Client, url: &str) -> (StatusCode, Value) {
    let response = client
        .get(url)
        .basic_auth(SCORER, Some(DEMO_PASSWORD))
        .send()
        .await
        .expect("the request is sent");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A ModifiedDateTime as JSON light writes it (`2026-11-23T20:10:00.123`).
fn parse_time(value: &Value) -> NaiveDateTime {
    let text = value
        .as_str()
        .unwrap_or_else(|| panic!("a DateTime: {value}"));
    NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f")
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}
