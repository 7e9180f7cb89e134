//! The check scripts themselves (the server's `Seeds`, docs/odata.md "Seeds"): a
//! lead makes one of the scripts he scored a seed, with the reasons it earns its
//! marks, and reads the question's seeds beside the pauses they cause. Only a
//! lead or an administrator reads or makes them (a scorer never learns which
//! scripts are seeds).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use super::feed_rows::{int, rows, text};
use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::key_number;

/// Seeds read at once: the latest.
const SEEDS_SHOWN: &str = "200";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SeedEntry {
    pub id: i32,
    pub question_id: String,
    /// What the question is (its description).
    #[ts(optional = nullable)]
    pub question: Option<String>,
    /// The script it was made from.
    pub result_id: i32,
    /// The definitive total.
    pub score: i32,
    pub reasons: String,
    pub created_by: String,
    pub created: String,
}

/// The area's seeds, newest first (a lead's read; the caller asks only then).
pub async fn check_scripts(client: &ODataClient) -> Result<Vec<SeedEntry>, CommandError> {
    let feed = client
        .get_json(
            "Seeds",
            &[
                ("$orderby", "ID desc"),
                ("$expand", "Question"),
                ("$top", SEEDS_SHOWN),
            ],
        )
        .await?;
    Ok(rows(&feed, seed))
}

/// Makes the scored script (`question_id`, `result_id`) a seed: its dimension
/// scores become the definitive marks. The server refuses a script not at 3 or
/// not scored in every dimension, one that is a seed already, and no reasons,
/// each with its own message.
pub async fn make_seed(
    client: &ODataClient,
    question_id: &str,
    result_id: i32,
    reasons: &str,
) -> Result<(), CommandError> {
    let question = key_number("Question", question_id)?;
    let body = json!({
        "QuestionID": question.to_string(),
        "ResultID": result_id,
        "Reasons": reasons,
    });
    client.post("Seeds", &body).await?;
    Ok(())
}

fn seed(row: &Value) -> Option<SeedEntry> {
    Some(SeedEntry {
        id: int(&row["ID"])?,
        question_id: text(&row["QuestionID"])?,
        question: text(&row["Question"]["Description"]),
        result_id: int(&row["ResultID"])?,
        score: int(&row["Score"])?,
        reasons: text(&row["Reasons"])?,
        created_by: text(&row["CreatedBy"])?,
        created: text(&row["CreatedDateTime"])?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_read_from_the_feed_and_malformed_rows_left_out() {
        let feed = json!({"value": [
            {"ID": 2, "QuestionID": "77", "ResultID": 12, "RubricID": 1, "Score": 7,
             "Reasons": "Every point argued.", "CreatedBy": "lead",
             "CreatedDateTime": "2026-12-04T10:00:00.000",
             "Question": {"Description": "Essay on forces"}},
            {"ID": 1, "QuestionID": "77", "ResultID": 11, "Score": null}
        ]});
        let read = rows(&feed, seed);
        assert_eq!(read.len(), 1, "{read:?}");
        assert_eq!(
            (
                read[0].score,
                read[0].question.as_deref(),
                read[0].result_id
            ),
            (7, Some("Essay on forces"), 12)
        );
    }
}
