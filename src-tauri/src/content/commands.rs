//! The content commands: thin wrappers that take the active server's client.

use tauri::State;
use tauri_plugin_dialog::DialogExt;

use super::PackageReport;
use crate::commands::client;
use crate::content;
use crate::error::CommandError;
use crate::state::DesktopState;

/// Sends the QTI package at `path` to the server to import, or only to preview.
#[tauri::command]
pub async fn import_qti_package(
    state: State<'_, DesktopState>,
    path: String,
    preview: bool,
) -> Result<PackageReport, CommandError> {
    content::import_package(&client(&state).await?, &path, preview).await
}

/// The system's file dialog, for a QTI package (a zip); `None` when cancelled.
#[tauri::command]
pub async fn pick_qti_package(app: tauri::AppHandle) -> Option<String> {
    let (sender, receiver) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("A QTI content package")
        .add_filter("QTI packages", &["zip"])
        .pick_file(move |picked| {
            let _ = sender.send(picked);
        });
    receiver
        .await
        .ok()
        .flatten()
        .and_then(|path| path.into_path().ok())
        .map(|path| path.display().to_string())
}
