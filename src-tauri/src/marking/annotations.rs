//! Annotations on the script through the server's `Annotations` feed (our
//! extension, docs/odata.md): the marks on the answer block in front of the
//! marker (his own; a lead's, everyone's), placed and removed as he marks.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::key_number;

/// More than a marker places on one script; the server keeps at most 1,000 each.
const READ_AT_MOST: usize = 5_000;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Annotation {
    pub id: i32,
    /// pen, highlighter, tick, cross or note.
    pub kind: String,
    /// On a scan: points in the scan's own pixels (none on a typed answer).
    pub points: Vec<[u32; 2]>,
    /// On a typed answer: its characters `[textStart, textEnd)`.
    #[ts(optional = nullable)]
    pub text_start: Option<i32>,
    #[ts(optional = nullable)]
    pub text_end: Option<i32>,
    /// A note's words, or a comment on a mark.
    #[ts(optional = nullable)]
    pub text: Option<String>,
    pub marked_by: String,
}

/// An annotation to place on one answer block.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct NewAnnotation {
    pub question_id: String,
    pub result_id: i32,
    pub occurrence: i64,
    pub block_number: i64,
    pub kind: String,
    pub points: Vec<[u32; 2]>,
    #[ts(optional = nullable)]
    pub text_start: Option<i32>,
    #[ts(optional = nullable)]
    pub text_end: Option<i32>,
    #[ts(optional = nullable)]
    pub text: Option<String>,
}

/// The annotations on an answer block this account reads, in the order placed.
pub async fn annotations_of(
    client: &ODataClient,
    question_id: &str,
    result_id: i32,
    occurrence: i64,
    block_number: i64,
) -> Result<Vec<Annotation>, CommandError> {
    let question = key_number("Question", question_id)?;
    let filter = format!(
        "QuestionID eq {question}L and ResultID eq {result_id} and Occurrence eq \
         {occurrence} and BlockNumber eq {block_number}"
    );
    let entries = client
        .get_all(
            "Annotations",
            &[("$filter", &filter), ("$orderby", "ID")],
            READ_AT_MOST,
        )
        .await?;
    Ok(entries.iter().filter_map(annotation_of).collect())
}

/// Places an annotation; the server checks where it goes and answers what it kept.
pub async fn place_annotation(
    client: &ODataClient,
    annotation: &NewAnnotation,
) -> Result<Annotation, CommandError> {
    let question = key_number("Question", &annotation.question_id)?;
    let mut body = json!({
        "QuestionID": question.to_string(),
        "ResultID": annotation.result_id,
        "Occurrence": annotation.occurrence,
        "BlockNumber": annotation.block_number,
        "Kind": annotation.kind,
        "Text": annotation.text,
    });
    if annotation.points.is_empty() {
        body["TextStart"] = json!(annotation.text_start);
        body["TextEnd"] = json!(annotation.text_end);
    } else {
        body["Points"] = json!(points_text(&annotation.points));
    }
    let created = client.post("Annotations", &body).await?;
    annotation_of(&created).ok_or_else(|| {
        CommandError::Server("The server's answer to the annotation could not be read.".into())
    })
}

/// Removes one of this marker's annotations.
pub async fn remove_annotation(client: &ODataClient, id: i32) -> Result<(), CommandError> {
    client.delete(&format!("Annotations({id})")).await?;
    Ok(())
}

/// `x,y x,y …`, as the server keeps points.
fn points_text(points: &[[u32; 2]]) -> String {
    points
        .iter()
        .map(|[x, y]| format!("{x},{y}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn annotation_of(entry: &Value) -> Option<Annotation> {
    let number = |name: &str| {
        entry[name]
            .as_i64()
            .and_then(|value| i32::try_from(value).ok())
    };
    let points = entry["Points"]
        .as_str()
        .map(|points| {
            points
                .split_ascii_whitespace()
                .filter_map(|pair| {
                    let (x, y) = pair.split_once(',')?;
                    Some([x.parse().ok()?, y.parse().ok()?])
                })
                .collect()
        })
        .unwrap_or_default();
    Some(Annotation {
        id: number("ID")?,
        kind: entry["Kind"].as_str()?.to_owned(),
        points,
        text_start: number("TextStart"),
        text_end: number("TextEnd"),
        text: entry["Text"].as_str().map(str::to_owned),
        marked_by: entry["MarkedBy"].as_str()?.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_read_with_its_points_or_its_range() {
        let scan = json!({"ID": 4, "Kind": "pen", "Points": "1,2 30,40", "TextStart": null,
            "TextEnd": null, "Text": null, "MarkedBy": "m"});
        let read = annotation_of(&scan).unwrap();
        assert_eq!(read.points, [[1, 2], [30, 40]]);
        assert_eq!(points_text(&read.points), "1,2 30,40");
        let typed = json!({"ID": 5, "Kind": "highlighter", "Points": null, "TextStart": 3,
            "TextEnd": 9, "Text": "good", "MarkedBy": "m"});
        let read = annotation_of(&typed).unwrap();
        assert!(read.points.is_empty());
        assert_eq!((read.text_start, read.text_end), (Some(3), Some(9)));
        assert_eq!(annotation_of(&json!({"Kind": "tick"})), None);
    }
}
