//! Taking a task: Status 1, then everything the scoring view shows, read through the
//! spec's recommended path (the task's ScoringResult navigation creates it).

use scoredesk_server::model::scoring::TaskStatus;
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::{int64_key, scoring_result_path, task_path};
use crate::client::ODataClient;
use crate::error::CommandError;
use crate::reading::{self as material, levels_of, AnswerView, DimensionView, PreparedScans};

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ScoringView {
    pub question_id: String,
    pub result_id: i32,
    /// The task's status once opened: 1 when claimed, 2 when opened for review.
    pub status: Option<i64>,
    pub participant: Option<String>,
    pub group_name: Option<String>,
    pub finished_at: Option<String>,
    pub question: Option<String>,
    pub max_score: Option<i64>,
    /// The question's markup, sanitised: safe to insert as HTML.
    pub markup_html: String,
    pub answer: AnswerView,
    /// None when the question has no rubric: the task cannot be scored here.
    pub rubric: Option<RubricView>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RubricView {
    pub rubric_id: i64,
    pub name: Option<String>,
    pub instructions: Option<String>,
    pub max_score: Option<i64>,
    pub dimensions: Vec<DimensionView>,
    /// The ScoringResult as read: what a save must send back.
    pub score: Option<i64>,
    pub comments: Option<String>,
    pub modified: Value,
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

/// How a task is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum Opening {
    /// To score it: the task is claimed first (Status 1).
    Claim,
    /// To review a saved score (moderation): the task keeps its status.
    Review,
    /// To go on with a draft kept after the app was closed mid-task: claimed again
    /// if it is still open (0) or in progress (1); opened for review, unclaimed, if
    /// it was saved or scored since, so that resuming never reopens a finished task.
    /// The draft's save is then checked against that revision.
    Resume,
    /// To correct a score this scorer gave (undo of a submit, the session's list):
    /// claimed again (Status 1) from Saved or Scored, so that submitting it updates
    /// the participant's result again (spec, "ScoringTask.Status"); opened for
    /// review, unclaimed, if another scorer has it (1) meanwhile.
    Correct,
}

/// What opening with `opening` does to a task whose status is `stored`: claim it,
/// or only show it. Resuming never reopens finished work; correcting reopens it, but
/// never takes a task another scorer holds.
pub fn claims(opening: Opening, stored: Option<TaskStatus>) -> bool {
    match opening {
        Opening::Claim => true,
        Opening::Review => false,
        Opening::Resume => matches!(stored, Some(TaskStatus::Unscored | TaskStatus::Locked)),
        Opening::Correct => stored.is_some_and(|status| status != TaskStatus::Locked),
    }
}

pub async fn take(
    client: &ODataClient,
    scans: &PreparedScans,
    question_id: &str,
    result_id: i32,
    opening: Opening,
) -> Result<ScoringView, CommandError> {
    let question_id = int64_key("Question", question_id)?;
    let path = task_path(&question_id, result_id);
    let stored = match opening {
        Opening::Resume | Opening::Correct => client.get_json(&path, &[]).await?["Status"]
            .as_i64()
            .and_then(|code| TaskStatus::try_from(code as i32).ok()),
        Opening::Claim | Opening::Review => None,
    };
    if claims(opening, stored) {
        client
            .put(
                &path,
                &serde_json::json!({ "Status": TaskStatus::Locked.code() }),
            )
            .await?;
    }
    let scoring_result_path = format!("{path}/ScoringResult");
    let (material, scoring_results) = futures::join!(
        material::read_material(client, scans, &question_id, result_id),
        client.get_json(&scoring_result_path, &[]),
    );
    let material = material?;
    let rubric = match scoring_results?["value"].get(0) {
        Some(scoring_result) => {
            Some(rubric_view(client, &question_id, result_id, scoring_result).await?)
        }
        None => None,
    };
    Ok(ScoringView {
        status: material.status,
        question_id,
        result_id,
        participant: material.participant,
        group_name: material.group_name,
        finished_at: material.finished_at,
        question: material.question,
        max_score: material.max_score,
        markup_html: material.markup_html,
        answer: material.answer,
        rubric,
    })
}

/// Prepares the scan of a task's answer ahead of taking it (nothing is claimed).
/// Returns the image the scoring view will show, so that the web view can decode
/// it ahead too; `None` for an answer that is not a scan.
pub async fn prepare(
    client: &ODataClient,
    scans: &PreparedScans,
    question_id: &str,
    result_id: i32,
) -> Result<Option<String>, CommandError> {
    let question_id = int64_key("Question", question_id)?;
    let task = client
        .get_json(
            &task_path(&question_id, result_id),
            &[("$expand", "Answer")],
        )
        .await?;
    let is_image = task["Answer"]["odata.mediaContentType"]
        .as_str()
        .is_some_and(|media| media.starts_with("image/"));
    if !is_image {
        return Ok(None);
    }
    Ok(
        match material::answer_view(client, scans, &task["Answer"]).await? {
            AnswerView::Image(image) => Some(image.shown.data_url),
            _ => None,
        },
    )
}

async fn rubric_view(
    client: &ODataClient,
    question_id: &str,
    result_id: i32,
    scoring_result: &Value,
) -> Result<RubricView, CommandError> {
    let rubric_id = scoring_result["RubricID"]
        .as_i64()
        .ok_or_else(|| CommandError::Server("The ScoringResult has no RubricID.".into()))?;
    let rubric_path = format!("Questions({question_id}L)/Rubric({rubric_id})");
    let scores_path = format!(
        "{}/DimensionScores",
        scoring_result_path(question_id, rubric_id, result_id)
    );
    let levels_filter = format!("RubricID eq {rubric_id}");
    let levels_query = [
        ("$filter", levels_filter.as_str()),
        ("$orderby", "Order,Score"),
    ];
    let (rubric, scores, levels) = futures::join!(
        client.get_json(&rubric_path, &[]),
        client.get_json(&scores_path, &[("$expand", "Dimension")]),
        client.get_json("DimensionLevels", &levels_query),
    );
    let rubric = rubric?;
    // A server without our extension (another implementation of the service)
    // answers 404 for the feed: the rubric is shown without levels.
    let levels = levels.unwrap_or_default();
    let dimensions = scores?["value"]
        .as_array()
        .map(|scores| {
            scores
                .iter()
                .map(|score| DimensionView {
                    order: score["Order"].as_i64().unwrap_or_default(),
                    name: text(&score["Dimension"]["Name"]),
                    instructions: text(&score["Dimension"]["Instructions"]),
                    max_score: score["Dimension"]["MaxScore"].as_i64().unwrap_or_default(),
                    score: score["Score"].as_i64(),
                    comment: text(&score["Comment"]),
                    levels: levels_of(&levels, score["Order"].as_i64().unwrap_or_default()),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(RubricView {
        rubric_id,
        name: text(&rubric["Name"]),
        instructions: text(&rubric["Instructions"]),
        max_score: rubric["MaxScore"].as_i64(),
        dimensions,
        score: scoring_result["Score"].as_i64(),
        comments: text(&scoring_result["Comments"]),
        modified: scoring_result["ModifiedDateTime"].clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_correcting_reopens_finished_work_and_nothing_takes_a_held_task_but_claim() {
        use TaskStatus::*;
        for stored in [Unscored, Locked, Saved, Scored] {
            assert!(claims(Opening::Claim, Some(stored)));
            assert!(!claims(Opening::Review, Some(stored)));
            assert_eq!(
                claims(Opening::Resume, Some(stored)),
                matches!(stored, Unscored | Locked),
                "resume from {stored}"
            );
            assert_eq!(
                claims(Opening::Correct, Some(stored)),
                stored != Locked,
                "correct from {stored}"
            );
        }
    }
}
