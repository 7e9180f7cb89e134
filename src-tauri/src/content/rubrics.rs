//! Rubrics for an assessment's essays, authored by administrators through the
//! server's `POST Rubrics` (docs/odata.md, "Rubric authoring"): the questions a
//! scorer scores, each with its current rubric; a rubric read into the form; the
//! form sent as the question's new rubric. The server keeps a rubric that
//! ScoringResults used for them; this reports what it did.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;
use crate::literals::int64_key;

/// The most questions of an assessment listed.
const QUESTIONS: usize = 500;

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RubricQuestion {
    pub id: String,
    pub description: String,
    pub max_score: i64,
    /// The current rubric's ID and name, if it has one.
    pub rubric_id: Option<i64>,
    pub rubric_name: Option<String>,
}

/// A rubric as the editor holds it.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RubricForm {
    pub question_id: String,
    /// The question's maximum, which the rubric's must equal.
    pub question_max: i64,
    /// The rubric being edited (none: the question has none yet).
    pub rubric_id: Option<i64>,
    pub name: String,
    pub instructions: String,
    pub dimensions: Vec<DimensionForm>,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DimensionForm {
    pub name: String,
    pub instructions: String,
    pub max_score: i64,
    /// What earns 0, 1, …, `max_score`; empty: not described.
    pub levels: Vec<String>,
}

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SavedRubric {
    pub id: i64,
    /// The rubric it replaced, and whether the server kept it for the scores
    /// made with it (otherwise it is gone).
    pub replaced: Option<i64>,
    pub kept: bool,
}

/// The essays of an assessment (what scorers score), each with its rubric.
pub async fn rubric_questions(
    client: &ODataClient,
    assessment_id: &str,
) -> Result<Vec<RubricQuestion>, CommandError> {
    let key = int64_key("Assessment", assessment_id)?;
    let questions = client
        .get_all(
            &format!("Assessments({key}L)/Questions"),
            &[("$expand", "Rubric")],
            QUESTIONS,
        )
        .await?;
    Ok(questions
        .iter()
        .filter(|q| q["QuestionType"] == "essay")
        .map(|q| {
            let rubric = &q["Rubric"][0];
            RubricQuestion {
                id: q["QuestionID"].as_str().unwrap_or_default().to_owned(),
                description: q["Description"].as_str().unwrap_or_default().to_owned(),
                max_score: q["MaxScore"].as_i64().unwrap_or_default(),
                rubric_id: rubric["ID"].as_i64(),
                rubric_name: rubric["Name"].as_str().map(str::to_owned),
            }
        })
        .collect())
}

