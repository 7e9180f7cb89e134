//! Every property of each scoring entity replaced, in turn, by each kind of wrong
//! value: the PUT answers 204 or a 4xx with the OData error body, never a 5xx, and a
//! refused PUT leaves the stored entity as it was.

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::scoring_support::*;

on_both_backends! {
    no_scoring_put_body_gets_a_5xx_and_a_refused_one_changes_nothing => every_property_every_wrong_value;
}

fn wrong_values() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(-1),
        json!(0),
        json!(32768),
        json!(2_147_483_648_i64),
        json!(9.75),
        json!(1e308),
        json!(""),
        json!("1"),
        json!("not a number"),
        json!("/Date(abc)/"),
        json!("2026-13-45T99:99:99"),
        json!("x".repeat(10_000)),
        json!([1, 2]),
        json!({"__deferred": {"uri": "x"}}),
        json!({"nested": 1}),
    ]
}

/// The stored entity without annotations, to compare before and after.
async fn stored(app: &TestApp, path: &str) -> Value {
    let mut body = get(app, path).await;
    body.as_object_mut()
        .unwrap()
        .retain(|name, _| !name.starts_with("odata."));
    body
}

async fn sweep(app: &TestApp, path: &str) -> usize {
    let mut refused = 0;
    let original = stored(app, path).await;
    for name in original
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect::<Vec<_>>()
    {
        for value in wrong_values() {
            let before = stored(app, path).await;
            let mut body = before.clone();
            body[&name] = value.clone();
            let response = put(app, path, &body).await;
            let status = response.status();
            assert!(
                status == StatusCode::NO_CONTENT || status.is_client_error(),
                "{name} = {value}: {status}"
            );
            if status.is_client_error() {
                let message = scoredesk_e2e::odata_error_message(response).await;
                assert!(!message.is_empty());
                assert_eq!(
                    stored(app, path).await,
                    before,
                    "{name} = {value} changed it"
                );
                refused += 1;
            }
        }
    }
    refused
}

async fn every_property_every_wrong_value(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let scoring_result = scoring_result_of(&app, task).await;
    let dimension = format!(
        "{}DimensionScores(QuestionID={}L,RubricID={},ResultID={},Order=1)",
        app.root(),
        task.question,
        scoring_result["RubricID"],
        task.result
    );
    let mut refused = 0;
    for path in [
        task.path(&app),
        scoring_result_path(&app, &scoring_result),
        dimension,
    ] {
        refused += sweep(&app, &path).await;
    }
    // Most wrong values are refused; a few are valid (a score of 0, a null comment).
    assert!(refused > 150, "{refused} refused");
}
