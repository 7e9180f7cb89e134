//! A QTI package read from this computer and sent to `ImportQtiPackage`, whole, as
//! the server reads it: previewed first (the server rolls its transaction back),
//! then imported. The report is the server's, in the UI's words.

use std::path::Path;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;

/// The server's body limit (`max_body_bytes`), less base64's third: a larger
/// package is refused here, without sending it.
const MAX_PACKAGE_BYTES: u64 = 24 * 1024 * 1024;

/// What an import did or, previewed, would do (the server's
/// `ScoreDesk.ContentImportReport`).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all(deserialize = "PascalCase", serialize = "camelCase"))]
#[ts(export, rename_all = "camelCase")]
pub struct PackageReport {
    pub preview: bool,
    pub qti_version: String,
    pub assessment_id: String,
    pub assessment_name: String,
    /// "created", "updated" or "unchanged".
    pub assessment: String,
    pub questions: Vec<ReportQuestion>,
    pub skipped: Vec<ReportSkipped>,
    pub images: i64,
    pub topics_created: i64,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all(deserialize = "PascalCase", serialize = "camelCase"))]
#[ts(export, rename_all = "camelCase")]
pub struct ReportQuestion {
    pub position: i64,
    pub item: String,
    pub title: String,
    /// What it asks, in words.
    pub text: String,
    pub question_id: String,
    /// "created", "unchanged" or "revised".
    pub outcome: String,
    pub revision: i64,
    pub question_type: String,
    pub max_score: i64,
    pub choices: i64,
    pub scoring: String,
    /// A text entry's accepted answers, in words.
    #[serde(default)]
    pub keys: Vec<String>,
    /// The keys are numbers.
    #[serde(default)]
    pub numeric_keys: bool,
    /// A matching's parts (rows, positions, gaps); its keys are then its pairs.
    #[serde(default)]
    pub parts: Vec<String>,
    /// How many of a fill-in-the-blanks question's blanks are picked from lists.
    #[serde(default)]
    pub picked_blanks: i64,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all(deserialize = "PascalCase", serialize = "camelCase"))]
#[ts(export, rename_all = "camelCase")]
pub struct ReportSkipped {
    pub item: String,
    pub file: String,
    pub reason: String,
}

/// Sends the package at `path` to the server; `preview`: store nothing.
pub async fn import_package(
    client: &ODataClient,
    path: &str,
    preview: bool,
) -> Result<PackageReport, CommandError> {
    let file = Path::new(path.trim());
    let invalid = |why: String| CommandError::InvalidInput(why);
    let size = std::fs::metadata(file)
        .map_err(|error| invalid(format!("{}: {error}", file.display())))?
        .len();
    if size > MAX_PACKAGE_BYTES {
        return Err(invalid(format!(
            "{} is {size} bytes; the server takes packages of at most {MAX_PACKAGE_BYTES} bytes (import larger ones with scoredesk-server import qti)",
            file.display()
        )));
    }
    let bytes =
        std::fs::read(file).map_err(|error| invalid(format!("{}: {error}", file.display())))?;
    let name = file
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(client
        .post_import("ImportQtiPackage", "Package", &bytes, &name, preview)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_servers_report_is_read_whole() {
        let answer = json!({
            "odata.metadata": "http://x/$metadata#ScoreDesk.ContentImportReport",
            "Preview": true, "QtiVersion": "2.x", "AssessmentId": "501",
            "AssessmentName": "Biology", "Assessment": "created",
            "Questions": [{"Position": 1, "Item": "q1", "File": "q1.xml", "Title": "Cells", "Text": "Explain osmosis.",
                "QuestionId": "500", "Outcome": "created", "Revision": 1, "PreviousQuestionId": null,
                "QuestionType": "essay", "MaxScore": 4, "Choices": 0, "Scoring": "scorer",
                "Keys": [], "NumericKeys": false, "Topic": null, "Notes": []}],
            "Skipped": [{"Item": "q2", "File": "q2.xml", "Reason": "<matchInteraction> is not imported"}],
            "ScoreBands": [], "Images": 2, "TopicsCreated": 0, "Notes": []
        });
        let report: PackageReport = serde_json::from_value(answer).unwrap();
        assert_eq!(report.questions[0].question_type, "essay");
        assert_eq!(
            report.skipped[0].reason,
            "<matchInteraction> is not imported"
        );
        let ui = serde_json::to_value(&report).unwrap();
        assert_eq!(ui["assessmentName"], "Biology");
    }
}
