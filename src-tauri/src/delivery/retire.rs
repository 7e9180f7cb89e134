//! Renaming, and deleting while nothing uses it, an assessment, a snapshot or a
//! print batch made by mistake (issue 33). The server decides what is in use and says so (409); the
//! app only checks the name a person typed.

use serde::Deserialize;
use serde_json::json;
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::key_number;

/// What a coordinator made that can be renamed or deleted.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum Made {
    Assessment,
    Snapshot,
    PrintBatch,
}

impl Made {
    fn path(self, id: &str) -> Result<String, CommandError> {
        Ok(match self {
            Made::Assessment => format!("Assessments({}L)", key_number("AssessmentID", id)?),
            Made::Snapshot => format!("AssessmentSnapshots({})", key_number("SnapshotID", id)?),
            Made::PrintBatch => format!("PrintBatches({})", key_number("BatchID", id)?),
        })
    }
}

/// Gives `made` a new name (trimmed, not empty).
pub async fn rename(
    client: &ODataClient,
    made: Made,
    id: &str,
    name: &str,
) -> Result<(), CommandError> {
    let path = made.path(id)?;
    let name = checked_name(name)?;
    client.patch(&path, &json!({ "Name": name })).await?;
    Ok(())
}

/// Deletes `made`; the server refuses one in use, saying what uses it.
pub async fn delete(client: &ODataClient, made: Made, id: &str) -> Result<(), CommandError> {
    client.delete(&made.path(id)?).await?;
    Ok(())
}

fn checked_name(name: &str) -> Result<&str, CommandError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(CommandError::InvalidInput(
            "Name: a name cannot be empty; type the new name.".into(),
        ));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_names_are_checked_before_any_request() {
        assert_eq!(
            Made::Snapshot.path("12").unwrap(),
            "AssessmentSnapshots(12)"
        );
        assert_eq!(Made::PrintBatch.path("3").unwrap(), "PrintBatches(3)");
        assert_eq!(
            Made::Assessment.path("2185231530100000").unwrap(),
            "Assessments(2185231530100000L)"
        );
        assert!(Made::PrintBatch.path("3) or (1").is_err());
        assert_eq!(checked_name("  Hall B  ").unwrap(), "Hall B");
        assert!(checked_name("   ").is_err());
    }
}
