//! The system's file dialogs, as the desks ask for them: one file to open, files
//! or a folder, a place to save. Each answers once the person has chosen; `None`
//! (or nothing) when they cancel.

use tauri_plugin_dialog::{DialogExt, FilePath};

/// What a chooser of several files offers: its titles, and the files' extensions.
pub struct FileKind {
    pub folder_title: &'static str,
    pub files_title: &'static str,
    pub extensions: &'static [&'static str],
}

fn shown(path: FilePath) -> Option<String> {
    path.into_path().ok().map(|path| path.display().to_string())
}

/// One file to open, of the `filter` kind (`extensions`).
pub async fn pick_file(
    app: &tauri::AppHandle,
    title: &str,
    filter: &str,
    extensions: &[&str],
) -> Option<String> {
    let (sender, receiver) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title(title)
        .add_filter(filter, extensions)
        .pick_file(move |picked| {
            let _ = sender.send(picked);
        });
    receiver.await.ok().flatten().and_then(shown)
}

/// Files of `kind`, or one folder (`folder`); the paths chosen.
pub async fn pick_paths(app: &tauri::AppHandle, folder: bool, kind: &FileKind) -> Vec<String> {
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let chooser = app.dialog().file();
    if folder {
        chooser
            .set_title(kind.folder_title)
            .pick_folder(move |picked| {
                let _ = sender.send(picked.into_iter().collect::<Vec<_>>());
            });
    } else {
        chooser
            .set_title(kind.files_title)
            .add_filter(kind.files_title, kind.extensions)
            .pick_files(move |picked| {
                let _ = sender.send(picked.unwrap_or_default());
            });
    }
    receiver
        .await
        .unwrap_or_default()
        .into_iter()
        .filter_map(shown)
        .collect()
}

/// Where to save a file, proposing `file_name`.
pub async fn save_path(
    app: &tauri::AppHandle,
    title: &str,
    file_name: String,
    filter: &str,
    extensions: &[&str],
) -> Option<String> {
    let (sender, receiver) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title(title)
        .set_file_name(file_name)
        .add_filter(filter, extensions)
        .save_file(move |chosen| {
            let _ = sender.send(chosen);
        });
    receiver.await.ok().flatten().and_then(shown)
}