/// The question's current rubric as a form, or a new one: one dimension worth the
/// question's maximum.
pub async fn rubric_form(
    client: &ODataClient,
    question_id: &str,
) -> Result<RubricForm, CommandError> {
    let key = int64_key("Question", question_id)?;
    let question = client.get_json(&format!("Questions({key}L)"), &[]).await?;
    let question_max = question["MaxScore"].as_i64().unwrap_or_default();
    let rubrics = client
        .get_json(
            &format!("Questions({key}L)/Rubric"),
            &[("$expand", "Dimensions")],
        )
        .await?;
    let Some(rubric) = rubrics["value"].as_array().and_then(|r| r.first()) else {
        return Ok(RubricForm {
            question_id: key,
            question_max,
            rubric_id: None,
            name: question["Description"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            instructions: String::new(),
            dimensions: vec![DimensionForm {
                name: String::new(),
                instructions: String::new(),
                max_score: question_max,
                levels: Vec::new(),
            }],
        });
    };
    let id = rubric["ID"].as_i64().unwrap_or_default();
    let levels = client
        .get_all(
            "DimensionLevels",
            &[("$filter", &format!("RubricID eq {id}"))],
            10_000,
        )
        .await?;
    let mut dimensions: Vec<&Value> = rubric["Dimensions"]
        .as_array()
        .map(|d| d.iter().collect())
        .unwrap_or_default();
    dimensions.sort_by_key(|d| d["Order"].as_i64());
    Ok(RubricForm {
        question_id: key,
        question_max,
        rubric_id: Some(id),
        name: rubric["Name"].as_str().unwrap_or_default().to_owned(),
        instructions: rubric["Instructions"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        dimensions: dimensions
            .into_iter()
            .map(|d| {
                let order = d["Order"].as_i64();
                let mut own: Vec<&Value> = levels
                    .iter()
                    .filter(|l| l["Order"].as_i64() == order)
                    .collect();
                own.sort_by_key(|l| l["Score"].as_i64());
                DimensionForm {
                    name: d["Name"].as_str().unwrap_or_default().to_owned(),
                    instructions: d["Instructions"].as_str().unwrap_or_default().to_owned(),
                    max_score: d["MaxScore"].as_i64().unwrap_or_default(),
                    levels: own
                        .iter()
                        .map(|l| l["Description"].as_str().unwrap_or_default().to_owned())
                        .collect(),
                }
            })
            .collect(),
    })
}

/// The body `POST Rubrics` takes for `form`.
fn body(form: &RubricForm, question_id: &str) -> Value {
    let text = |t: &str| {
        let t = t.trim();
        (!t.is_empty()).then(|| t.to_owned())
    };
    json!({
        "QuestionID": question_id,
        "Name": form.name.trim(),
        "Instructions": text(&form.instructions),
        "MaxScore": form.question_max,
        "Dimensions": form.dimensions.iter().enumerate().map(|(index, d)| json!({
            "Order": index + 1,
            "Name": d.name.trim(),
            "Instructions": text(&d.instructions),
            "MaxScore": d.max_score,
            "Levels": if d.levels.iter().all(|l| l.trim().is_empty()) {
                Vec::new()
            } else {
                d.levels.iter().map(|l| l.trim().to_owned()).collect()
            },
        })).collect::<Vec<_>>(),
    })
}

/// Sends `form` as its question's new rubric; the server judges it (its 400 names
/// the field).
pub async fn save_rubric(
    client: &ODataClient,
    form: &RubricForm,
) -> Result<SavedRubric, CommandError> {
    let question = int64_key("Question", &form.question_id)?;
    let created = client.post("Rubrics", &body(form, &question)).await?;
    let id = created["ID"]
        .as_i64()
        .ok_or_else(|| CommandError::Server("The server's new rubric has no ID.".into()))?;
    let kept = match form.rubric_id {
        Some(old) if old != id => match client.get_json(&format!("Rubrics({old})"), &[]).await {
            Ok(rubric) => !rubric["ReplacedDateTime"].is_null(),
            Err(RequestFailure::Failed(_)) => false,
            Err(other) => return Err(other.into()),
        },
        _ => false,
    };
    Ok(SavedRubric {
        id,
        replaced: form.rubric_id.filter(|old| *old != id || kept),
        kept,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_is_sent_as_a_rubric_with_its_dimensions_in_order() {
        let form = RubricForm {
            question_id: "77".into(),
            question_max: 4,
            rubric_id: None,
            name: " Osmosis ".into(),
            instructions: "  ".into(),
            dimensions: vec![
                DimensionForm {
                    name: "Idea".into(),
                    instructions: "Water".into(),
                    max_score: 3,
                    levels: vec!["a".into(), "b".into(), " c ".into(), "d".into()],
                },
                DimensionForm {
                    name: "Language".into(),
                    instructions: String::new(),
                    max_score: 1,
                    levels: vec![String::new(), String::new()],
                },
            ],
        };
        let sent = body(&form, "77");
        assert_eq!(sent["Name"], "Osmosis");
        assert!(sent["Instructions"].is_null());
        assert_eq!(sent["MaxScore"], 4);
        assert_eq!(sent["Dimensions"][1]["Order"], 2);
        assert_eq!(sent["Dimensions"][0]["Levels"][2], "c");
        assert_eq!(
            sent["Dimensions"][1]["Levels"],
            json!([]),
            "blank levels are not sent"
        );
    }
}
