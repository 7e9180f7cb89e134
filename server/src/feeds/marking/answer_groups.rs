//! Answer groups (docs/marking-quality.md, "Answer groups"), our extension: the
//! typed answers of a question that are the same once normalised
//! (`model::answer_groups`). `AnswersAlike` (a GET function) lists the open tasks
//! whose answer is alike a script's; a POST to `AnswerGroupMarkings` applies a
//! marked script's marks to them, each member through the same path as a PUT
//! of its Status to 3 (double marking's choice, seeds, pauses), all in one
//! transaction. `AnswerGroupMembers` keeps which tasks an application marked.
//! A scorer reads his own applications only.

use axum::response::Response;
use serde_json::{json, Value as Json};

use crate::auth::Principal;
use crate::feeds::handler::limits::*;
use crate::feeds::handler::{action_handler, write_handler};
use crate::feeds::handler::{ActionRequest, Feed, ServedAction, WriteRequest, Written};
use crate::model::access::Role;
use crate::model::answer_groups::{check_source, MarkedScript, Refusal, GROUP_LIMIT};
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::odata::edm::EdmType::{DateTime, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, Action, ComplexType, EntitySet, READ_ONLY};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::read::Constraint;
use crate::store::{AlikeTo, GroupSource, NewGroupMarking, ScoringResultCreation, StatusChange};
use crate::store::{Tx, WriteScope};

pub static ANSWER_GROUP_MARKINGS: EntitySet = EntitySet {
    name: "AnswerGroupMarkings",
    type_name: "AnswerGroupMarking",
    table: "answer_group_markings",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        // The script marked, whose marks were applied.
        prop("ResultID", "result_id", Int32, false),
        prop("RubricID", "rubric_id", Int32, false),
        prop("Marker", "marker", Str, false),
        prop("MarkedDateTime", "marked_at", DateTime, false),
        // The tasks it marked, and the open tasks alike left for another
        // application (beyond the limit of one).
        prop("Members", "members", Int32, false),
        prop("Remaining", "remaining", Int32, false),
    ],
    navigations: &[one("Question", "Questions", &[("question_id", "id")], true)],
    concurrency: None,
    filterable: &["ID", "QuestionID", "ResultID", "Marker", "MarkedDateTime"],
    media: None,
    writes: CREATE_ONLY,
};

pub static ANSWER_GROUP_MEMBERS: EntitySet = EntitySet {
    name: "AnswerGroupMembers",
    type_name: "AnswerGroupMember",
    table: "answer_group_members",
    key: &["MarkingID", "ResultID"],
    properties: &[
        prop("MarkingID", "marking_id", Int32, false),
        prop("ResultID", "result_id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        prop("Marker", "marker", Str, false),
    ],
    // No navigation: both sets are restricted for scorers, and a join from one
    // would not carry the other's restriction (feeds/catalogue.rs).
    navigations: &[],
    concurrency: None,
    filterable: &["MarkingID", "ResultID", "QuestionID", "Marker"],
    media: None,
    writes: READ_ONLY,
};

pub static MARKINGS_FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    rows_seen: Some(own_markings),
    ..Feed::read_only(&ANSWER_GROUP_MARKINGS)
};

pub static MEMBERS_FEED: Feed = Feed {
    rows_seen: Some(own_members),
    ..Feed::read_only(&ANSWER_GROUP_MEMBERS)
};

pub const ALIKE: ServedAction = ServedAction {
    action: Action {
        name: "AnswersAlike",
        binding: None,
        parameters: &[("QuestionID", "Edm.Int64"), ("ResultID", "Edm.Int32")],
        returns: Some("Collection(ScoreDesk.AnswerAlike)"),
        function: true,
    },
    invoke: action_handler!(alike),
};

pub const ALIKE_ROW: ComplexType = ComplexType {
    name: "AnswerAlike",
    properties: &[("QuestionID", "Edm.Int64"), ("ResultID", "Edm.Int32")],
};

