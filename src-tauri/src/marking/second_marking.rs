//! One second marking (or resolution) on the desktop: taking the round a task
//! waits in, everything the marker reads (the question, the answer, the rubric as
//! it stands, and the earlier markings this account may read: none for a scorer,
//! who marks blind; both for a lead marker resolving), keeping the scores for
//! later, submitting them, or giving the round back. Scores and comments go to the
//! server in one `$batch` change set with the marking, so a keep never leaves half
//! its dimensions behind, and the server refuses a submission with any unscored.

use reqwest::Method;
use scoredesk_server::model::marking_rounds::THIRD_ROUND;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;
use crate::literals::{int64_key, key_number};
use crate::reading::{levels_of, read_material, AnswerView, DimensionView, PreparedScans};

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MarkingView {
    pub marking_id: i32,
    /// 2 a second marking, 3 a resolution.
    pub round: i32,
    pub question_id: String,
    pub result_id: i32,
    pub participant: Option<String>,
    pub group_name: Option<String>,
    pub question: Option<String>,
    pub max_score: Option<i64>,
    /// The question's markup, sanitised: safe to insert as HTML.
    pub markup_html: String,
    pub answer: AnswerView,
    pub rubric_name: Option<String>,
    pub instructions: Option<String>,
    /// The rubric's dimensions by order, with this marking's scores and comments.
    pub dimensions: Vec<DimensionView>,
    pub comments: Option<String>,
    /// The marking's ModifiedDateTime as read: what keeping or submitting sends back.
    pub modified: Value,
    /// The task's submitted markings this account may read, by round.
    pub earlier: Vec<EarlierMarking>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct EarlierMarking {
    pub round: i32,
    pub marked_by: String,
    pub score: Option<i64>,
    pub comments: Option<String>,
    /// Each dimension's score and comment, by order.
    pub scores: Vec<EarlierScore>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct EarlierScore {
    pub order: i64,
    pub score: Option<i64>,
    pub comment: Option<String>,
}

/// The marker's version of a marking, as the UI sends it.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MarkingDraft {
    pub marking_id: i32,
    pub modified: Value,
    pub comments: Option<String>,
    pub dimensions: Vec<MarkingScoreDraft>,
}

/// One dimension of a marking as the marker left it.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MarkingScoreDraft {
    pub order: i64,
    pub score: Option<i64>,
    pub comment: Option<String>,
}

/// What a submission came to.
#[derive(Debug, Serialize, TS)]
#[serde(tag = "outcome", rename_all = "camelCase")]
#[ts(export)]
pub enum MarkingOutcome {
    /// Kept for later: the round stays this marker's. `modified` is the marking's
    /// new ModifiedDateTime, for the next save.
    Kept { modified: Value },
    /// The markings agreed (or this was the resolution): the task is scored with
    /// the final mark.
    Final { score: Option<i64> },
    /// The markings are further apart than the plan allows: the script waits for
    /// a resolution, offered to neither marker.
    Resolution,
}

/// Takes the round `question_id`/`result_id` waits in and opens it.
pub async fn take_marking(
    client: &ODataClient,
    scans: &PreparedScans,
    question_id: &str,
    result_id: i32,
) -> Result<MarkingView, CommandError> {
    let question = key_number("Question", question_id)?;
    let body = json!({ "QuestionID": question.to_string(), "ResultID": result_id });
    let created = client.post("Markings", &body).await?;
    let id = created["ID"]
        .as_i64()
        .and_then(|id| i32::try_from(id).ok())
        .ok_or_else(|| CommandError::Server("The new marking has no ID.".into()))?;
    open_marking(client, scans, id).await
}

