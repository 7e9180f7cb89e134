//! `ImportRoster` (our extension, docs/rosters.md): a school's roster sent whole,
//! as base64 (a OneRoster bulk export's zip, or a plain CSV), brought into the
//! caller's area by an administrator, or previewed (applied, counted and rolled
//! back). A malformed file is a 400 naming its file, line and column; a record
//! that conflicts with what the area holds is a 409 naming both; either way
//! nothing is stored. The command line's `import roster` does the same.

use axum::response::Response;
use serde_json::json;

use crate::feeds::handler::ActionRequest;
use crate::import::{self, Mode, RosterError, RosterReport};
use crate::odata::ApiError;

pub async fn import_roster(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let roster = request
        .arguments
        .binary("Roster")
        .ok_or_else(|| {
            ApiError::bad_request(
                "ImportRoster: the parameter Roster is required: the OneRoster export's zip or the plain CSV, in base64",
            )
        })?
        .to_vec();
    let file = request
        .arguments
        .text("FileName")
        .and_then(|name| name.rsplit(['/', '\\']).next())
        .filter(|name| !name.is_empty())
        .unwrap_or("the roster")
        .to_owned();
    let mode = if request.arguments.boolean("Preview").unwrap_or(false) {
        Mode::Preview
    } else {
        Mode::Commit
    };
    let report =
        import::import_roster_bytes(&request.state.store, request.area, file, roster, mode)
            .await
            .map_err(|error| match error {
                RosterError::File(problem) => {
                    ApiError::bad_request(format!("ImportRoster: {problem}"))
                }
                RosterError::Conflict(conflict) => {
                    ApiError::Conflict(format!("ImportRoster: {conflict}"))
                }
                RosterError::Store(error) => ApiError::from(error),
            })?;
    request.returned("ScoreDesk.RosterImportReport", report_json(&report))
}

/// The report in `ScoreDesk.RosterImportReport`'s shape.
fn report_json(report: &RosterReport) -> serde_json::Value {
    let c = &report.counts;
    let not_participants: Vec<_> = report
        .not_participants
        .iter()
        .map(|(role, count)| json!({"Role": role, "Count": count}))
        .collect();
    json!({
        "Preview": report.preview,
        "Format": report.format,
        "ParticipantsCreated": c.participants_created,
        "ParticipantsUpdated": c.participants_updated,
        "ParticipantsUnchanged": c.participants_unchanged,
        "GroupsCreated": c.groups_created,
        "GroupsUpdated": c.groups_updated,
        "GroupsUnchanged": c.groups_unchanged,
        "MembershipsAdded": c.memberships_added,
        "MembershipsRemoved": c.memberships_removed,
        "ParticipantsLeft": c.participants_left,
        "GroupsEmptied": c.groups_emptied,
        "NotParticipants": not_participants,
    })
}