/// A scorer reads his own applications and members: which scripts another
/// marker marked by a group says what their first marking was.
fn own_markings(principal: &Principal) -> Vec<Constraint> {
    own(principal, &ANSWER_GROUP_MARKINGS)
}

fn own_members(principal: &Principal) -> Vec<Constraint> {
    own(principal, &ANSWER_GROUP_MEMBERS)
}

fn own(principal: &Principal, set: &'static EntitySet) -> Vec<Constraint> {
    if principal.role != Role::Scorer {
        return Vec::new();
    }
    let marker = set.property("Marker").expect("the set names its marker");
    vec![Constraint::Equals(
        marker,
        Value::String(principal.username.clone()),
    )]
}

/// The open tasks the reader could mark whose answer is alike the script's,
/// by ResultID, at most [`GROUP_LIMIT`]; none for a scan, and none of a
/// question he is paused from (its open tasks are hidden from him).
async fn alike(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let question_id = request.required_int64(
        "QuestionID",
        "the question's ID, as QuestionID=2185231530100003L",
    )?;
    let result_id = request.arguments.int32("ResultID").ok_or_else(|| {
        ApiError::bad_request(
            "AnswersAlike: the parameter ResultID is required: the script's result",
        )
    })?;
    let task = TaskKey {
        question_id,
        result_id,
    };
    let store = &request.state.store;
    let reader = request.principal.username.as_str();
    let missing = || ApiError::not_found("there is no ScoringTask with that key");
    if store.task_status(request.area, task).await?.is_none()
        || store
            .seed_copy_of_another(request.area, result_id, reader)
            .await?
    {
        return Err(missing());
    }
    let paused = request.principal.role == Role::Scorer
        && store
            .paused_questions(request.area, reader)
            .await?
            .contains(&question_id);
    let rows = match store.answer_key(request.area, task).await? {
        Some(key) if !paused => {
            let to = AlikeTo {
                task,
                key: &key,
                reader,
            };
            store.answers_alike(request.area, &to, GROUP_LIMIT).await?.0
        }
        _ => Vec::new(),
    };
    let rows: Vec<Json> = rows
        .into_iter()
        .map(|id| json!({"QuestionID": question_id.to_string(), "ResultID": id}))
        .collect();
    request.returned("Collection(ScoreDesk.AnswerAlike)", Json::Array(rows))
}