/// Opens marking `marking_id` (taken by this account) with all the marker reads.
pub async fn open_marking(
    client: &ODataClient,
    scans: &PreparedScans,
    marking_id: i32,
) -> Result<MarkingView, CommandError> {
    let path = format!("Markings({marking_id})");
    let marking = client.get_json(&path, &[("$expand", "Scores")]).await?;
    let missing = |what: &str| CommandError::Server(format!("{path} has no {what}."));
    let question_id = int64_key(
        "Question",
        marking["QuestionID"]
            .as_str()
            .ok_or_else(|| missing("QuestionID"))?,
    )?;
    let result_id = number(&marking["ResultID"]).ok_or_else(|| missing("ResultID"))?;
    let rubric_id = marking["RubricID"]
        .as_i64()
        .ok_or_else(|| missing("RubricID"))?;
    let round = number(&marking["Round"]).ok_or_else(|| missing("Round"))?;
    let rubric_filter = format!("RubricID eq {rubric_id}");
    let earlier_filter =
        format!("QuestionID eq {question_id}L and ResultID eq {result_id} and IsSubmitted eq true");
    let rubric_path = format!("Questions({question_id}L)/Rubric({rubric_id})");
    let by_rubric = [("$filter", rubric_filter.as_str())];
    let earlier_query = [
        ("$filter", earlier_filter.as_str()),
        ("$expand", "Scores"),
        ("$orderby", "Round"),
    ];
    let (material, rubric, dimensions, levels, earlier) = futures::join!(
        read_material(client, scans, &question_id, result_id),
        client.get_json(&rubric_path, &[]),
        client.get_json("Dimensions", &by_rubric),
        client.get_json("DimensionLevels", &by_rubric),
        client.get_json("Markings", &earlier_query),
    );
    let material = material?;
    let rubric = rubric?;
    // A server without DimensionLevels (not ours): no levels beside the keys.
    let levels = levels.unwrap_or_default();
    Ok(MarkingView {
        marking_id,
        round,
        question_id,
        result_id,
        participant: material.participant,
        group_name: material.group_name,
        question: material.question,
        max_score: material.max_score,
        markup_html: material.markup_html,
        answer: material.answer,
        rubric_name: text(&rubric["Name"]),
        instructions: text(&rubric["Instructions"]),
        dimensions: dimensions_of(&dimensions?, &marking["Scores"], &levels),
        comments: text(&marking["Comments"]),
        modified: marking["ModifiedDateTime"].clone(),
        // Only a resolution shows the markings before it: a second marker is blind to
        // the first whatever his role (a lead marker's account reads every marking).
        earlier: if round == THIRD_ROUND {
            rows(&earlier?)
                .iter()
                .filter(|row| number(&row["ID"]) != Some(marking_id))
                .filter_map(earlier_marking)
                .collect()
        } else {
            Vec::new()
        },
    })
}

/// Writes the draft's scores and comments, and submits the marking if `submit`.
///
/// The marking's token covers its scores (each score PUT gives the marking a new
/// ModifiedDateTime), so the change set checks it first, on the marking, then
/// writes the scores; a submission is then its own PUT under the token that change
/// set left. Were that PUT refused, the scores are on the server and submitting
/// again sends it again.
pub async fn save_marking(
    client: &ODataClient,
    draft: &MarkingDraft,
    submit: bool,
) -> Result<MarkingOutcome, CommandError> {
    let path = format!("Markings({})", draft.marking_id);
    // Sent back whole as read, with the marker's changes (the server refuses a
    // change to anything else).
    let mut marking = client.get_json(&path, &[]).await?;
    let task_path = format!(
        "ScoringTasks(QuestionID={}L,ResultID={})",
        int64_key(
            "Question",
            marking["QuestionID"].as_str().unwrap_or_default()
        )?,
        marking["ResultID"]
    );
    marking["Comments"] = json!(draft.comments);
    marking["IsSubmitted"] = json!(false);
    marking["ModifiedDateTime"] = draft.modified.clone();
    let mut writes: Vec<(Method, String, Option<Value>)> =
        vec![(Method::PUT, path.clone(), Some(marking))];
    writes.extend(draft.dimensions.iter().map(|dimension| {
        let score_path = format!(
            "MarkingScores(MarkingID={},Order={})",
            draft.marking_id, dimension.order
        );
        let body = json!({
            "MarkingID": draft.marking_id,
            "Order": dimension.order,
            "Score": dimension.score,
            "Comment": dimension.comment,
        });
        (Method::PUT, score_path, Some(body))
    }));
    match client.writes_as_one(&writes).await {
        Ok(()) => {}
        Err(RequestFailure::Stale(_)) => {
            return Err(CommandError::Server(
                "This marking was changed on another computer since it was opened: open it again."
                    .into(),
            ))
        }
        Err(other) => return Err(other.into()),
    }
    let mut kept = client.get_json(&path, &[]).await?;
    if !submit {
        return Ok(MarkingOutcome::Kept {
            modified: kept["ModifiedDateTime"].clone(),
        });
    }
    kept["IsSubmitted"] = json!(true);
    client.put(&path, &kept).await?;
    let task = client
        .get_json(&task_path, &[("$expand", "ScoringResult")])
        .await?;
    Ok(match task["Status"].as_i64() {
        // The spec's ScoringResult navigation is a collection of one.
        Some(3) => MarkingOutcome::Final {
            score: task["ScoringResult"][0]["Score"].as_i64(),
        },
        _ => MarkingOutcome::Resolution,
    })
}

