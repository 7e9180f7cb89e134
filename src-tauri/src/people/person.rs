//! One participant: their groups, attempts and results, read for the desk's card;
//! and a participant added or changed with their memberships. A change and its
//! memberships go as one `$batch` change set, so they are stored together or not
//! at all; a new participant is created first (the server gives the ID the links
//! need), then joined to their groups.

use std::collections::{BTreeMap, BTreeSet};

use reqwest::Method;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use super::directory::{group_of, person_of, GroupLine, Person};
use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::{key_number, literal};

/// The most attempts and results a card lists, newest first.
const MOST_LISTED: usize = 200;

#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PersonAttempt {
    pub id: String,
    pub external_attempt_id: String,
    pub snapshot: String,
    /// None while the attempt waits for its answers.
    pub result_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PersonResult {
    pub id: String,
    pub assessment: String,
    pub status: i64,
    pub total_score: i64,
    pub max_score: i64,
    pub percentage: i64,
    pub band: String,
    /// ISO 8601, or empty.
    pub finished: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PersonCard {
    pub person: Person,
    pub groups: Vec<GroupLine>,
    pub attempts: Vec<PersonAttempt>,
    pub results: Vec<PersonResult>,
}

/// A participant as the desk's form writes them; `id` none for a new one.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PersonForm {
    pub id: Option<String>,
    pub username: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub group_ids: Vec<String>,
}

/// Participant `id`'s card.
pub async fn person_card(client: &ODataClient, id: &str) -> Result<PersonCard, CommandError> {
    let id = key_number("Participant", id)?;
    let entry = client.get_json(&format!("Participants({id})"), &[]).await?;
    let person = person_of(&entry)
        .ok_or_else(|| CommandError::Server(format!("Participant {id} could not be read.")))?;
    let attempts_filter = format!("ParticipantID eq {id}");
    let results_filter = format!("ParticipantName eq {}", literal(&person.username));
    let groups_path = format!("Participants({id})/Groups");
    let groups_query = [("$select", "ID,Name,Description")];
    let attempts_query = [
        ("$filter", attempts_filter.as_str()),
        ("$orderby", "ID desc"),
    ];
    let results_query = [
        ("$filter", results_filter.as_str()),
        ("$expand", "Assessment"),
        ("$orderby", "ID desc"),
    ];
    let (groups, attempts, results) = futures::try_join!(
        client.get_all(&groups_path, &groups_query, MOST_LISTED),
        client.get_all("Attempts", &attempts_query, MOST_LISTED),
        client.get_all("Results", &results_query, MOST_LISTED),
    )?;
    let mut groups: Vec<GroupLine> = groups.iter().filter_map(group_of).collect();
    groups.sort_by_cached_key(|g| g.name.to_lowercase());
    let snapshots = snapshot_names(client, &attempts).await?;
    Ok(PersonCard {
        person,
        groups,
        attempts: attempts
            .iter()
            .filter_map(|a| attempt_of(a, &snapshots))
            .collect(),
        results: results.iter().filter_map(result_of).collect(),
    })
}

/// The names of the attempts' snapshots (an Attempt has no navigation to its
/// snapshot): one read of those snapshots, by ID.
async fn snapshot_names(
    client: &ODataClient,
    attempts: &[Value],
) -> Result<BTreeMap<i64, String>, CommandError> {
    let ids: BTreeSet<i64> = attempts
        .iter()
        .filter_map(|a| a["AssessmentSnapshotID"].as_i64())
        .collect();
    if ids.is_empty() {
        return Ok(BTreeMap::new());
    }
    let filter = ids
        .iter()
        .map(|id| format!("ID eq {id}"))
        .collect::<Vec<_>>()
        .join(" or ");
    let snapshots = client
        .get_all(
            "AssessmentSnapshots",
            &[("$filter", filter.as_str()), ("$select", "ID,Name")],
            ids.len(),
        )
        .await?;
    Ok(snapshots
        .iter()
        .filter_map(|s| Some((s["ID"].as_i64()?, s["Name"].as_str()?.to_owned())))
        .collect())
}

fn attempt_of(entry: &Value, snapshots: &BTreeMap<i64, String>) -> Option<PersonAttempt> {
    let snapshot = entry["AssessmentSnapshotID"].as_i64();
    Some(PersonAttempt {
        id: entry["ID"].as_i64()?.to_string(),
        external_attempt_id: entry["ExternalAttemptID"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        snapshot: match snapshot {
            Some(id) => snapshots
                .get(&id)
                .cloned()
                .unwrap_or_else(|| format!("snapshot {id}")),
            None => String::new(),
        },
        result_id: entry["ResultID"].as_i64().map(|id| id.to_string()),
    })
}

fn result_of(entry: &Value) -> Option<PersonResult> {
    let number = |property: &str| entry[property].as_i64().unwrap_or(0);
    Some(PersonResult {
        id: entry["ID"].as_i64()?.to_string(),
        assessment: entry["Assessment"]["Name"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        status: number("Status"),
        total_score: number("TotalScore"),
        max_score: number("MaxScore"),
        percentage: number("PercentageScore"),
        band: entry["ScoreBandTitle"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        finished: entry["WhenFinished"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    })
}

/// Adds or changes the participant of `form`, and makes their groups exactly the
/// form's; returns their ID.
pub async fn save_person(client: &ODataClient, form: &PersonForm) -> Result<String, CommandError> {
    let wanted: BTreeSet<i64> = form
        .group_ids
        .iter()
        .map(|id| key_number("Group", id))
        .collect::<Result<_, _>>()?;
    let fields = json!({
        "Name": form.username.trim(),
        "FirstName": form.first_name.trim(),
        "LastName": form.last_name.trim(),
        "PrimaryEmail": form.email.trim(),
    });
    let (id, mut writes, had) = match &form.id {
        Some(id) => {
            let id = key_number("Participant", id)?;
            let had = current_groups(client, id).await?;
            let patch = (Method::PATCH, format!("Participants({id})"), Some(fields));
            (id, vec![patch], had)
        }
        None => {
            let created = client.post("Participants", &fields).await?;
            let id = created["ID"].as_i64().ok_or_else(|| {
                CommandError::Server("The server did not say the new participant's ID.".into())
            })?;
            (id, Vec::new(), BTreeSet::new())
        }
    };
    for group in wanted.difference(&had) {
        writes.push((
            Method::POST,
            format!("Participants({id})/$links/Groups"),
            Some(json!({"url": client.url(&format!("Groups({group})"))})),
        ));
    }
    for group in had.difference(&wanted) {
        writes.push((
            Method::DELETE,
            format!("Participants({id})/$links/Groups({group})"),
            None,
        ));
    }
    if !writes.is_empty() {
        client.writes_as_one(&writes).await?;
    }
    Ok(id.to_string())
}

async fn current_groups(client: &ODataClient, id: i64) -> Result<BTreeSet<i64>, CommandError> {
    let groups = client
        .get_all(
            &format!("Participants({id})/Groups"),
            &[("$select", "ID")],
            usize::MAX,
        )
        .await?;
    Ok(groups.iter().filter_map(|g| g["ID"].as_i64()).collect())
}
