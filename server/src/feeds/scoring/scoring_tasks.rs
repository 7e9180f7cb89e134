//! The ScoringTasks feed: its ScoringResult created when first read through the
//! task, and `PUT ScoringTasks(QuestionID=<id>L,ResultID=<id>)`, where the body is
//! the task and only its Status may change (spec, ScoringTask; States and
//! transitions). The rule is `model::scoring` (`TaskStatus`, `transition`); the
//! store applies its effects.

use super::stored;
use crate::auth::Principal;
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, AppState, Feed, Served, WriteRequest, Written};
use crate::feeds::marking;
use crate::model::area::CustomerArea;
use crate::model::scoring::TaskKey;
use crate::model::scoring::TaskStatus;
use crate::odata::edm::EdmType::{Int32, Int64};
use crate::odata::model::{many, one, prop, EntitySet, Navigation};
use crate::odata::path::{EntityPath, Key};
use crate::odata::typed::key_values;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::ScoringResultCreation;
use crate::store::{StatusChange, WriteScope};

pub static SCORING_TASKS: EntitySet = EntitySet {
    name: "ScoringTasks",
    type_name: "ScoringTask",
    table: "scoring_tasks",
    key: &["QuestionID", "ResultID"],
    properties: &[
        prop("QuestionID", "question_id", Int64, false),
        prop("ResultID", "result_id", Int32, false),
        prop("Status", "status", Int32, false),
    ],
    navigations: &[
        many(
            "ScoringResult",
            "ScoringResults",
            &[("question_id", "question_id"), ("result_id", "result_id")],
        ),
        one("Question", "Questions", &[("question_id", "id")], true),
        // The queue's order, `Result/WhenFinished`, is copied onto the task
        // (migration 5): finalised results never change when they finished.
        Navigation {
            copied: &[("WhenFinished", "result_finished_at")],
            ..one("Result", "Results", &[("result_id", "id")], true)
        },
        one(
            "Answer",
            "Answers",
            &[("question_id", "question_id"), ("result_id", "result_id")],
            true,
        ),
        one("Group", "Groups", &[("group_id", "id")], false),
        one(
            "Assessment",
            "Assessments",
            &[("assessment_id", "id")],
            true,
        ),
    ],
    concurrency: None,
    filterable: &["QuestionID", "ResultID", "Status"],
    media: None,
    writes: PUT_ONLY,
};

pub static FEED: Feed = Feed {
    before_read: Some(before_read),
    put: Some(write_handler!(put)),
    ..Feed::read_only(&SCORING_TASKS)
};

fn before_read<'a>(
    state: &'a AppState,
    area: CustomerArea,
    principal: &'a Principal,
    path: &'a EntityPath,
) -> Served<'a, ()> {
    Box::pin(create_scoring_result_on_first_read(
        state, area, principal, path,
    ))
}

/// Spec, ScoringTask rule 2: "The ScoringResult is created automatically when it is
/// retrieved through the ScoringTask's navigation property, addressed directly from
/// the ScoringTask URL." Expanding it (`$expand=ScoringResult`) never creates it, and
/// a question without a rubric leaves the collection empty.
async fn create_scoring_result_on_first_read(
    state: &AppState,
    area: CustomerArea,
    principal: &Principal,
    path: &EntityPath,
) -> Result<(), ApiError> {
    let [step] = path.steps.as_slice() else {
        return Ok(());
    };
    if step.navigation.name != "ScoringResult" {
        return Ok(());
    }
    let Some(key) = path.key.as_ref().map(task_key).transpose()? else {
        return Ok(());
    };
    let missing = || ApiError::not_found("there is no ScoringTask with that key");
    // Another marker's seed copy is no task of this reader's (docs/marking-quality.md).
    if state
        .store
        .seed_copy_of_another(area, key.result_id, &principal.username)
        .await?
    {
        return Err(missing());
    }
    match state.store.ensure_scoring_result(area, key).await? {
        ScoringResultCreation::NoTask => Err(missing()),
        ScoringResultCreation::NoRubric | ScoringResultCreation::Exists => Ok(()),
    }
}

/// The task a ScoringTask key from the URL names.
fn task_key(key: &Key) -> Result<TaskKey, ApiError> {
    let mut task = TaskKey {
        question_id: 0,
        result_id: 0,
    };
    for (property, value) in key_values(key)? {
        match (property.name, value) {
            ("QuestionID", Value::Int64(id)) => task.question_id = id,
            ("ResultID", Value::Int32(id)) => task.result_id = id,
            (name, value) => {
                return Err(ApiError::Internal(anyhow::anyhow!(
                    "a ScoringTask key part {name} of {value:?}"
                )))
            }
        }
    }
    Ok(task)
}

async fn put(request: &WriteRequest<'_>, writes: &mut WriteScope<'_>) -> Result<Written, ApiError> {
    let state = request.state;
    let scope = request.scope().await?;
    let task = state
        .store
        .scoring_task_at(request.area, &scope)
        .await?
        .ok_or_else(|| request.missing())?;
    let body = request.entity(&SCORING_TASKS)?;
    check_unchanged(&body, &SCORING_TASKS, &stored::task(&task), &["Status"])?;
    let status = match body.get("Status") {
        Some(Value::Int32(status)) => {
            TaskStatus::try_from(*status).map_err(ApiError::BadRequest)?
        }
        _ => {
            return Err(ApiError::bad_request(
                "ScoringTask.Status is required: a PUT carries the whole task",
            ))
        }
    };
    let area = request.area;
    let by = &request.principal.username;
    let tx = writes.tx().await?;
    if !tx.lock_result(area, task.key.result_id).await? {
        return Err(request.missing());
    }
    marking::refuse_while_waiting(tx, area, task.key).await?;
    marking::refuse_while_paused(tx, request.principal, area, task.key, status).await?;
    let copy = marking::seed_copy_at(tx, area, task.key).await?;
    if copy.is_none()
        && marking::keep_first_marking_if_chosen(tx, state, area, task.key, task.status, status, by)
            .await?
    {
        return Ok(Written::Replaced { etag: None });
    }
    match tx.set_task_status(area, task.key, status, by).await? {
        StatusChange::NoTask => Err(request.missing()),
        StatusChange::Written(_) => {
            let change = (task.status, status);
            marking::after_status(
                tx,
                state,
                request.principal,
                area,
                task.key,
                copy.as_ref(),
                change,
            )
            .await?;
            Ok(Written::Replaced { etag: None })
        }
    }
}
