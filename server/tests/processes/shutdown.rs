//! SIGTERM, as systemd and container runtimes stop a service: a request in flight
//! finishes and is answered, new connections are refused at once, and the process
//! exits with success.

use std::time::Duration;

use base64::Engine;
use scoredesk_e2e::{Backend, TestDatabase};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use sqlx::Connection;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::ServerProcess;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_a_request_in_flight_finish_and_refuses_new_ones() {
    let (database, areas) = TestDatabase::create_from_demo(Backend::Sqlite).await;
    let mut server = ServerProcess::start(database.url(), &[]).await;
    let (question, result) = open_task(database.url()).await;
    let path = format!(
        "/deliveryodata/{}/ScoringTasks(QuestionID={question}L,ResultID={result})",
        areas[0]
    );
    // A PUT whose body arrives slowly: the signal comes between its two halves.
    let body = br#"{"Status": 1}"#;
    let (first, second) = body.split_at(6);
    let credentials = base64::engine::general_purpose::STANDARD
        .encode(format!("northwind-scorer:{DEMO_PASSWORD}"));
    let host = server.address.trim_start_matches("http://").to_owned();
    let mut in_flight = TcpStream::connect(&host).await.expect("connected");
    let head = format!(
        "PUT {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Basic {credentials}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    in_flight.write_all(head.as_bytes()).await.unwrap();
    in_flight.write_all(first).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;

    server.terminate().await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        TcpStream::connect(&host).await.is_err(),
        "a new connection is refused once the signal has come"
    );

    in_flight.write_all(second).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(
        Duration::from_secs(10),
        in_flight.read_to_string(&mut answer),
    )
    .await
    .expect("the answer comes, and the connection is closed after it")
    .expect("the answer is read");
    assert!(
        answer.starts_with("HTTP/1.1 204"),
        "the request in flight was served: {answer}"
    );
    let status = server.exit_within(Duration::from_secs(15)).await;
    assert!(status.success(), "exit status {status}");
    assert_eq!(
        task_status(database.url(), question, result).await,
        1,
        "its write was committed"
    );
    assert!(
        server
            .log()
            .iter()
            .any(|line| line.contains("shutting down")),
        "{:#?}",
        server.log()
    );
}

async fn open_task(url: &str) -> (i64, i32) {
    let mut connection = sqlx::SqliteConnection::connect(url).await.unwrap();
    sqlx::query_as("SELECT question_id, result_id FROM scoring_tasks WHERE status = 0 LIMIT 1")
        .fetch_one(&mut connection)
        .await
        .unwrap()
}

async fn task_status(url: &str, question: i64, result: i32) -> i32 {
    let mut connection = sqlx::SqliteConnection::connect(url).await.unwrap();
    sqlx::query_scalar("SELECT status FROM scoring_tasks WHERE question_id = ? AND result_id = ?")
        .bind(question)
        .bind(result)
        .fetch_one(&mut connection)
        .await
        .unwrap()
}
