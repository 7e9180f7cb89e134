//! Regrading after a rubric change (docs/desktop.md, "Content"; the server's
//! `RegradeCount` and `RubricRegrades`, docs/odata.md): once a corrected rubric
//! is saved over one that scores were made with, what would move (the scripts
//! counted, each dimension's old and new range, a map that keeps every score
//! that still fits), then the regrade with the count the author confirmed.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;

/// What a regrade from the old rubric onto the new one would move.
#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RegradePlan {
    pub from_rubric_id: i64,
    pub to_rubric_id: i64,
    /// The ScoringResults made with the old rubric: the count to confirm.
    pub scripts: i64,
    /// Of them, the scored ones, whose Results change with their totals.
    pub scored: i64,
    pub markings: i64,
    pub seeds: i64,
    pub dimensions: Vec<RegradeDimension>,
}

/// A dimension of both rubrics (same Order) and the new score of each old one.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RegradeDimension {
    pub order: i64,
    pub name: String,
    pub old_max: i64,
    pub new_max: i64,
    /// The new score of old score 0, 1, …, `old_max`.
    pub scores: Vec<i64>,
}

/// The regrade the author confirmed.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RegradeRequest {
    pub from_rubric_id: i64,
    pub to_rubric_id: i64,
    pub scripts: i64,
    pub reason: String,
    pub dimensions: Vec<RegradeDimension>,
}

/// What the server's audit entry says was done.
#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RegradeDone {
    pub id: i64,
    pub regraded: i64,
    pub totals_changed: i64,
    pub results_rescored: i64,
    pub score_maps: String,
}

/// Each old score kept where the new dimension still has it, the top ones
/// brought down to the new maximum.
fn kept_where_it_fits(old_max: i64, new_max: i64) -> Vec<i64> {
    (0..=old_max).map(|score| score.min(new_max)).collect()
}

/// (Order, name, MaxScore) of a rubric's dimensions, in order.
async fn dimensions(
    client: &ODataClient,
    rubric: i64,
) -> Result<Vec<(i64, String, i64)>, CommandError> {
    let read = client
        .get_json(&format!("Rubrics({rubric})/Dimensions"), &[])
        .await?;
    let mut dimensions: Vec<(i64, String, i64)> = read["value"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|d| {
                    (
                        d["Order"].as_i64().unwrap_or_default(),
                        d["Name"].as_str().unwrap_or_default().to_owned(),
                        d["MaxScore"].as_i64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    dimensions.sort();
    Ok(dimensions)
}

/// What regrading `from` onto `to` would move, with a map that keeps each score.
pub async fn regrade_plan(
    client: &ODataClient,
    from: i64,
    to: i64,
) -> Result<RegradePlan, CommandError> {
    let counted = client
        .get_json("RegradeCount", &[("RubricID", &from.to_string())])
        .await?;
    let old = dimensions(client, from).await?;
    let new = dimensions(client, to).await?;
    let count = |name: &str| counted[name].as_i64().unwrap_or_default();
    Ok(RegradePlan {
        from_rubric_id: from,
        to_rubric_id: to,
        scripts: count("Scripts"),
        scored: count("Scored"),
        markings: count("Markings"),
        seeds: count("Seeds"),
        // The server maps a dimension onto the one of the same Order; rubrics of
        // other shapes are refused there, naming why.
        dimensions: old
            .iter()
            .zip(&new)
            .map(
                |((order, _, old_max), (_, name, new_max))| RegradeDimension {
                    order: *order,
                    name: name.clone(),
                    old_max: *old_max,
                    new_max: *new_max,
                    scores: kept_where_it_fits(*old_max, *new_max),
                },
            )
            .collect(),
    })
}

/// The body of `POST RubricRegrades`: every dimension's map, identity ones too
/// (the audit entry says "kept" for them).
fn body(request: &RegradeRequest) -> Value {
    json!({
        "FromRubricID": request.from_rubric_id,
        "ToRubricID": request.to_rubric_id,
        "Scripts": request.scripts,
        "Reason": request.reason.trim(),
        "Dimensions": request.dimensions.iter().map(|d| json!({"Order": d.order, "Scores": d.scores})).collect::<Vec<_>>(),
    })
}

/// How often a regrade still running is read again, and for how long at most.
const READ_AGAIN: std::time::Duration = std::time::Duration::from_millis(500);
const LONGEST: std::time::Duration = std::time::Duration::from_secs(3600);

/// Regrades: the server checks the count and the maps (its 409 and 400 name
/// what is wrong). A large regrade is answered while it runs (its entry's
/// `CompletedDateTime` null): the entry is read again until it is done.
pub async fn regrade(
    client: &ODataClient,
    request: &RegradeRequest,
) -> Result<RegradeDone, CommandError> {
    let mut done = client.post("RubricRegrades", &body(request)).await?;
    let started = std::time::Instant::now();
    while done["CompletedDateTime"].is_null() && started.elapsed() < LONGEST {
        tokio::time::sleep(READ_AGAIN).await;
        let id = done["ID"].as_i64().unwrap_or_default();
        done = client
            .get_json(&format!("RubricRegrades({id})"), &[])
            .await?;
    }
    let count = |name: &str| done[name].as_i64().unwrap_or_default();
    Ok(RegradeDone {
        id: count("ID"),
        regraded: count("Regraded"),
        totals_changed: count("TotalsChanged"),
        results_rescored: count("ResultsRescored"),
        score_maps: done["ScoreMaps"].as_str().unwrap_or_default().to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_that_no_longer_fits_comes_down_to_the_new_maximum() {
        assert_eq!(kept_where_it_fits(3, 2), vec![0, 1, 2, 2]);
        assert_eq!(kept_where_it_fits(1, 2), vec![0, 1]);
    }

    #[test]
    fn the_request_is_sent_as_the_servers_regrade_body() {
        let sent = body(&RegradeRequest {
            from_rubric_id: 7,
            to_rubric_id: 9,
            scripts: 12,
            reason: "  Level 3 is worth 2. ".into(),
            dimensions: vec![RegradeDimension {
                order: 1,
                name: "Idea".into(),
                old_max: 3,
                new_max: 2,
                scores: vec![0, 1, 1, 2],
            }],
        });
        assert_eq!(
            sent,
            json!({"FromRubricID": 7, "ToRubricID": 9, "Scripts": 12, "Reason": "Level 3 is worth 2.",
                   "Dimensions": [{"Order": 1, "Scores": [0, 1, 1, 2]}]})
        );
    }
}
