//! Spec, ScoringTask.Status rule 4, "The recommended workflow", end to end, and the
//! concurrency the workflow has to survive: many scorers saving one ScoringResult,
//! and two clients scoring one task (or two tasks of one result) at once.

use futures::future::join_all;
use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::scoring_support::*;

on_both_backends! {
    the_recommended_workflow_poll_0_set_1_follow_update_dimensions_then_result_set_3 => recommended_workflow;
    fifty_clients_putting_the_same_scoring_result_one_succeeds_the_rest_get_412 => fifty_concurrent_puts;
    two_clients_setting_the_same_task_to_3_at_once_update_the_result_once => two_clients_score_one_task;
    two_tasks_of_one_result_scored_at_once_both_count => two_tasks_one_result;
}

async fn recommended_workflow(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    // 1. Poll tasks with Status 0 (the scorer's queue, oldest finished first).
    let queue = get(
        &app,
        &format!(
            "{}ScoringTasks?$filter=Status eq 0&$orderby=Result/WhenFinished desc&$expand=Question,Result,Answer",
            app.root()
        ),
    )
    .await;
    let with_rubric = open_tasks_with_rubric(&app).await;
    let polled = queue["value"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| {
            with_rubric.iter().any(|r| {
                t["QuestionID"].as_str().and_then(|q| q.parse::<i64>().ok()) == Some(r.question)
                    && t["ResultID"] == r.result
            })
        })
        .expect("the queue holds a task with a rubric")
        .clone();
    assert_eq!(polled["Status"], 0);
    let task = Task {
        question: polled["QuestionID"].as_str().unwrap().parse().unwrap(),
        result: polled["ResultID"].as_i64().unwrap(),
    };
    let before = reported_scores(&app, task.result).await;
    assert_eq!(before, expected_scores(&app, task.result).await);

    // 2. Take it: set the status to 1, and follow the link to the ScoringResult.
    let mut body = polled.clone();
    for expanded in ["Question", "Result", "Answer"] {
        body.as_object_mut().unwrap().remove(expanded);
    }
    body["Status"] = json!(1);
    assert_eq!(
        put(&app, &task.path(&app), &body).await.status(),
        StatusCode::NO_CONTENT
    );
    let open_after_take: i64 = open_count(&app).await;
    assert_eq!(
        open_after_take as usize,
        with_rubric.len() - 1 + open_without_rubric(&app).await
    );
    let scoring_result = scoring_result_of(&app, task).await;

    // 3. Update the DimensionScores, then the ScoringResult with their sum.
    let scores_path = format!(
        "{}/DimensionScores?$expand=Dimension",
        scoring_result_path(&app, &scoring_result)
    );
    let dimensions = get(&app, &scores_path).await["value"]
        .as_array()
        .unwrap()
        .clone();
    let mut total = 0;
    for (index, dimension_score) in dimensions.iter().enumerate() {
        let max = dimension_score["Dimension"]["MaxScore"].as_i64().unwrap();
        let score = (max - (index as i64 % 2)).max(0);
        total += score;
        let mut body = dimension_score.clone();
        body.as_object_mut().unwrap().remove("Dimension");
        body["Score"] = json!(score);
        body["Comment"] = json!(format!("dimension {}", index + 1));
        let path = format!(
            "{}DimensionScores(QuestionID={}L,RubricID={},ResultID={},Order={})",
            app.root(),
            task.question,
            scoring_result["RubricID"],
            task.result,
            dimension_score["Order"]
        );
        assert_eq!(
            put(&app, &path, &body).await.status(),
            StatusCode::NO_CONTENT
        );
    }
    let response = put_scoring_result(&app, &scoring_result, total, "Well argued.").await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);

    // Until the task is 3, the participant's result does not change.
    assert_eq!(reported_scores(&app, task.result).await, before);

    // 4. Set the task status to 3.
    assert_eq!(put_status(&app, task, 3).await, StatusCode::NO_CONTENT);
    assert_eq!(answer(&app, task).await["ActualScore"], total);
    let after = reported_scores(&app, task.result).await;
    assert_eq!(after.0, before.0 + total);
    assert_eq!(after, expected_scores(&app, task.result).await);
    assert_eq!(topic_total(&app, task.result).await, after.0);
    let scored: Vec<i64> = get(&app, &scores_path).await["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Score"].as_i64().unwrap())
        .collect();
    assert_eq!(scored.iter().sum::<i64>(), total);
    // The task is no longer in the queue.
    let open_after_scoring: i64 = open_count(&app).await;
    assert_eq!(open_after_scoring, open_after_take);
}

