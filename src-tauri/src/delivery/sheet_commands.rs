//! The coordinator's commands for answer sheets (docs/desktop.md, "Answer
//! sheets"): print them, read scans back, decide what the reader was unsure of,
//! type what is written in short answers' boxes, upload the attempts.

use serde::Serialize;
use tauri::ipc::Channel;
use tauri::State;
use ts_rs::TS;

use super::sheets::{HeldSheets, SheetScanReport, SheetUpload};
use crate::delivery;
use crate::error::CommandError;
use crate::file_dialog::{pick_paths, FileKind};
use crate::state::DesktopState;

/// Pages read so far, of how many.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ScanProgress {
    pub done: u32,
    pub total: u32,
}

/// Opens a print batch's answer sheets in a print window; the window's label.
#[tauri::command]
pub async fn open_answer_sheets(
    app: tauri::AppHandle,
    state: State<'_, DesktopState>,
    batch_id: String,
) -> Result<String, CommandError> {
    crate::print::open_answer_sheets(&app, &state.connected_client().await?, &batch_id).await
}

/// Reads scanned sheets (files, or folders of them) of a print batch.
#[tauri::command]
pub async fn read_sheet_scans(
    state: State<'_, DesktopState>,
    held: State<'_, HeldSheets>,
    batch_id: String,
    paths: Vec<String>,
    progress: Channel<ScanProgress>,
) -> Result<SheetScanReport, CommandError> {
    let client = state.connected_client().await?;
    delivery::sheets::read_sheet_scans(&client, &held, &batch_id, paths, move |done, total| {
        let _ = progress.send(ScanProgress { done, total });
    })
    .await
}

/// The coordinator's decision on an unsure question (or a matching's row:
/// `part` > 0): the choices marked (none: `[]`).
#[tauri::command]
pub fn decide_sheet_doubt(
    held: State<'_, HeldSheets>,
    attempt_id: i32,
    question: i32,
    part: i32,
    choices: Vec<i32>,
) -> Result<(), CommandError> {
    held.decide(attempt_id, question, part, choices)
}

/// What the coordinator read in a short answer's box (a blank's: `part` > 0),
/// typed (`""`: nothing written).
#[tauri::command]
pub fn transcribe_sheet_answer(
    held: State<'_, HeldSheets>,
    attempt_id: i32,
    question: i32,
    part: i32,
    text: String,
) -> Result<(), CommandError> {
    held.transcribe(attempt_id, question, part, &text)
}

/// Uploads every attempt read whose doubts are all decided.
#[tauri::command]
pub async fn upload_sheet_readings(
    state: State<'_, DesktopState>,
    held: State<'_, HeldSheets>,
) -> Result<Vec<SheetUpload>, CommandError> {
    delivery::sheets::upload_sheet_readings(&state.connected_client().await?, &held).await
}

/// Scans chosen in the system's dialog: image files or a scanner's PDFs, or a
/// folder of them.
#[tauri::command]
pub async fn pick_scans(app: tauri::AppHandle, folder: bool) -> Vec<String> {
    let kind = FileKind {
        folder_title: "A folder of scans",
        files_title: "Scanned answer sheets",
        extensions: &["png", "jpg", "jpeg", "tif", "tiff", "pdf"],
    };
    pick_paths(&app, folder, &kind).await
}
