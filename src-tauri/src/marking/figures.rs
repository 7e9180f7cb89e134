//! The lead marker's figures (docs/desktop.md, "Markers"): for one question,
//! each marker's scripts, pace, mean against the others', drift and agreement
//! with second markings and with the check scripts' definitive marks
//! (`MarkerStatistics`), and his marks twenty scripts at a
//! time (`MarkerDrift`), both computed by the server; the questions to choose
//! from are those with a rubric.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;
use crate::literals::int64_key;
use crate::reading::questions_with_rubric;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FiguresQuestion {
    pub question_id: String,
    pub name: String,
}

/// One line of the figures: the question's (no marker) or a marker's.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MarkerLine {
    #[ts(optional = nullable)]
    pub marker: Option<String>,
    pub scripts: i64,
    #[ts(optional = nullable)]
    pub mean: Option<f64>,
    #[ts(optional = nullable)]
    pub spread: Option<f64>,
    /// His mean less everyone else's, and that over its standard error.
    #[ts(optional = nullable)]
    pub mean_difference: Option<f64>,
    #[ts(optional = nullable)]
    pub mean_difference_z: Option<f64>,
    #[ts(optional = nullable)]
    pub median_seconds: Option<f64>,
    #[ts(optional = nullable)]
    pub scripts_per_hour: Option<f64>,
    /// Marks per 100 scripts as he goes.
    #[ts(optional = nullable)]
    pub drift_per_hundred: Option<f64>,
    #[ts(optional = nullable)]
    pub last_marked: Option<String>,
    /// Double-marked scripts, and how far the two markings agree.
    pub pairs: i64,
    #[ts(optional = nullable)]
    pub exact: Option<f64>,
    #[ts(optional = nullable)]
    pub within_one: Option<f64>,
    #[ts(optional = nullable)]
    pub kappa: Option<f64>,
    #[ts(optional = nullable)]
    pub icc: Option<f64>,
    /// Check scripts (seeds) he scored, and how far from their definitive marks:
    /// the mean signed (below 0 he marks under them) and unsigned, the share
    /// exact, and the drift of his deviation per 10 seeds.
    pub seeds: i64,
    #[ts(optional = nullable)]
    pub seed_mean_deviation: Option<f64>,
    #[ts(optional = nullable)]
    pub seed_mean_absolute: Option<f64>,
    #[ts(optional = nullable)]
    pub seed_exact: Option<f64>,
    #[ts(optional = nullable)]
    pub seed_drift_per_ten: Option<f64>,
}

/// Twenty of a marker's scripts (fewer in his last window), in his order.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DriftPoint {
    pub marker: String,
    pub window: i64,
    pub scripts: i64,
    /// The window's mean less the question's.
    pub mean_difference: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MarkerFigures {
    pub question: MarkerLine,
    /// By name.
    pub markers: Vec<MarkerLine>,
    pub drift: Vec<DriftPoint>,
}

/// Whether the server serves this account the markers' figures: it decides on
/// the function before it looks for the question, so a question nobody has is
/// "not found" to an account that may, and "forbidden" to one that may not.
pub async fn figures_access(client: &ODataClient) -> Result<bool, CommandError> {
    match client
        .get_json("MarkerStatistics", &[("QuestionID", "0L")])
        .await
    {
        Err(RequestFailure::Forbidden(_)) => Ok(false),
        Ok(_) | Err(RequestFailure::Failed(_)) => Ok(true),
        Err(other) => Err(other.into()),
    }
}

/// The questions a marker marks, by name.
pub async fn figures_questions(client: &ODataClient) -> Result<Vec<FiguresQuestion>, CommandError> {
    let mut questions: Vec<FiguresQuestion> = questions_with_rubric(client)
        .await?
        .into_iter()
        .map(|(question_id, name)| FiguresQuestion { question_id, name })
        .collect();
    questions.sort_by(|a, b| {
        a.name
            .cmp(&b.name)
            .then_with(|| a.question_id.cmp(&b.question_id))
    });
    Ok(questions)
}

/// The question's figures and each marker's.
pub async fn marker_figures(
    client: &ODataClient,
    question_id: &str,
) -> Result<MarkerFigures, CommandError> {
    let id = format!("{}L", int64_key("Question", question_id)?);
    let query = [("QuestionID", id.as_str())];
    let (statistics, drift) = futures::join!(
        client.get_json("MarkerStatistics", &query),
        client.get_json("MarkerDrift", &query),
    );
    figures_of(&statistics?, &drift?)
}

