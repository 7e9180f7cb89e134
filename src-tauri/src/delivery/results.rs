//! The Results a batch's uploads made: score, band, status, and what is still
//! open for a scorer (the Result's answers without a score: one scoring task each).

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::key_number;

/// Results read per request: a filter of this many `ID eq` terms stays well
/// inside the server's filter limits (4,096 bytes, 32 levels).
const PER_REQUEST: usize = 25;

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BatchResult {
    pub id: String,
    pub total_score: Option<i64>,
    pub max_score: Option<i64>,
    pub band: Option<String>,
    /// The Result's Status (spec, "States").
    pub status: Option<i64>,
    /// The questions whose answers wait for a scorer, in order: each one's
    /// scoring task is `ScoringTasks(QuestionID=…L,ResultID=id)`.
    pub open_questions: Vec<String>,
}

/// The Results with these IDs, with their answers' state; unknown IDs are left out.
pub async fn batch_results(
    client: &ODataClient,
    result_ids: &[String],
) -> Result<Vec<BatchResult>, CommandError> {
    let ids = result_ids
        .iter()
        .map(|id| key_number("Result", id))
        .collect::<Result<Vec<_>, _>>()?;
    let mut results = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(PER_REQUEST) {
        let filter = chunk
            .iter()
            .map(|id| format!("ID eq {id}"))
            .collect::<Vec<_>>()
            .join(" or ");
        let page = client
            .get_all(
                "Results",
                &[
                    ("$filter", &filter),
                    ("$expand", "Answers"),
                    ("$orderby", "ID"),
                ],
                chunk.len(),
            )
            .await?;
        results.extend(page.iter().filter_map(result_of));
    }
    Ok(results)
}

/// The first task of a Result a scorer can take now (open, its question has a
/// rubric), by question number: what "Score" on a batch's row opens.
pub async fn first_scorable_task(
    client: &ODataClient,
    result_id: &str,
) -> Result<Option<String>, CommandError> {
    let filter = format!(
        "ResultID eq {} and {}",
        key_number("Result", result_id)?,
        crate::task_filters::scorable()
    );
    let tasks = client
        .get_json(
            "ScoringTasks",
            &[("$filter", &filter), ("$expand", "Answer")],
        )
        .await?;
    let mut open: Vec<(i64, String)> = tasks["value"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|task| {
            Some((
                task["Answer"]["QuestionNumber"]
                    .as_i64()
                    .unwrap_or_default(),
                task["QuestionID"].as_str()?.to_owned(),
            ))
        })
        .collect();
    open.sort();
    Ok(open.into_iter().next().map(|(_, question)| question))
}

fn result_of(entry: &Value) -> Option<BatchResult> {
    let mut open: Vec<(i64, String)> = entry["Answers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["ActualScore"].is_null())
        .filter_map(|a| {
            Some((
                a["QuestionNumber"].as_i64().unwrap_or_default(),
                a["QuestionID"].as_str()?.to_owned(),
            ))
        })
        .collect();
    open.sort();
    open.dedup_by(|a, b| a.1 == b.1);
    Some(BatchResult {
        id: entry["ID"].as_i64()?.to_string(),
        total_score: entry["TotalScore"].as_i64(),
        max_score: entry["MaxScore"].as_i64(),
        band: entry["ScoreBandTitle"].as_str().map(str::to_owned),
        status: entry["Status"].as_i64(),
        open_questions: open.into_iter().map(|(_, question)| question).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_result_lists_its_unscored_questions_in_order() {
        let entry = json!({
            "ID": 90, "TotalScore": 2, "MaxScore": 15, "ScoreBandTitle": "Not yet", "Status": 0,
            "Answers": [
                {"QuestionID": "104", "QuestionNumber": 4, "ActualScore": null},
                {"QuestionID": "101", "QuestionNumber": 1, "ActualScore": 1},
                {"QuestionID": "103", "QuestionNumber": 3, "ActualScore": null},
            ],
        });
        let result = result_of(&entry).unwrap();
        assert_eq!(result.open_questions, ["103", "104"]);
        assert_eq!(result.band.as_deref(), Some("Not yet"));
        assert_eq!(result.total_score, Some(2));
    }
}
