//! Answer groups (docs/marking-quality.md, "Answer groups"): the open tasks whose
//! typed answer is the same as the script's once normalised, and applying the
//! scorer's marking of the script to them all at once (`AnswerGroupMarkings`).

use serde::Serialize;
use serde_json::json;
use ts_rs::TS;

use super::int64_key;
use crate::client::ODataClient;
use crate::error::CommandError;

/// What applying a marking to its group did.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct GroupApplied {
    /// The tasks it marked.
    pub members: i64,
    /// Open tasks alike beyond one application's limit, left for the next.
    pub remaining: i64,
}

/// The results of the open tasks alike the script (none for a scan).
pub async fn answers_alike(
    client: &ODataClient,
    question_id: &str,
    result_id: i32,
) -> Result<Vec<i32>, CommandError> {
    let question = int64_key("Question", question_id)?;
    let query = [
        ("QuestionID", format!("{question}L")),
        ("ResultID", result_id.to_string()),
    ];
    let query: Vec<(&str, &str)> = query.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let listed = client.get_json("AnswersAlike", &query).await?;
    Ok(listed["value"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .filter_map(|row| row["ResultID"].as_i64())
                .filter_map(|id| i32::try_from(id).ok())
                .collect()
        })
        .unwrap_or_default())
}

/// Applies the script's marking (submitted first) to the open tasks alike.
pub async fn apply_answer_group(
    client: &ODataClient,
    question_id: &str,
    result_id: i32,
) -> Result<GroupApplied, CommandError> {
    let question = int64_key("Question", question_id)?;
    let body = json!({"QuestionID": question, "ResultID": result_id});
    let created = client.post("AnswerGroupMarkings", &body).await?;
    let count = |name: &str| created[name].as_i64().unwrap_or(0);
    Ok(GroupApplied {
        members: count("Members"),
        remaining: count("Remaining"),
    })
}
