//! Rubrics written by administrators, our extension (docs/odata.md, "Rubric
//! authoring"; docs/content.md, "Rubrics"): `POST Rubrics` with the dimensions
//! inline (OData's deep insert) makes the question's new rubric in one write, its
//! levels too; the rubric it replaces is kept for the ScoringResults made with it,
//! or deleted if none were. `DELETE Rubrics(<ID>)` removes an unused rubric. A
//! dimension alone is not written: the dimensions' maxima must add up to the
//! rubric's, so they are written with it.

use serde::Deserialize;

use super::entities::RUBRICS;
use super::write::{WriteRequest, Written};
use crate::model::rubric::{check, DimensionDraft, RubricDraft};
use crate::odata::body::require_json;
use crate::odata::model::{EntitySet, Verb};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::ApiError;
use crate::store::{now_millis, RubricDeletion, WriteScope};

/// Whether `verb` on `set` is served here.
pub fn serves(set: &EntitySet, verb: Verb) -> bool {
    set.name == RUBRICS.name && matches!(verb, Verb::Post | Verb::Delete)
}

pub async fn write(
    request: &WriteRequest<'_>,
    verb: Verb,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    if !request.path.steps.is_empty() {
        return Err(ApiError::bad_request(
            "Rubrics are written at Rubrics or Rubrics(<ID>), not through a navigation",
        ));
    }
    match verb {
        Verb::Post => post(request, writes).await,
        _ => delete(request, writes).await,
    }
}

/// An Int64 as JSON light writes it (a string) or as a number.
#[derive(Deserialize)]
#[serde(untagged)]
enum Int64 {
    Text(String),
    Number(i64),
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct RubricBody {
    #[serde(rename = "QuestionID")]
    question_id: Int64,
    name: String,
    instructions: Option<String>,
    max_score: i32,
    dimensions: Vec<DimensionBody>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct DimensionBody {
    /// Where it goes, if the client says (1, 2, …); the array's order otherwise.
    order: Option<i32>,
    name: String,
    instructions: Option<String>,
    max_score: i32,
    /// What earns 0, 1, …, MaxScore (our extension, kept as DimensionLevels).
    #[serde(default)]
    levels: Vec<String>,
}

fn read_body(request: &WriteRequest<'_>) -> Result<(i64, RubricDraft), ApiError> {
    require_json(
        request
            .headers
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok()),
    )?;
    let mut reader = serde_json::Deserializer::from_slice(&request.body);
    let body: RubricBody = serde_path_to_error::deserialize(&mut reader).map_err(|error| {
        let field = error.path().to_string();
        ApiError::bad_request(format!("Rubric.{field}: {}", error.inner()))
    })?;
    let question_id = match body.question_id {
        Int64::Number(id) => id,
        Int64::Text(text) => text.trim_end_matches('L').parse().map_err(|_| {
            ApiError::bad_request(format!("Rubric.QuestionID: '{text}' is not an Int64"))
        })?,
    };
    let mut dimensions: Vec<(usize, DimensionBody)> =
        body.dimensions.into_iter().enumerate().collect();
    for (index, dimension) in &dimensions {
        if let Some(order) = dimension.order {
            if usize::try_from(order).ok() != Some(index + 1) {
                return Err(ApiError::bad_request(format!(
                    "Rubric.Dimensions[{index}].Order: is {order}; dimensions are sent in their order, 1, 2, …, so this one is {}",
                    index + 1
                )));
            }
        }
    }
    dimensions.sort_by_key(|(index, _)| *index);
    Ok((
        question_id,
        RubricDraft {
            name: body.name,
            instructions: body.instructions,
            max_score: body.max_score,
            dimensions: dimensions
                .into_iter()
                .map(|(_, d)| DimensionDraft {
                    name: d.name,
                    instructions: d.instructions,
                    max_score: d.max_score,
                    levels: d.levels,
                })
                .collect(),
        },
    ))
}

async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let (question_id, draft) = read_body(request)?;
    let tx = writes.tx().await?;
    let question_max = tx
        .lock_question_max(request.area, question_id)
        .await?
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "Rubric.QuestionID: {question_id} is not a question of this customer area"
            ))
        })?;
    check(&draft, question_max).map_err(|error| ApiError::bad_request(error.to_string()))?;
    let (id, _replaced) = tx
        .author_rubric(request.area, question_id, &draft, now_millis())
        .await?;
    Ok(Written::Created {
        path: EntityPath {
            set: &RUBRICS,
            key: Some(parse_key(&RUBRICS, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}

async fn delete(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let id = match request.path.key.as_ref().and_then(|key| key.0.first()) {
        Some((_, crate::odata::filter::Literal::Int32(id))) => *id,
        _ => return Err(request.missing()),
    };
    match writes.tx().await?.delete_rubric(request.area, id).await? {
        RubricDeletion::Deleted => Ok(Written::Deleted),
        RubricDeletion::NotFound => Err(request.missing()),
        RubricDeletion::InUse(uses) => Err(ApiError::Conflict(format!(
            "rubric {id} was used by {uses} ScoringResults and is kept for them; POST a new rubric for its question to replace it for new scoring"
        ))),
    }
}
