//! The people desk's commands: thin wrappers that take the active server's client.

use tauri::State;

use super::{PeopleDirectory, PersonCard, PersonForm, RosterReport};
use crate::error::CommandError;
use crate::file_dialog;
use crate::people;
use crate::state::DesktopState;

/// Sends the roster at `path` to the server to import, or only to preview.
#[tauri::command]
pub async fn import_roster(
    state: State<'_, DesktopState>,
    path: String,
    preview: bool,
) -> Result<RosterReport, CommandError> {
    people::import_roster(&state.connected_client().await?, &path, preview).await
}

/// The system's file dialog, for a roster (a OneRoster zip or a CSV); `None` when
/// cancelled.
#[tauri::command]
pub async fn pick_roster(app: tauri::AppHandle) -> Option<String> {
    let title = "A roster: a OneRoster export (zip) or a CSV";
    file_dialog::pick_file(&app, title, "Rosters", &["zip", "csv", "txt"]).await
}

/// The area's participants and groups.
#[tauri::command]
pub async fn people_directory(
    state: State<'_, DesktopState>,
) -> Result<PeopleDirectory, CommandError> {
    people::people_directory(&state.connected_client().await?).await
}

/// One participant with their groups, attempts and results.
#[tauri::command]
pub async fn person_card(
    state: State<'_, DesktopState>,
    participant_id: String,
) -> Result<PersonCard, CommandError> {
    people::person_card(&state.connected_client().await?, &participant_id).await
}

/// Adds or changes a participant and their groups; their ID.
#[tauri::command]
pub async fn save_person(
    state: State<'_, DesktopState>,
    form: PersonForm,
) -> Result<String, CommandError> {
    people::save_person(&state.connected_client().await?, &form).await
}

/// Opens (or brings back) a group's class list in a print window.
#[tauri::command]
pub async fn open_class_list(
    app: tauri::AppHandle,
    state: State<'_, DesktopState>,
    group_id: String,
) -> Result<String, CommandError> {
    crate::print::open_class_list(&app, &state.connected_client().await?, &group_id).await
}
