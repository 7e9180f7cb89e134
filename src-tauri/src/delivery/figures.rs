//! An assessment's figures for coordinators and administrators (docs/desktop.md,
//! "Figures"): how far its marking has got (`ScoringProgress`), its item analysis
//! (`AssessmentStatistics`, then the `ItemStatistics` it stored), and its results
//! saved as a file (`ExportResults`), all through the OData API, so that a remote
//! server serves them the same as the embedded one.

use base64::Engine;
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::int64_key;

#[derive(Debug, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ProgressLine {
    /// "Assessment", "Question", "Group" or "Scorer".
    pub by: String,
    pub name: String,
    pub open: i64,
    pub being_scored: i64,
    pub saved: i64,
    pub scored: i64,
    /// Tasks finished in each of the last hours, the latest first.
    pub scored_by_hour: Vec<i64>,
}

#[derive(Debug, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ItemLine {
    pub position: i64,
    pub question_id: String,
    pub max_score: i64,
    pub facility: f64,
    pub discrimination: Option<f64>,
    pub flags: Vec<String>,
}

#[derive(Debug, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Figures {
    pub progress: Vec<ProgressLine>,
    /// Final results counted, and those left out (still to score, not finished).
    pub n: i64,
    pub left_out: i64,
    pub mean: Option<f64>,
    pub standard_deviation: Option<f64>,
    pub alpha: Option<f64>,
    /// Every question scored 0 or 1: alpha is KR-20.
    pub dichotomous: bool,
    pub standard_error_of_measurement: Option<f64>,
    /// How many final results have each total, from 0 to the maximum.
    pub distribution: Vec<i64>,
    pub items: Vec<ItemLine>,
}

fn int(value: &Value) -> i64 {
    value.as_i64().unwrap_or_default()
}

/// The assessment's progress and item analysis, computed now.
pub async fn assessment_figures(
    client: &ODataClient,
    assessment_id: &str,
) -> Result<Figures, CommandError> {
    let id = format!("{}L", int64_key("Assessment", assessment_id)?);
    let progress = client
        .get_json("ScoringProgress", &[("AssessmentID", &id)])
        .await?;
    let test = client
        .get_json("AssessmentStatistics", &[("AssessmentID", &id)])
        .await?;
    let items = client
        .get_json(
            "ItemStatistics",
            &[
                ("$filter", &format!("AssessmentID eq {id}")),
                ("$orderby", "Position"),
            ],
        )
        .await?;
    Ok(Figures {
        progress: progress["value"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|row| ProgressLine {
                by: row["By"].as_str().unwrap_or_default().to_owned(),
                name: row["Name"].as_str().unwrap_or_default().to_owned(),
                open: int(&row["Open"]),
                being_scored: int(&row["BeingScored"]),
                saved: int(&row["Saved"]),
                scored: int(&row["Scored"]),
                scored_by_hour: row["ScoredByHour"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(int)
                    .collect(),
            })
            .collect(),
        n: int(&test["N"]),
        left_out: int(&test["LeftOut"]),
        mean: test["Mean"].as_f64(),
        standard_deviation: test["StandardDeviation"].as_f64(),
        alpha: test["Alpha"].as_f64(),
        dichotomous: test["Dichotomous"].as_bool().unwrap_or_default(),
        standard_error_of_measurement: test["StandardErrorOfMeasurement"].as_f64(),
        distribution: test["Distribution"]
            .as_array()
            .into_iter()
            .flatten()
            .map(int)
            .collect(),
        items: items["value"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|item| ItemLine {
                position: int(&item["Position"]),
                question_id: item["QuestionID"].as_str().unwrap_or_default().to_owned(),
                max_score: int(&item["MaxScore"]),
                facility: item["Facility"].as_f64().unwrap_or_default(),
                discrimination: item["Discrimination"].as_f64(),
                flags: item["Flags"]
                    .as_str()
                    .unwrap_or_default()
                    .split(',')
                    .filter(|flag| !flag.is_empty())
                    .map(str::to_owned)
                    .collect(),
            })
            .collect(),
    })
}

/// The formats a coordinator saves results in, and their files' extensions.
pub const EXPORT_FORMATS: [(&str, &str); 3] =
    [("csv", "csv"), ("xlsx", "xlsx"), ("oneroster", "zip")];

/// Saves the assessment's results in `format` at `path`, whole or not at all (a
/// file beside it, renamed over it once written).
pub async fn save_results(
    client: &ODataClient,
    assessment_id: &str,
    format: &str,
    path: &std::path::Path,
) -> Result<(), CommandError> {
    if !EXPORT_FORMATS.iter().any(|(name, _)| *name == format) {
        return Err(CommandError::InvalidInput(format!(
            "'{format}' is not a format: csv, xlsx or oneroster."
        )));
    }
    let id = format!("{}L", int64_key("Assessment", assessment_id)?);
    let answer = client
        .get_json(
            "ExportResults",
            &[("AssessmentID", &id), ("Format", &format!("'{format}'"))],
        )
        .await?;
    let bytes = answer["value"]
        .as_str()
        .and_then(|text| base64::engine::general_purpose::STANDARD.decode(text).ok())
        .ok_or_else(|| CommandError::Server("The server's export was not a file.".into()))?;
    let partial = path.with_extension("part");
    let written = std::fs::write(&partial, &bytes).and_then(|()| std::fs::rename(&partial, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&partial);
        CommandError::InvalidInput(format!("Could not write {}: {e}", path.display()))
    })
}
