//! The coordinator's commands (docs/desktop.md, "Delivery"): thin wrappers that
//! take the active server's client and call this module's functions.

use tauri::ipc::Channel;
use tauri::State;

use super::{
    AdminResult, AnswerFiles, AttemptsProgress, AttemptsSummary, AuditEntry, BatchAttempt,
    BatchResult, DeliveryAssessment, DeliveryGroup, PrintBatch, PurgePlan, PurgeTarget, Snapshot,
    UploadOutcome,
};
use crate::delivery;
use crate::error::CommandError;
use crate::file_dialog::{self, FileKind};
use crate::state::DesktopState;

/// Whether this account may use the coordinator's screens (the delivery feeds).
#[tauri::command]
pub async fn delivery_access(state: State<'_, DesktopState>) -> Result<bool, CommandError> {
    delivery::delivery_access(&state.connected_client().await?).await
}

/// The area's assessments, for the coordinator's screens.
#[tauri::command]
pub async fn delivery_assessments(
    state: State<'_, DesktopState>,
) -> Result<Vec<DeliveryAssessment>, CommandError> {
    delivery::delivery_assessments(&state.connected_client().await?).await
}

/// The snapshots of an assessment, newest first.
#[tauri::command]
pub async fn snapshots(
    state: State<'_, DesktopState>,
    assessment_id: String,
) -> Result<Vec<Snapshot>, CommandError> {
    delivery::snapshots(&state.connected_client().await?, &assessment_id).await
}

/// Renames a snapshot or a print batch.
#[tauri::command]
pub async fn rename_made(
    state: State<'_, DesktopState>,
    made: delivery::Made,
    id: String,
    name: String,
) -> Result<(), CommandError> {
    delivery::retire::rename(&state.connected_client().await?, made, &id, &name).await
}

/// Deletes a snapshot or a print batch that nothing uses (the server says what does).
#[tauri::command]
pub async fn delete_made(
    state: State<'_, DesktopState>,
    made: delivery::Made,
    id: String,
) -> Result<(), CommandError> {
    delivery::retire::delete(&state.connected_client().await?, made, &id).await
}

/// Takes a snapshot of an assessment (`expires`: a day, `YYYY-MM-DD`, or none).
#[tauri::command]
pub async fn create_snapshot(
    state: State<'_, DesktopState>,
    assessment_id: String,
    name: String,
    expires: Option<String>,
) -> Result<Snapshot, CommandError> {
    delivery::create_snapshot(
        &state.connected_client().await?,
        &assessment_id,
        &name,
        expires.as_deref(),
    )
    .await
}

/// Opens a result's marked script in a window of its own, through a link read
/// just now; returns the window's label.
#[tauri::command]
pub async fn open_marked_script(
    app: tauri::AppHandle,
    state: State<'_, DesktopState>,
    result_id: String,
) -> Result<String, CommandError> {
    crate::print::open_marked_script(&app, &state.connected_client().await?, &result_id).await
}

/// Opens a snapshot's printable page (or its answer key) in a window of its own,
/// through a link read just now; returns the window's label.
#[tauri::command]
pub async fn open_printable(
    app: tauri::AppHandle,
    state: State<'_, DesktopState>,
    snapshot_id: String,
    answer_key: bool,
) -> Result<String, CommandError> {
    crate::print::open_printable(
        &app,
        &state.connected_client().await?,
        &snapshot_id,
        answer_key,
    )
    .await
}

/// The area's groups, for a new print batch.
#[tauri::command]
pub async fn delivery_groups(
    state: State<'_, DesktopState>,
) -> Result<Vec<DeliveryGroup>, CommandError> {
    delivery::delivery_groups(&state.connected_client().await?).await
}

/// The print batches of a snapshot, newest first.
#[tauri::command]
pub async fn print_batches(
    state: State<'_, DesktopState>,
    snapshot_id: String,
) -> Result<Vec<PrintBatch>, CommandError> {
    delivery::print_batches(&state.connected_client().await?, &snapshot_id).await
}

/// Makes a print batch of a group for a snapshot.
#[tauri::command]
pub async fn create_print_batch(
    state: State<'_, DesktopState>,
    snapshot_id: String,
    group_id: String,
    name: String,
) -> Result<PrintBatch, CommandError> {
    delivery::create_print_batch(
        &state.connected_client().await?,
        &snapshot_id,
        &group_id,
        &name,
    )
    .await
}

/// A batch's participants with their attempts and results.
#[tauri::command]
pub async fn batch_attempts(
    state: State<'_, DesktopState>,
    batch_id: String,
) -> Result<Vec<BatchAttempt>, CommandError> {
    delivery::batch_attempts(&state.connected_client().await?, &batch_id).await
}

/// Makes an attempt for each of the batch's participants without one, reporting
/// progress on `progress`.
#[tauri::command]
pub async fn create_attempts(
    state: State<'_, DesktopState>,
    batch_id: String,
    progress: Channel<AttemptsProgress>,
) -> Result<AttemptsSummary, CommandError> {
    delivery::create_attempts(&state.connected_client().await?, &batch_id, &progress).await
}

