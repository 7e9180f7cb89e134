//! Two server processes on one PostgreSQL database drain one queue of 200 purge
//! jobs together: every result is purged once, every audit log entry closed once,
//! and both processes did some of the work (`FOR UPDATE SKIP LOCKED` and leases,
//! docs/purges.md).

use std::time::Duration;

use futures::StreamExt;

use scoredesk_e2e::{Backend, TestDatabase};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use sqlx::postgres::PgPool;

use crate::support::ServerProcess;

const JOBS: usize = 200;

#[tokio::test]
async fn two_processes_drain_one_queue_of_purges_together() {
    let (database, areas) = TestDatabase::create_from_demo(Backend::Postgres).await;
    let pool = PgPool::connect(database.url()).await.unwrap();
    let area = areas[0];
    // Enough results: the demo's, copied until there are 200 to purge one by one.
    let have: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM results WHERE customer_id = {area}"
    ))
    .fetch_one(&pool)
    .await
    .unwrap();
    for _ in 0..(JOBS as i64 / have.max(1) + 1) {
        sqlx::query(&format!(
            "INSERT INTO results (customer_id, assessment_id, participant_name, status, max_score, total_score, \
             percentage_score, extra_time, still_going, time_taken, when_finished) \
             SELECT customer_id, assessment_id, participant_name, status, max_score, total_score, percentage_score, \
             extra_time, still_going, time_taken, when_finished FROM results WHERE customer_id = {area}"
        ))
        .execute(&pool)
        .await
        .unwrap();
    }
    let ids: Vec<i32> = sqlx::query_scalar(&format!(
        "SELECT id FROM results WHERE customer_id = {area} ORDER BY id LIMIT {JOBS}"
    ))
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(ids.len(), JOBS);
    let settings = &[("job_poll_milliseconds", "50")];
    let processes = [
        ServerProcess::start(database.url(), settings).await,
        ServerProcess::start(database.url(), settings).await,
    ];
    let client = reqwest::Client::new();
    let posts = ids.iter().enumerate().map(|(n, id)| {
        let url = processes[n % 2].url(&format!("/deliveryodata/{area}/Results({id})/Purge"));
        let client = client.clone();
        async move {
            client
                .post(url)
                .basic_auth("northwind-admin", Some(DEMO_PASSWORD))
                .json(&serde_json::json!({}))
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    // Eight at a time, as a client would (200 first sign-ins at once would meet
    // the password-check limit, 429).
    let statuses: Vec<reqwest::StatusCode> = futures::stream::iter(posts)
        .buffer_unordered(8)
        .collect()
        .await;
    for status in statuses {
        assert_eq!(status, reqwest::StatusCode::ACCEPTED);
    }
    let open = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM results_audit_log WHERE is_in_queue")
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    for _ in 0..600 {
        if open().await == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(open().await, 0, "every entry closed");
    let entries: Vec<(i32, bool, Option<bool>)> = sqlx::query_as(
        "SELECT total_results_affected, is_in_queue, was_successful FROM results_audit_log WHERE request_type = 'Purge'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(entries.len(), JOBS);
    assert!(
        entries
            .iter()
            .all(|(affected, queued, ok)| *affected == 1 && !queued && *ok == Some(true)),
        "each entry closed once, one result each: {entries:?}"
    );
    let left: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM results WHERE id IN ({})",
        ids.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
    ))
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(left, 0);
    let queued: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM jobs")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(queued, 0);
    let done_by: Vec<usize> = processes
        .iter()
        .map(|process| {
            process
                .log()
                .iter()
                .filter(|line| line.contains("job done"))
                .count()
        })
        .collect();
    assert_eq!(
        done_by.iter().sum::<usize>(),
        JOBS,
        "each job done once: {done_by:?}"
    );
    assert!(
        done_by.iter().all(|n| *n > 0),
        "both processes worked: {done_by:?}"
    );
}
