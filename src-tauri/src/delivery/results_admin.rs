//! Results administration for administrators (docs/purges.md): an assessment's
//! results with the status changes the spec permits each, extra time, the purges
//! with a plan that says what will be removed before anything is, and the audit
//! log that follows a purge to its end.

use scoredesk_server::model::result_status::TRANSITIONS;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::{int64_key, key_number, literal};

/// How many of an assessment's results the screen lists, newest first.
const LISTED: &str = "200";
/// How many audit log entries the screen lists, newest first.
const AUDIT_ENTRIES: &str = "20";

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct StatusChange {
    pub to: i64,
    /// "pause", "resume", "terminate".
    pub meaning: String,
}

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AdminResult {
    pub id: String,
    pub participant: String,
    pub group: Option<String>,
    pub status: Option<i64>,
    pub extra_time: Option<i64>,
    pub total_score: Option<i64>,
    pub max_score: Option<i64>,
    pub band: Option<String>,
    pub finished: Option<String>,
    /// Its answers without a score yet: while any is left, its score and band are
    /// provisional.
    pub to_score: i64,
    /// What the spec lets its Status become from here.
    pub changes: Vec<StatusChange>,
}

/// What a purge removes.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
#[ts(export)]
pub enum PurgeTarget {
    /// One result, by ID.
    Result(String),
    /// Every result of a participant, by name.
    Participant(String),
    /// Every result of an assessment, by ID.
    Assessment(String),
    /// Every result of a participant and the participant too (their account,
    /// attempts and group memberships): the erasure of a person.
    ParticipantAndResults(String),
    /// Every result older than the area's retention policy.
    RetentionPolicy,
}

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PurgePlan {
    pub target: PurgeTarget,
    /// How many results it removes, counted now.
    pub results: i64,
    /// The sentence the confirmation shows.
    pub description: String,
}

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AuditEntry {
    pub id: String,
    pub request_type: String,
    pub request_data: Option<String>,
    pub requested: String,
    pub in_queue: bool,
    pub processed: Option<String>,
    pub successful: Option<bool>,
    /// The results done so far while in the queue; the total once processed.
    pub affected: i64,
}

