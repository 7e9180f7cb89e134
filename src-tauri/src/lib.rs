//! The ScoreDesk desktop shell: starts the embedded server, opens the window, and
//! answers the UI's commands by talking OData to the active server.

pub mod client;
mod commands;
mod content;
mod delivery;
mod drafts;
mod embedded;
mod error;
mod file_dialog;
mod literals;
pub mod marking;
mod navigation;
mod people;
mod print;
mod private_file;
pub mod reading;
mod rendering;
mod saved_connection;
pub mod scoring;
mod startup;
mod state;
mod task_filters;

use std::path::PathBuf;

use tauri::Manager;

use state::DesktopState;

/// Where the app keeps its database and local account: `SCOREDESK_DATA_DIR` if set
/// (tests use a fresh one), otherwise the platform's app data directory.
fn data_dir(app: &tauri::App) -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::var_os("SCOREDESK_DATA_DIR") {
        return Ok(PathBuf::from(dir));
    }
    Ok(app.path().app_data_dir()?)
}

async fn resume_saved_connection(state: &DesktopState, dir: &std::path::Path) {
    match saved_connection::load(dir) {
        Ok(None) => {}
        Ok(Some((saved, password))) => {
            let client =
                client::ODataClient::new(&saved.url, saved.customer_id, &saved.username, password);
            state.use_remote(client, saved.secret_store).await;
        }
        Err(error) => {
            tracing::warn!(error = ?error, "the remembered server could not be used");
            state
                .set_notice(format!(
                    "The remembered server could not be used ({error:#}); the built-in server is used instead. Connect again to remember it."
                ))
                .await;
        }
    }
}

pub fn run() {
    startup::mark();
    scoredesk_server::telemetry::init(scoredesk_server::config::LogFormat::Pretty);
    rendering::choose();
    let result = tauri::Builder::default()
        .plugin(navigation::guard())
        .plugin(tauri_plugin_dialog::init())
        .manage(DesktopState::default())
        .manage(print::PrintPages::default())
        .manage(delivery::sheets::HeldSheets::default())
        .setup(|app| {
            let dir = data_dir(app)?;
            let handle = app.handle().clone();
            handle.state::<DesktopState>().set_data_dir(dir.clone());
            // A remote server chosen earlier is used again at once; the embedded
            // server still starts, so that switching back is instant.
            tauri::async_runtime::block_on(resume_saved_connection(
                &handle.state::<DesktopState>(),
                &dir,
            ));
            // The window opens at once; the server starts (and seeds the demo on first
            // run) in the background, and the UI shows "Starting…" until it is up.
            tauri::async_runtime::spawn(async move {
                let state = handle.state::<DesktopState>();
                match embedded::start(&dir).await {
                    Ok(server) => state.embedded_started(server).await,
                    Err(error) => {
                        tracing::error!(error = ?error, "the embedded server did not start");
                        state
                            .embedded_failed(format!(
                                "The built-in server did not start: {error:#}"
                            ))
                            .await;
                    }
                }
            });
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::connection_status,
            commands::connect_remote,
            commands::use_embedded,
            commands::load_queue,
            commands::open_task,
            commands::filter_options,
            commands::questions_to_grade,
            commands::comment_bank,
            commands::scoring_history,
            commands::bank_comment,
            commands::edit_banked_comment,
            commands::forget_banked_comment,
            commands::question_progress,
            commands::prepare_task,
            commands::submit_scores,
            commands::release_task,
            commands::answer_image_full,
            commands::startup_elapsed_ms,
            commands::keep_draft,
            commands::forget_draft,
            commands::kept_drafts,
            delivery::commands::delivery_access,
            delivery::commands::delivery_assessments,
            delivery::commands::snapshots,
            delivery::commands::create_snapshot,
            delivery::commands::rename_made,
            delivery::commands::delete_made,
            delivery::commands::open_printable,
            delivery::commands::open_marked_script,
            delivery::commands::delivery_groups,
            delivery::commands::print_batches,
            delivery::commands::create_print_batch,
            delivery::commands::batch_attempts,
            delivery::commands::create_attempts,
            delivery::commands::answer_files,
            delivery::commands::upload_answer_file,
            delivery::commands::pick_answer_files,
            delivery::commands::batch_results,
            delivery::commands::first_scorable_task,
            delivery::commands::assessment_results,
            delivery::commands::change_result,
            delivery::commands::assessment_figures,
            delivery::commands::choose_results_path,
            delivery::commands::save_results,
            delivery::commands::purge_plan,
            delivery::commands::purge,
            delivery::commands::audit_entry,
            delivery::commands::audit_log,
            delivery::commands::save_printable_pdf,
            delivery::sheet_commands::open_answer_sheets,
            delivery::sheet_commands::read_sheet_scans,
            delivery::sheet_commands::decide_sheet_doubt,
            delivery::sheet_commands::transcribe_sheet_answer,
            delivery::sheet_commands::upload_sheet_readings,
            delivery::sheet_commands::pick_scans,
            content::commands::import_qti_package,
            content::commands::pick_qti_package,
            content::commands::rubric_questions,
            content::commands::rubric_form,
            content::commands::save_rubric,
            content::commands::regrade_plan,
            content::commands::regrade_scripts,
            people::commands::import_roster,
            people::commands::pick_roster,
            people::commands::people_directory,
            people::commands::person_card,
            people::commands::save_person,
            people::commands::open_class_list,
            commands::other_answers,
            commands::other_answer,
            commands::answers_alike,
            commands::apply_answer_group,
            marking::commands::raise_flag,
            marking::commands::annotations,
            marking::commands::place_annotation,
            marking::commands::remove_annotation,
            marking::commands::flag_desk,
            marking::commands::answer_flag,
            marking::commands::seeds_desk,
            marking::commands::release_pause,
            marking::commands::make_seed,
            marking::commands::second_marking_desk,
            marking::commands::take_marking,
            marking::commands::open_marking,
            marking::commands::save_marking,
            marking::commands::give_back_marking,
            marking::commands::figures_access,
            marking::commands::figures_questions,
            marking::commands::marker_figures
        ])
        .run(tauri::generate_context!());
    if let Err(error) = result {
        eprintln!("ScoreDesk could not start: {error}");
        std::process::exit(1);
    }
}
