//! Rubrics written by administrators and lead markers, our extension (docs/odata.md, "Rubric
//! authoring"; docs/content.md, "Rubrics"): `POST Rubrics` with the dimensions
//! inline (OData's deep insert) makes the question's new rubric in one write, its
//! levels too; the rubric it replaces is kept for the ScoringResults made with it,
//! or deleted if none were. `DELETE Rubrics(<ID>)` removes an unused rubric. A
//! dimension alone is not written: the dimensions' maxima must add up to the
//! rubric's, so they are written with it.

use serde::Deserialize;

use crate::feeds::handler::write_handler;
use crate::feeds::handler::{Feed, WriteRequest, Written};
use crate::model::rubric::{check, DimensionDraft, RubricDraft};
use crate::odata::body::require_json;
use crate::odata::edm::EdmType::{self, DateTime, Int16, Int32, String as Str};
use crate::odata::model::{many, prop, EntitySet, Verb, Writes};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::ApiError;
use crate::store::{now_millis, RubricDeletion, WriteScope};

pub static RUBRICS: EntitySet = EntitySet {
    name: "Rubrics",
    type_name: "Rubric",
    table: "rubrics",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("Name", "name", Str, false),
        prop("Instructions", "instructions", Str, true),
        prop("MaxScore", "max_score", Int16, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
        // Our extension (migration 18): the question it is for, and when a newer
        // rubric replaced it for new scoring (null: the question's current one).
        prop("QuestionID", "question_id", EdmType::Int64, false),
        prop("ReplacedDateTime", "replaced_at", DateTime, true),
    ],
    navigations: &[many("Dimensions", "Dimensions", &[("id", "rubric_id")])],
    concurrency: None,
    filterable: &["ID", "QuestionID"],
    media: None,
    // Our extension: administrators author rubrics (feeds/scoring/rubrics.rs).
    writes: Writes {
        entity: &[Verb::Delete],
        collection: &[Verb::Post],
        links: &[],
    },
};

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    delete: Some(write_handler!(delete)),
    ..Feed::read_only(&RUBRICS)
};

fn not_through_navigation(request: &WriteRequest<'_>) -> Result<(), ApiError> {
    if request.path.steps.is_empty() {
        return Ok(());
    }
    Err(ApiError::bad_request(
        "Rubrics are written at Rubrics or Rubrics(<ID>), not through a navigation",
    ))
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
    not_through_navigation(request)?;
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
    not_through_navigation(request)?;
    let id = match request.path.key.as_ref().and_then(|key| key.0.first()) {
        Some((_, crate::odata::filter::Literal::Int32(id))) => *id,
        _ => return Err(request.missing()),
    };
    match writes.tx().await?.delete_rubric(request.area, id).await? {
        RubricDeletion::Deleted => Ok(Written::Deleted),
        RubricDeletion::NotFound => Err(request.missing()),
        RubricDeletion::Audited(regrades) => Err(ApiError::Conflict(format!(
            "rubric {id} is named by {regrades} RubricRegrades and is kept with their audit"
        ))),
        RubricDeletion::InUse(uses) => Err(ApiError::Conflict(format!(
            "rubric {id} was used by {uses} ScoringResults and is kept for them; POST a new rubric for its question to replace it for new scoring"
        ))),
    }
}
