//! A purge survives a crash: 10,000 results queued for purging, the server killed
//! (SIGKILL) part-way, a new process started on the same database. The job is taken
//! up again once its lease runs out, completes by itself, and its audit log entry
//! ends WasSuccessful with TotalResultsAffected 10,000; no table holds a row of a
//! purged result, and at the moment of the crash no result was half purged and the
//! job had counted exactly the results gone (a group is removed and counted in one
//! transaction).

use std::time::Duration;

use scoredesk_e2e::{Backend, TestDatabase};
use scoredesk_server::auth::hash_password;
use scoredesk_server::seed::scale::seed_scale;
use scoredesk_server::store::{NewAccount, Store};
use serde_json::Value;

use crate::support::{ServerProcess, Sql};

const RESULTS: usize = 10_000;
const NAME: &str = "crash-test";
const SETTINGS: &[(&str, &str)] = &[("job_lease_seconds", "3"), ("job_poll_milliseconds", "200")];

#[tokio::test]
async fn a_purge_killed_mid_way_completes_after_a_restart_on_sqlite() {
    crash_and_resume(Backend::Sqlite).await;
}

#[tokio::test]
async fn a_purge_killed_mid_way_completes_after_a_restart_on_postgres() {
    crash_and_resume(Backend::Postgres).await;
}

/// Rows anywhere that belong to no result, or to a result of the purge.
async fn leftovers(store: &Sql) -> Vec<(String, i64)> {
    let mut found = Vec::new();
    for table in [
        "answers",
        "scoring_tasks",
        "scoring_results",
        "dimension_scores",
        "scoring_events",
        "topic_scores",
    ] {
        let n = store.scalar(&format!("SELECT COUNT(*) FROM {table} t WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.id = t.result_id)"),
        )
        .await;
        found.push((table.to_owned(), n));
    }
    found.push((
        "results".into(),
        store
            .scalar(&format!(
                "SELECT COUNT(*) FROM results WHERE participant_name = '{NAME}'"
            ))
            .await,
    ));
    found.push((
        "scoring_task_counts".into(),
        store
            .scalar("SELECT CAST(COALESCE(SUM(tasks), 0) AS BIGINT) FROM scoring_task_counts")
            .await
            - store.scalar("SELECT COUNT(*) FROM scoring_tasks").await,
    ));
    found
}

async fn crash_and_resume(backend: Backend) {
    let database = TestDatabase::create_empty(backend).await;
    let store = Store::connect(database.url()).await.unwrap();
    store.migrate().await.unwrap();
    let area = seed_scale(&store, RESULTS, false).await.unwrap();
    store
        .insert_account(NewAccount {
            customer_id: Some(area),
            username: "purge-admin",
            password_hash: &hash_password("purge-password").unwrap(),
            role: "admin",
        })
        .await
        .unwrap();
    let sql = Sql::connect(database.url()).await;
    sql.execute(&format!(
        "UPDATE results SET participant_name = '{NAME}' WHERE customer_id = {area}"
    ))
    .await;
    let answers_each = sql
        .scalar(&format!(
            "SELECT COUNT(*) FROM answers WHERE customer_id = {area}"
        ))
        .await
        / RESULTS as i64;
    assert!(answers_each >= 1);

    let mut first = ServerProcess::start(database.url(), SETTINGS).await;
    let response = reqwest::Client::new()
        .post(first.url(&format!(
            "/deliveryodata/{area}/Results/PurgeResultsByParticipantName"
        )))
        .basic_auth("purge-admin", Some("purge-password"))
        .json(&serde_json::json!({"ParticipantName": NAME}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), reqwest::StatusCode::ACCEPTED);
    let entry = sql
        .scalar("SELECT CAST(MAX(id) AS BIGINT) FROM results_audit_log")
        .await;
    // Killed once a fifth is done.
    let mut done = 0;
    for _ in 0..600 {
        done = sql
            .scalar("SELECT CAST(COALESCE(MAX(results_done), 0) AS BIGINT) FROM jobs")
            .await;
        if done >= RESULTS as i64 / 5 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    first.kill().await;
    sql.wait_for_servers_transactions_to_end().await;
    assert!(
        done > 0 && done < RESULTS as i64,
        "killed part-way ({done} done)"
    );
    let left = sql
        .scalar(&format!(
            "SELECT COUNT(*) FROM results WHERE participant_name = '{NAME}'"
        ))
        .await;
    assert!(
        left > 0 && left < RESULTS as i64,
        "part of the results purged ({left} left)"
    );
    // Each group's count to the job committed with its removal: no more, no fewer.
    // One statement, so one snapshot: PostgreSQL may still commit the group the
    // killed server had sent, between two separate reads.
    let counted_and_left = sql
        .scalar(&format!(
            "SELECT CAST((SELECT MAX(results_done) FROM jobs) + \
             (SELECT COUNT(*) FROM results WHERE participant_name = '{NAME}') AS BIGINT)"
        ))
        .await;
    assert_eq!(
        counted_and_left, RESULTS as i64,
        "the job's count at the crash plus the results left"
    );
    // No result half purged: every one still there has all its answers, and no
    // row is left of one that is gone.
    let half = sql
        .scalar(&format!(
            "SELECT COUNT(*) FROM results r WHERE r.participant_name = '{NAME}' AND \
             (SELECT COUNT(*) FROM answers a WHERE a.result_id = r.id) <> {answers_each}"
        ))
        .await;
    assert_eq!(half, 0, "results half purged at the crash");
    let orphans: Vec<(String, i64)> = leftovers(&sql)
        .await
        .into_iter()
        .filter(|(t, _)| t != "results")
        .collect();
    assert!(orphans.iter().all(|(_, n)| *n == 0), "{orphans:?}");
    assert_eq!(
        sql.scalar(&format!("SELECT CAST(CASE WHEN is_in_queue THEN 1 ELSE 0 END AS BIGINT) FROM results_audit_log WHERE id = {entry}")).await,
        1
    );

    let second = ServerProcess::start(database.url(), SETTINGS).await;
    let mut closed = false;
    for _ in 0..1200 {
        if sql.scalar(&format!("SELECT CAST(CASE WHEN is_in_queue THEN 1 ELSE 0 END AS BIGINT) FROM results_audit_log WHERE id = {entry}")).await == 0 {
            closed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        closed,
        "the purge did not complete after the restart; log:\n{}",
        second.log().join("\n")
    );
    let read: Value = reqwest::Client::new()
        .get(second.url(&format!("/deliveryodata/{area}/ResultsAuditLog({entry})")))
        .basic_auth("purge-admin", Some("purge-password"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(read["WasSuccessful"], true, "{read}");
    assert_eq!(read["TotalResultsAffected"], RESULTS as i64, "{read}");
    let left = leftovers(&sql).await;
    assert!(left.iter().all(|(_, n)| *n == 0), "{left:?}");
    assert_eq!(
        sql.scalar("SELECT COUNT(*) FROM jobs").await,
        0,
        "the job left the queue"
    );
    let errors: Vec<String> = second
        .log()
        .into_iter()
        .filter(|line| line.contains("\"ERROR\""))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}
