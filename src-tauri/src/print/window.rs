//! A snapshot's printable page (or a print batch's answer sheets) in a window of its own, opened through a signed link
//! read just before (the link expires: docs/delivery.md). Its menu: Print (the
//! system dialog, Ctrl+P), Save as PDF (Ctrl+Shift+S, pdf.rs), and Reload (Ctrl+R),
//! which reads a fresh link rather than the one the window holds, which may have
//! expired: an expired link is fetched again, never shown as the server's refusal.
//!
//! The window shows that one page and nothing else: the navigation guard lets a
//! print window load only the link it was opened with ([`PrintPages`]), and it has
//! no capability, so the page cannot call the app's commands.

use std::collections::HashMap;
use std::sync::Mutex;

use tauri::menu::{MenuBuilder, MenuItemBuilder, SubmenuBuilder};
use tauri::{AppHandle, Manager, Runtime, Url, WebviewUrl, WebviewWindowBuilder};

use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::{int64_key, key_number};
use crate::state::DesktopState;

/// The link each print window was opened with, by window label.
#[derive(Default)]
pub struct PrintPages(Mutex<HashMap<String, Url>>);

impl PrintPages {
    /// Whether the window `label` may show `url`: only its own link.
    pub fn allows(&self, label: &str, url: &Url) -> bool {
        self.0
            .lock()
            .map(|pages| pages.get(label) == Some(url))
            .unwrap_or(false)
    }

    fn open(&self, label: &str, url: Url) {
        if let Ok(mut pages) = self.0.lock() {
            pages.insert(label.to_owned(), url);
        }
    }
}

/// What a print window shows: a snapshot's paper or its answer key, or a print
/// batch's personal answer sheets (docs/paper-sheets.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrintSource {
    Snapshot {
        id: String,
        answer_key: bool,
    },
    BatchSheets {
        id: String,
    },
    /// A group's class list (docs/rosters.md).
    ClassList {
        id: String,
    },
    /// A result's marked script (docs/marking-quality.md).
    MarkedScript {
        id: i32,
    },
}

impl PrintSource {
    fn label(&self) -> String {
        match self {
            PrintSource::Snapshot {
                id,
                answer_key: true,
            } => format!("print-{id}-key"),
            PrintSource::Snapshot { id, .. } => format!("print-{id}"),
            PrintSource::BatchSheets { id } => format!("print-batch-{id}"),
            PrintSource::ClassList { id } => format!("print-group-{id}"),
            PrintSource::MarkedScript { id } => format!("print-script-{id}"),
        }
    }

    /// The entity that carries the link, and the link's property.
    fn link_of(&self) -> (String, &'static str) {
        match self {
            PrintSource::Snapshot { id, answer_key } => (
                format!("AssessmentSnapshots({id})"),
                if *answer_key {
                    "PrintableDocumentWithAnswersSourceUrl"
                } else {
                    "PrintableDocumentSourceUrl"
                },
            ),
            PrintSource::BatchSheets { id } => {
                (format!("PrintBatches({id})"), "AnswerSheetsSourceUrl")
            }
            PrintSource::ClassList { id } => (format!("Groups({id})"), "ClassListSourceUrl"),
            // A function's answer, not an entity: the link is its SourceUrl.
            PrintSource::MarkedScript { id } => {
                (format!("MarkedScript?ResultID={id}"), "SourceUrl")
            }
        }
    }

    fn title(&self, name: &str) -> String {
        match self {
            PrintSource::Snapshot {
                id,
                answer_key: true,
            } => {
                format!("{name}: answer key (snapshot {id})")
            }
            PrintSource::Snapshot { id, .. } => format!("{name} (snapshot {id})"),
            PrintSource::BatchSheets { id } => format!("{name}: answer sheets (batch {id})"),
            PrintSource::ClassList { .. } => format!("{name}: class list"),
            PrintSource::MarkedScript { id } => format!("Marked script of result {id}"),
        }
    }
}

