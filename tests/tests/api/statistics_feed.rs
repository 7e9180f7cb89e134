//! The item analysis served (issue 34, docs/statistics.md): the
//! `AssessmentStatistics` function (GET) computes an assessment's figures over its
//! final results, checked here against SQL's own averages; it stores each
//! question's as `ItemStatistics`, replaced whole on each call; coordinators and
//! administrators read both, scorers neither; every bad call is a 4xx naming what
//! is wrong.

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::Value;

on_both_backends! {
    assessment_statistics_agree_with_the_database_and_fill_item_statistics => figures;
    statistics_are_refused_to_scorers_and_bad_calls_are_named => refusals;
}

const COORDINATOR: &str = "northwind-coordinator";

/// The demo assessment with the most results whose answers are all scored.
async fn assessment(app: &TestApp) -> i64 {
    app.sql_i64(&format!(
        "SELECT assessment_id FROM results r WHERE customer_id = {} AND status = 3 \
         AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.result_id = r.id AND a.actual_score IS NULL) \
         GROUP BY assessment_id ORDER BY COUNT(*) DESC, assessment_id LIMIT 1",
        app.northwind()
    ))
    .await
}

/// The condition of a final result: finished, nothing left to score.
const FINAL: &str = "r.status = 3 AND NOT EXISTS \
    (SELECT 1 FROM answers w WHERE w.result_id = r.id AND w.actual_score IS NULL)";

async fn figures(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let assessment = assessment(&app).await;
    let path = format!(
        "{}AssessmentStatistics?AssessmentID={assessment}L",
        app.root()
    );
    let (status, body) = app.get_json_with(COORDINATOR, &path, &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let n = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM results r WHERE r.customer_id = {} AND r.assessment_id = {assessment} AND {FINAL}",
            app.northwind()
        ))
        .await;
    assert!(n >= 2, "the demo has final results to analyse");
    assert_eq!(body["N"].as_i64(), Some(n));
    assert_eq!(body["AssessmentID"], assessment.to_string());
    let mean: Vec<f64> = app
        .sql_column(&format!(
            "SELECT CAST(AVG(CAST(r.total_score AS DOUBLE PRECISION)) AS DOUBLE PRECISION) FROM results r \
             WHERE r.customer_id = {} AND r.assessment_id = {assessment} AND {FINAL}",
            app.northwind()
        ))
        .await;
    assert!(
        (body["Mean"].as_f64().unwrap() - mean[0]).abs() < 1e-9,
        "{body}"
    );

    // Each question's facility: its mean score over its maximum, as SQL averages it.
    let (all, _) = app
        .get_all_pages(&format!(
            "{}ItemStatistics?$filter=AssessmentID eq {assessment}L&$orderby=Position",
            app.root()
        ))
        .await;
    let questions = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM assessment_questions WHERE assessment_id = {assessment}"
        ))
        .await;
    assert_eq!(all.len() as i64, questions);
    for item in &all {
        let question = item["QuestionID"].as_str().unwrap();
        let facility: Vec<f64> = app
            .sql_column(&format!(
                "SELECT CAST(AVG(CAST(a.actual_score AS DOUBLE PRECISION)) / MAX(q.max_score) AS DOUBLE PRECISION) \
                 FROM answers a JOIN results r ON r.id = a.result_id JOIN questions q ON q.id = a.question_id \
                 WHERE a.question_id = {question} AND r.assessment_id = {assessment} AND {FINAL}"
            ))
            .await;
        let served = item["Facility"].as_f64().unwrap();
        assert!(
            (served - facility[0]).abs() < 1e-9,
            "Q{}: {served} against {}",
            item["Position"],
            facility[0]
        );
        assert_eq!(item["N"].as_i64(), Some(n));
        assert!(item["ComputedDateTime"].is_string());
    }

    // A second call replaces the rows, never adds to them.
    let (status, _) = app.get_json_with(COORDINATOR, &path, &[]).await;
    assert_eq!(status, StatusCode::OK);
    let rows = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM item_statistics WHERE assessment_id = {assessment}"
        ))
        .await;
    assert_eq!(rows, questions);

    // $metadata declares the function as a GET and the set.
    let metadata = app
        .client
        .get(app.url(&format!("{}$metadata", app.root())))
        .basic_auth(
            COORDINATOR,
            Some(scoredesk_server::seed::demo::DEMO_PASSWORD),
        )
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metadata.contains(r#"<FunctionImport Name="AssessmentStatistics" m:HttpMethod="GET" ReturnType="ScoreDesk.AssessmentStatistics""#), "{metadata}");
    assert!(metadata
        .contains(r#"<EntitySet Name="ItemStatistics" EntityType="ScoreDesk.ItemStatistic""#));
}

fn message(body: &Value) -> String {
    body["odata.error"]["message"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn refusals(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let assessment = assessment(&app).await;
    let root = app.root();
    let call = format!("{root}AssessmentStatistics?AssessmentID={assessment}L");
    for path in [call.clone(), format!("{root}ItemStatistics")] {
        let (status, body) = app.get_json_with("northwind-scorer", &path, &[]).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {body}");
    }
    let cases = [
        (
            format!("{root}AssessmentStatistics"),
            StatusCode::BAD_REQUEST,
            "AssessmentID is required",
        ),
        (
            format!("{root}AssessmentStatistics?AssessmentID='x'"),
            StatusCode::BAD_REQUEST,
            "Edm.Int64",
        ),
        (
            format!("{root}AssessmentStatistics?AssessmentID=12x"),
            StatusCode::BAD_REQUEST,
            "AssessmentID",
        ),
        (
            format!("{root}AssessmentStatistics?AssessmentID=99L"),
            StatusCode::NOT_FOUND,
            "no assessment 99",
        ),
        (
            format!("{root}AssessmentStatistics?Other=1"),
            StatusCode::BAD_REQUEST,
            "Other",
        ),
    ];
    for (path, expected, says) in cases {
        let (status, body) = app.get_json_with(COORDINATOR, &path, &[]).await;
        assert_eq!(status, expected, "{path}: {body}");
        assert!(message(&body).contains(says), "{path}: {body}");
    }
    // Another area's assessment is not there.
    let theirs = app
        .sql_i64(&format!(
            "SELECT MIN(id) FROM assessments WHERE customer_id <> {}",
            app.northwind()
        ))
        .await;
    let (status, _) = app
        .get_json_with(
            COORDINATOR,
            &format!("{root}AssessmentStatistics?AssessmentID={theirs}L"),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // A function is called with GET.
    let response = app
        .client
        .post(app.url(&call))
        .basic_auth(
            COORDINATOR,
            Some(scoredesk_server::seed::demo::DEMO_PASSWORD),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
}
