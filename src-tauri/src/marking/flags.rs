//! Flags through the server's `Flags` and `FlagAnswers` feeds (our extension,
//! docs/odata.md): raised from the scoring view, read and answered on the
//! lead's desk.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;
use crate::literals::key_number;

/// How many answered flags the desk shows beneath the open ones: the latest.
const ANSWERED_SHOWN: &str = "50";
/// Open flags read at once; more than this wants a lead's afternoon, not a list.
const OPEN_SHOWN: &str = "500";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FlagEntry {
    pub id: i32,
    pub question_id: String,
    pub result_id: i32,
    /// What the question is, to know it at a glance (its description).
    #[ts(optional = nullable)]
    pub question: Option<String>,
    pub reason: String,
    pub note: String,
    pub raised_by: String,
    pub raised: String,
    /// The task's status now (1 while flagged).
    #[ts(optional = nullable)]
    pub task_status: Option<i32>,
    #[ts(optional = nullable)]
    pub answer: Option<FlagAnswerEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FlagAnswerEntry {
    pub outcome: String,
    pub note: String,
    pub answered_by: String,
    pub answered: String,
}

/// The lead's desk: the open flags, oldest first, and the latest answered.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FlagDesk {
    pub open: Vec<FlagEntry>,
    pub answered: Vec<FlagEntry>,
    /// Whether this account may answer (a lead marker or an administrator).
    pub may_answer: bool,
}

/// Flags the task to the lead marker; the server locks it in the same step.
pub async fn raise_flag(
    client: &ODataClient,
    question_id: &str,
    result_id: i32,
    reason: &str,
    note: &str,
) -> Result<(), CommandError> {
    let question = key_number("Question", question_id)?;
    let body = json!({
        "QuestionID": question.to_string(),
        "ResultID": result_id,
        "Reason": reason,
        "Note": note,
    });
    client.post("Flags", &body).await?;
    Ok(())
}

/// Answers flag `id`: `released` or `taken-over`, with the note the marker reads.
pub async fn answer_flag(
    client: &ODataClient,
    id: i32,
    outcome: &str,
    note: &str,
) -> Result<(), CommandError> {
    let body = json!({ "FlagID": id, "Outcome": outcome, "Note": note });
    client.post("FlagAnswers", &body).await?;
    Ok(())
}

/// The desk's lists, and whether this account may answer.
pub async fn flag_desk(client: &ODataClient) -> Result<FlagDesk, CommandError> {
    let expand = "ScoringTask/Question,Answer";
    let open = client
        .get_json(
            "Flags",
            &[
                ("$filter", "IsOpen eq true"),
                ("$orderby", "ID"),
                ("$expand", expand),
                ("$top", OPEN_SHOWN),
            ],
        )
        .await?;
    let answered = client
        .get_json(
            "Flags",
            &[
                ("$filter", "IsOpen eq false"),
                ("$orderby", "ID desc"),
                ("$expand", expand),
                ("$top", ANSWERED_SHOWN),
            ],
        )
        .await?;
    Ok(FlagDesk {
        open: entries(&open),
        answered: entries(&answered),
        may_answer: may_answer(client).await?,
    })
}

/// Whether the server lets this account answer flags. The access decision comes
/// before the body is read (docs/architecture.md, "Roles"), so an empty answer is
/// refused as a bad body (400) when the account may, and as forbidden (403) when
/// not; nothing is written either way.
async fn may_answer(client: &ODataClient) -> Result<bool, CommandError> {
    match client.post("FlagAnswers", &json!({})).await {
        Err(RequestFailure::Forbidden(_)) => Ok(false),
        Err(RequestFailure::Failed(_)) => Ok(true),
        Ok(_) => Err(CommandError::Server(
            "The server accepted an empty FlagAnswer.".into(),
        )),
        Err(other) => Err(other.into()),
    }
}

fn entries(feed: &Value) -> Vec<FlagEntry> {
    feed["value"]
        .as_array()
        .map(|rows| rows.iter().filter_map(entry).collect())
        .unwrap_or_default()
}

fn entry(row: &Value) -> Option<FlagEntry> {
    let text = |value: &Value| value.as_str().map(str::to_owned);
    let answer = &row["Answer"];
    Some(FlagEntry {
        id: row["ID"].as_i64()?.try_into().ok()?,
        question_id: text(&row["QuestionID"])?,
        result_id: row["ResultID"].as_i64()?.try_into().ok()?,
        question: text(&row["ScoringTask"]["Question"]["Description"]),
        reason: text(&row["Reason"])?,
        note: text(&row["Note"]).unwrap_or_default(),
        raised_by: text(&row["RaisedBy"])?,
        raised: text(&row["RaisedDateTime"])?,
        task_status: row["ScoringTask"]["Status"]
            .as_i64()
            .and_then(|s| s.try_into().ok()),
        answer: answer.is_object().then(|| FlagAnswerEntry {
            outcome: text(&answer["Outcome"]).unwrap_or_default(),
            note: text(&answer["Note"]).unwrap_or_default(),
            answered_by: text(&answer["AnsweredBy"]).unwrap_or_default(),
            answered: text(&answer["AnsweredDateTime"]).unwrap_or_default(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_with_its_task_and_answer_is_read_from_the_feed() {
        let feed = json!({"value": [
            {"ID": 4, "QuestionID": "77", "ResultID": 9, "Reason": "unreadable", "Note": "smudged",
             "RaisedBy": "ann", "RaisedDateTime": "2026-12-02T10:00:00.000", "IsOpen": false,
             "ScoringTask": {"Status": 0, "Question": {"Description": "Essay on forces"}},
             "Answer": {"Outcome": "released", "Note": "Read it as 7.", "AnsweredBy": "lee",
                        "AnsweredDateTime": "2026-12-02T10:05:00.000"}},
            {"ID": 5, "QuestionID": "78", "ResultID": 9, "Reason": "second-look", "Note": "",
             "RaisedBy": "ann", "RaisedDateTime": "2026-12-02T10:01:00.000", "IsOpen": true,
             "ScoringTask": {"Status": 1, "Question": {"Description": null}}, "Answer": null},
            {"ID": "not a flag"}
        ]});
        let read = entries(&feed);
        assert_eq!(read.len(), 2, "the malformed row is left out");
        assert_eq!(read[0].question.as_deref(), Some("Essay on forces"));
        assert_eq!(read[0].task_status, Some(0));
        let answer = read[0].answer.as_ref().unwrap();
        assert_eq!(
            (answer.outcome.as_str(), answer.answered_by.as_str()),
            ("released", "lee")
        );
        assert_eq!(read[1].answer, None);
        assert_eq!(read[1].question, None);
    }
}