/// Gives the round back unmarked: it is offered again.
pub async fn give_back_marking(client: &ODataClient, marking_id: i32) -> Result<(), CommandError> {
    client.delete(&format!("Markings({marking_id})")).await?;
    Ok(())
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

fn number(value: &Value) -> Option<i32> {
    value.as_i64()?.try_into().ok()
}

fn rows(feed: &Value) -> Vec<Value> {
    feed["value"].as_array().cloned().unwrap_or_default()
}

/// The rubric's dimensions by order, each with the marking's score and comment.
fn dimensions_of(dimensions: &Value, scores: &Value, levels: &Value) -> Vec<DimensionView> {
    let scores = scores.as_array().cloned().unwrap_or_default();
    let mut shown: Vec<DimensionView> = rows(dimensions)
        .iter()
        .filter_map(|dimension| {
            let order = dimension["Order"].as_i64()?;
            let score = scores.iter().find(|s| s["Order"].as_i64() == Some(order));
            Some(DimensionView {
                order,
                name: text(&dimension["Name"]),
                instructions: text(&dimension["Instructions"]),
                max_score: dimension["MaxScore"].as_i64()?,
                score: score.and_then(|s| s["Score"].as_i64()),
                comment: score.and_then(|s| text(&s["Comment"])),
                levels: levels_of(levels, order),
            })
        })
        .collect();
    shown.sort_by_key(|dimension| dimension.order);
    shown
}

fn earlier_marking(row: &Value) -> Option<EarlierMarking> {
    let mut scores: Vec<EarlierScore> = row["Scores"]
        .as_array()
        .map(|scores| {
            scores
                .iter()
                .filter_map(|s| {
                    Some(EarlierScore {
                        order: s["Order"].as_i64()?,
                        score: s["Score"].as_i64(),
                        comment: text(&s["Comment"]),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    scores.sort_by_key(|score| score.order);
    Some(EarlierMarking {
        round: number(&row["Round"])?,
        marked_by: text(&row["MarkedBy"])?,
        score: row["Score"].as_i64(),
        comments: text(&row["Comments"]),
        scores,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions_come_in_order_with_the_markings_own_scores() {
        let dimensions = json!({"value": [
            {"ID": 11, "RubricID": 3, "Order": 2, "Name": "Style", "MaxScore": 3},
            {"ID": 10, "RubricID": 3, "Order": 1, "Name": "Content", "MaxScore": 5, "Instructions": "Facts"},
            {"ID": 12, "RubricID": 3, "Order": 3, "Name": "No maximum"}
        ]});
        let scores = json!([
            {"MarkingID": 1, "Order": 2, "Score": 2, "Comment": "Tidy"},
            {"MarkingID": 1, "Order": 1, "Score": null, "Comment": null}
        ]);
        let levels =
            json!({"value": [{"RubricID": 3, "Order": 1, "Score": 5, "Description": "All"}]});
        let shown = dimensions_of(&dimensions, &scores, &levels);
        let orders: Vec<_> = shown.iter().map(|d| (d.order, d.score)).collect();
        assert_eq!(
            orders,
            [(1, None), (2, Some(2))],
            "a dimension without a maximum is left out"
        );
        assert_eq!(shown[1].comment.as_deref(), Some("Tidy"));
        assert_eq!(shown[0].levels.len(), 1);
        assert_eq!(shown[0].instructions.as_deref(), Some("Facts"));
    }

    #[test]
    fn an_earlier_marking_lists_its_scores_by_order() {
        let row = json!({"ID": 5, "Round": 1, "MarkedBy": "ann", "Score": 6, "Comments": "Good",
            "Scores": [{"Order": 2, "Score": 2}, {"Order": 1, "Score": 4, "Comment": "Clear"}]});
        let marking = earlier_marking(&row).unwrap();
        assert_eq!((marking.round, marking.score), (1, Some(6)));
        let scores: Vec<_> = marking.scores.iter().map(|s| (s.order, s.score)).collect();
        assert_eq!(scores, [(1, Some(4)), (2, Some(2))]);
    }
}
