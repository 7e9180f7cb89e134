//! The choices of the queue's assessment and question filters.

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;

/// How many of each the filters offer; an area with more is searched by ID.
const MAX_CHOICES: &str = "500";

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FilterOptions {
    pub assessments: Vec<Choice>,
    pub questions: Vec<Choice>,
}

/// One entry of a filter: the key to filter on and the words to show.
#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[ts(export)]
pub struct Choice {
    pub id: String,
    pub name: String,
}

pub async fn filter_options(client: &ODataClient) -> Result<FilterOptions, CommandError> {
    let (assessments, questions) = futures::join!(
        client.get_json(
            "Assessments",
            &[
                ("$select", "ID,Name"),
                ("$orderby", "Name"),
                ("$top", MAX_CHOICES)
            ],
        ),
        client.get_json(
            "Questions",
            &[("$select", "QuestionID,Description"), ("$top", MAX_CHOICES)],
        ),
    );
    Ok(FilterOptions {
        assessments: choices(&assessments?, "ID", "Name"),
        questions: choices(&questions?, "QuestionID", "Description"),
    })
}

/// The entries of a feed as choices, sorted by their words (Int64 keys come as
/// strings in JSON; the question's number stands in for a missing description).
fn choices(feed: &Value, key: &str, label: &str) -> Vec<Choice> {
    let mut choices: Vec<Choice> = feed["value"]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .filter_map(|entry| {
                    let id = entry[key].as_str()?.to_owned();
                    let name = entry[label]
                        .as_str()
                        .map(str::to_owned)
                        .unwrap_or_else(|| format!("Question {id}"));
                    Some(Choice { id, name })
                })
                .collect()
        })
        .unwrap_or_default();
    choices.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.id.cmp(&b.id)));
    choices
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_sorted_by_their_words_and_never_nameless() {
        let feed = serde_json::json!({ "value": [
            { "QuestionID": "9", "Description": "Essay" },
            { "QuestionID": "3", "Description": null },
            { "QuestionID": "4", "Description": "Diagram" },
        ]});
        let names: Vec<_> = choices(&feed, "QuestionID", "Description")
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(names, ["Diagram", "Essay", "Question 3"]);
    }
}
