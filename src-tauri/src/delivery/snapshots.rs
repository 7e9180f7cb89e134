//! Assessments and their snapshots: listed, and a new one taken.

use chrono::{NaiveDate, Utc};
use serde::Serialize;
use serde_json::{json, Value};
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::int64_key;

/// How many assessments the list shows; an area with more is a later issue's.
const MAX_ASSESSMENTS: &str = "500";

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DeliveryAssessment {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Snapshot {
    pub id: String,
    pub assessment_id: String,
    pub name: String,
    /// As the server writes it (`2026-11-24T09:30:00.000`, UTC).
    pub created: String,
    pub expires: Option<String>,
}

/// The area's assessments by name.
pub async fn delivery_assessments(
    client: &ODataClient,
) -> Result<Vec<DeliveryAssessment>, CommandError> {
    let feed = client
        .get_json(
            "Assessments",
            &[
                ("$select", "ID,Name"),
                ("$orderby", "Name"),
                ("$top", MAX_ASSESSMENTS),
            ],
        )
        .await?;
    Ok(entries(&feed)
        .filter_map(|entry| {
            Some(DeliveryAssessment {
                id: entry["ID"].as_str()?.to_owned(),
                name: entry["Name"].as_str().unwrap_or_default().to_owned(),
            })
        })
        .collect())
}

/// The snapshots of one assessment, newest first.
pub async fn snapshots(
    client: &ODataClient,
    assessment_id: &str,
) -> Result<Vec<Snapshot>, CommandError> {
    let id = int64_key("AssessmentID", assessment_id)?;
    let filter = format!("AssessmentID eq {id}L");
    let feed = client
        .get_json(
            "AssessmentSnapshots",
            &[("$filter", &filter), ("$orderby", "ID desc")],
        )
        .await?;
    Ok(entries(&feed).filter_map(snapshot_of).collect())
}

/// Takes a new snapshot of the assessment. `expires` is a day (`YYYY-MM-DD`), the
/// snapshot lasting to its end; none for no expiry.
pub async fn create_snapshot(
    client: &ODataClient,
    assessment_id: &str,
    name: &str,
    expires: Option<&str>,
) -> Result<Snapshot, CommandError> {
    let body = snapshot_body(
        &int64_key("AssessmentID", assessment_id)?,
        name,
        expires,
        Utc::now().date_naive(),
    )?;
    let created = client.post("AssessmentSnapshots", &body).await?;
    snapshot_of(&created).ok_or_else(|| {
        CommandError::Server("The server's answer did not describe a snapshot.".into())
    })
}

/// The POST's body, checked the way a person reads the form: a name, and an
/// expiry that is a date not already past.
fn snapshot_body(
    assessment_id: &str,
    name: &str,
    expires: Option<&str>,
    today: NaiveDate,
) -> Result<Value, CommandError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(CommandError::InvalidInput(
            "Name: give the snapshot a name, such as the sitting it is for.".into(),
        ));
    }
    let mut body = json!({ "AssessmentID": assessment_id, "Name": name });
    if let Some(day) = expires.map(str::trim).filter(|d| !d.is_empty()) {
        let date = NaiveDate::parse_from_str(day, "%Y-%m-%d").map_err(|_| {
            CommandError::InvalidInput(format!("Expires: '{day}' is not a date (YYYY-MM-DD)."))
        })?;
        if date < today {
            return Err(CommandError::InvalidInput(format!(
                "Expires: {day} is already past."
            )));
        }
        body["ExpiresDateTime"] = json!(format!("{date}T23:59:59"));
    }
    Ok(body)
}

fn entries(feed: &Value) -> impl Iterator<Item = &Value> {
    feed["value"].as_array().into_iter().flatten()
}

/// A snapshot as the server writes it: its own ID an integer (a JSON number), its
/// AssessmentID an Int64 (a string).
fn snapshot_of(entry: &Value) -> Option<Snapshot> {
    Some(Snapshot {
        id: entry["ID"].as_i64()?.to_string(),
        assessment_id: entry["AssessmentID"].as_str()?.to_owned(),
        name: entry["Name"].as_str().unwrap_or_default().to_owned(),
        created: entry["CreatedDateTime"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        expires: entry["ExpiresDateTime"].as_str().map(str::to_owned),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 24).unwrap()
    }

    #[test]
    fn a_snapshot_is_read_with_its_integer_id() {
        let entry = json!({
            "ID": 17, "AssessmentID": "4294967301", "Name": "June sitting",
            "CreatedDateTime": "2026-11-24T09:30:00.000", "ExpiresDateTime": null,
        });
        assert_eq!(
            snapshot_of(&entry),
            Some(Snapshot {
                id: "17".into(),
                assessment_id: "4294967301".into(),
                name: "June sitting".into(),
                created: "2026-11-24T09:30:00.000".into(),
                expires: None,
            })
        );
        assert_eq!(snapshot_of(&json!({"ID": "17", "AssessmentID": "1"})), None);
    }

    #[test]
    fn a_snapshot_needs_a_name_and_a_date_not_past() {
        let body = snapshot_body("7", "  June sitting ", Some("2026-11-24"), today()).unwrap();
        assert_eq!(
            body,
            json!({"AssessmentID": "7", "Name": "June sitting", "ExpiresDateTime": "2026-11-24T23:59:59"})
        );
        let body = snapshot_body("7", "June", Some(""), today()).unwrap();
        assert!(body.get("ExpiresDateTime").is_none());
        for (name, expires, says) in [
            ("", None, "Name:"),
            ("June", Some("24/11/2026"), "Expires: '24/11/2026'"),
            ("June", Some("2026-11-23"), "already past"),
        ] {
            let error = snapshot_body("7", name, expires, today()).unwrap_err();
            assert!(error.to_string().contains(says), "{error}");
        }
    }
}
