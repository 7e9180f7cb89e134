//! Our extension feed `ScoringEvents` (docs/odata.md, "Extensions"): every change of
//! a task's status is recorded by the server with who made it and the score it
//! carried; a refused change records nothing; scorers read the events, coordinators
//! and other areas do not, and no client writes them.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use crate::scoring_support::{
    open_task_with_rubric, put_scoring_result, put_status, scoring_result_of, Task, SCORER,
};

on_both_backends! {
    every_status_change_is_recorded_with_who_made_it_and_the_score => recorded;
    events_are_read_by_scorers_only_and_never_written_by_clients => events_access;
}

async fn events_of(app: &TestApp, username: &str, task: Task) -> Vec<Value> {
    let (status, body) = app
        .get_json_with(
            username,
            &format!(
                "{}ScoringEvents?$filter=QuestionID eq {}L and ResultID eq {}&$orderby=ID",
                app.root(),
                task.question,
                task.result
            ),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["value"].as_array().unwrap().clone()
}

async fn recorded(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    assert!(events_of(&app, SCORER, task).await.is_empty());

    // The scorer claims and saves it; an administrator submits it.
    assert_eq!(put_status(&app, task, 1).await, StatusCode::NO_CONTENT);
    let read = scoring_result_of(&app, task).await;
    assert_eq!(
        put_scoring_result(&app, &read, 2, "saved").await.status(),
        StatusCode::NO_CONTENT
    );
    assert_eq!(put_status(&app, task, 2).await, StatusCode::NO_CONTENT);
    // A refused change records nothing.
    let refused = app
        .put_json(
            SCORER,
            &task.path(&app),
            &json!({"QuestionID": task.question.to_string(), "ResultID": task.result, "Status": 9}),
            &[],
        )
        .await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let submitted = app
        .put_json(
            "northwind-admin",
            &task.path(&app),
            &json!({"QuestionID": task.question.to_string(), "ResultID": task.result, "Status": 3}),
            &[],
        )
        .await;
    assert_eq!(submitted.status(), StatusCode::NO_CONTENT);

    let events: Vec<(i64, i64, Value, String)> = events_of(&app, SCORER, task)
        .await
        .iter()
        .map(|e| {
            (
                e["PreviousStatus"].as_i64().unwrap(),
                e["Status"].as_i64().unwrap(),
                e["Score"].clone(),
                e["Account"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        events,
        [
            (0, 1, Value::Null, SCORER.to_owned()),
            (1, 2, json!(2), SCORER.to_owned()),
            (2, 3, json!(2), "northwind-admin".to_owned()),
        ]
    );
    // A scorer's history: what they saved or submitted, newest first.
    let (_, mine) = app
        .get_json_with(
            SCORER,
            &format!(
                "{}ScoringEvents?$filter=Account eq '{SCORER}' and Status ge 2&$orderby=At desc",
                app.root()
            ),
            &[],
        )
        .await;
    let mine = mine["value"].as_array().unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0]["ResultID"], task.result);
}

async fn events_access(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    assert_eq!(put_status(&app, task, 1).await, StatusCode::NO_CONTENT);
    let event = events_of(&app, SCORER, task).await[0].clone();
    let (status, _) = app
        .get_json_with(
            "northwind-coordinator",
            &format!("{}ScoringEvents", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Harbour's administrator, in Harbour's area, finds no such event.
    let (status, _) = app
        .get_json_with(
            "harbour-admin",
            &format!(
                "/deliveryodata/{}/ScoringEvents({}L)",
                app.harbour(),
                event["ID"].as_str().unwrap()
            ),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    for (method, path) in [
        (Method::POST, "ScoringEvents".to_owned()),
        (
            Method::PUT,
            format!("ScoringEvents({}L)", event["ID"].as_str().unwrap()),
        ),
        (
            Method::DELETE,
            format!("ScoringEvents({}L)", event["ID"].as_str().unwrap()),
        ),
    ] {
        let response = app
            .request_as(
                method.clone(),
                &format!("{}{path}", app.root()),
                "northwind-admin",
                DEMO_PASSWORD,
            )
            .await;
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method}"
        );
    }
}
