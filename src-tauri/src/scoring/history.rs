//! What this account saved or submitted lately, from the server's ScoringEvents (our
//! extension feed): the queue's "Scored recently" list follows the scorer from one
//! computer to another. Each task appears once, at its latest save or submit.

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::literal;
use crate::client::ODataClient;
use crate::error::CommandError;

/// How many of the latest events are read; the list shows each task once.
const EVENTS_READ: &str = "100";

#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ScoredEvent {
    pub question_id: String,
    pub result_id: i32,
    pub question: Option<String>,
    pub participant: Option<String>,
    pub score: Option<i64>,
    /// 2: saved for moderation; 3: submitted.
    pub status: i64,
    /// When, as the server wrote it (`2026-11-23T10:00:00.000`).
    pub at: String,
}

/// The latest saves and submits of the signed-in account, newest first, a task once.
pub async fn scoring_history(client: &ODataClient) -> Result<Vec<ScoredEvent>, CommandError> {
    let filter = format!("Account eq {} and Status ge 2", literal(&client.username));
    let feed = client
        .get_json(
            "ScoringEvents",
            &[
                ("$filter", filter.as_str()),
                ("$orderby", "ID desc"),
                ("$top", EVENTS_READ),
                ("$expand", "ScoringTask/Question,ScoringTask/Result"),
            ],
        )
        .await?;
    Ok(latest_per_task(&feed))
}

fn latest_per_task(feed: &Value) -> Vec<ScoredEvent> {
    let mut seen = std::collections::HashSet::new();
    feed["value"]
        .as_array()
        .map(|events| {
            events
                .iter()
                .filter_map(scored_event)
                .filter(|event| seen.insert((event.question_id.clone(), event.result_id)))
                .collect()
        })
        .unwrap_or_default()
}

fn scored_event(event: &Value) -> Option<ScoredEvent> {
    let task = &event["ScoringTask"];
    let result = &task["Result"];
    let participant = match (result["FirstName"].as_str(), result["LastName"].as_str()) {
        (Some(first), Some(last)) => Some(format!("{first} {last}")),
        _ => result["ParticipantName"].as_str().map(str::to_owned),
    };
    Some(ScoredEvent {
        question_id: event["QuestionID"].as_str()?.to_owned(),
        result_id: i32::try_from(event["ResultID"].as_i64()?).ok()?,
        question: task["Question"]["Description"].as_str().map(str::to_owned),
        participant,
        score: event["Score"].as_i64(),
        status: event["Status"].as_i64()?,
        at: event["At"].as_str()?.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_task_once_at_its_latest_event() {
        let feed = serde_json::json!({"value": [
            {"QuestionID": "7", "ResultID": 1, "Status": 3, "Score": 5, "At": "2026-11-23T10:05:00.000",
             "ScoringTask": {"Question": {"Description": "Essay"}, "Result": {"FirstName": "Ann", "LastName": "Lee"}}},
            {"QuestionID": "7", "ResultID": 2, "Status": 2, "Score": 1, "At": "2026-11-23T10:04:00.000", "ScoringTask": {}},
            {"QuestionID": "7", "ResultID": 1, "Status": 2, "Score": 4, "At": "2026-11-23T10:01:00.000", "ScoringTask": {}},
        ]});
        let events = latest_per_task(&feed);
        assert_eq!(events.len(), 2);
        assert_eq!((events[0].status, events[0].score), (3, Some(5)));
        assert_eq!(events[0].participant.as_deref(), Some("Ann Lee"));
        assert_eq!(events[1].result_id, 2);
    }
}