/// The answer files among chosen or dropped paths (a folder for its `.json` files).
#[tauri::command]
pub fn answer_files(paths: Vec<String>) -> AnswerFiles {
    delivery::answer_files(&paths)
}

/// Posts one answer file; its outcome, never an error: a refusal is an outcome.
#[tauri::command]
pub async fn upload_answer_file(
    state: State<'_, DesktopState>,
    path: String,
) -> Result<UploadOutcome, CommandError> {
    Ok(delivery::upload_answer_file(&state.connected_client().await?, &path).await)
}

/// The system's file chooser: answer files, or one folder of them. None if the
/// coordinator cancels.
#[tauri::command]
pub async fn pick_answer_files(app: tauri::AppHandle, folder: bool) -> Vec<String> {
    let kind = FileKind {
        folder_title: "A folder of answer files",
        files_title: "Answer files",
        extensions: &["json"],
    };
    file_dialog::pick_paths(&app, folder, &kind).await
}

/// The Results with these IDs: score, band, status and the questions still open.
#[tauri::command]
pub async fn batch_results(
    state: State<'_, DesktopState>,
    result_ids: Vec<String>,
) -> Result<Vec<BatchResult>, CommandError> {
    delivery::batch_results(&state.connected_client().await?, &result_ids).await
}

/// The question of a Result's first task a scorer can take now, if any.
#[tauri::command]
pub async fn first_scorable_task(
    state: State<'_, DesktopState>,
    result_id: String,
) -> Result<Option<String>, CommandError> {
    delivery::first_scorable_task(&state.connected_client().await?, &result_id).await
}

/// An assessment's results, newest first, for administrators.
#[tauri::command]
pub async fn assessment_results(
    state: State<'_, DesktopState>,
    assessment_id: String,
) -> Result<Vec<AdminResult>, CommandError> {
    delivery::assessment_results(&state.connected_client().await?, &assessment_id).await
}

/// Pauses, resumes or terminates a result (`status`), or sets its extra time.
#[tauri::command]
pub async fn change_result(
    state: State<'_, DesktopState>,
    result_id: String,
    status: Option<i64>,
    extra_time: Option<i64>,
) -> Result<AdminResult, CommandError> {
    delivery::change_result(
        &state.connected_client().await?,
        &result_id,
        status,
        extra_time,
    )
    .await
}

/// What a purge would remove, counted now, for its confirmation.
#[tauri::command]
pub async fn purge_plan(
    state: State<'_, DesktopState>,
    target: PurgeTarget,
) -> Result<PurgePlan, CommandError> {
    delivery::purge_plan(&state.connected_client().await?, target).await
}

/// Asks for a purge; the audit log entry that follows it.
#[tauri::command]
pub async fn purge(
    state: State<'_, DesktopState>,
    target: PurgeTarget,
) -> Result<AuditEntry, CommandError> {
    delivery::purge(&state.connected_client().await?, &target).await
}

/// One audit log entry, read now.
#[tauri::command]
pub async fn audit_entry(
    state: State<'_, DesktopState>,
    id: String,
) -> Result<AuditEntry, CommandError> {
    delivery::audit_entry(&state.connected_client().await?, &id).await
}

/// The latest audit log entries.
#[tauri::command]
pub async fn audit_log(state: State<'_, DesktopState>) -> Result<Vec<AuditEntry>, CommandError> {
    delivery::audit_log(&state.connected_client().await?).await
}

/// Saves a snapshot's open print window (its paper, or its answer key) as a PDF
/// at `path`, as its menu's Save as PDF does after asking where.
#[tauri::command]
pub async fn save_printable_pdf(
    app: tauri::AppHandle,
    snapshot_id: String,
    answer_key: bool,
    path: String,
) -> Result<(), CommandError> {
    crate::print::save_printable_pdf(&app, &snapshot_id, answer_key, std::path::Path::new(&path))
        .await
}

/// An assessment's marking progress and item analysis, computed now.
#[tauri::command]
pub async fn assessment_figures(
    state: State<'_, DesktopState>,
    assessment_id: String,
) -> Result<delivery::Figures, CommandError> {
    delivery::assessment_figures(&state.connected_client().await?, &assessment_id).await
}

/// The system's "Save as" for an assessment's results in `format`; None if the
/// coordinator cancels.
#[tauri::command]
pub async fn choose_results_path(
    app: tauri::AppHandle,
    assessment_name: String,
    format: String,
) -> Option<String> {
    let extension = delivery::EXPORT_FORMATS
        .iter()
        .find(|(name, _)| *name == format)
        .map_or("csv", |(_, extension)| *extension);
    let safe: String = assessment_name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == ' ' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let file_name = format!("{} results.{extension}", safe.trim());
    file_dialog::save_path(
        &app,
        "Save the results as",
        file_name,
        &format,
        &[extension],
    )
    .await
}

/// Saves an assessment's results in `format` (csv, xlsx, oneroster) at `path`.
#[tauri::command]
pub async fn save_results(
    state: State<'_, DesktopState>,
    assessment_id: String,
    format: String,
    path: String,
) -> Result<(), CommandError> {
    delivery::save_results(
        &state.connected_client().await?,
        &assessment_id,
        &format,
        std::path::Path::new(&path),
    )
    .await
}