/// `ScoringTasks/$count?$filter=Status eq 0`, as the scorer's client counts its queue.
async fn open_count(app: &TestApp) -> i64 {
    let path = format!("{}ScoringTasks/$count?$filter=Status eq 0", app.root());
    let text = app.get_as(SCORER, &path).await.text().await.unwrap();
    text.parse().unwrap()
}

async fn open_without_rubric(app: &TestApp) -> usize {
    app.sql_i64(&format!(
        "SELECT COUNT(*) FROM scoring_tasks t WHERE t.customer_id = {} AND t.status = 0 \
         AND NOT EXISTS (SELECT 1 FROM rubrics r WHERE r.question_id = t.question_id)",
        app.northwind()
    ))
    .await as usize
}

async fn fifty_concurrent_puts(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    let max = rubric_max_score(&app, &read).await;
    let puts = (0..50).map(|client| {
        let read = read.clone();
        let app = &app;
        async move {
            let response =
                put_scoring_result(app, &read, client % (max + 1), &format!("client {client}"))
                    .await;
            (client, response.status())
        }
    });
    let outcomes = join_all(puts).await;
    let winners: Vec<i64> = outcomes
        .iter()
        .filter(|(_, status)| *status == StatusCode::NO_CONTENT)
        .map(|(client, _)| *client)
        .collect();
    assert_eq!(winners.len(), 1, "{outcomes:?}");
    assert!(
        outcomes
            .iter()
            .all(|(_, s)| *s == StatusCode::NO_CONTENT || *s == StatusCode::PRECONDITION_FAILED),
        "{outcomes:?}"
    );
    let winner = winners[0];
    let stored: Value = get(&app, &scoring_result_path(&app, &read)).await;
    assert_eq!(stored["Score"], winner % (max + 1));
    assert_eq!(stored["Comments"], format!("client {winner}"));
}

async fn two_clients_score_one_task(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    assert_eq!(
        put_scoring_result(&app, &read, 2, "").await.status(),
        StatusCode::NO_CONTENT
    );
    let before = reported_scores(&app, task.result).await;
    let revision = answer(&app, task).await["Revision"].as_i64().unwrap();
    let both = join_all([put_status(&app, task, 3), put_status(&app, task, 3)]).await;
    assert_eq!(both, [StatusCode::NO_CONTENT, StatusCode::NO_CONTENT]);
    let answer = answer(&app, task).await;
    assert_eq!(answer["ActualScore"], 2);
    assert_eq!(
        answer["Revision"],
        revision + 1,
        "the answer was scored once"
    );
    let after = reported_scores(&app, task.result).await;
    assert_eq!(after.0, before.0 + 2);
    assert_eq!(after, expected_scores(&app, task.result).await);
}

async fn two_tasks_one_result(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (first, second) = two_tasks_of_one_result(&app).await;
    for (task, score) in [(first, 1), (second, 2)] {
        let read = scoring_result_of(&app, task).await;
        assert_eq!(
            put_scoring_result(&app, &read, score, "").await.status(),
            StatusCode::NO_CONTENT
        );
    }
    let before = reported_scores(&app, first.result).await;
    let both = join_all([put_status(&app, first, 3), put_status(&app, second, 3)]).await;
    assert_eq!(both, [StatusCode::NO_CONTENT, StatusCode::NO_CONTENT]);
    let after = reported_scores(&app, first.result).await;
    assert_eq!(after.0, before.0 + 3, "neither score was lost");
    assert_eq!(after, expected_scores(&app, first.result).await);
}
