//! An Atom client nobody here wrote (issue 19): pyslet 0.7.20170805's OData client
//! reads the service document and `$metadata`, filters and pages ScoringTasks and
//! Results through their next links, reads a Question's markup, and scores a task
//! in Atom: PUT Status, the ScoringResult through the navigation, PUT with the
//! values it read, and a stale copy refused with 412 (tests/pyslet/score.py).
//! scripts/test installs pyslet in a private virtual environment and names its
//! Python in SCOREDESK_PYSLET_PYTHON.

use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::Value;

on_both_backends! {
    pyslet_reads_pages_and_scores_a_task_in_atom => pyslet_client;
}

async fn pyslet_client(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let open_count: i64 = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE customer_id = {} AND status = 0",
            app.northwind()
        ))
        .await;
    let results_count = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM results WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let (_, first_page) = app
        .get_json_with(
            "northwind-scorer",
            &format!("{root}ScoringTasks?$filter=Status eq 0"),
            &[],
        )
        .await;
    assert!(
        first_page["odata.nextLink"].is_string(),
        "the open tasks take more than a page"
    );
    let (_, scorable) = app
        .get_json_with(
            "northwind-scorer",
            &format!("{root}ScoringTasks?$filter=Status eq 0 and Question/Rubric/any()&$top=1"),
            &[],
        )
        .await;
    let question = scorable["value"][0]["QuestionID"]
        .as_str()
        .unwrap()
        .to_owned();

    let python = std::env::var("SCOREDESK_PYSLET_PYTHON")
        .expect("SCOREDESK_PYSLET_PYTHON: run the tests with scripts/test, which installs pyslet");
    let script = format!(
        "{}/pyslet/score.py",
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into())
    );
    let output = tokio::process::Command::new(python)
        .arg(&script)
        .args([
            app.url(&root).as_str(),
            "northwind-scorer",
            "scoredesk-demo",
            question.as_str(),
        ])
        .output()
        .await
        .expect("python runs");
    assert!(
        output.status.success(),
        "pyslet failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let seen: Value = serde_json::from_slice(&output.stdout).unwrap();
    let feeds: Vec<&str> = seen["feeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(
        feeds.contains(&"ScoringTasks") && feeds.contains(&"ScoringResults"),
        "{feeds:?}"
    );
    assert_eq!(
        seen["open_tasks"], open_count,
        "every open task, page after page"
    );
    assert_eq!(seen["results"], results_count);
    assert_eq!(seen["markup_type"], "application/xhtml+xml");
    assert!(
        seen["markup"]
            .as_str()
            .unwrap()
            .contains("class=\"question\""),
        "{seen}"
    );
    assert_eq!(seen["status_after"], 1);
    assert_eq!(seen["scored"], true);
    assert!(
        seen["stale"]
            .as_str()
            .unwrap()
            .starts_with("PreconditionFailed"),
        "{seen}"
    );
    assert_eq!(seen["score_after"], 1, "the stale copy changed nothing");
    let task = &seen["task"];
    let stored = app
        .sql_i64(&format!(
            "SELECT CAST(score AS BIGINT) FROM scoring_results WHERE question_id = {} AND result_id = {}",
            task[0].as_str().unwrap(),
            task[1].as_str().unwrap()
        ))
        .await;
    assert_eq!(stored, 1);
}
