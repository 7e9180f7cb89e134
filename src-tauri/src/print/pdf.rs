//! "Save as PDF" for a print window: the page printed by WebKitGTK's own print
//! operation to GTK's file printer, as PDF on A4, without a dialog, so the PDF is
//! the page exactly as the print dialog would print it. Linux only; elsewhere the
//! system print dialog's own PDF choice is the way.

use std::path::Path;

use tauri::{Runtime, Url, WebviewWindow};

use crate::error::CommandError;

/// Prints the page shown in `window` to `path` as a PDF; returns when the file is
/// written.
#[cfg(target_os = "linux")]
pub async fn save_pdf<R: Runtime>(
    window: &WebviewWindow<R>,
    path: &Path,
) -> Result<(), CommandError> {
    use std::sync::{Arc, Mutex};

    use webkit2gtk::{PrintOperation, PrintOperationExt};

    let uri = Url::from_file_path(path)
        .map_err(|_| CommandError::InvalidInput(format!("{}: not a full path.", path.display())))?
        .to_string();
    let (sender, receiver) = tokio::sync::oneshot::channel::<Result<(), String>>();
    let sender = Arc::new(Mutex::new(Some(sender)));
    let done = move |outcome: Result<(), String>| {
        if let Some(sender) = sender.lock().ok().and_then(|mut s| s.take()) {
            let _ = sender.send(outcome);
        }
    };
    window
        .with_webview(move |platform| {
            let settings = gtk::PrintSettings::new();
            // GTK's file backend: its printer is named so (untranslated in the C
            // and English locales the app runs under in tests).
            settings.set_printer("Print to File");
            settings.set(gtk::PRINT_SETTINGS_OUTPUT_FILE_FORMAT, Some("pdf"));
            settings.set(gtk::PRINT_SETTINGS_OUTPUT_URI, Some(&uri));
            let page = gtk::PageSetup::new();
            page.set_paper_size(&gtk::PaperSize::new(Some(gtk::PAPER_NAME_A4.as_str())));
            let operation = PrintOperation::new(&platform.inner());
            operation.set_print_settings(&settings);
            operation.set_page_setup(&page);
            let finished = done.clone();
            operation.connect_finished(move |_| finished(Ok(())));
            operation.connect_failed(move |_, error| done(Err(error.to_string())));
            operation.print();
        })
        .map_err(|e| CommandError::Server(format!("The print window cannot print: {e}")))?;
    receiver
        .await
        .map_err(|_| CommandError::Server("The PDF was never finished.".into()))?
        .map_err(|e| CommandError::Server(format!("The PDF could not be written: {e}")))
}

#[cfg(not(target_os = "linux"))]
pub async fn save_pdf<R: Runtime>(
    _window: &WebviewWindow<R>,
    _path: &Path,
) -> Result<(), CommandError> {
    Err(CommandError::InvalidInput(
        "Save as PDF: choose PDF in the print dialog (Ctrl+P) on this system.".into(),
    ))
}
