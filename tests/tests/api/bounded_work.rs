//! Work that could grow with the data or with what a client sends stays bounded:
//! nested expansions over thousands of parents, string lengths, and what a browser
//! may do with stored media.

use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use serde_json::json;

use crate::scoring_support::{open_task_with_rubric, put, scoring_result_of, scoring_result_path};

on_both_backends! {
    a_page_whose_nested_expansion_has_ten_thousand_keys_is_answered_in_full => ten_thousand_keys;
    comments_longer_than_their_limit_are_refused_by_name_and_change_nothing => comment_lengths;
    the_limits_on_strings_are_published_in_metadata => max_length_in_metadata;
    media_values_may_not_be_sniffed_or_run_by_a_browser => media_headers;
}

/// The first of the made-up IDs: far above the demo's.
const BULK: i64 = 9_000_000_000;

/// 100 essays, 100 results of one assessment that answered all of them, a task and a
/// ScoringResult for each of the 10,000 answers.
async fn bulk_results(app: &TestApp) -> i64 {
    let area = app.northwind();
    let numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)";
    let statements = [
        format!("INSERT INTO assessments (id, customer_id, name, created_at, modified_at) VALUES ({BULK}, {area}, 'Bulk', 0, 0)"),
        format!("{numbers} INSERT INTO questions (id, customer_id, revision, question_type, max_score, markup, created_at, modified_at) SELECT {BULK} + i, {area}, 1, 'essay', 10, '<p>Q</p>', 0, 0 FROM n"),
        format!("{numbers} INSERT INTO rubrics (id, customer_id, question_id, name, max_score, created_at, modified_at) SELECT 900000 + i, {area}, {BULK} + i, 'R', 10, 0, 0 FROM n"),
        format!("{numbers} INSERT INTO results (customer_id, assessment_id, participant_name, status, max_score, total_score, percentage_score, when_finished, still_going) SELECT {area}, {BULK}, 'bulk', 1, 1000, 0, 0, i, false FROM n"),
        format!("INSERT INTO answers (customer_id, question_id, result_id, occurrence, block_number, question_number, max_score, revision, media_type, content) SELECT {area}, q.id, r.id, 1, 1, 1, 10, 1, 'text/plain', 'x' FROM questions q CROSS JOIN results r WHERE q.id BETWEEN {BULK} + 1 AND {BULK} + 100 AND r.assessment_id = {BULK}"),
        format!("INSERT INTO scoring_tasks (customer_id, question_id, result_id, assessment_id, result_finished_at, status, created_at, modified_at) SELECT {area}, a.question_id, a.result_id, {BULK}, r.when_finished, 0, 0, 0 FROM answers a JOIN results r ON r.id = a.result_id WHERE r.assessment_id = {BULK}"),
        format!("INSERT INTO scoring_results (customer_id, question_id, rubric_id, result_id, created_at, modified_at) SELECT {area}, t.question_id, 900000 + (t.question_id - {BULK}), t.result_id, 0, 0 FROM scoring_tasks t WHERE t.assessment_id = {BULK}"),
    ];
    for statement in &statements {
        app.sql_execute(statement).await;
    }
    BULK
}

async fn ten_thousand_keys(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let assessment = bulk_results(&app).await;
    for (second, key) in [("ScoringResult", "RubricID"), ("Answer", "Occurrence")] {
        let path = format!(
            "{}Results?$filter=AssessmentID eq {assessment}L&$expand=ScoringTasks/{second}",
            app.root()
        );
        let body = app.get_json(&path).await;
        let results = body["value"].as_array().unwrap();
        assert_eq!(results.len(), 100, "{path}");
        let mut nested = 0;
        for result in results {
            let tasks = result["ScoringTasks"].as_array().unwrap();
            assert_eq!(tasks.len(), 100, "every result has its 100 tasks");
            for task in tasks {
                let reached = match &task[second] {
                    serde_json::Value::Array(many) => many.first().cloned(),
                    one => Some(one.clone()),
                };
                let reached = reached.unwrap_or_else(|| panic!("{second} of {task}"));
                assert_eq!(reached["ResultID"], task["ResultID"]);
                assert_eq!(reached["QuestionID"], task["QuestionID"]);
                assert!(!reached[key].is_null());
                nested += 1;
            }
        }
        assert_eq!(
            nested, 10_000,
            "{second}: 10,000 parent keys, each with its own"
        );
    }
    // The server is alive and answers the next request as before.
    assert_eq!(
        app.get_json(&app.root()).await["value"]
            .as_array()
            .unwrap()
            .len(),
        scoredesk_server::feeds::catalogue::all().len()
    );
}

async fn comment_lengths(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let stored = scoring_result_of(&app, task).await;
    let path = scoring_result_path(&app, &stored);
    let mut body = stored.clone();
    body["Comments"] = json!("é".repeat(16_001));
    let response = put(&app, &path, &body).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let message = odata_error_message(response).await;
    assert!(
        message.contains("ScoringResult.Comments") && message.contains("16000"),
        "{message}"
    );
    body["Comments"] = json!("é".repeat(16_000));
    assert_eq!(
        put(&app, &path, &body).await.status(),
        StatusCode::NO_CONTENT
    );
    let dimension = format!(
        "{}DimensionScores(QuestionID={}L,RubricID={},ResultID={},Order=1)",
        app.root(),
        task.question,
        stored["RubricID"],
        task.result
    );
    let response = put(
        &app,
        &dimension,
        &json!({"Score": 0, "Comment": "x".repeat(4_001)}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("DimensionScore.Comment"));
    let comment: Vec<String> = app
        .sql_column(&format!(
            "SELECT COALESCE(comment, '') FROM dimension_scores WHERE question_id = {} AND result_id = {} AND dimension_order = 1",
            task.question, task.result
        ))
        .await;
    assert_eq!(
        comment,
        vec![String::new()],
        "a refused PUT changes nothing"
    );
}

async fn max_length_in_metadata(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let metadata = app
        .get_as("northwind-scorer", &format!("{}$metadata", app.root()))
        .await
        .text()
        .await
        .unwrap();
    for (name, length) in [("Comments", 16_000), ("Comment", 4_000)] {
        let declared = format!(
            r#"<Property Name="{name}" Type="Edm.String" Nullable="true" MaxLength="{length}"/>"#
        );
        assert!(metadata.contains(&declared), "{declared} missing");
    }
}

async fn media_headers(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let answer = app
        .get_json(&format!(
            "{}Results({})/Answers?$top=1",
            app.root(),
            task.result
        ))
        .await;
    let answer = &answer["value"][0];
    for path in [
        format!("{}Questions({}L)/$value", app.root(), task.question),
        format!(
            "{}Answers(QuestionID={}L,ResultID={},Occurrence={},BlockNumber={})/$value",
            app.root(),
            answer["QuestionID"].as_str().unwrap(),
            answer["ResultID"],
            answer["Occurrence"],
            answer["BlockNumber"]
        ),
    ] {
        let response = app.get_as("northwind-scorer", &path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
        assert_eq!(response.headers()["content-security-policy"], "sandbox");
    }
}
