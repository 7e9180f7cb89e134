//! A roster file read from this computer and sent whole to `ImportRoster`: a
//! OneRoster export's zip or a plain CSV, previewed first (the server applies it,
//! counts and rolls back), then imported. A OneRoster export kept as a folder is
//! zipped here first, as the server takes one file.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;

/// The server's body limit, less base64's third (as a QTI package's).
const MAX_ROSTER_BYTES: u64 = 24 * 1024 * 1024;

/// What an import did or, previewed, would do (`ScoreDesk.RosterImportReport`).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all(deserialize = "PascalCase", serialize = "camelCase"))]
#[ts(export, rename_all = "camelCase")]
pub struct RosterReport {
    pub preview: bool,
    /// "OneRoster 1.2" or "plain CSV".
    pub format: String,
    pub participants_created: u32,
    pub participants_updated: u32,
    pub participants_unchanged: u32,
    pub groups_created: u32,
    pub groups_updated: u32,
    pub groups_unchanged: u32,
    pub memberships_added: u32,
    pub memberships_removed: u32,
    pub participants_left: u32,
    pub groups_emptied: u32,
    pub not_participants: Vec<NotParticipants>,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all(deserialize = "PascalCase", serialize = "camelCase"))]
#[ts(export, rename_all = "camelCase")]
pub struct NotParticipants {
    pub role: String,
    pub count: u32,
}

/// Sends the roster at `path` (a zip, a CSV, or a OneRoster export's folder) to
/// the server; `preview`: store nothing.
pub async fn import_roster(
    client: &ODataClient,
    path: &str,
    preview: bool,
) -> Result<RosterReport, CommandError> {
    let file = Path::new(path.trim());
    let invalid = |why: String| CommandError::InvalidInput(why);
    let shown = |error: std::io::Error| invalid(format!("{}: {error}", file.display()));
    let bytes = if file.is_dir() {
        zip_folder(file).map_err(shown)?
    } else {
        let size = std::fs::metadata(file).map_err(shown)?.len();
        if size > MAX_ROSTER_BYTES {
            return Err(too_large(file, size));
        }
        std::fs::read(file).map_err(shown)?
    };
    if bytes.len() as u64 > MAX_ROSTER_BYTES {
        return Err(too_large(file, bytes.len() as u64));
    }
    let name = file
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(client
        .post_import("ImportRoster", "Roster", &bytes, &name, preview)
        .await?)
}

fn too_large(file: &Path, size: u64) -> CommandError {
    CommandError::InvalidInput(format!(
        "{} is {size} bytes; the server takes rosters of at most {MAX_ROSTER_BYTES} bytes (import larger ones with scoredesk-server import roster)",
        file.display()
    ))
}

/// A OneRoster export's folder as a zip of its CSV files (the server finds them by
/// name; nothing else of the folder is sent).
fn zip_folder(folder: &Path) -> std::io::Result<Vec<u8>> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut total = 0u64;
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.file_type()?.is_file() || !name.to_ascii_lowercase().ends_with(".csv") {
            continue;
        }
        total += entry.metadata()?.len();
        if total > MAX_ROSTER_BYTES {
            return Err(std::io::Error::other(format!(
                "the export's CSV files come to more than {MAX_ROSTER_BYTES} bytes (import it with scoredesk-server import roster)"
            )));
        }
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .map_err(std::io::Error::other)?;
        zip.write_all(&std::fs::read(entry.path())?)?;
    }
    Ok(zip.finish().map_err(std::io::Error::other)?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_servers_report_is_read_whole() {
        let answer = json!({
            "odata.metadata": "http://x/$metadata#ScoreDesk.RosterImportReport",
            "Preview": true, "Format": "OneRoster 1.2",
            "ParticipantsCreated": 4, "ParticipantsUpdated": 0, "ParticipantsUnchanged": 1,
            "GroupsCreated": 3, "GroupsUpdated": 0, "GroupsUnchanged": 0,
            "MembershipsAdded": 5, "MembershipsRemoved": 0, "ParticipantsLeft": 0, "GroupsEmptied": 0,
            "NotParticipants": [{"Role": "teacher", "Count": 1}]
        });
        let report: RosterReport = serde_json::from_value(answer).unwrap();
        assert_eq!(report.participants_created, 4);
        assert_eq!(report.not_participants[0].role, "teacher");
        let ui = serde_json::to_value(&report).unwrap();
        assert_eq!(ui["membershipsAdded"], 5);
    }

    #[test]
    fn a_folder_is_zipped_with_its_csv_files_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("users.csv"), "sourcedId\n").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not sent").unwrap();
        std::fs::create_dir(dir.path().join("nested")).unwrap();
        let bytes = zip_folder(dir.path()).unwrap();
        let archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let names: Vec<&str> = archive.file_names().collect();
        assert_eq!(names, ["users.csv"]);
    }
}
