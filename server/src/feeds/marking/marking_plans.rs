//! `MarkingPlans`: an administrator's plan of double marking for one question
//! (POST to make it, PUT to change it): the share of its tasks marked twice, the
//! tolerance and the rule of the final mark, and how often its markers are
//! served seeds and how far from one's definitive marks is in line. A change applies to tasks not yet
//! marked; a task already waiting keeps the tolerance and rule it was chosen
//! under. The checks are `model::second_marking::MarkingPlan`.

use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::model::second_marking::MarkingPlan;
use crate::model::seeds::SeedPlan;
use crate::odata::body::EntityBody;
use crate::odata::edm::EdmType::{DateTime, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::WriteScope;

pub static MARKING_PLANS: EntitySet = EntitySet {
    name: "MarkingPlans",
    type_name: "MarkingPlan",
    table: "marking_plans",
    key: &["QuestionID"],
    properties: &[
        prop("QuestionID", "question_id", Int64, false),
        // Per cent of the question's tasks, 0 to 100.
        prop("Share", "share", Int32, false),
        // The difference of two markings' totals within which they agree.
        prop("Tolerance", "tolerance", Int32, false),
        // resolution, mean or higher.
        prop("Rule", "rule", Str, false).max_length(NAME_LENGTH),
        // Per cent of a marker's scripts after which he is served a seed (0: none).
        prop("SeedRate", "seed_rate", Int32, false),
        // The difference from a seed's definitive total within which a marking
        // of it is in line.
        prop("SeedTolerance", "seed_tolerance", Int32, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
    ],
    navigations: &[one("Question", "Questions", &[("question_id", "id")], true)],
    concurrency: None,
    filterable: &["QuestionID", "Share", "Rule"],
    media: None,
    writes: CREATE_AND_PUT,
};

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    put: Some(write_handler!(put)),
    ..Feed::read_only(&MARKING_PLANS)
};

fn plan_of(body: &EntityBody) -> Result<(MarkingPlan, SeedPlan), ApiError> {
    let number = |name: &str, default: Option<i32>| match body.get(name) {
        Some(Value::Int32(value)) => Ok(*value),
        _ => {
            default.ok_or_else(|| ApiError::bad_request(format!("MarkingPlan.{name} is required")))
        }
    };
    let rule = match body.get("Rule") {
        Some(Value::String(rule)) => rule.as_str(),
        _ => "resolution",
    };
    let plan = MarkingPlan::parse(number("Share", None)?, number("Tolerance", Some(0))?, rule)
        .map_err(ApiError::BadRequest)?;
    let seeds = SeedPlan::parse(
        number("SeedRate", Some(0))?,
        number("SeedTolerance", Some(0))?,
    )
    .map_err(ApiError::BadRequest)?;
    Ok((plan, seeds))
}

/// A question's first plan: `QuestionID` and `Share`; `Tolerance` 0, `Rule`
/// `resolution` and no seeds (`SeedRate` 0, `SeedTolerance` 0) when not sent.
async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    let body = request.entity(&MARKING_PLANS)?;
    let question_id = match body.get("QuestionID") {
        Some(Value::Int64(id)) => *id,
        _ => {
            return Err(ApiError::bad_request(
                "MarkingPlan.QuestionID is required: the question the plan is for",
            ))
        }
    };
    let (plan, seeds) = plan_of(&body)?;
    let tx = writes.tx().await?;
    if !tx.question_in_area(request.area, question_id).await? {
        return Err(ApiError::bad_request(format!(
            "MarkingPlan.QuestionID is {question_id}, which is not a question of this customer \
             area"
        )));
    }
    if !tx
        .write_marking_plan(request.area, question_id, &plan, &seeds, false)
        .await?
    {
        return Err(ApiError::Conflict(format!(
            "question {question_id} has a plan already: PUT MarkingPlans({question_id}L) changes it"
        )));
    }
    let key = format!("{question_id}L");
    Ok(Written::Created {
        path: EntityPath {
            set: &MARKING_PLANS,
            key: Some(parse_key(&MARKING_PLANS, &key)?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key,
    })
}

async fn put(request: &WriteRequest<'_>, writes: &mut WriteScope<'_>) -> Result<Written, ApiError> {
    let stored = request.stored_values(&MARKING_PLANS).await?;
    let body = request.entity(&MARKING_PLANS)?;
    check_unchanged(
        &body,
        &MARKING_PLANS,
        &stored,
        &[
            "Share",
            "Tolerance",
            "Rule",
            "SeedRate",
            "SeedTolerance",
            "ModifiedDateTime",
        ],
    )?;
    let Some((_, Value::Int64(question_id))) =
        stored.iter().find(|(name, _)| *name == "QuestionID")
    else {
        return Err(request.missing());
    };
    let (plan, seeds) = plan_of(&body)?;
    if !writes
        .tx()
        .await?
        .write_marking_plan(request.area, *question_id, &plan, &seeds, true)
        .await?
    {
        return Err(request.missing());
    }
    Ok(Written::Replaced { etag: None })
}
