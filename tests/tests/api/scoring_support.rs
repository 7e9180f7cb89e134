//! Helpers shared by the scoring tests: finding tasks, following them to their
//! ScoringResult, PUTs as the scorer, and the participant's Result as reports see it.

use reqwest::StatusCode;
use scoredesk_e2e::TestApp;
use serde_json::{json, Value};

pub const SCORER: &str = "northwind-scorer";

/// A scoring task's key.
#[derive(Debug, Clone, Copy)]
pub struct Task {
    pub question: i64,
    pub result: i64,
}

impl Task {
    pub fn path(&self, app: &TestApp) -> String {
        format!(
            "{}ScoringTasks(QuestionID={}L,ResultID={})",
            app.root(),
            self.question,
            self.result
        )
    }

    pub fn scoring_result_navigation(&self, app: &TestApp) -> String {
        format!("{}/ScoringResult", self.path(app))
    }
}

/// Open (Status 0) tasks of Northwind whose question has a rubric, oldest result first.
pub async fn open_tasks_with_rubric(app: &TestApp) -> Vec<Task> {
    app.sql_strings(&format!(
        "SELECT CAST(t.question_id AS TEXT) || ',' || CAST(t.result_id AS TEXT) FROM scoring_tasks t \
         WHERE t.customer_id = {} AND t.status = 0 \
         AND EXISTS (SELECT 1 FROM rubrics r WHERE r.question_id = t.question_id) \
         ORDER BY t.result_id, t.question_id",
        app.northwind()
    ))
    .await
    .iter()
    .map(|key| {
        let (question, result) = key.split_once(',').unwrap();
        Task {
            question: question.parse().unwrap(),
            result: result.parse().unwrap(),
        }
    })
    .collect()
}

pub async fn open_task_with_rubric(app: &TestApp) -> Task {
    open_tasks_with_rubric(app).await[0]
}

/// Two open tasks with rubrics that belong to the same result.
pub async fn two_tasks_of_one_result(app: &TestApp) -> (Task, Task) {
    let tasks = open_tasks_with_rubric(app).await;
    tasks
        .windows(2)
        .find(|pair| pair[0].result == pair[1].result)
        .map(|pair| (pair[0], pair[1]))
        .expect("the demo has results with two essays to score")
}

/// `GET` as the scorer, expecting 200.
pub async fn get(app: &TestApp, path: &str) -> Value {
    let (status, body) = app.get_json_with(SCORER, path, &[]).await;
    assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
    body
}

/// Follows the task to its ScoringResult (creating it) and returns it.
pub async fn scoring_result_of(app: &TestApp, task: Task) -> Value {
    let body = get(app, &task.scoring_result_navigation(app)).await;
    body["value"][0].clone()
}

/// The MaxScore of the rubric a ScoringResult scores against, as stored.
pub async fn rubric_max_score(app: &TestApp, scoring_result: &Value) -> i64 {
    app.sql_i64(&format!(
        "SELECT CAST(max_score AS BIGINT) FROM rubrics WHERE id = {}",
        scoring_result["RubricID"]
    ))
    .await
}

/// The URL of a ScoringResult read from the service.
pub fn scoring_result_path(app: &TestApp, scoring_result: &Value) -> String {
    format!(
        "{}ScoringResults(QuestionID={}L,RubricID={},ResultID={})",
        app.root(),
        scoring_result["QuestionID"].as_str().unwrap(),
        scoring_result["RubricID"],
        scoring_result["ResultID"]
    )
}

pub async fn put(app: &TestApp, path: &str, body: &Value) -> reqwest::Response {
    app.put_json(SCORER, path, body, &[]).await
}

/// PUTs the task back with `status`; returns the status code.
pub async fn put_status(app: &TestApp, task: Task, status: i64) -> StatusCode {
    let body = json!({
        "QuestionID": task.question.to_string(),
        "ResultID": task.result,
        "Status": status,
    });
    put(app, &task.path(app), &body).await.status()
}

pub async fn task_status(app: &TestApp, task: Task) -> i64 {
    get(app, &task.path(app)).await["Status"].as_i64().unwrap()
}

/// PUTs the ScoringResult read as `scoring_result` with a new score and comments.
pub async fn put_scoring_result(
    app: &TestApp,
    scoring_result: &Value,
    score: i64,
    comments: &str,
) -> reqwest::Response {
    let mut body = scoring_result.clone();
    body["Score"] = json!(score);
    body["Comments"] = json!(comments);
    put(app, &scoring_result_path(app, scoring_result), &body).await
}

/// The participant's Result, as reports read it.
pub async fn result(app: &TestApp, result_id: i64) -> Value {
    get(app, &format!("{}Results({result_id})", app.root())).await
}

/// The answer a task scores.
pub async fn answer(app: &TestApp, task: Task) -> Value {
    get(app, &format!("{}/Answer", task.path(app))).await
}

/// What the Result's scores must be given its answers as the service reports them:
/// `(TotalScore, MaxScore, PercentageScore, ScoreBandTitle)`, computed here
/// independently of the server.
pub async fn expected_scores(app: &TestApp, result_id: i64) -> (i64, i64, i64, String) {
    let answers = get(app, &format!("{}Results({result_id})/Answers", app.root())).await;
    let answers = answers["value"].as_array().unwrap();
    let total: i64 = answers
        .iter()
        .map(|a| a["ActualScore"].as_i64().unwrap_or(0))
        .sum();
    let max: i64 = answers
        .iter()
        .map(|a| a["MaxScore"].as_i64().unwrap())
        .sum();
    let percentage = total * 100 / max;
    let assessment = result(app, result_id).await["AssessmentID"]
        .as_str()
        .unwrap()
        .to_owned();
    let band = app
        .sql_strings(&format!(
            "SELECT title FROM score_bands WHERE assessment_id = {assessment} \
             AND min_percentage <= {percentage} ORDER BY min_percentage DESC LIMIT 1"
        ))
        .await
        .remove(0);
    (total, max, percentage, band)
}

/// The Result's scores as the service reports them, in the order of [`expected_scores`].
pub async fn reported_scores(app: &TestApp, result_id: i64) -> (i64, i64, i64, String) {
    let result = result(app, result_id).await;
    (
        result["TotalScore"].as_i64().unwrap(),
        result["MaxScore"].as_i64().unwrap(),
        result["PercentageScore"].as_i64().unwrap(),
        result["ScoreBandTitle"].as_str().unwrap().to_owned(),
    )
}

/// The Result's TopicScores total, as reported.
pub async fn topic_total(app: &TestApp, result_id: i64) -> i64 {
    // TopicScores are a report: the administrator reads them, not the scorer.
    let topics = app
        .get_json(&format!("{}Results({result_id})/TopicScores", app.root()))
        .await;
    topics["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["TotalScore"].as_i64().unwrap())
        .sum()
}