/// Opens (or brings back, with a fresh link) the printable page of a snapshot: the
/// paper, or the answer key. Returns the window's label.
pub async fn open_printable<R: Runtime>(
    app: &AppHandle<R>,
    client: &ODataClient,
    snapshot_id: &str,
    answer_key: bool,
) -> Result<String, CommandError> {
    let id = int64_key("Snapshot", snapshot_id)?;
    open_print_window(app, client, PrintSource::Snapshot { id, answer_key }).await
}

/// Opens (or brings back) a print batch's answer sheets, one per attempt.
pub async fn open_answer_sheets<R: Runtime>(
    app: &AppHandle<R>,
    client: &ODataClient,
    batch_id: &str,
) -> Result<String, CommandError> {
    let id = int64_key("Print batch", batch_id)?;
    open_print_window(app, client, PrintSource::BatchSheets { id }).await
}

/// Opens (or brings back) a group's class list.
pub async fn open_class_list<R: Runtime>(
    app: &AppHandle<R>,
    client: &ODataClient,
    group_id: &str,
) -> Result<String, CommandError> {
    let id = int64_key("Group", group_id)?;
    open_print_window(app, client, PrintSource::ClassList { id }).await
}

/// Opens (or brings back) a result's marked script.
pub async fn open_marked_script<R: Runtime>(
    app: &AppHandle<R>,
    client: &ODataClient,
    result_id: &str,
) -> Result<String, CommandError> {
    let id = i32::try_from(key_number("Result", result_id)?).map_err(|_| {
        CommandError::InvalidInput(format!("Result {result_id} is not a result's ID."))
    })?;
    open_print_window(app, client, PrintSource::MarkedScript { id }).await
}

async fn open_print_window<R: Runtime>(
    app: &AppHandle<R>,
    client: &ODataClient,
    source: PrintSource,
) -> Result<String, CommandError> {
    let (entity, field) = source.link_of();
    let read = client.get_json(&entity, &[]).await?;
    let link = read[field]
        .as_str()
        .and_then(|link| Url::parse(link).ok())
        .ok_or_else(|| CommandError::Server(format!("The {field} is missing.")))?;
    let name = read["Name"].as_str().unwrap_or_default();
    let (label, title) = (source.label(), source.title(name));
    app.state::<PrintPages>().open(&label, link.clone());
    if let Some(window) = app.get_webview_window(&label) {
        window.navigate(link).map_err(shown)?;
        window.set_focus().map_err(shown)?;
        return Ok(label);
    }
    let print = MenuItemBuilder::with_id("print", "Print…")
        .accelerator("CmdOrCtrl+P")
        .build(app)
        .map_err(shown)?;
    let save_pdf = MenuItemBuilder::with_id("save_pdf", "Save as PDF…")
        .accelerator("CmdOrCtrl+Shift+S")
        .build(app)
        .map_err(shown)?;
    let reload_item = MenuItemBuilder::with_id("reload", "Reload")
        .accelerator("CmdOrCtrl+R")
        .build(app)
        .map_err(shown)?;
    let close = MenuItemBuilder::with_id("close", "Close")
        .accelerator("CmdOrCtrl+W")
        .build(app)
        .map_err(shown)?;
    let page = SubmenuBuilder::new(app, "Page")
        .items(&[&print, &save_pdf, &reload_item, &close])
        .build()
        .map_err(shown)?;
    let menu = MenuBuilder::new(app)
        .items(&[&page])
        .build()
        .map_err(shown)?;
    let window = WebviewWindowBuilder::new(app, &label, WebviewUrl::External(link))
        .title(title)
        .inner_size(900.0, 1000.0)
        .menu(menu)
        .build()
        .map_err(shown)?;
    let file_name = pdf_file_name(name, &source);
    window.on_menu_event(move |window, event| {
        let done = match event.id().as_ref() {
            "print" => window
                .get_webview_window(window.label())
                .map(|webview| webview.print()),
            "save_pdf" => {
                ask_and_save_pdf(window.clone(), &file_name);
                None
            }
            "reload" => {
                reload(window.app_handle().clone(), source.clone());
                None
            }
            "close" => Some(window.close()),
            _ => None,
        };
        if let Some(Err(error)) = done {
            tracing::warn!(%error, "the print window's menu");
        }
    });
    Ok(label)
}

