//! The content commands: thin wrappers that take the active server's client.

use tauri::State;

use super::{
    PackageReport, RegradeDone, RegradePlan, RegradeRequest, RubricForm, RubricQuestion,
    SavedRubric,
};
use crate::content;
use crate::error::CommandError;
use crate::file_dialog;
use crate::state::DesktopState;

/// Sends the QTI package at `path` to the server to import, or only to preview.
#[tauri::command]
pub async fn import_qti_package(
    state: State<'_, DesktopState>,
    path: String,
    preview: bool,
) -> Result<PackageReport, CommandError> {
    content::import_package(&state.connected_client().await?, &path, preview).await
}

/// The system's file dialog, for a QTI package (a zip) or a Moodle XML bank (or a
/// bare QTI 1.2 file); `None` when cancelled.
#[tauri::command]
pub async fn pick_qti_package(app: tauri::AppHandle) -> Option<String> {
    file_dialog::pick_file(
        &app,
        "A QTI content package or a Moodle XML bank",
        "QTI packages and Moodle banks",
        &["zip", "xml"],
    )
    .await
}

/// The essays of an assessment, each with its current rubric.
#[tauri::command]
pub async fn rubric_questions(
    state: State<'_, DesktopState>,
    assessment_id: String,
) -> Result<Vec<RubricQuestion>, CommandError> {
    content::rubric_questions(&state.connected_client().await?, &assessment_id).await
}

/// A question's rubric as the editor holds it (a new one if it has none).
#[tauri::command]
pub async fn rubric_form(
    state: State<'_, DesktopState>,
    question_id: String,
) -> Result<RubricForm, CommandError> {
    content::rubric_form(&state.connected_client().await?, &question_id).await
}

/// Saves the form as its question's new rubric.
#[tauri::command]
pub async fn save_rubric(
    state: State<'_, DesktopState>,
    form: RubricForm,
) -> Result<SavedRubric, CommandError> {
    content::save_rubric(&state.connected_client().await?, &form).await
}

/// What regrading the scripts of rubric `from` onto `to` would move.
#[tauri::command]
pub async fn regrade_plan(
    state: State<'_, DesktopState>,
    from: i64,
    to: i64,
) -> Result<RegradePlan, CommandError> {
    content::regrade_plan(&state.connected_client().await?, from, to).await
}

/// Regrades, with the count and maps the author confirmed.
#[tauri::command]
pub async fn regrade_scripts(
    state: State<'_, DesktopState>,
    request: RegradeRequest,
) -> Result<RegradeDone, CommandError> {
    content::regrade(&state.connected_client().await?, &request).await
}
