//! `MarkerPauses` and `MarkerReleases` (docs/marking-quality.md, "Pauses"): a
//! marker whose latest seeds of a question leave the plan's tolerance is paused
//! from it (`seeding.rs` makes the pause as he scores a seed). While he is, his
//! reads of ScoringTasks leave out the question's open tasks, and taking or
//! scoring one of its tasks answers 403 with the pause's message; handing one
//! back (to 0) still works. He reads his own pauses, with their message; a lead
//! reads every pause and releases one once (POST to `MarkerReleases`); the seeds
//! weighed next are those marked after it.

use crate::auth::Principal;
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{Feed, WriteRequest, Written};
use crate::model::access::Role;
use crate::model::area::CustomerArea;
use crate::model::pauses::release_note;
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::odata::edm::EdmType::{Boolean, DateTime, Double, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet, READ_ONLY};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::read::Constraint;
use crate::store::{Tx, WriteScope};

pub static MARKER_PAUSES: EntitySet = EntitySet {
    name: "MarkerPauses",
    type_name: "MarkerPause",
    table: "marker_pauses",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        prop("Marker", "marker", Str, false),
        // The seeds weighed, their mean distance from the definitive marks and
        // the tolerance it was beyond.
        prop("SeedsCounted", "seeds_counted", Int32, false),
        prop("MeanDeviation", "mean_deviation", Double, false),
        prop("Tolerance", "tolerance", Int32, false),
        // What the marker is told.
        prop("Message", "message", Str, false),
        prop("PausedDateTime", "paused_at", DateTime, false),
        // Until a lead releases him (MarkerReleases).
        prop("IsOpen", "is_open", Boolean, false),
    ],
    navigations: &[
        one("Question", "Questions", &[("question_id", "id")], true),
        one("Release", "MarkerReleases", &[("id", "pause_id")], false),
    ],
    concurrency: None,
    filterable: &["ID", "QuestionID", "Marker", "IsOpen", "PausedDateTime"],
    media: None,
    writes: READ_ONLY,
};

/// A lead's release of a pause, keyed by the pause's ID.
pub static MARKER_RELEASES: EntitySet = EntitySet {
    name: "MarkerReleases",
    type_name: "MarkerRelease",
    table: "marker_releases",
    key: &["PauseID"],
    properties: &[
        prop("PauseID", "pause_id", Int32, false),
        prop("Note", "note", Str, false).max_length(RELEASE_NOTE_LENGTH),
        prop("ReleasedBy", "released_by", Str, false),
        prop("ReleasedDateTime", "released_at", DateTime, false),
    ],
    // No navigation to the pause: a scorer reads his own pauses only, and a set
    // reached from one no scorer reads would let a $filter through it see them
    // all (feeds/catalogue.rs). PauseID is the pause's ID.
    navigations: &[],
    concurrency: None,
    filterable: &["PauseID", "ReleasedBy", "ReleasedDateTime"],
    media: None,
    writes: CREATE_ONLY,
};

pub static PAUSES_FEED: Feed = Feed {
    rows_seen: Some(own_pauses),
    ..Feed::read_only(&MARKER_PAUSES)
};

/// A scorer reads his own pauses (his desk shows him why a question's tasks are
/// gone); a lead and an administrator, all.
fn own_pauses(principal: &Principal) -> Vec<Constraint> {
    if principal.role != Role::Scorer {
        return Vec::new();
    }
    let marker = MARKER_PAUSES
        .property("Marker")
        .expect("a pause names its marker");
    vec![Constraint::Equals(
        marker,
        Value::String(principal.username.clone()),
    )]
}

pub static RELEASES_FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    ..Feed::read_only(&MARKER_RELEASES)
};

/// Refuses `principal` taking or scoring `task` (any change but back to 0) while
/// he is paused from its question, with the pause's message.
pub async fn refuse_while_paused(
    tx: &mut Tx,
    principal: &Principal,
    area: CustomerArea,
    task: TaskKey,
    status: TaskStatus,
) -> Result<(), ApiError> {
    if principal.role != Role::Scorer || status == TaskStatus::Unscored {
        return Ok(());
    }
    match tx
        .open_pause(area, task.question_id, &principal.username)
        .await?
    {
        Some(pause) => Err(ApiError::Forbidden(pause.message)),
        None => Ok(()),
    }
}

/// A release from `PauseID` and `Note`; `ReleasedBy` and the time are the
/// server's.
async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    let body = request.entity(&MARKER_RELEASES)?;
    let pause_id = match body.get("PauseID") {
        Some(Value::Int32(id)) => *id,
        _ => {
            return Err(ApiError::bad_request(
                "MarkerRelease.PauseID is required: the ID of the pause released",
            ))
        }
    };
    let note = release_note(match body.get("Note") {
        Some(Value::String(note)) => Some(note.as_str()),
        _ => None,
    })
    .map_err(ApiError::BadRequest)?;
    let tx = writes.tx().await?;
    match tx
        .release_pause(request.area, pause_id, &note, &request.principal.username)
        .await?
    {
        None => Err(ApiError::bad_request(format!(
            "MarkerRelease.PauseID is {pause_id}, which is not a pause of this customer area"
        ))),
        Some(false) => Err(ApiError::Conflict(format!(
            "MarkerPauses({pause_id}) is released already: a pause has one release, \
             MarkerReleases({pause_id})"
        ))),
        Some(true) => Ok(Written::Created {
            path: EntityPath {
                set: &MARKER_RELEASES,
                key: Some(parse_key(&MARKER_RELEASES, &pause_id.to_string())?),
                steps: Vec::new(),
                suffix: Suffix::None,
                links: false,
            },
            key: pause_id.to_string(),
        }),
    }
}
