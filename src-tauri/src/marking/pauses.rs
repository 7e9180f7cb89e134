//! Markers paused by their check scripts (the server's `MarkerPauses`,
//! `MarkerReleases` and `SeedMarkings`, docs/odata.md "Seeds"), read beside the
//! flags on the lead's desk: the open pauses, which a lead releases with a note,
//! and how the latest seeds were marked. A scorer reads only his own pauses and
//! no seed markings (the server answers 403), so his desk tells him why a
//! question's tasks are gone and never which scripts were seeds.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use super::feed_rows::{int, rows, text};
use super::seeds::{check_scripts, SeedEntry};
use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;

/// Seed markings shown: the latest.
const SEED_MARKINGS_SHOWN: &str = "50";
/// Open pauses read at once.
const PAUSES_SHOWN: &str = "200";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PauseEntry {
    pub id: i32,
    pub question_id: String,
    #[ts(optional = nullable)]
    pub question: Option<String>,
    pub marker: String,
    pub seeds_counted: i32,
    pub mean_deviation: f64,
    pub tolerance: i32,
    /// What the marker is told.
    pub message: String,
    pub paused: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SeedMarkingEntry {
    /// The copy's result: the task the marker was served.
    pub result_id: i32,
    pub seed_id: i32,
    pub question_id: String,
    /// What the question is (its description).
    #[ts(optional = nullable)]
    pub question: Option<String>,
    pub marker: String,
    pub served: String,
    /// His total, once he scored it.
    #[ts(optional = nullable)]
    pub score: Option<i32>,
    /// His total less the definitive one.
    #[ts(optional = nullable)]
    pub deviation: Option<i32>,
    /// The definitive total.
    #[ts(optional = nullable)]
    pub definitive: Option<i32>,
}

/// What the desk shows of the seeds: open pauses (a scorer's own), the latest
/// seed markings and the seeds themselves (a lead's only), and whether this
/// account releases.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SeedsDesk {
    pub pauses: Vec<PauseEntry>,
    pub seed_markings: Vec<SeedMarkingEntry>,
    /// The check scripts, newest first.
    pub seeds: Vec<SeedEntry>,
    /// Whether this account may read seed markings and release pauses (a lead
    /// marker or an administrator).
    pub may_release: bool,
}

/// The open pauses this account may read and, for a lead, the latest seed
/// markings.
pub async fn seeds_desk(client: &ODataClient) -> Result<SeedsDesk, CommandError> {
    let pauses = client
        .get_json(
            "MarkerPauses",
            &[
                ("$filter", "IsOpen eq true"),
                ("$orderby", "ID"),
                ("$expand", "Question"),
                ("$top", PAUSES_SHOWN),
            ],
        )
        .await?;
    let markings = client
        .get_json(
            "SeedMarkings",
            &[
                ("$orderby", "ServedDateTime desc,ResultID desc"),
                ("$expand", "Seed/Question"),
                ("$top", SEED_MARKINGS_SHOWN),
            ],
        )
        .await;
    let (seed_markings, may_release) = match markings {
        Ok(feed) => (rows(&feed, seed_marking), true),
        Err(RequestFailure::Forbidden(_)) => (Vec::new(), false),
        Err(other) => return Err(other.into()),
    };
    let seeds = if may_release {
        check_scripts(client).await?
    } else {
        Vec::new()
    };
    Ok(SeedsDesk {
        pauses: rows(&pauses, pause),
        seed_markings,
        seeds,
        may_release,
    })
}

/// Releases pause `id` with the note the marker reads.
pub async fn release_pause(client: &ODataClient, id: i32, note: &str) -> Result<(), CommandError> {
    client
        .post("MarkerReleases", &json!({ "PauseID": id, "Note": note }))
        .await?;
    Ok(())
}

fn pause(row: &Value) -> Option<PauseEntry> {
    Some(PauseEntry {
        id: int(&row["ID"])?,
        question_id: text(&row["QuestionID"])?,
        question: text(&row["Question"]["Description"]),
        marker: text(&row["Marker"])?,
        seeds_counted: int(&row["SeedsCounted"])?,
        mean_deviation: row["MeanDeviation"].as_f64()?,
        tolerance: int(&row["Tolerance"])?,
        message: text(&row["Message"])?,
        paused: text(&row["PausedDateTime"])?,
    })
}

fn seed_marking(row: &Value) -> Option<SeedMarkingEntry> {
    Some(SeedMarkingEntry {
        result_id: int(&row["ResultID"])?,
        seed_id: int(&row["SeedID"])?,
        question_id: text(&row["QuestionID"])?,
        question: text(&row["Seed"]["Question"]["Description"]),
        marker: text(&row["Marker"])?,
        served: text(&row["ServedDateTime"])?,
        score: int(&row["Score"]),
        deviation: int(&row["Deviation"]),
        definitive: int(&row["Seed"]["Score"]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_and_seed_markings_are_read_from_the_feeds() {
        let pauses = json!({"value": [
            {"ID": 3, "QuestionID": "77", "Marker": "ann", "SeedsCounted": 2,
             "MeanDeviation": 1.5, "Tolerance": 1, "Message": "you are paused",
             "PausedDateTime": "2026-12-04T10:00:00.000", "IsOpen": true,
             "Question": {"Description": "Essay on forces"}},
            {"ID": "not a pause"}
        ]});
        let read = rows(&pauses, pause);
        assert_eq!(read.len(), 1, "the malformed row is left out");
        assert_eq!(read[0].question.as_deref(), Some("Essay on forces"));
        assert_eq!(read[0].mean_deviation, 1.5);
        let markings = json!({"value": [
            {"ResultID": 240, "SeedID": 1, "QuestionID": "77", "Marker": "ann",
             "ServedDateTime": "2026-12-04T09:00:00.000", "Score": 5, "Deviation": -2,
             "Seed": {"Score": 7, "Question": {"Description": "Essay on forces"}}},
            {"ResultID": 241, "SeedID": 1, "QuestionID": "77", "Marker": "bob",
             "ServedDateTime": "2026-12-04T09:01:00.000", "Score": null, "Deviation": null,
             "Seed": {"Score": 7}}
        ]});
        let read = rows(&markings, seed_marking);
        assert_eq!(
            (read[0].deviation, read[0].definitive, read[1].score),
            (Some(-2), Some(7), None)
        );
        assert_eq!(
            (read[0].question.as_deref(), read[1].question.as_deref()),
            (Some("Essay on forces"), None)
        );
    }
}
