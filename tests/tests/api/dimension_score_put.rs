//! Spec, DimensionScore: the dimension scores of a ScoringResult, read through its
//! navigation (with their Dimension) and by key, and PUT of the whole entity changing
//! `Score` and `Comment`, the score lying between 0 and the dimension's MaxScore.

use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::scoring_support::*;

on_both_backends! {
    dimension_scores_are_read_with_their_dimensions_and_by_key => read_dimension_scores;
    a_put_of_the_whole_dimension_score_changes_score_and_comment => put_changes_dimension;
    a_dimension_score_outside_0_to_the_dimensions_max_score_is_400 => dimension_range;
}

fn dimension_score_path(app: &TestApp, score: &Value) -> String {
    format!(
        "{}DimensionScores(QuestionID={}L,RubricID={},ResultID={},Order={})",
        app.root(),
        score["QuestionID"].as_str().unwrap(),
        score["RubricID"],
        score["ResultID"],
        score["Order"]
    )
}

async fn dimension_scores(app: &TestApp, scoring_result: &Value) -> Vec<Value> {
    let path = format!(
        "{}/DimensionScores?$expand=Dimension",
        scoring_result_path(app, scoring_result)
    );
    get(app, &path).await["value"].as_array().unwrap().clone()
}

async fn read_dimension_scores(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let scoring_result = scoring_result_of(&app, task).await;
    let scores = dimension_scores(&app, &scoring_result).await;
    let dimensions = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM dimensions WHERE rubric_id = {}",
            scoring_result["RubricID"]
        ))
        .await;
    assert_eq!(scores.len() as i64, dimensions);
    for (index, score) in scores.iter().enumerate() {
        assert_eq!(score["Order"], index as i64 + 1, "by Order");
        assert_eq!(score["Dimension"]["Order"], score["Order"]);
        assert!(score["Dimension"]["Name"].is_string());
        assert!(score["Dimension"]["MaxScore"].as_i64().unwrap() > 0);
        let by_key = format!(
            "{}/DimensionScores(QuestionID={}L,RubricID={},ResultID={},Order={})",
            scoring_result_path(&app, &scoring_result),
            score["QuestionID"].as_str().unwrap(),
            score["RubricID"],
            score["ResultID"],
            score["Order"]
        );
        assert_eq!(get(&app, &by_key).await["Order"], score["Order"]);
    }
}

async fn put_changes_dimension(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let scoring_result = scoring_result_of(&app, task).await;
    let scores = dimension_scores(&app, &scoring_result).await;
    let mut body = scores[0].clone();
    body.as_object_mut().unwrap().remove("Dimension");
    body["Score"] = scores[0]["Dimension"]["MaxScore"].clone();
    body["Comment"] = json!("Precise use of terms.");
    let path = dimension_score_path(&app, &scores[0]);
    let response = put(&app, &path, &body).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let stored = get(&app, &path).await;
    assert_eq!(stored["Score"], scores[0]["Dimension"]["MaxScore"]);
    assert_eq!(stored["Comment"], "Precise use of terms.");
    // The other dimensions are untouched, and so is the ScoringResult's revision.
    let after = dimension_scores(&app, &scoring_result).await;
    assert!(after[1]["Score"].is_null());
    let now = get(&app, &scoring_result_path(&app, &scoring_result)).await;
    assert_eq!(now["ModifiedDateTime"], scoring_result["ModifiedDateTime"]);
    // Key properties cannot change.
    body["Order"] = json!(2);
    let response = put(&app, &path, &body).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("Order is part of the key"));
}

async fn dimension_range(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let scoring_result = scoring_result_of(&app, task).await;
    let scores = dimension_scores(&app, &scoring_result).await;
    let score = &scores[1];
    let max = score["Dimension"]["MaxScore"].as_i64().unwrap();
    let path = dimension_score_path(&app, score);
    for value in [json!(max + 1), json!(-1), json!(40000), json!("2")] {
        let response = put(&app, &path, &json!({"Score": value, "Comment": "x"})).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{value}");
        let message = odata_error_message(response).await;
        assert!(message.contains("Score"), "{message}");
    }
    let response = put(&app, &path, &json!({"Score": max + 1})).await;
    assert!(odata_error_message(response)
        .await
        .contains(&format!("between 0 and {max}")));
    let stored = get(&app, &path).await;
    assert!(
        stored["Score"].is_null() && stored["Comment"].is_null(),
        "nothing changed"
    );
    for value in [0, max] {
        let response = put(&app, &path, &json!({"Score": value})).await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        assert_eq!(get(&app, &path).await["Score"], value);
    }
}
