//! Taking a task: Status 1, then everything the scoring view shows, read through the
//! spec's recommended path (the task's ScoringResult navigation creates it).

use scoredesk_server::documents::markup;
use scoredesk_server::model::scoring::TaskStatus;
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::answer_image::{self, ShownImage};
use super::prepared::PreparedScans;
use super::{int64_key, scoring_result_path, task_path};
use crate::client::ODataClient;
use crate::error::CommandError;

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
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export)]
pub enum AnswerView {
    Text {
        text: String,
    },
    Image(ImageAnswer),
    Other {
        // The enum's rename_all renames its variants, not their fields.
        #[serde(rename = "mediaType")]
        media_type: String,
    },
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ImageAnswer {
    #[serde(flatten)]
    pub shown: ShownImage,
    /// The answer's key, to fetch the full image when zooming in.
    pub occurrence: i64,
    pub block_number: i64,
    /// Whether the scan was decoded ahead (by `prepare`) rather than on taking.
    pub prepared: bool,
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

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DimensionView {
    pub order: i64,
    pub name: Option<String>,
    pub instructions: Option<String>,
    pub max_score: i64,
    pub score: Option<i64>,
    pub comment: Option<String>,
    /// What earns each score, where the rubric says (DimensionLevels, our extension).
    pub levels: Vec<LevelView>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct LevelView {
    pub score: i64,
    pub description: String,
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
    let markup_path = format!("Questions({question_id}L)/$value");
    let (task, scoring_results, markup) = futures::join!(
        client.get_json(&path, &[("$expand", "Question,Result,Answer")]),
        client.get_json(&scoring_result_path, &[]),
        client.get_media(&markup_path),
    );
    let task = task?;
    let answer = answer_view(client, scans, &task["Answer"]).await?;
    let rubric = match scoring_results?["value"].get(0) {
        Some(scoring_result) => {
            Some(rubric_view(client, &question_id, result_id, scoring_result).await?)
        }
        None => None,
    };
    let result = &task["Result"];
    let participant = match (result["FirstName"].as_str(), result["LastName"].as_str()) {
        (Some(first), Some(last)) => Some(format!("{first} {last}")),
        _ => text(&result["ParticipantName"]),
    };
    Ok(ScoringView {
        status: task["Status"].as_i64(),
        question_id,
        result_id,
        participant,
        group_name: text(&result["GroupName"]),
        finished_at: text(&result["WhenFinished"]),
        question: text(&task["Question"]["Description"]),
        max_score: task["Question"]["MaxScore"].as_i64(),
        markup_html: markup::sanitize(&String::from_utf8_lossy(&markup?.bytes)),
        answer,
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
    Ok(match answer_view(client, scans, &task["Answer"]).await? {
        AnswerView::Image(image) => Some(image.shown.data_url),
        _ => None,
    })
}

async fn answer_view(
    client: &ODataClient,
    scans: &PreparedScans,
    answer: &Value,
) -> Result<AnswerView, CommandError> {
    let (Some(question), Some(result), Some(occurrence), Some(block_number)) = (
        answer["QuestionID"].as_str(),
        answer["ResultID"].as_i64(),
        answer["Occurrence"].as_i64(),
        answer["BlockNumber"].as_i64(),
    ) else {
        return Ok(AnswerView::Other {
            media_type: "none".into(),
        });
    };
    let path = format!(
        "Answers(QuestionID={question}L,ResultID={result},Occurrence={occurrence},BlockNumber={block_number})/$value"
    );
    // Keyed by the full URL: two servers (the built-in one and a remote one) can have
    // answers with the same key.
    let cache_key = client.url(&path);
    if let Some(shown) = scans.get(&cache_key) {
        return Ok(AnswerView::Image(ImageAnswer {
            shown,
            occurrence,
            block_number,
            prepared: true,
        }));
    }
    let media = client.get_media(&path).await?;
    let media_type = media.content_type.to_ascii_lowercase();
    if media_type.starts_with("text/") {
        return Ok(AnswerView::Text {
            text: String::from_utf8_lossy(&media.bytes).into_owned(),
        });
    }
    if media_type.starts_with("image/") {
        // Decoding a 12-megapixel scan takes tens of milliseconds: off the async
        // threads, so that the app stays responsive meanwhile.
        let shown = tokio::task::spawn_blocking(move || answer_image::for_display(&media.bytes))
            .await
            .map_err(|e| CommandError::Server(format!("The image could not be prepared: {e}")))?
            .map_err(CommandError::Server)?;
        scans.insert(cache_key, shown.clone());
        return Ok(AnswerView::Image(ImageAnswer {
            shown,
            occurrence,
            block_number,
            prepared: false,
        }));
    }
    Ok(AnswerView::Other { media_type })
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

/// The levels of the dimension of order `order`, by score, from the feed's entries.
fn levels_of(feed: &Value, order: i64) -> Vec<LevelView> {
    feed["value"]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .filter(|entry| entry["Order"].as_i64() == Some(order))
                .filter_map(|entry| {
                    Some(LevelView {
                        score: entry["Score"].as_i64()?,
                        description: entry["Description"].as_str()?.to_owned(),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_those_of_the_dimension_and_a_missing_feed_gives_none() {
        let feed = serde_json::json!({"value": [
            {"RubricID": 1, "Order": 1, "Score": 0, "Description": "None"},
            {"RubricID": 1, "Order": 2, "Score": 0, "Description": "Other dimension"},
            {"RubricID": 1, "Order": 1, "Score": 1, "Description": "Some"},
        ]});
        let levels = levels_of(&feed, 1);
        assert_eq!(levels.iter().map(|l| l.score).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(levels[1].description, "Some");
        assert!(levels_of(&Value::Null, 1).is_empty());
    }

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
