//! The real desktop app in a real window (under Xvfb), driven over WebDriver by
//! tauri-driver and WebKitWebDriver. Run by scripts/test after it builds the app.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod accessibility;
mod annotations;
mod answer_groups;
mod appearance;
mod comment_bank;
mod content;
mod corrections;
mod delivery;
mod delivery_results;
mod delivery_retire;
mod drafts;
mod flags;
mod grading;
mod marker_figures;
mod marking_run;
mod moderation;
mod other_answers;
mod people;
mod queue_keys;
mod regrades;
mod remote;
mod remote_delivery;
mod scoring;
mod scoring_layout;
mod second_marking;
mod seeds;
mod sheets;
mod sheets_matching;
mod sheets_points;
mod sheets_short_answers;
mod support;
mod timings;
mod upload_timing;

use std::time::Duration;

use fantoccini::Locator;
use sqlx::Connection;
use support::DesktopSession;

/// The app's own database: what the window must agree with. The header counts the
/// open tasks a scorer can take: those whose question has a rubric.
async fn open_tasks_in_app_database(data_dir: &std::path::Path) -> i64 {
    let url = format!("sqlite:{}", data_dir.join("scoredesk.db").display());
    let mut conn = sqlx::SqliteConnection::connect(&url)
        .await
        .expect("the app's database exists");
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM scoring_tasks t WHERE status = 0 \
         AND EXISTS (SELECT 1 FROM rubrics r WHERE r.question_id = t.question_id) \
         AND customer_id = (SELECT customer_id FROM accounts WHERE username = 'desktop')",
    )
    .fetch_one(&mut conn)
    .await
    .expect("counting open tasks")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_window_shows_the_demo_open_task_count_from_the_embedded_server() {
    let session = DesktopSession::start().await;
    let client = &session.client;

    // The count appears once the embedded server has started and seeded the demo.
    let count_element = client
        .wait()
        .at_most(Duration::from_secs(120))
        .for_element(Locator::Css(
            "#open-task-count[data-count]:not([data-count=''])",
        ))
        .await
        .expect("the open task count appears");
    let shown = count_element.text().await.expect("count text");
    let shown: i64 = shown
        .replace(',', "")
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {shown}"));

    let state = client
        .find(Locator::Id("connection-state"))
        .await
        .expect("connection state")
        .attr("data-state")
        .await
        .expect("data-state");
    assert_eq!(state.as_deref(), Some("connected"));
    let detail = client
        .find(Locator::Id("connection-detail"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(detail.contains("Northwind Academy"), "{detail}");

    session.screenshot("first-screen").await;
    let expected = open_tasks_in_app_database(&session.data_dir).await;
    assert!(expected > 50, "the demo has many open tasks: {expected}");
    assert_eq!(shown, expected, "the window shows what the server holds");
    embedded_server_admits_no_stranger(&session).await;
    session.close().await;
}

/// Issue 10: nobody else on this machine signs in to the embedded server with the
/// README's demo password, and a page that reaches its port under another name (DNS
/// rebinding) is refused.
async fn embedded_server_admits_no_stranger(session: &DesktopSession) {
    let api = support::Api::of(session).await;
    assert_eq!(api.status("ScoringTasks/$count").await, 200);
    for demo in scoredesk_server::seed::demo::DEMO_ACCOUNTS {
        let status = api
            .signed_in_as(demo.username, scoredesk_server::seed::demo::DEMO_PASSWORD)
            .status("ScoringTasks/$count")
            .await;
        assert_eq!(status, 401, "{} with the published password", demo.username);
    }
    let text = std::fs::read_to_string(session.data_dir.join("embedded-server.json")).unwrap();
    let server: serde_json::Value = serde_json::from_str(&text).unwrap();
    let base = server["baseUrl"].as_str().unwrap();
    let port = base.rsplit(':').next().unwrap();
    let rebound = reqwest::Client::new()
        .get(format!("{base}/health"))
        .header("Host", format!("attacker.example:{port}"))
        .send()
        .await
        .unwrap();
    assert_eq!(rebound.status(), 421, "a foreign Host is refused");
}
