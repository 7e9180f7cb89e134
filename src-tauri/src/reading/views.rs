//! The shapes a marker's screen is sent: the answer as it can be shown, and a
//! rubric's dimensions with what earns each score.

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::answer_image::ShownImage;

#[derive(Debug, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export)]
pub enum AnswerView {
    Text {
        text: String,
        /// The answer's key, for the annotations placed on it.
        occurrence: i64,
        #[serde(rename = "blockNumber")]
        block_number: i64,
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

/// The levels of the dimension of order `order`, by score, from the feed's entries.
pub fn levels_of(feed: &Value, order: i64) -> Vec<LevelView> {
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
}
