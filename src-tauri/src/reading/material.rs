//! What a scorer reads of a task, whatever he marks it into: the task's header (the
//! participant, the question), the question's markup and the answer. The scoring
//! view and a second marking both show it.

use scoredesk_server::documents::markup;
use serde_json::Value;

use super::answer_image;
use super::prepared::PreparedScans;
use super::views::{AnswerView, ImageAnswer};
use crate::client::ODataClient;
use crate::error::CommandError;

/// A task as a marker reads it.
pub struct Material {
    /// The task's status as read.
    pub status: Option<i64>,
    pub participant: Option<String>,
    pub group_name: Option<String>,
    pub finished_at: Option<String>,
    pub question: Option<String>,
    pub max_score: Option<i64>,
    /// The question's markup, sanitised: safe to insert as HTML.
    pub markup_html: String,
    pub answer: AnswerView,
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

/// Reads the task (its question, result and answer) and the question's markup at
/// once, then the answer's content. `question_id` is a checked Int64 key.
pub async fn read_material(
    client: &ODataClient,
    scans: &PreparedScans,
    question_id: &str,
    result_id: i32,
) -> Result<Material, CommandError> {
    let path = format!("ScoringTasks(QuestionID={question_id}L,ResultID={result_id})");
    let markup_path = format!("Questions({question_id}L)/$value");
    let (task, markup) = futures::join!(
        client.get_json(&path, &[("$expand", "Question,Result,Answer")]),
        client.get_media(&markup_path),
    );
    let task = task?;
    let answer = answer_view(client, scans, &task["Answer"]).await?;
    let result = &task["Result"];
    let participant = match (result["FirstName"].as_str(), result["LastName"].as_str()) {
        (Some(first), Some(last)) => Some(format!("{first} {last}")),
        _ => text(&result["ParticipantName"]),
    };
    Ok(Material {
        status: task["Status"].as_i64(),
        participant,
        group_name: text(&result["GroupName"]),
        finished_at: text(&result["WhenFinished"]),
        question: text(&task["Question"]["Description"]),
        max_score: task["Question"]["MaxScore"].as_i64(),
        markup_html: markup::sanitize(&String::from_utf8_lossy(&markup?.bytes)),
        answer,
    })
}

pub async fn answer_view(
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
            occurrence,
            block_number,
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
