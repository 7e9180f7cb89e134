//! The area's questions that a marker marks (those with a rubric), named, for the
//! desks that choose one: grading by question, and the lead's figures.

use serde_json::Value;

use crate::client::{ODataClient, RequestFailure};

/// How many questions a picker offers; an area with more is filtered by ID.
const MAX_QUESTIONS: &str = "500";

/// The questions with a rubric, as (ID, name), in the feed's order.
pub async fn questions_with_rubric(
    client: &ODataClient,
) -> Result<Vec<(String, String)>, RequestFailure> {
    let feed = client
        .get_json(
            "Questions",
            &[
                ("$filter", "Rubric/any()"),
                ("$select", "QuestionID,Description"),
                ("$top", MAX_QUESTIONS),
            ],
        )
        .await?;
    Ok(named_questions(&feed))
}

/// The feed's questions as (ID, words); Int64 keys come as strings in JSON.
fn named_questions(feed: &Value) -> Vec<(String, String)> {
    feed["value"]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .filter_map(|entry| {
                    let id = entry["QuestionID"].as_str()?.to_owned();
                    let name = question_name(&id, entry);
                    Some((id, name))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The question's description, or its number when it has none.
pub fn question_name(id: &str, entry: &Value) -> String {
    entry["Description"]
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| format!("Question {id}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_are_named_by_description_or_number() {
        let feed = serde_json::json!({ "value": [
            { "QuestionID": "9", "Description": "Essay" },
            { "QuestionID": "3", "Description": null },
            { "QuestionID": 4, "Description": "not an Int64 string" },
        ]});
        assert_eq!(
            named_questions(&feed),
            [
                ("9".to_owned(), "Essay".to_owned()),
                ("3".to_owned(), "Question 3".to_owned())
            ]
        );
    }
}
