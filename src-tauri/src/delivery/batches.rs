//! Print batches: a group of participants sitting one snapshot. Listed per
//! snapshot with their last upload, and a new one made.

use serde::Serialize;
use serde_json::{json, Value};
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::{int64_key, key_number};

/// How many groups the new batch's group list offers.
const MAX_GROUPS: usize = 1000;
/// How many batches one snapshot lists.
const MAX_BATCHES: usize = 500;

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DeliveryGroup {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PrintBatch {
    pub id: String,
    pub snapshot_id: String,
    pub group_id: String,
    pub group_name: String,
    pub name: String,
    pub created: String,
    /// When an upload last named the batch; none before the first.
    pub last_uploaded: Option<String>,
}

/// The area's groups by name.
pub async fn delivery_groups(client: &ODataClient) -> Result<Vec<DeliveryGroup>, CommandError> {
    let groups = client
        .get_all(
            "Groups",
            &[("$select", "ID,Name"), ("$orderby", "Name")],
            MAX_GROUPS,
        )
        .await?;
    Ok(groups
        .iter()
        .filter_map(|group| {
            Some(DeliveryGroup {
                id: group["ID"].as_i64()?.to_string(),
                name: group["Name"].as_str().unwrap_or_default().to_owned(),
            })
        })
        .collect())
}

/// The batches of one snapshot, newest first, with their group's name.
pub async fn print_batches(
    client: &ODataClient,
    snapshot_id: &str,
) -> Result<Vec<PrintBatch>, CommandError> {
    let filter = format!("SnapshotID eq {}", int64_key("Snapshot", snapshot_id)?);
    let batches = client
        .get_all(
            "PrintBatches",
            &[
                ("$filter", &filter),
                ("$expand", "Group"),
                ("$orderby", "ID desc"),
            ],
            MAX_BATCHES,
        )
        .await?;
    Ok(batches.iter().filter_map(batch_of).collect())
}

/// Makes a batch of `group_id` for the snapshot.
pub async fn create_print_batch(
    client: &ODataClient,
    snapshot_id: &str,
    group_id: &str,
    name: &str,
) -> Result<PrintBatch, CommandError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(CommandError::InvalidInput(
            "Name: give the batch a name, such as the room or the session.".into(),
        ));
    }
    let body = json!({
        "ID": 0,
        "SnapshotID": key_number("Snapshot", snapshot_id)?,
        "GroupID": key_number("Group", group_id)?,
        "Name": name,
    });
    let created = client.post("PrintBatches", &body).await?;
    let id = created["ID"].as_i64().ok_or_else(|| {
        CommandError::Server("The server's answer did not describe a batch.".into())
    })?;
    // Read back with its group's name.
    let read = client
        .get_json(&format!("PrintBatches({id})"), &[("$expand", "Group")])
        .await?;
    batch_of(&read)
        .ok_or_else(|| CommandError::Server("The server's answer did not describe a batch.".into()))
}

/// A batch as the server writes it (integer IDs, its Group expanded).
fn batch_of(entry: &Value) -> Option<PrintBatch> {
    Some(PrintBatch {
        id: entry["ID"].as_i64()?.to_string(),
        snapshot_id: entry["SnapshotID"].as_i64()?.to_string(),
        group_id: entry["GroupID"].as_i64()?.to_string(),
        group_name: entry["Group"]["Name"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        name: entry["Name"].as_str().unwrap_or_default().to_owned(),
        created: entry["CreatedDateTime"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        last_uploaded: entry["LastUploadedDateTime"].as_str().map(str::to_owned),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_read_with_its_group() {
        let entry = json!({
            "ID": 3, "SnapshotID": 17, "GroupID": 2, "Name": "Hall B",
            "CreatedDateTime": "2026-11-24T09:30:00.000", "LastUploadedDateTime": null,
            "Group": {"ID": 2, "Name": "Year 10"},
        });
        let batch = batch_of(&entry).unwrap();
        assert_eq!(batch.id, "3");
        assert_eq!(batch.group_name, "Year 10");
        assert_eq!(batch.last_uploaded, None);
        assert_eq!(batch_of(&json!({"ID": 3})), None);
    }
}
