//! `Seeds` and `SeedMarkings` (docs/marking-quality.md, "Seeds"): a lead marker
//! makes a scored script a seed, its dimension scores the definitive marks (their
//! comments the reasons for each) and `Reasons` why it earns them (POST to
//! `Seeds`). The question's plan serves each marker a copy now and then among
//! his real tasks (`seeding.rs`); `SeedMarkings` lists each copy served, with
//! the marker's total once he scored it and its difference from the definitive
//! one. Neither set is a marker's: a marker never learns which task was a seed.

use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{Feed, WriteRequest, Written};
use crate::model::seeds::{check_seedable, seed_reasons};
use crate::odata::edm::EdmType::{DateTime, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet, READ_ONLY};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{NewSeed, WriteScope};

pub static SEEDS: EntitySet = EntitySet {
    name: "Seeds",
    type_name: "Seed",
    table: "seeds",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        // The script the seed was made from.
        prop("ResultID", "result_id", Int32, false),
        prop("RubricID", "rubric_id", Int32, false),
        // The definitive total: the sum of its dimension scores.
        prop("Score", "score", Int32, false),
        prop("Reasons", "reasons", Str, false).max_length(SEED_REASONS_LENGTH),
        prop("CreatedBy", "created_by", Str, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
    ],
    navigations: &[one("Question", "Questions", &[("question_id", "id")], true)],
    concurrency: None,
    filterable: &["ID", "QuestionID", "ResultID", "CreatedBy"],
    media: None,
    writes: CREATE_ONLY,
};

pub static SEED_MARKINGS: EntitySet = EntitySet {
    name: "SeedMarkings",
    type_name: "SeedMarking",
    table: "seed_copies",
    key: &["ResultID"],
    properties: &[
        // The copy's result: the task the marker was served.
        prop("ResultID", "result_id", Int32, false),
        prop("SeedID", "seed_id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        prop("Marker", "marker", Str, false),
        prop("ServedDateTime", "served_at", DateTime, false),
        // Null until he scored it (set it to 3).
        prop("MarkedDateTime", "marked_at", DateTime, true),
        prop("Score", "score", Int32, true),
        // His total less the definitive one.
        prop("Deviation", "deviation", Int32, true),
    ],
    navigations: &[one("Seed", "Seeds", &[("seed_id", "id")], true)],
    concurrency: None,
    filterable: &[
        "ResultID",
        "SeedID",
        "QuestionID",
        "Marker",
        "ServedDateTime",
    ],
    media: None,
    writes: READ_ONLY,
};

pub static SEEDS_FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    ..Feed::read_only(&SEEDS)
};

pub static SEED_MARKINGS_FEED: Feed = Feed::read_only(&SEED_MARKINGS);

/// A new seed from `QuestionID`, `ResultID` and `Reasons`: the task must be
/// scored (3) with every dimension scored. What the server sets is ignored.
async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    let body = request.entity(&SEEDS)?;
    let task = super::collection_only::task_named(&body, "Seed", "script made a seed")?;
    let reasons = seed_reasons(match body.get("Reasons") {
        Some(Value::String(text)) => Some(text.as_str()),
        _ => None,
    })
    .map_err(ApiError::BadRequest)?;
    let no_task = || {
        ApiError::bad_request(format!(
            "Seed names ScoringTasks(QuestionID={}L,ResultID={}), which is not a ScoringTask of \
             this customer area",
            task.question_id, task.result_id
        ))
    };
    let tx = writes.tx().await?;
    if !tx.lock_result(request.area, task.result_id).await? {
        return Err(no_task());
    }
    let seedable = match tx.seedable_task(request.area, task).await? {
        Some(seedable) if seedable.seed_for.is_none() => seedable,
        _ => return Err(no_task()),
    };
    let unscored = seedable
        .marks
        .iter()
        .filter(|(_, s, _)| s.is_none())
        .count();
    check_seedable(seedable.status, unscored).map_err(ApiError::Conflict)?;
    let (Some(rubric_id), false) = (seedable.rubric_id, seedable.marks.is_empty()) else {
        return Err(ApiError::Conflict(
            "the ScoringTask has no DimensionScores: a seed is made of a script scored by its \
             rubric"
                .into(),
        ));
    };
    let marks: Vec<(i32, i32, Option<String>)> = seedable
        .marks
        .into_iter()
        .map(|(order, score, comment)| (order, score.unwrap_or_default(), comment))
        .collect();
    let id = tx
        .insert_seed(
            request.area,
            NewSeed {
                task,
                rubric_id,
                marks: &marks,
                reasons: &reasons,
                created_by: &request.principal.username,
            },
        )
        .await?
        .ok_or_else(|| ApiError::Conflict("the ScoringTask is a seed already".into()))?;
    Ok(Written::Created {
        path: EntityPath {
            set: &SEEDS,
            key: Some(parse_key(&SEEDS, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}