fn rows(feed: &Value) -> Vec<Value> {
    feed["value"].as_array().cloned().unwrap_or_default()
}

fn line_of(row: &Value) -> MarkerLine {
    let number = |field: &str| row[field].as_f64();
    MarkerLine {
        marker: row["Marker"].as_str().map(str::to_owned),
        scripts: row["Scripts"].as_i64().unwrap_or_default(),
        mean: number("MeanScore"),
        spread: number("ScoreSpread"),
        mean_difference: number("MeanDifference"),
        mean_difference_z: number("MeanDifferenceZ"),
        median_seconds: number("MedianSecondsPerScript"),
        scripts_per_hour: number("ScriptsPerHour"),
        drift_per_hundred: number("DriftPerHundred"),
        last_marked: row["LastMarkedDateTime"].as_str().map(str::to_owned),
        pairs: row["Pairs"].as_i64().unwrap_or_default(),
        exact: number("ExactAgreement"),
        within_one: number("WithinOneAgreement"),
        kappa: number("QuadraticKappa"),
        icc: number("Icc"),
        seeds: row["SeedsMarked"].as_i64().unwrap_or_default(),
        seed_mean_deviation: number("SeedMeanDeviation"),
        seed_mean_absolute: number("SeedMeanAbsoluteDeviation"),
        seed_exact: number("SeedExactAgreement"),
        seed_drift_per_ten: number("SeedDriftPerTen"),
    }
}

/// The figures from the two functions' answers; the question's row comes first.
fn figures_of(statistics: &Value, drift: &Value) -> Result<MarkerFigures, CommandError> {
    let statistics = rows(statistics);
    let mut lines = statistics.iter().map(line_of);
    let question = lines
        .next()
        .filter(|line| line.marker.is_none())
        .ok_or_else(|| {
            CommandError::Server("The server's figures have no line for the question.".into())
        })?;
    let drift = rows(drift)
        .iter()
        .filter_map(|row| {
            Some(DriftPoint {
                marker: row["Marker"].as_str()?.to_owned(),
                window: row["Window"].as_i64()?,
                scripts: row["Scripts"].as_i64()?,
                mean_difference: row["MeanDifference"].as_f64()?,
            })
        })
        .collect();
    Ok(MarkerFigures {
        question,
        markers: lines.collect(),
        drift,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_question_comes_first_then_each_marker_and_his_windows() {
        let statistics = json!({ "value": [
            { "By": "question", "Marker": null, "Scripts": 8, "MeanScore": 4.5, "Pairs": 1 },
            { "By": "marker", "Marker": "ann", "Scripts": 4, "MeanScore": 5.0,
              "MeanDifferenceZ": 7.0, "DriftPerHundred": -10.0, "Pairs": 1, "ExactAgreement": 0.0,
              "SeedsMarked": 2, "SeedMeanDeviation": -1.5, "SeedMeanAbsoluteDeviation": 1.5,
              "SeedExactAgreement": 0.0, "SeedDriftPerTen": null },
        ]});
        let drift = json!({ "value": [
            { "Marker": "ann", "Window": 1, "Scripts": 4, "MeanDifference": 0.5 },
            { "Marker": "ann", "Window": 2, "Scripts": 1, "MeanDifference": null },
        ]});
        let figures = figures_of(&statistics, &drift).unwrap();
        assert_eq!(
            (figures.question.scripts, figures.question.marker),
            (8, None)
        );
        assert_eq!(figures.markers.len(), 1);
        let ann = &figures.markers[0];
        assert_eq!(ann.marker.as_deref(), Some("ann"));
        assert_eq!(
            (ann.mean_difference_z, ann.drift_per_hundred),
            (Some(7.0), Some(-10.0))
        );
        assert_eq!((ann.exact, ann.kappa), (Some(0.0), None));
        assert_eq!(
            (ann.seeds, ann.seed_mean_deviation, ann.seed_drift_per_ten),
            (2, Some(-1.5), None)
        );
        assert_eq!(
            (figures.question.seeds, figures.question.seed_exact),
            (0, None)
        );
        // A window without a number is not drawn.
        assert_eq!(figures.drift.len(), 1);
        assert_eq!(figures.drift[0].mean_difference, 0.5);
    }

    #[test]
    fn figures_without_the_questions_line_are_refused() {
        let statistics = json!({ "value": [ { "By": "marker", "Marker": "ann", "Scripts": 1 } ] });
        assert!(figures_of(&statistics, &json!({ "value": [] })).is_err());
        assert!(figures_of(&json!({}), &json!({})).is_err());
    }
}