/// The results of an assessment, newest first.
pub async fn assessment_results(
    client: &ODataClient,
    assessment_id: &str,
) -> Result<Vec<AdminResult>, CommandError> {
    let filter = format!(
        "AssessmentID eq {}L",
        int64_key("Assessment", assessment_id)?
    );
    let feed = client
        .get_json(
            "Results",
            &[
                ("$filter", &filter),
                ("$orderby", "ID desc"),
                ("$top", LISTED),
                // The answers' scores say what is left to score (no media read).
                ("$expand", "Answers"),
            ],
        )
        .await?;
    Ok(feed["value"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(admin_result)
        .collect())
}

/// Changes a result's Status (along a permitted transition) or its ExtraTime,
/// and reads it back.
pub async fn change_result(
    client: &ODataClient,
    result_id: &str,
    status: Option<i64>,
    extra_time: Option<i64>,
) -> Result<AdminResult, CommandError> {
    let id = key_number("Result", result_id)?;
    let mut body = json!({});
    if let Some(status) = status {
        body["Status"] = json!(status);
    }
    if let Some(seconds) = extra_time {
        if seconds < 0 {
            return Err(CommandError::InvalidInput(
                "Extra time: a number of seconds, 0 or more.".into(),
            ));
        }
        body["ExtraTime"] = json!(seconds);
    }
    // A property left out of a PUT keeps its value (docs/purges.md).
    client.put(&format!("Results({id})"), &body).await?;
    let read = client
        .get_json(&format!("Results({id})"), &[("$expand", "Answers")])
        .await?;
    admin_result(&read).ok_or_else(|| {
        CommandError::Server("The server's answer did not describe a result.".into())
    })
}

/// What `target` would remove, counted now, in words for the confirmation.
pub async fn purge_plan(
    client: &ODataClient,
    target: PurgeTarget,
) -> Result<PurgePlan, CommandError> {
    let (results, description) = match &target {
        PurgeTarget::Result(id) => {
            let id = key_number("Result", id)?;
            let read = client.get_json(&format!("Results({id})"), &[]).await?;
            let whose = read["ParticipantName"]
                .as_str()
                .unwrap_or("an unnamed participant");
            (
                1,
                format!(
                    "Result {id} of {whose}: its answers, scores, scoring tasks and topic scores."
                ),
            )
        }
        PurgeTarget::Participant(name) => {
            let count = client
                .count(
                    "Results/$count",
                    &format!("ParticipantName eq {}", literal(name)),
                )
                .await?;
            (
                count,
                format!("Every result of {name}: {count} {}.", results_word(count)),
            )
        }
        PurgeTarget::Assessment(id) => {
            let id = int64_key("Assessment", id)?;
            let count = client
                .count("Results/$count", &format!("AssessmentID eq {id}L"))
                .await?;
            let assessment = client
                .get_json(&format!("Assessments({id}L)"), &[("$select", "Name")])
                .await?;
            let name = assessment["Name"].as_str().unwrap_or_default();
            (
                count,
                format!(
                    "Every result of the assessment {name}: {count} {}, whoever took it.",
                    results_word(count)
                ),
            )
        }
        PurgeTarget::ParticipantAndResults(name) => {
            let count = client
                .count(
                    "Results/$count",
                    &format!("ParticipantName eq {}", literal(name)),
                )
                .await?;
            (count, format!(
                "Every result of {name} ({count} {}), and {name} as a participant: their attempts and group memberships.",
                results_word(count)
            ))
        }
        PurgeTarget::RetentionPolicy => {
            let policy = client
                .post("FetchPurgeRetentionPeriodDays", &json!({}))
                .await?;
            let days = policy["value"].as_i64().ok_or_else(|| {
                CommandError::Server("The server did not say its retention period.".into())
            })?;
            let cutoff = (chrono::Utc::now() - chrono::Duration::days(days))
                .format("%Y-%m-%dT%H:%M:%S")
                .to_string();
            let count = client
                .count(
                    "Results/$count",
                    &format!("WhenFinished lt datetime'{cutoff}'"),
                )
                .await?;
            (count, format!(
                "Every result finished more than {days} days ago (before {} UTC), in every assessment: {count} {}.",
                cutoff.replace('T', " "),
                results_word(count)
            ))
        }
    };
    Ok(PurgePlan {
        target,
        results,
        description,
    })
}

fn results_word(count: i64) -> &'static str {
    if count == 1 {
        "result"
    } else {
        "results"
    }
}

/// Asks the server to purge `target`; the audit log entry to follow.
pub async fn purge(client: &ODataClient, target: &PurgeTarget) -> Result<AuditEntry, CommandError> {
    let location = match target {
        PurgeTarget::Result(id) => {
            let id = key_number("Result", id)?;
            client
                .post_action(&format!("Results({id})/Purge"), &json!({}))
                .await?
        }
        PurgeTarget::Participant(name) => {
            client
                .post_action(
                    "Results/PurgeResultsByParticipantName",
                    &json!({ "ParticipantName": name }),
                )
                .await?
        }
        PurgeTarget::Assessment(id) => {
            client
                .post_action(
                    "Results/PurgeResultsByAssessmentId",
                    &json!({ "AssessmentID": int64_key("Assessment", id)? }),
                )
                .await?
        }
        PurgeTarget::ParticipantAndResults(name) => {
            client
                .post_action(
                    "PurgeParticipantAndResultsByParticipantName",
                    &json!({ "ParticipantName": name }),
                )
                .await?
        }
        PurgeTarget::RetentionPolicy => {
            client
                .post_action(
                    "PurgeResultsByRetentionPolicy",
                    &json!({
                        "AdministratorName": client.username,
                        "RunType": "ScoreDesk desktop, on demand",
                    }),
                )
                .await?
        }
    };
    let entry = entry_id(&location).ok_or_else(|| {
        CommandError::Server(format!(
            "The server's Location {location} names no audit log entry."
        ))
    })?;
    audit_entry(client, &entry.to_string()).await
}

/// `…/ResultsAuditLog(17)` → 17.
fn entry_id(location: &str) -> Option<i64> {
    location
        .rsplit_once("ResultsAuditLog(")?
        .1
        .strip_suffix(')')?
        .parse()
        .ok()
}

