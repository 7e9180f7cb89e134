//! The same participant's other answers in this assessment (docs/desktop.md,
//! "Other answers"): a marker reading one answer sometimes needs the rest of the
//! script (a working carried over from the question before, a "see my answer to
//! 3"). Listed from the result's other scoring tasks, each read on its own when
//! chosen (a scan is decoded only then). Read only: nothing is claimed.

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::material::answer_view;
use super::prepared::PreparedScans;
use super::views::AnswerView;
use crate::client::ODataClient;
use crate::error::CommandError;

/// A result's tasks are its questions: an assessment of more is not a script.
const MOST: &str = "200";

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct OtherAnswer {
    pub question_id: String,
    pub result_id: i32,
    #[ts(optional = nullable)]
    pub question: Option<String>,
    pub status: i64,
    /// The answer's score once its task is scored.
    #[ts(optional = nullable)]
    pub score: Option<i64>,
    #[ts(optional = nullable)]
    pub max_score: Option<i64>,
    /// The answer's media type ("text/plain", "image/png"), none without one.
    #[ts(optional = nullable)]
    pub media_type: Option<String>,
}

/// The result's tasks but `question_id`'s, in the order of their questions' IDs.
pub async fn other_answers(
    client: &ODataClient,
    question_id: &str,
    result_id: i32,
) -> Result<Vec<OtherAnswer>, CommandError> {
    let filter = format!("ResultID eq {result_id}");
    let feed = client
        .get_json(
            "ScoringTasks",
            &[
                ("$filter", filter.as_str()),
                ("$expand", "Question,Answer"),
                ("$orderby", "QuestionID"),
                ("$top", MOST),
            ],
        )
        .await?;
    Ok(answers_of(&feed, question_id))
}

fn answers_of(feed: &Value, except: &str) -> Vec<OtherAnswer> {
    feed["value"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|task| {
            let question_id = task["QuestionID"].as_str()?.to_owned();
            (question_id != except).then(|| OtherAnswer {
                question_id,
                result_id: task["ResultID"]
                    .as_i64()
                    .and_then(|r| i32::try_from(r).ok())
                    .unwrap_or_default(),
                question: task["Question"]["Description"].as_str().map(str::to_owned),
                status: task["Status"].as_i64().unwrap_or_default(),
                score: task["Answer"]["ActualScore"].as_i64(),
                max_score: task["Question"]["MaxScore"].as_i64(),
                media_type: task["Answer"]["odata.mediaContentType"]
                    .as_str()
                    .map(str::to_owned),
            })
        })
        .collect()
}

/// One of them, as the scoring view shows an answer (a scan decoded for display).
/// `question_id` is a checked Int64 key.
pub async fn other_answer(
    client: &ODataClient,
    scans: &PreparedScans,
    question_id: &str,
    result_id: i32,
) -> Result<AnswerView, CommandError> {
    let task = client
        .get_json(
            &format!("ScoringTasks(QuestionID={question_id}L,ResultID={result_id})"),
            &[("$expand", "Answer")],
        )
        .await?;
    answer_view(client, scans, &task["Answer"]).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_task_being_marked_is_left_out_and_the_rest_read_as_listed() {
        let feed = json!({ "value": [
            { "QuestionID": "7", "ResultID": 3, "Status": 0,
              "Question": { "Description": "Essay", "MaxScore": 8 },
              "Answer": { "odata.mediaContentType": "text/plain", "ActualScore": null } },
            { "QuestionID": "9", "ResultID": 3, "Status": 3,
              "Question": { "Description": null, "MaxScore": 2 },
              "Answer": { "odata.mediaContentType": "image/png", "ActualScore": 2 } },
            { "QuestionID": 11, "ResultID": 3 },
        ]});
        let answers = answers_of(&feed, "7");
        assert_eq!(answers.len(), 1);
        let other = &answers[0];
        assert_eq!(
            (other.question_id.as_str(), other.status, other.score),
            ("9", 3, Some(2))
        );
        assert_eq!((other.question.clone(), other.max_score), (None, Some(2)));
        assert_eq!(other.media_type.as_deref(), Some("image/png"));
    }
}
