//! `scoredesk-server backup FILE` while a server writes: the copy is one consistent
//! moment of the database, whole, and a server runs on it.

use std::time::Duration;

use scoredesk_e2e::{Backend, TestDatabase};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use sqlx::Connection;
use tokio::process::Command;

use crate::support::ServerProcess;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_scorers_write_is_consistent_and_serves() {
    let (database, areas) = TestDatabase::create_from_demo(Backend::Sqlite).await;
    let server = ServerProcess::start(database.url(), &[]).await;
    let root = server.url(&format!("/deliveryodata/{}/", areas[0]));
    let tasks = open_tasks(database.url()).await;
    // Scorers changing task statuses (each change also moves the kept counts and
    // writes a ScoringEvent, in one transaction) for as long as the backup runs.
    let writing = tokio::spawn(async move {
        let client = reqwest::Client::new();
        let mut writes = 0;
        for round in 0..40 {
            for (question, result) in &tasks {
                let response = client
                    .put(format!(
                        "{root}ScoringTasks(QuestionID={question}L,ResultID={result})"
                    ))
                    .basic_auth("northwind-scorer", Some(DEMO_PASSWORD))
                    .json(&serde_json::json!({"Status": round % 3}))
                    .send()
                    .await
                    .expect("sent");
                assert_eq!(response.status(), reqwest::StatusCode::NO_CONTENT);
                writes += 1;
            }
        }
        writes
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backup.db");
    let made = backup(database.url(), &file).await;
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    assert!(String::from_utf8_lossy(&made.stdout).contains("integrity ok"));
    assert!(
        !writing.is_finished(),
        "the backup was taken while scorers wrote"
    );
    assert!(writing.await.unwrap() > 0);

    // The copy is one moment: the counts the triggers keep equal the tasks, and each
    // task's last event names its status.
    let copy = format!("sqlite:{}", file.display());
    let mut connection = sqlx::SqliteConnection::connect(&copy).await.unwrap();
    let differences: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM (SELECT status, COUNT(*) AS n FROM scoring_tasks GROUP BY status) t \
         LEFT JOIN (SELECT status, SUM(tasks) AS n FROM scoring_task_counts GROUP BY status) k \
         ON k.status = t.status WHERE k.n IS NOT t.n",
    )
    .fetch_one(&mut connection)
    .await
    .unwrap();
    assert_eq!(
        differences, 0,
        "the kept counts equal the tasks in the copy"
    );
    let torn: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM scoring_tasks t WHERE EXISTS (SELECT 1 FROM scoring_events e \
         WHERE e.question_id = t.question_id AND e.result_id = t.result_id) AND t.status <> \
         (SELECT e.status FROM scoring_events e WHERE e.question_id = t.question_id \
          AND e.result_id = t.result_id ORDER BY e.id DESC LIMIT 1)",
    )
    .fetch_one(&mut connection)
    .await
    .unwrap();
    assert_eq!(torn, 0, "every task's status is its last event's");
    let events: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM scoring_events")
        .fetch_one(&mut connection)
        .await
        .unwrap();
    assert!(events > 0, "the copy holds writes made while it was taken");
    connection.close().await.unwrap();

    // A server runs on the copy.
    let restored = ServerProcess::start(&copy, &[]).await;
    let health = reqwest::get(restored.url("/health")).await.unwrap();
    assert_eq!(health.status(), reqwest::StatusCode::OK);

    // Never over an existing file; never of PostgreSQL.
    let again = backup(database.url(), &file).await;
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    let postgres = backup(
        "postgres://nobody@127.0.0.1:1/none",
        &dir.path().join("pg.db"),
    )
    .await;
    assert!(!postgres.status.success());
    assert!(String::from_utf8_lossy(&postgres.stderr).contains("pg_dump"));
}

async fn backup(database_url: &str, file: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_scoredesk-server"))
        .arg("--database-url")
        .arg(database_url)
        .arg("backup")
        .arg(file)
        .env_remove("SCOREDESK_CONFIG")
        .output()
        .await
        .expect("scoredesk-server runs")
}

async fn open_tasks(url: &str) -> Vec<(i64, i32)> {
    let mut connection = sqlx::SqliteConnection::connect(url).await.unwrap();
    sqlx::query_as("SELECT question_id, result_id FROM scoring_tasks WHERE status = 0 LIMIT 10")
        .fetch_all(&mut connection)
        .await
        .unwrap()
}
