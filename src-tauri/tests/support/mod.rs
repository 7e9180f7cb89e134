//! What the app's own marking tests share: a script marked as the scoring view
//! marks it (claimed, every dimension scored, submitted through `submit`).

use scoredesk_desktop::client::ODataClient;
use scoredesk_desktop::scoring::{submit, Draft, SubmitOutcome};
use scoredesk_server::model::scoring::TaskStatus;
use serde_json::{json, Value};

/// `client` claims the task and submits every dimension `below` under its
/// maximum (not under 0), each with `comment` and the overall comment too.
pub async fn mark_below(
    client: &ODataClient,
    question: &str,
    result: i32,
    below: i64,
    comment: &str,
) -> SubmitOutcome {
    let task = format!("ScoringTasks(QuestionID={question}L,ResultID={result})");
    client.put(&task, &json!({"Status": 1})).await.unwrap();
    let scoring = client
        .get_json(&format!("{task}/ScoringResult"), &[])
        .await
        .unwrap()["value"][0]
        .clone();
    let scores = client
        .get_json(
            &format!(
                "ScoringResults(QuestionID={question}L,RubricID={},ResultID={result})/DimensionScores",
                scoring["RubricID"]
            ),
            &[("$expand", "Dimension")],
        )
        .await
        .unwrap();
    let dimensions: Vec<Value> = scores["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let score = (d["Dimension"]["MaxScore"].as_i64().unwrap() - below).max(0);
            json!({"order": d["Order"], "score": score, "comment": comment})
        })
        .collect();
    // The total the scoring view sends: its dimensions' sum.
    let total: i64 = dimensions.iter().filter_map(|d| d["score"].as_i64()).sum();
    let draft: Draft = serde_json::from_value(json!({
        "questionId": question, "resultId": result, "rubricId": scoring["RubricID"],
        "modified": scoring["ModifiedDateTime"], "score": total, "comments": comment,
        "dimensions": dimensions,
    }))
    .unwrap();
    submit(client, &draft, TaskStatus::Scored).await.unwrap()
}
