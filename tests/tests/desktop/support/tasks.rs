//! Scoring tasks set up and checked through the API, and taken and scored in the
//! window: the steps the scoring, moderation, drafts and remote tests share.

use fantoccini::Client;
use serde_json::{json, Value};

use super::api::Api;
use super::driver::DesktopSession;
use super::window::{press, wait_for};

/// The filter of the app's queue: open tasks whose question has a rubric.
pub const SCORABLE: &str = "Status eq 0 and Question/Rubric/any()";

/// The queue's open tasks, newest result first, with what decides the test's choice.
pub async fn queue(api: &Api) -> Vec<Value> {
    let body = api
        .get("ScoringTasks?$filter=Status%20eq%200%20and%20Question/Rubric/any()&$orderby=Result/WhenFinished%20desc&$top=100&$expand=Answer,Question/Rubric")
        .await;
    body["value"].as_array().unwrap().clone()
}

/// Brings the first open task whose answer is of `media` (and whose question has a
/// rubric) to the head of the queue, by saving the ones before it for moderation
/// (Status 2) through the API, as another scorer would. Returns its key.
pub async fn bring_to_head(api: &Api, media: &str) -> (String, i64) {
    bring_to_head_where(api, |t| {
        t["Answer"]["odata.mediaContentType"]
            .as_str()
            .is_some_and(|m| m.starts_with(media))
            && t["Question"]["Rubric"]
                .as_array()
                .is_some_and(|r| !r.is_empty())
    })
    .await
}

/// Brings the first open task that `wanted` picks (from the queue's tasks with
/// their answer and question expanded) to the head of the queue, by saving the
/// ones before it for moderation through the API. Returns its key.
pub async fn bring_to_head_where(api: &Api, wanted: impl Fn(&Value) -> bool) -> (String, i64) {
    let tasks = queue(api).await;
    let index = tasks
        .iter()
        .position(wanted)
        .expect("an open task of the kind wanted");
    for task in &tasks[..index] {
        let path = format!(
            "ScoringTasks(QuestionID={}L,ResultID={})",
            task["QuestionID"].as_str().unwrap(),
            task["ResultID"]
        );
        assert!(api
            .put(&path, serde_json::json!({"Status": 2}))
            .await
            .is_success());
    }
    let head = &tasks[index];
    (
        head["QuestionID"].as_str().unwrap().to_owned(),
        head["ResultID"].as_i64().unwrap(),
    )
}

/// Refreshes the queue with R and waits until `task` heads it, then takes it with N.
pub async fn take_with_keyboard(client: &Client, (question, result): &(String, i64)) {
    press(client, &['r']).await;
    wait_for(
        client,
        &format!("#task-list li:first-child[data-question='{question}'][data-result='{result}']"),
    )
    .await;
    press(client, &['n']).await;
    wait_for(
        client,
        &format!("#scoring-view[data-question='{question}'][data-result='{result}']"),
    )
    .await;
}

/// The maxima of the task's dimensions, in order, from the API.
pub async fn dimension_maxima(api: &Api, (question, result): &(String, i64)) -> Vec<i64> {
    let scoring = api
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"
        ))
        .await;
    let rubric = scoring["value"][0]["RubricID"].as_i64().unwrap();
    let scores = api
        .get(&format!(
            "ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})/DimensionScores?$expand=Dimension"
        ))
        .await;
    scores["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Dimension"]["MaxScore"].as_i64().unwrap())
        .collect()
}

/// Scores every dimension with number keys (the selection moves on by itself).
pub async fn score_all_by_keyboard(client: &Client, scores: &[i64]) {
    let keys: Vec<char> = scores
        .iter()
        .map(|s| char::from_digit(*s as u32, 10).expect("one-digit maxima"))
        .collect();
    press(client, &keys).await;
    let total: i64 = scores.iter().sum();
    wait_for(client, &format!("#overall-score[data-score='{total}']")).await;
}

pub async fn total_score(api: &Api, result: i64) -> i64 {
    api.get(&format!("Results({result})")).await["TotalScore"]
        .as_i64()
        .unwrap()
}

pub async fn task_status(api: &Api, (question, result): &(String, i64)) -> i64 {
    api.get(&format!(
        "ScoringTasks(QuestionID={question}L,ResultID={result})"
    ))
    .await["Status"]
        .as_i64()
        .unwrap()
}

/// A scorer in the middle of scoring a typed answer: taken with `N`, every
/// dimension scored one below its maximum, nothing saved yet. Returns the API of the
/// app's server, the task, and the scores typed.
pub async fn scoring_mid_edit(session: &DesktopSession) -> (Api, (String, i64), Vec<i64>) {
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(session).await;
    let task = bring_to_head(&api, "text/").await;
    take_with_keyboard(client, &task).await;
    let maxima = dimension_maxima(&api, &task).await;
    let mine: Vec<i64> = maxima.iter().map(|m| m - 1).collect();
    score_all_by_keyboard(client, &mine).await;
    (api, task, mine)
}

/// Another client saves the task's ScoringResult (with the ModifiedDateTime it reads)
/// while the app has it open; returns the ScoringResult's path.
pub async fn another_client_saves(
    api: &Api,
    (question, result): &(String, i64),
    score: i64,
    comments: &str,
) -> String {
    let scoring_result = api
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"
        ))
        .await["value"][0]
        .clone();
    let path = format!(
        "ScoringResults(QuestionID={question}L,RubricID={},ResultID={result})",
        scoring_result["RubricID"]
    );
    let status = api
        .put(
            &path,
            serde_json::json!({
                "Score": score,
                "Comments": comments,
                "ModifiedDateTime": scoring_result["ModifiedDateTime"],
            }),
        )
        .await;
    assert!(status.is_success(), "{status}");
    path
}

/// The key of the task the scoring view shows, once it shows one.
pub async fn shown_task(client: &Client) -> (String, i64) {
    let view = wait_for(client, "#scoring-view").await;
    let question = view.attr("data-question").await.unwrap().unwrap();
    let result = view.attr("data-result").await.unwrap().unwrap();
    (question, result.parse().unwrap())
}

/// A marker at another desk scores `task` through the spec's PUTs (claimed,
/// each dimension with `comment`, the total) and submits it (Status 3).
pub async fn mark_through_the_feeds(
    marker: &Api,
    (question, result): &(String, i64),
    scores: &[i64],
    comment: &str,
) {
    let task_path = format!("ScoringTasks(QuestionID={question}L,ResultID={result})");
    assert!(marker
        .put(&task_path, json!({"Status": 1}))
        .await
        .is_success());
    let scoring = marker.get(&format!("{task_path}/ScoringResult")).await["value"][0].clone();
    let result_path = format!(
        "ScoringResults(QuestionID={question}L,RubricID={},ResultID={result})",
        scoring["RubricID"]
    );
    let dimensions = marker.get(&format!("{result_path}/DimensionScores")).await;
    for (row, score) in dimensions["value"].as_array().unwrap().iter().zip(scores) {
        let path = format!(
            "DimensionScores(QuestionID={question}L,RubricID={},ResultID={result},Order={})",
            scoring["RubricID"], row["Order"]
        );
        let body = json!({"Score": score, "Comment": comment});
        assert!(marker.put(&path, body).await.is_success(), "{path}");
    }
    let body = json!({
        "Score": scores.iter().sum::<i64>(),
        "Comments": comment,
        "ModifiedDateTime": scoring["ModifiedDateTime"],
    });
    assert!(marker.put(&result_path, body).await.is_success());
    assert!(marker
        .put(&task_path, json!({"Status": 3}))
        .await
        .is_success());
}
