//! JavaScript OData clients nobody here wrote, from npm as existing apps use them
//! (issue 31; tests/odata-js, installed by scripts/test, which names the folder in
//! SCOREDESK_ODATA_JS_DIR), run by Node against the real server:
//! - breeze-client 2.2.2's OData adapter saves two ScoringTasks in one change set
//!   and matches the answers to its entities by `Content-ID`;
//! - datajs 1.0.3's `$batch`, its GET line holding the filter's spaces unencoded,
//!   with a change set PUTting a task's Status.

use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::Value;

on_both_backends! {
    breeze_saves_two_scoring_tasks_in_one_change_set => breeze_save;
    datajs_batches_a_count_with_raw_spaces_and_a_change_set => datajs_batch;
}

/// Runs `script` of tests/odata-js with the service root and a scorer's
/// credentials; its one line of JSON.
async fn run(app: &TestApp, script: &str) -> Value {
    let dir = std::env::var("SCOREDESK_ODATA_JS_DIR").expect(
        "SCOREDESK_ODATA_JS_DIR: run the tests with scripts/test, which installs datajs and breeze",
    );
    let output = tokio::process::Command::new("node")
        .arg(format!("{dir}/{script}"))
        .args([&app.url(&app.root()), "northwind-scorer", DEMO_PASSWORD])
        .output()
        .await
        .expect("node runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().last().unwrap_or_default();
    let answer: Value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&output.stderr)));
    assert!(output.status.success(), "{answer}");
    answer
}

async fn status_of(app: &TestApp, question: &str, result: i64) -> i64 {
    app.sql_i64(&format!(
        "SELECT CAST(status AS BIGINT) FROM scoring_tasks WHERE question_id = {question} AND result_id = {result}"
    ))
    .await
}

async fn breeze_save(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let answer = run(&app, "breeze_save.mjs").await;
    let saved = answer["saved"].as_array().unwrap();
    assert_eq!(saved.len(), 2, "{answer}");
    assert_eq!(
        answer["pending"], false,
        "breeze took both answers: {answer}"
    );
    for task in saved {
        assert_eq!(task["state"], "Unchanged", "{answer}");
        let question = task["QuestionID"].as_str().unwrap();
        let result = task["ResultID"].as_i64().unwrap();
        assert_eq!(status_of(&app, question, result).await, 1, "{answer}");
    }
}

async fn datajs_batch(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let open = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE customer_id = {} AND status = 0",
            app.northwind()
        ))
        .await;
    let answer = run(&app, "datajs_batch.mjs").await;
    assert_eq!(answer["count"], "200", "{answer}");
    assert_eq!(answer["countBody"], open.to_string(), "{answer}");
    assert_eq!(answer["change"], "204", "{answer}");
    assert_eq!(answer["changeContentId"], "1", "{answer}");
    assert_eq!(answer["statusAfter"], 2, "{answer}");
}
