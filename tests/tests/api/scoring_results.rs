//! Spec, ScoringTask rules 1 and 2: one ScoringResult per task, created on the first
//! retrieval through the task's navigation property, never by `$expand`.

use scoredesk_e2e::{on_both_backends, Backend, TestApp};

on_both_backends! {
    the_scoring_result_is_created_automatically_when_retrieved_through_the_scoring_task => created_on_navigation;
    retrieving_it_again_returns_the_same_scoring_result => same_on_second_retrieval;
    expanding_scoring_result_on_a_scoring_task_does_not_create_it => expand_does_not_create;
    an_empty_collection_means_no_rubric_is_associated_with_the_question => no_rubric_empty;
    concurrent_first_retrievals_create_exactly_one_scoring_result => concurrent_first_reads;
    a_task_that_does_not_exist_has_no_scoring_result => unknown_task;
    the_scoring_feeds_do_not_support_patch_or_merge => no_patch_or_merge;
}

async fn no_patch_or_merge(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (question, result) = task(&app, true).await;
    let paths = [
        format!("ScoringTasks(QuestionID={question}L,ResultID={result})"),
        format!("ScoringResults(QuestionID={question}L,RubricID=1,ResultID={result})"),
        format!("DimensionScores(QuestionID={question}L,RubricID=1,ResultID={result},Order=1)"),
    ];
    for path in &paths {
        for method in ["PATCH", "MERGE"] {
            let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
            let response = app
                .client
                .request(method.clone(), app.url(&format!("{}{path}", app.root())))
                .basic_auth("northwind-scorer", Some("scoredesk-demo"))
                .json(&serde_json::json!({ "Status": 3 }))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 405, "{method} {path}");
            assert!(scoredesk_e2e::odata_error_message(response)
                .await
                .contains("PUT"));
        }
    }
    // Nothing changed.
    assert_eq!(app.sql_i64(&format!("SELECT CAST(status AS BIGINT) FROM scoring_tasks WHERE question_id = {question} AND result_id = {result}")).await, 0);
}

/// `(question_id, result_id)` of an open task whose question has (or has not) a rubric.
async fn task(app: &TestApp, with_rubric: bool) -> (i64, i64) {
    let exists = if with_rubric { "EXISTS" } else { "NOT EXISTS" };
    let keys = app
        .sql_strings(&format!(
            "SELECT CAST(t.question_id AS TEXT) || ',' || CAST(t.result_id AS TEXT) FROM scoring_tasks t \
             WHERE t.customer_id = {} AND {exists} (SELECT 1 FROM rubrics r WHERE r.question_id = t.question_id) \
             ORDER BY t.result_id LIMIT 1",
            app.northwind()
        ))
        .await;
    let (q, r) = keys[0].split_once(',').unwrap();
    (q.parse().unwrap(), r.parse().unwrap())
}

fn navigation(app: &TestApp, (question, result): (i64, i64)) -> String {
    format!(
        "{}ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult",
        app.root()
    )
}

async fn stored_results(app: &TestApp, (question, result): (i64, i64)) -> i64 {
    app.sql_i64(&format!("SELECT COUNT(*) FROM scoring_results WHERE question_id = {question} AND result_id = {result}")).await
}

async fn created_on_navigation(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let key = task(&app, true).await;
    assert_eq!(stored_results(&app, key).await, 0);
    let body = app.get_json(&navigation(&app, key)).await;
    let results = body["value"].as_array().unwrap();
    assert_eq!(results.len(), 1, "a collection of at most one");
    let scoring_result = &results[0];
    let rubric = app
        .sql_i64(&format!(
            "SELECT CAST(id AS BIGINT) FROM rubrics WHERE question_id = {}",
            key.0
        ))
        .await;
    assert_eq!(scoring_result["RubricID"].as_i64().unwrap(), rubric);
    assert!(scoring_result["Score"].is_null() && scoring_result["ModifiedDateTime"].is_string());
    let (question, result) = key;
    let dimensions = app
        .get_json(&format!(
            "{}ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})/DimensionScores?$expand=Dimension",
            app.root()
        ))
        .await;
    let scores = dimensions["value"].as_array().unwrap();
    let expected = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM dimensions WHERE rubric_id = {rubric}"
        ))
        .await;
    assert_eq!(
        scores.len() as i64,
        expected,
        "one DimensionScore per dimension"
    );
    for (index, score) in scores.iter().enumerate() {
        assert_eq!(score["Order"].as_i64().unwrap(), index as i64 + 1);
        assert_eq!(score["Dimension"]["Order"], score["Order"]);
        assert!(score["Dimension"]["Name"].is_string());
    }
}

async fn same_on_second_retrieval(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let key = task(&app, true).await;
    let first = app.get_json(&navigation(&app, key)).await;
    let second = app.get_json(&navigation(&app, key)).await;
    assert_eq!(first["value"], second["value"]);
    assert_eq!(stored_results(&app, key).await, 1);
}

async fn expand_does_not_create(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (question, result) = task(&app, true).await;
    let body = app
        .get_json(&format!(
            "{}ScoringTasks(QuestionID={question}L,ResultID={result})?$expand=ScoringResult",
            app.root()
        ))
        .await;
    assert_eq!(body["ScoringResult"].as_array().unwrap().len(), 0);
    assert_eq!(stored_results(&app, (question, result)).await, 0);
    // Once created through the navigation, expanding shows it.
    app.get_json(&navigation(&app, (question, result))).await;
    let body = app
        .get_json(&format!(
            "{}ScoringTasks(QuestionID={question}L,ResultID={result})?$expand=ScoringResult",
            app.root()
        ))
        .await;
    assert_eq!(body["ScoringResult"].as_array().unwrap().len(), 1);
}

async fn no_rubric_empty(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let key = task(&app, false).await;
    let body = app.get_json(&navigation(&app, key)).await;
    assert_eq!(body["value"].as_array().unwrap().len(), 0);
    assert_eq!(stored_results(&app, key).await, 0);
}

async fn concurrent_first_reads(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let key = task(&app, true).await;
    let url = navigation(&app, key);
    let reads = (0..10).map(|_| app.get_json_with("northwind-scorer", &url, &[]));
    for (status, body) in futures::future::join_all(reads).await {
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["value"].as_array().unwrap().len(), 1);
    }
    assert_eq!(stored_results(&app, key).await, 1);
    let dimension_rows = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM dimension_scores WHERE question_id = {} AND result_id = {}",
            key.0, key.1
        ))
        .await;
    let dimensions = app
        .sql_i64(&format!("SELECT COUNT(*) FROM dimensions d JOIN rubrics r ON r.id = d.rubric_id WHERE r.question_id = {}", key.0))
        .await;
    assert_eq!(dimension_rows, dimensions);
}

async fn unknown_task(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let response = app
        .get_as("northwind-admin", &navigation(&app, (1, 1)))
        .await;
    assert_eq!(response.status(), 404);
}
