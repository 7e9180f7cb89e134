//! `PUT`, `PATCH` and `MERGE Results(<id>)` (spec, Results feed): only `Status`,
//! along the permitted transitions (model::result_status), and `ExtraTime` change.
//! Any other property sent must be its stored value (a client sends back the whole
//! entity it read); a different one is a 400 naming it. Administrators only
//! (routing's access decision).

use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::model::result_status::{check_extra_time, check_transition};
use crate::odata::edm::EdmType::{Boolean, DateTime, Int16, Int32, Int64, String as Str};
use crate::odata::model::{many, one, prop, EntitySet, Verb, Writes};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::WriteScope;

pub static RESULTS: EntitySet = EntitySet {
    name: "Results",
    type_name: "Result",
    table: "results",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("AssessmentID", "assessment_id", Int64, false),
        prop("ParticipantName", "participant_name", Str, true),
        prop("GroupName", "group_name", Str, true),
        prop("TestCenterName", "test_center_name", Str, true),
        prop("ParticipantDetails", "participant_details", Str, true),
        prop("Status", "status", Int16, false),
        prop("MaxScore", "max_score", Int32, false),
        prop("TotalScore", "total_score", Int32, false),
        prop("ScoreBandTitle", "score_band_title", Str, true),
        prop("PercentageScore", "percentage_score", Int16, false),
        prop("WhenFinished", "when_finished", DateTime, true),
        prop("WhenStarted", "when_started", DateTime, true),
        prop("ExtraTime", "extra_time", Int32, false),
        prop("Special1", "special1", Str, true),
        prop("Special2", "special2", Str, true),
        prop("Special3", "special3", Str, true),
        prop("Special4", "special4", Str, true),
        prop("Special5", "special5", Str, true),
        prop("Special6", "special6", Str, true),
        prop("Special7", "special7", Str, true),
        prop("Special8", "special8", Str, true),
        prop("Special9", "special9", Str, true),
        prop("Special10", "special10", Str, true),
        prop("StillGoing", "still_going", Boolean, false),
        prop("TimeTaken", "time_taken", Int32, false),
        prop("ScheduleName", "schedule_name", Str, true),
        prop("FirstName", "first_name", Str, true),
        prop("LastName", "last_name", Str, true),
        prop("Language", "language", Str, true),
        prop("AttemptId", "attempt_id", Int32, true),
        prop("ExternalResultID", "external_result_id", Str, true),
        prop("ExternalResultInfo", "external_result_info", Str, true),
    ],
    navigations: &[
        one(
            "Assessment",
            "Assessments",
            &[("assessment_id", "id")],
            true,
        ),
        many("Answers", "Answers", &[("id", "result_id")]),
        many("ScoringTasks", "ScoringTasks", &[("id", "result_id")]),
        one("Attempt", "Attempts", &[("attempt_id", "id")], false),
        many("TopicScores", "TopicScores", &[("id", "result_id")]),
    ],
    concurrency: None,
    filterable: &[
        "ID",
        "AssessmentID",
        "ParticipantName",
        "GroupName",
        "WhenFinished",
    ],
    media: None,
    writes: Writes {
        // Spec, Results feed: "Only Status and ExtraTime may be changed", by PATCH,
        // MERGE or PUT; purges are actions.
        entity: &[Verb::Put, Verb::Patch, Verb::Merge],
        collection: &[],
        links: &[],
    },
};

/// PUT, PATCH and MERGE alike: the body names what changes.
pub static FEED: Feed = Feed {
    put: Some(write_handler!(write)),
    merge: Some(write_handler!(write)),
    ..Feed::read_only(&RESULTS)
};

async fn write(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    if !request.path.steps.is_empty() {
        return Err(ApiError::bad_request(
            "a result is changed at Results(<id>), not through a navigation",
        ));
    }
    let body = request.entity(&RESULTS)?;
    let stored = stored_values(request).await?;
    check_unchanged(&body, &RESULTS, &stored, &["Status", "ExtraTime"])?;
    let id = match stored.iter().find(|(name, _)| *name == "ID") {
        Some((_, Value::Int32(id))) => *id,
        _ => return Err(request.missing()),
    };
    let status = match body.get("Status") {
        None => None,
        Some(Value::Int16(status)) => Some(*status),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Result.Status must be a number (1 running, 6 paused, 7 terminated)",
            ))
        }
    };
    let extra_time = match body.get("ExtraTime") {
        None => None,
        Some(Value::Int32(seconds)) => {
            check_extra_time(*seconds).map_err(ApiError::bad_request)?;
            Some(*seconds)
        }
        Some(_) => {
            return Err(ApiError::bad_request(
                "Result.ExtraTime must be a whole number of seconds",
            ))
        }
    };
    let tx = writes.tx().await?;
    // The status is read again under the result's lock: two administrators
    // changing one result at once see each other's change.
    let current = tx
        .result_status_for_update(request.area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    if let Some(status) = status {
        check_transition(current, status).map_err(ApiError::bad_request)?;
    }
    tx.change_result(request.area, id, status, extra_time)
        .await?;
    Ok(Written::Replaced { etag: None })
}

/// The result's stored properties, as a read of it returns them.
async fn stored_values(request: &WriteRequest<'_>) -> Result<Vec<(&'static str, Value)>, ApiError> {
    request.stored_values(&RESULTS).await
}
