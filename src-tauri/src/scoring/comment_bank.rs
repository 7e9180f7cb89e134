//! The comment bank through the server's `BankedComments` feed (our extension,
//! docs/odata.md): the question's comments, shared by the area's scorers, per
//! dimension and overall; added, edited and removed by any of them.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use super::int64_key;
use crate::client::ODataClient;
use crate::error::CommandError;

/// How many comments of one question are read; a bank that large wants pruning.
const MAX_COMMENTS: &str = "500";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BankedComment {
    pub id: i32,
    /// The dimension's order in the rubric; `None`: for the overall comments.
    #[ts(optional = nullable)]
    pub dimension_order: Option<i32>,
    pub text: String,
    pub created_by: String,
    /// `ModifiedDateTime` as read: an edit sends it back (a stale one is refused).
    pub modified: String,
}

/// The bank of question `question_id`, oldest first (so each comment keeps its number).
pub async fn comment_bank(
    client: &ODataClient,
    question_id: &str,
) -> Result<Vec<BankedComment>, CommandError> {
    let id = int64_key("Question", question_id)?;
    let filter = format!("QuestionID eq {id}L");
    let feed = client
        .get_json(
            "BankedComments",
            &[
                ("$filter", filter.as_str()),
                ("$orderby", "ID"),
                ("$top", MAX_COMMENTS),
            ],
        )
        .await?;
    Ok(feed["value"]
        .as_array()
        .map(|entries| entries.iter().filter_map(banked_comment).collect())
        .unwrap_or_default())
}

/// Adds `text` to the bank of the question, for a dimension or (None) overall.
pub async fn bank_comment(
    client: &ODataClient,
    question_id: &str,
    dimension_order: Option<i32>,
    text: &str,
) -> Result<BankedComment, CommandError> {
    let id = int64_key("Question", question_id)?;
    let body = json!({ "QuestionID": id, "DimensionOrder": dimension_order, "Text": text });
    let created = client.post("BankedComments", &body).await?;
    banked_comment(&created).ok_or_else(|| {
        CommandError::Server("The server's new comment was not a BankedComment.".into())
    })
}

/// Rewrites a comment from the revision the scorer saw.
pub async fn edit_banked_comment(
    client: &ODataClient,
    comment: &BankedComment,
) -> Result<(), CommandError> {
    let body = json!({
        "Text": comment.text,
        "DimensionOrder": comment.dimension_order,
        "ModifiedDateTime": comment.modified,
    });
    Ok(client
        .put(&format!("BankedComments({})", comment.id), &body)
        .await?)
}

/// Removes a comment from the bank.
pub async fn forget_banked_comment(client: &ODataClient, id: i32) -> Result<(), CommandError> {
    Ok(client.delete(&format!("BankedComments({id})")).await?)
}

fn banked_comment(entry: &Value) -> Option<BankedComment> {
    Some(BankedComment {
        id: i32::try_from(entry["ID"].as_i64()?).ok()?,
        dimension_order: entry["DimensionOrder"]
            .as_i64()
            .and_then(|order| i32::try_from(order).ok()),
        text: entry["Text"].as_str()?.to_owned(),
        created_by: entry["CreatedBy"].as_str().unwrap_or_default().to_owned(),
        modified: entry["ModifiedDateTime"].as_str()?.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_read_with_their_dimension_or_none() {
        let entry = json!({"ID": 4, "QuestionID": "9", "DimensionOrder": 2, "Text": "Good", "CreatedBy": "ann", "ModifiedDateTime": "2026-11-23T10:00:00.000"});
        let comment = banked_comment(&entry).unwrap();
        assert_eq!(comment.dimension_order, Some(2));
        assert_eq!(comment.modified, "2026-11-23T10:00:00.000");
        let overall = json!({"ID": 5, "DimensionOrder": null, "Text": "Overall", "ModifiedDateTime": "2026-11-23T10:00:00.000"});
        assert_eq!(banked_comment(&overall).unwrap().dimension_order, None);
        assert!(banked_comment(&json!({"ID": 6})).is_none());
    }
}
