//! `MarkingPlans`: an administrator's plan of double marking for one question
//! (POST to make it, PUT to change it): the share of its tasks marked twice, the
//! tolerance and the rule of the final mark. A change applies to tasks not yet
//! marked; a task already waiting keeps the tolerance and rule it was chosen
//! under. The checks are `model::second_marking::MarkingPlan`.

use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::model::second_marking::MarkingPlan;
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

fn plan_of(body: &EntityBody) -> Result<MarkingPlan, ApiError> {
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
    MarkingPlan::parse(number("Share", None)?, number("Tolerance", Some(0))?, rule)
        .map_err(ApiError::BadRequest)
}

/// A question's first plan: `QuestionID` and `Share`; `Tolerance` 0 and `Rule`
/// `resolution` when not sent.
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
    let plan = plan_of(&body)?;
    let tx = writes.tx().await?;
    if !tx.question_in_area(request.area, question_id).await? {
        return Err(ApiError::bad_request(format!(
            "MarkingPlan.QuestionID is {question_id}, which is not a question of this customer \
             area"
        )));
    }
    if !tx
        .write_marking_plan(request.area, question_id, &plan, false)
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
        &["Share", "Tolerance", "Rule", "ModifiedDateTime"],
    )?;
    let Some((_, Value::Int64(question_id))) =
        stored.iter().find(|(name, _)| *name == "QuestionID")
    else {
        return Err(request.missing());
    };
    let plan = plan_of(&body)?;
    if !writes
        .tx()
        .await?
        .write_marking_plan(request.area, *question_id, &plan, true)
        .await?
    {
        return Err(request.missing());
    }
    Ok(Written::Replaced { etag: None })
}