/// "June sitting, hall B (snapshot 3, answer key).pdf", without characters a file
/// name cannot hold.
fn pdf_file_name(name: &str, source: &PrintSource) -> String {
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_control() || "/\\:*?\"<>|".contains(c) {
                '-'
            } else {
                c
            }
        })
        .collect();
    let what = match source {
        PrintSource::Snapshot {
            id,
            answer_key: true,
        } => format!("snapshot {id}, answer key"),
        PrintSource::Snapshot { id, .. } => format!("snapshot {id}"),
        PrintSource::BatchSheets { id } => format!("batch {id}, answer sheets"),
        PrintSource::ClassList { id } => format!("group {id}, class list"),
        PrintSource::MarkedScript { id } => format!("result {id}, marked script"),
    };
    format!("{} ({what}).pdf", name.trim())
}

/// Asks where to save, then saves the window's page there as a PDF.
fn ask_and_save_pdf<R: Runtime>(window: tauri::Window<R>, file_name: &str) {
    use tauri_plugin_dialog::DialogExt;
    let Some(webview) = window.get_webview_window(window.label()) else {
        return;
    };
    window
        .app_handle()
        .dialog()
        .file()
        .set_file_name(file_name)
        .add_filter("PDF", &["pdf"])
        .save_file(move |chosen| {
            let Some(path) = chosen.and_then(|p| p.into_path().ok()) else {
                return;
            };
            tauri::async_runtime::spawn(async move {
                if let Err(error) = super::pdf::save_pdf(&webview, &path).await {
                    tracing::warn!(?error, "saving a print window as PDF");
                }
            });
        });
}

/// Saves the open print window of a snapshot (its paper, or its answer key) as a
/// PDF at `path`.
pub async fn save_printable_pdf<R: Runtime>(
    app: &AppHandle<R>,
    snapshot_id: &str,
    answer_key: bool,
    path: &std::path::Path,
) -> Result<(), CommandError> {
    let id = int64_key("Snapshot", snapshot_id)?;
    let label = PrintSource::Snapshot {
        id: id.clone(),
        answer_key,
    }
    .label();
    let window = app.get_webview_window(&label).ok_or_else(|| {
        CommandError::InvalidInput(format!(
            "Snapshot {id}'s {} is not open: open it first (P, or A for the key).",
            if answer_key { "answer key" } else { "paper" }
        ))
    })?;
    super::pdf::save_pdf(&window, path).await
}

/// Opens the page again through a link read now, with the server the app is
/// connected to at this moment.
fn reload<R: Runtime>(app: AppHandle<R>, source: PrintSource) {
    tauri::async_runtime::spawn(async move {
        let Some(client) = app.state::<DesktopState>().active_client().await else {
            return;
        };
        if let Err(error) = open_print_window(&app, &client, source).await {
            tracing::warn!(?error, "reloading a print window");
        }
    });
}

fn shown(error: tauri::Error) -> CommandError {
    CommandError::Server(format!("The print window could not open: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pdf_is_named_after_its_snapshot_without_what_a_file_name_cannot_hold() {
        let snapshot = |id: &str, answer_key| PrintSource::Snapshot {
            id: id.into(),
            answer_key,
        };
        assert_eq!(
            pdf_file_name("June sitting, hall B", &snapshot("3", false)),
            "June sitting, hall B (snapshot 3).pdf"
        );
        assert_eq!(
            pdf_file_name("Term 1/2: \"mock\"", &snapshot("4", true)),
            "Term 1-2- -mock- (snapshot 4, answer key).pdf"
        );
        assert_eq!(
            pdf_file_name("Morning", &PrintSource::BatchSheets { id: "7".into() }),
            "Morning (batch 7, answer sheets).pdf"
        );
    }
}
