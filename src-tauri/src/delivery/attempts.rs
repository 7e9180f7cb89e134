//! A print batch's attempts: one per participant of its group for its snapshot,
//! listed with their result, and made for everyone still without one in a single
//! action that reports as it goes.
//!
//! Running it twice creates nothing twice: a participant who has an attempt for
//! the snapshot is skipped, and the ExternalAttemptID is made from the batch and
//! the participant, so two coordinators running it at once meet the server's
//! unique constraint (409) rather than making a second attempt.

use std::collections::HashMap;

use futures::stream::{self, StreamExt};
use serde::Serialize;
use serde_json::{json, Value};
use tauri::ipc::Channel;
use ts_rs::TS;

use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;
use crate::literals::int64_key;

/// Participants of one group the screens handle; a larger group is cut here.
const MAX_PARTICIPANTS: usize = 20_000;
/// POSTs in flight at once: enough to hide the round trip, few enough not to
/// crowd other scorers on a shared server.
const AT_ONCE: usize = 4;

#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BatchAttempt {
    pub participant_id: String,
    pub participant: String,
    pub attempt_id: Option<String>,
    pub external_attempt_id: Option<String>,
    /// The Result an upload made; none while the attempt waits for its answers.
    pub result_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AttemptsProgress {
    pub done: u32,
    pub total: u32,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Refusal {
    pub participant: String,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AttemptsSummary {
    pub created: u32,
    /// Participants who had an attempt for the snapshot already.
    pub already: u32,
    /// What the server refused, in its words, per participant.
    pub refused: Vec<Refusal>,
    /// Requests that never got an answer (the network): running it again retries them.
    pub unreachable: Vec<Refusal>,
    pub attempts: Vec<BatchAttempt>,
}

/// What the action needs to know of the batch.
struct Batch {
    id: i64,
    group_id: i64,
    snapshot_id: i64,
    assessment_id: String,
}

async fn read_batch(client: &ODataClient, batch_id: &str) -> Result<Batch, CommandError> {
    let id = int64_key("Batch", batch_id)?;
    let entry = client
        .get_json(
            &format!("PrintBatches({id})"),
            &[("$expand", "AssessmentSnapshot")],
        )
        .await?;
    let missing = || CommandError::Server(format!("Print batch {id} could not be read."));
    Ok(Batch {
        id: entry["ID"].as_i64().ok_or_else(missing)?,
        group_id: entry["GroupID"].as_i64().ok_or_else(missing)?,
        snapshot_id: entry["SnapshotID"].as_i64().ok_or_else(missing)?,
        assessment_id: entry["AssessmentSnapshot"]["AssessmentID"]
            .as_str()
            .ok_or_else(missing)?
            .to_owned(),
    })
}

/// The batch's participants, each with the attempt they have for its snapshot.
pub async fn batch_attempts(
    client: &ODataClient,
    batch_id: &str,
) -> Result<Vec<BatchAttempt>, CommandError> {
    let batch = read_batch(client, batch_id).await?;
    read_rows(client, &batch).await
}

async fn read_rows(client: &ODataClient, batch: &Batch) -> Result<Vec<BatchAttempt>, CommandError> {
    let members = format!("Groups({})/Participants", batch.group_id);
    let snapshot_filter = format!("AssessmentSnapshotID eq {}", batch.snapshot_id);
    let member_query = [
        ("$select", "ID,Name,FirstName,LastName"),
        ("$orderby", "ID"),
    ];
    let attempt_query = [("$filter", snapshot_filter.as_str()), ("$orderby", "ID")];
    let (participants, attempts) = futures::try_join!(
        client.get_all(&members, &member_query, MAX_PARTICIPANTS),
        client.get_all("Attempts", &attempt_query, usize::MAX),
    )?;
    Ok(rows(&participants, &attempts))
}

/// One row per participant, by name, with their attempt for the snapshot (the
/// first, if several were made elsewhere).
fn rows(participants: &[Value], attempts: &[Value]) -> Vec<BatchAttempt> {
    let mut by_participant: HashMap<i64, &Value> = HashMap::new();
    for attempt in attempts {
        if let Some(participant) = attempt["ParticipantID"].as_i64() {
            by_participant.entry(participant).or_insert(attempt);
        }
    }
    let mut rows: Vec<BatchAttempt> = participants
        .iter()
        .filter_map(|p| {
            let id = p["ID"].as_i64()?;
            let attempt = by_participant.get(&id);
            Some(BatchAttempt {
                participant_id: id.to_string(),
                participant: display_name(p),
                attempt_id: attempt
                    .and_then(|a| a["ID"].as_i64())
                    .map(|n| n.to_string()),
                external_attempt_id: attempt
                    .and_then(|a| a["ExternalAttemptID"].as_str())
                    .map(str::to_owned),
                result_id: attempt
                    .and_then(|a| a["ResultID"].as_i64())
                    .map(|n| n.to_string()),
            })
        })
        .collect();
    rows.sort_by_cached_key(|row| row.participant.to_lowercase());
    rows
}

/// "First Last (login)", or the login alone.
fn display_name(participant: &Value) -> String {
    let login = participant["Name"].as_str().unwrap_or_default();
    let full = [&participant["FirstName"], &participant["LastName"]]
        .iter()
        .filter_map(|v| v.as_str())
        .filter(|s| !s.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if full.is_empty() {
        login.to_owned()
    } else {
        format!("{full} ({login})")
    }
}

/// The ExternalAttemptID of a batch's participant: unique in the area because
/// batch IDs are, and the same each time, so a second run cannot duplicate it.
pub fn external_attempt_id(batch_id: i64, participant_id: &str) -> String {
    format!("batch-{batch_id}-participant-{participant_id}")
}

/// Makes an attempt for every participant of the batch's group who has none for
/// its snapshot, reporting progress on `progress`; then the batch's rows again.
pub async fn create_attempts(
    client: &ODataClient,
    batch_id: &str,
    progress: &Channel<AttemptsProgress>,
) -> Result<AttemptsSummary, CommandError> {
    let batch = read_batch(client, batch_id).await?;
    let before = read_rows(client, &batch).await?;
    let wanted: Vec<&BatchAttempt> = before.iter().filter(|r| r.attempt_id.is_none()).collect();
    let total = wanted.len() as u32;
    let mut summary = AttemptsSummary {
        created: 0,
        already: (before.len() - wanted.len()) as u32,
        refused: Vec::new(),
        unreachable: Vec::new(),
        attempts: Vec::new(),
    };
    let _ = progress.send(AttemptsProgress { done: 0, total });
    // Each POST owns what it needs, so the stream is Send for the command.
    let posts: Vec<_> = wanted
        .into_iter()
        .map(|row| {
            let client = client.clone();
            let body = json!({
                "ID": 0,
                "ParticipantID": row.participant_id.parse::<i64>().unwrap_or_default(),
                "AssessmentID": batch.assessment_id,
                "AssessmentSnapshotID": batch.snapshot_id,
                "ExternalAttemptID": external_attempt_id(batch.id, &row.participant_id),
                "LockStatus": false,
                "LockRequired": false,
            });
            let participant = row.participant.clone();
            async move { (participant, client.post("Attempts", &body).await) }
        })
        .collect();
    let mut posts = stream::iter(posts).buffer_unordered(AT_ONCE);
    let mut done = 0;
    while let Some((participant, outcome)) = posts.next().await {
        done += 1;
        match outcome {
            Ok(_) => summary.created += 1,
            // Made meanwhile by someone else running the same action.
            Err(RequestFailure::Conflict(_)) => summary.already += 1,
            Err(RequestFailure::Unreachable(message)) => summary.unreachable.push(Refusal {
                participant,
                message,
            }),
            Err(other) => summary.refused.push(Refusal {
                participant,
                message: other.message().to_owned(),
            }),
        }
        let _ = progress.send(AttemptsProgress { done, total });
    }
    drop(posts);
    summary.attempts = read_rows(client, &batch).await?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_participant_gets_a_row_with_their_attempt_for_the_snapshot() {
        let participants = [
            json!({"ID": 7, "Name": "zoe", "FirstName": "Zoë", "LastName": "Adams"}),
            json!({"ID": 5, "Name": "ali", "FirstName": null, "LastName": null}),
        ];
        let attempts = [
            json!({"ID": 40, "ParticipantID": 7, "ExternalAttemptID": "batch-3-participant-7", "ResultID": 12}),
            json!({"ID": 41, "ParticipantID": 7, "ExternalAttemptID": "later", "ResultID": null}),
            json!({"ID": 42, "ParticipantID": 99, "ExternalAttemptID": "another group's", "ResultID": null}),
        ];
        let rows = rows(&participants, &attempts);
        assert_eq!(
            rows,
            vec![
                BatchAttempt {
                    participant_id: "5".into(),
                    participant: "ali".into(),
                    attempt_id: None,
                    external_attempt_id: None,
                    result_id: None,
                },
                BatchAttempt {
                    participant_id: "7".into(),
                    participant: "Zoë Adams (zoe)".into(),
                    attempt_id: Some("40".into()),
                    external_attempt_id: Some("batch-3-participant-7".into()),
                    result_id: Some("12".into()),
                },
            ]
        );
    }

    #[test]
    fn external_ids_are_the_same_each_run() {
        assert_eq!(external_attempt_id(3, "7"), "batch-3-participant-7");
        assert_ne!(external_attempt_id(3, "7"), external_attempt_id(4, "7"));
    }
}