/// One audit log entry, read now.
pub async fn audit_entry(client: &ODataClient, id: &str) -> Result<AuditEntry, CommandError> {
    let id = key_number("Audit log entry", id)?;
    let read = client
        .get_json(&format!("ResultsAuditLog({id})"), &[])
        .await?;
    audit_of(&read)
        .ok_or_else(|| CommandError::Server(format!("Audit log entry {id} could not be read.")))
}

/// The latest audit log entries, newest first.
pub async fn audit_log(client: &ODataClient) -> Result<Vec<AuditEntry>, CommandError> {
    let feed = client
        .get_json(
            "ResultsAuditLog",
            &[("$orderby", "ID desc"), ("$top", AUDIT_ENTRIES)],
        )
        .await?;
    Ok(feed["value"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(audit_of)
        .collect())
}

fn admin_result(entry: &Value) -> Option<AdminResult> {
    let status = entry["Status"].as_i64();
    Some(AdminResult {
        id: entry["ID"].as_i64()?.to_string(),
        participant: entry["ParticipantName"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        group: entry["GroupName"].as_str().map(str::to_owned),
        status,
        extra_time: entry["ExtraTime"].as_i64(),
        total_score: entry["TotalScore"].as_i64(),
        max_score: entry["MaxScore"].as_i64(),
        band: entry["ScoreBandTitle"].as_str().map(str::to_owned),
        finished: entry["WhenFinished"].as_str().map(str::to_owned),
        to_score: entry["Answers"].as_array().map_or(0, |answers| {
            answers
                .iter()
                .filter(|a| a["ActualScore"].is_null())
                .count() as i64
        }),
        changes: TRANSITIONS
            .iter()
            .filter(|(from, _, _)| status == Some(i64::from(*from)))
            .map(|(_, to, meaning)| StatusChange {
                to: i64::from(*to),
                meaning: (*meaning).to_owned(),
            })
            .collect(),
    })
}

fn audit_of(entry: &Value) -> Option<AuditEntry> {
    Some(AuditEntry {
        id: entry["ID"].as_i64()?.to_string(),
        request_type: entry["RequestType"].as_str().unwrap_or_default().to_owned(),
        request_data: entry["RequestData"].as_str().map(str::to_owned),
        requested: entry["RequestDateTime"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        in_queue: entry["IsInQueue"].as_bool().unwrap_or(false),
        processed: entry["ProcessedDateTime"].as_str().map(str::to_owned),
        successful: entry["WasSuccessful"].as_bool(),
        affected: entry["TotalResultsAffected"].as_i64().unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_offers_the_changes_the_spec_permits_from_its_status() {
        let running =
            admin_result(&json!({"ID": 5, "Status": 1, "ParticipantName": "ali"})).unwrap();
        let meanings: Vec<&str> = running.changes.iter().map(|c| c.meaning.as_str()).collect();
        assert_eq!(meanings, ["pause", "terminate"]);
        let paused = admin_result(&json!({"ID": 5, "Status": 6})).unwrap();
        assert_eq!(
            paused.changes.iter().map(|c| c.to).collect::<Vec<_>>(),
            [1, 7]
        );
        let finished = admin_result(&json!({"ID": 5, "Status": 0})).unwrap();
        assert!(finished.changes.is_empty());
    }

    #[test]
    fn the_answers_without_a_score_are_counted_as_left_to_score() {
        let result = admin_result(&json!({"ID": 5, "Status": 0, "Answers": [
            {"QuestionID": "1", "ActualScore": 2},
            {"QuestionID": "2", "ActualScore": null},
            {"QuestionID": "3", "ActualScore": null},
        ]}))
        .unwrap();
        assert_eq!(result.to_score, 2);
        assert_eq!(admin_result(&json!({"ID": 6})).unwrap().to_score, 0);
    }

    #[test]
    fn the_audit_entry_is_found_in_the_location() {
        assert_eq!(
            entry_id("http://h/deliveryodata/1/ResultsAuditLog(17)"),
            Some(17)
        );
        assert_eq!(entry_id("http://h/deliveryodata/1/Results(17)"), None);
    }
}