/// An application from `QuestionID` and `ResultID`, the script marked; what
/// the server sets is ignored.
async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    let body = request.entity(&ANSWER_GROUP_MARKINGS)?;
    let source = super::collection_only::task_named(&body, "AnswerGroupMarking", "script marked")?;
    let (area, principal) = (request.area, request.principal);
    let by = principal.username.as_str();
    let no_task = || {
        ApiError::bad_request(format!(
            "AnswerGroupMarking names ScoringTasks(QuestionID={}L,ResultID={}), which is not a \
             ScoringTask of this customer area",
            source.question_id, source.result_id
        ))
    };
    let tx = writes.tx().await?;
    if !tx.lock_result(area, source.result_id).await? {
        return Err(no_task());
    }
    let script = tx
        .group_source(area, source)
        .await?
        .filter(|script| script.seed_for.as_deref().is_none_or(|marker| marker == by))
        .ok_or_else(no_task)?;
    super::pauses::refuse_while_paused(tx, principal, area, source, TaskStatus::Scored).await?;
    check_source(&marked_script(&script, principal)).map_err(|refusal| {
        let named = |why: String| {
            format!(
                "ScoringTasks(QuestionID={}L,ResultID={}) cannot be applied to its answer group: \
                 {why}",
                source.question_id, source.result_id
            )
        };
        match refusal {
            Refusal::Conflict(why) => ApiError::Conflict(named(why)),
            Refusal::Forbidden(why) => ApiError::Forbidden(named(why)),
        }
    })?;
    let (Some(key), Some((rubric_id, ..))) = (script.key.clone(), script.result.clone()) else {
        return Err(ApiError::Internal(anyhow::anyhow!(
            "check_source let through a script without a key or a result"
        )));
    };
    let to = AlikeTo {
        task: source,
        key: &key,
        reader: by,
    };
    let (candidates, alike) = tx.open_tasks_alike(area, &to, GROUP_LIMIT).await?;
    let mut marked = Vec::with_capacity(candidates.len());
    for result_id in candidates {
        let member = TaskKey {
            question_id: source.question_id,
            result_id,
        };
        match mark_member(tx, request, member, (&script, rubric_id)).await? {
            Member::Marked => marked.push(result_id),
            Member::Gone => {}
            Member::MarkerPaused => {
                marked.push(result_id);
                break;
            }
        }
    }
    let remaining = alike - marked.len() as i64;
    let id = tx
        .record_group_marking(
            area,
            NewGroupMarking {
                source,
                rubric_id,
                marker: by,
                members: &marked,
                remaining,
            },
        )
        .await?;
    Ok(Written::Created {
        path: EntityPath {
            set: &ANSWER_GROUP_MARKINGS,
            key: Some(parse_key(&ANSWER_GROUP_MARKINGS, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}

fn marked_script(script: &GroupSource, principal: &Principal) -> MarkedScript {
    let unscored = if script.marks.is_empty() {
        usize::from(
            script
                .result
                .as_ref()
                .is_none_or(|(_, score, _)| score.is_none()),
        )
    } else {
        script
            .marks
            .iter()
            .filter(|(_, score, _)| score.is_none())
            .count()
    };
    MarkedScript {
        status: script.status,
        typed: script.key.is_some(),
        has_result: script.result.is_some(),
        unscored,
        rubric_current: script.result.as_ref().map(|(rubric, ..)| *rubric) == script.current_rubric,
        marked_by_reader: script.marked_by.as_deref() == Some(principal.username.as_str()),
        reader_is_scorer: principal.role == Role::Scorer,
    }
}

/// What applying the marks to one member did.
enum Member {
    Marked,
    /// Taken, scored or removed since the group was read: left as it is.
    Gone,
    /// Marked, and it was the marker's seed copy, whose marking paused him:
    /// the rest of the group waits until he is released.
    MarkerPaused,
}

/// Marks `member` as the script is marked and sets it to 3 as a PUT of its
/// Status would, under its result's lock; one scored against another rubric
/// version than the script's is left as it is.
async fn mark_member(
    tx: &mut Tx,
    request: &WriteRequest<'_>,
    member: TaskKey,
    (script, rubric_id): (&GroupSource, i32),
) -> Result<Member, ApiError> {
    let (state, area, principal) = (request.state, request.area, request.principal);
    let by = principal.username.as_str();
    if !tx.lock_result(area, member.result_id).await?
        || tx.task_status(area, member).await? != Some(TaskStatus::Unscored)
        || tx.ensure_scoring_result(area, member).await? != ScoringResultCreation::Exists
        || tx.scored_against(area, member).await? != Some(rubric_id)
    {
        return Ok(Member::Gone);
    }
    tx.write_group_marks(area, member, script).await?;
    let copy = super::seeding::seed_copy_at(tx, area, member).await?;
    let (from, to) = (TaskStatus::Unscored, TaskStatus::Scored);
    if copy.is_none()
        && super::double_marking::keep_first_marking_if_chosen(
            tx, state, area, member, from, to, by,
        )
        .await?
    {
        return Ok(Member::Marked);
    }
    if tx.set_task_status(area, member, to, by).await? == StatusChange::NoTask {
        return Ok(Member::Gone);
    }
    super::seeding::after_status(
        tx,
        state,
        principal,
        area,
        member,
        copy.as_ref(),
        (from, to),
    )
    .await?;
    if copy.is_some() && tx.open_pause(area, member.question_id, by).await?.is_some() {
        return Ok(Member::MarkerPaused);
    }
    Ok(Member::Marked)
}
