//! The second-marking desk's lists (docs/marking-quality.md, "Double-blind second
//! marking"): the rounds waiting for a marker, as the server's `SecondMarkingQueue`
//! offers them to this account (never a task he marked), and the markings taken
//! but not submitted. A scorer reads only his own markings; a lead marker reads
//! everyone's, and may free a round somebody took and left.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;

/// Rounds read at once: a session's double marking, not a term's.
const SHOWN: &str = "500";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct WaitingRound {
    pub question_id: String,
    pub result_id: i32,
    /// 2 a second marking, 3 a resolution.
    pub round: i32,
    #[ts(optional = nullable)]
    pub question: Option<String>,
    pub queued: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TakenMarking {
    pub id: i32,
    pub question_id: String,
    pub result_id: i32,
    pub round: i32,
    pub marked_by: String,
    /// Whether this account took it (and so goes on with it); otherwise a lead
    /// marker sees another's, to free it.
    pub mine: bool,
    #[ts(optional = nullable)]
    pub question: Option<String>,
    pub started: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SecondMarkingDesk {
    /// Oldest first.
    pub waiting: Vec<WaitingRound>,
    /// This account's first, then the oldest.
    pub taken: Vec<TakenMarking>,
}

pub async fn second_marking_desk(client: &ODataClient) -> Result<SecondMarkingDesk, CommandError> {
    let (waiting, taken) = futures::join!(
        client.get_json(
            "SecondMarkingQueue",
            &[("$expand", "Question"), ("$top", SHOWN)],
        ),
        client.get_json(
            "Markings",
            &[
                ("$filter", "IsSubmitted eq false"),
                ("$expand", "ScoringTask/Question"),
                ("$orderby", "ID"),
                ("$top", SHOWN),
            ],
        ),
    );
    Ok(desk_of(&waiting?, &taken?, &client.username))
}

/// The desk from the two feeds as read by `username`.
fn desk_of(waiting: &Value, taken: &Value, username: &str) -> SecondMarkingDesk {
    let rows = |feed: &Value| feed["value"].as_array().cloned().unwrap_or_default();
    let mut waiting: Vec<WaitingRound> = rows(waiting).iter().filter_map(waiting_round).collect();
    waiting.sort_by(|a, b| a.queued.cmp(&b.queued));
    let mut taken: Vec<TakenMarking> = rows(taken)
        .iter()
        .filter_map(|row| taken_marking(row, username))
        .collect();
    taken.sort_by(|a, b| b.mine.cmp(&a.mine).then(a.started.cmp(&b.started)));
    SecondMarkingDesk { waiting, taken }
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

fn number(value: &Value) -> Option<i32> {
    value.as_i64()?.try_into().ok()
}

fn waiting_round(row: &Value) -> Option<WaitingRound> {
    Some(WaitingRound {
        question_id: text(&row["QuestionID"])?,
        result_id: number(&row["ResultID"])?,
        round: number(&row["Round"])?,
        question: text(&row["Question"]["Description"]),
        queued: text(&row["QueuedDateTime"])?,
    })
}

fn taken_marking(row: &Value, username: &str) -> Option<TakenMarking> {
    let marked_by = text(&row["MarkedBy"])?;
    Some(TakenMarking {
        id: number(&row["ID"])?,
        question_id: text(&row["QuestionID"])?,
        result_id: number(&row["ResultID"])?,
        round: number(&row["Round"])?,
        // Account names are matched without regard to case at sign-in.
        mine: marked_by.eq_ignore_ascii_case(username),
        marked_by,
        question: text(&row["ScoringTask"]["Question"]["Description"]),
        started: text(&row["StartedDateTime"])?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_desk_lists_the_oldest_rounds_first_and_this_markers_own_before_others() {
        let waiting = json!({"value": [
            {"QuestionID": "7", "ResultID": 2, "Round": 3, "QueuedDateTime": "2026-12-03T10:05:00.000",
             "Question": {"Description": "Essay"}},
            {"QuestionID": "7", "ResultID": 1, "Round": 2, "QueuedDateTime": "2026-12-03T10:00:00.000",
             "Question": null},
            {"QuestionID": "not a row"}
        ]});
        let taken = json!({"value": [
            {"ID": 4, "QuestionID": "7", "ResultID": 5, "Round": 2, "MarkedBy": "ann",
             "StartedDateTime": "2026-12-03T09:00:00.000", "ScoringTask": {"Question": {"Description": "Essay"}}},
            {"ID": 9, "QuestionID": "7", "ResultID": 6, "Round": 2, "MarkedBy": "Lee",
             "StartedDateTime": "2026-12-03T11:00:00.000", "ScoringTask": null}
        ]});
        let desk = desk_of(&waiting, &taken, "lee");
        let rounds: Vec<_> = desk
            .waiting
            .iter()
            .map(|w| (w.result_id, w.round))
            .collect();
        assert_eq!(
            rounds,
            [(1, 2), (2, 3)],
            "oldest first, the malformed row left out"
        );
        assert_eq!(desk.waiting[1].question.as_deref(), Some("Essay"));
        let taken: Vec<_> = desk.taken.iter().map(|t| (t.id, t.mine)).collect();
        assert_eq!(taken, [(9, true), (4, false)]);
    }
}
