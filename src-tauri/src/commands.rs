//! The commands the UI invokes. Each returns data or a [`CommandError`].

use scoredesk_server::model::scoring::TaskStatus;
use secrecy::SecretString;
use serde::Deserialize;
use tauri::State;
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;
use crate::reading;
use crate::saved_connection::{self, SecretStore};
use crate::scoring::{
    self, BankedComment, Draft, FilterOptions, Opening, QuestionProgress, Queue, QueueFilter,
    ScoredEvent, ScoringView, SubmitOutcome,
};
use crate::state::{status_of, ConnectionMode, ConnectionState, ConnectionStatus, DesktopState};

/// The connection state and the open task count of the active server.
#[tauri::command]
pub async fn connection_status(
    state: State<'_, DesktopState>,
) -> Result<ConnectionStatus, CommandError> {
    Ok(state.status().await)
}

/// A remote server as the UI's form gives it. The password passes through once and
/// stays on the Rust side.
#[derive(Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RemoteServer {
    url: String,
    customer_id: i32,
    username: String,
    #[ts(type = "string")]
    password: SecretString,
    /// The scorer saw the warning that this server gets the password unencrypted
    /// (plain `http://` beyond this machine) and chose to go on.
    #[serde(default)]
    allow_cleartext: bool,
}

/// Tries the remote server; switches to it only if it answers with the account.
#[tauri::command]
pub async fn connect_remote(
    state: State<'_, DesktopState>,
    server: RemoteServer,
) -> Result<ConnectionStatus, CommandError> {
    let url = reqwest::Url::parse(server.url.trim()).map_err(|_| {
        CommandError::InvalidInput(format!("'{}' is not a valid server URL.", server.url))
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(CommandError::InvalidInput(
            "The server URL must start with http:// or https://.".into(),
        ));
    }
    if crate::client::sends_password_in_clear(&url) && !server.allow_cleartext {
        return Err(CommandError::InvalidInput(format!(
            "{} is plain http: the password would cross the network unencrypted. Use https://, or confirm that you accept this.",
            url.host_str().unwrap_or("This server")
        )));
    }
    if server.customer_id <= 0 {
        return Err(CommandError::InvalidInput(
            "The customer area is a positive number.".into(),
        ));
    }
    if server.username.trim().is_empty() {
        return Err(CommandError::InvalidInput(
            "Enter the account's user name.".into(),
        ));
    }
    let client = ODataClient::new(
        url.as_str(),
        server.customer_id,
        server.username.trim(),
        server.password.clone(),
    );
    let mut status = status_of(&client, None, ConnectionMode::Remote).await;
    if status.state == ConnectionState::Connected {
        // Remembered for the next start; the password goes to the keyring (or a
        // private file). A failure to remember does not stop the connection.
        let store = match state.data_dir() {
            Some(dir) => match saved_connection::save(
                dir,
                &client.base_url,
                client.customer_id,
                &client.username,
                &server.password,
            ) {
                Ok(saved) => saved.secret_store,
                Err(error) => {
                    tracing::warn!(error = ?error, "the connection could not be remembered");
                    status.notice = Some(format!(
                        "Connected, but this connection will not be remembered: {error:#}"
                    ));
                    SecretStore::PrivateFile
                }
            },
            None => SecretStore::PrivateFile,
        };
        status.password_store = Some(store);
        state.use_remote(client, store).await;
    }
    Ok(status)
}

/// Goes back to the embedded server, and forgets the remote one and its password.
#[tauri::command]
pub async fn use_embedded(
    state: State<'_, DesktopState>,
) -> Result<ConnectionStatus, CommandError> {
    state.use_embedded().await;
    if let Some(dir) = state.data_dir() {
        saved_connection::forget(dir);
    }
    Ok(state.status().await)
}

async fn client(state: &DesktopState) -> Result<ODataClient, CommandError> {
    state.connected_client().await
}

/// The queue of open tasks, with the group counts.
#[tauri::command]
pub async fn load_queue(
    state: State<'_, DesktopState>,
    filter: QueueFilter,
) -> Result<Queue, CommandError> {
    scoring::load_queue(&client(&state).await?, &filter).await
}

/// Opens a task into the scoring view: taken (Status 1), for review (unclaimed), or
/// resumed from a kept draft (see [`Opening`]).
#[tauri::command]
pub async fn open_task(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
    opening: Opening,
) -> Result<ScoringView, CommandError> {
    scoring::take(
        &client(&state).await?,
        &state.scans,
        &question_id,
        result_id,
        opening,
    )
    .await
}

/// The same participant's other answers in the assessment (read only).
#[tauri::command]
pub async fn other_answers(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
) -> Result<Vec<reading::OtherAnswer>, CommandError> {
    scoring::other_answers(&client(&state).await?, &question_id, result_id).await
}

/// One of them, to read: text, or a scan decoded for display.
#[tauri::command]
pub async fn other_answer(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
) -> Result<reading::AnswerView, CommandError> {
    scoring::other_answer(
        &client(&state).await?,
        &state.scans,
        &question_id,
        result_id,
    )
    .await
}

/// The open tasks whose typed answer is alike the script's (docs/marking-quality.md).
#[tauri::command]
pub async fn answers_alike(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
) -> Result<Vec<i32>, CommandError> {
    scoring::answers_alike(&client(&state).await?, &question_id, result_id).await
}

/// Applies the scorer's (submitted) marking of the script to its answer group.
#[tauri::command]
pub async fn apply_answer_group(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
) -> Result<scoring::GroupApplied, CommandError> {
    scoring::apply_answer_group(&client(&state).await?, &question_id, result_id).await
}

/// The assessments and questions the queue can be filtered by.
#[tauri::command]
pub async fn filter_options(state: State<'_, DesktopState>) -> Result<FilterOptions, CommandError> {
    scoring::filter_options(&client(&state).await?).await
}

/// What this account saved or submitted lately, on any computer.
#[tauri::command]
pub async fn scoring_history(
    state: State<'_, DesktopState>,
) -> Result<Vec<ScoredEvent>, CommandError> {
    scoring::scoring_history(&client(&state).await?).await
}

/// The comment bank of a question (shared by the area's scorers).
#[tauri::command]
pub async fn comment_bank(
    state: State<'_, DesktopState>,
    question_id: String,
) -> Result<Vec<BankedComment>, CommandError> {
    scoring::comment_bank(&client(&state).await?, &question_id).await
}

/// Adds a comment to the question's bank, for a dimension or overall.
#[tauri::command]
pub async fn bank_comment(
    state: State<'_, DesktopState>,
    question_id: String,
    dimension_order: Option<i32>,
    text: String,
) -> Result<BankedComment, CommandError> {
    scoring::bank_comment(&client(&state).await?, &question_id, dimension_order, &text).await
}

/// Rewrites a banked comment from the revision the scorer saw.
#[tauri::command]
pub async fn edit_banked_comment(
    state: State<'_, DesktopState>,
    comment: BankedComment,
) -> Result<(), CommandError> {
    scoring::edit_banked_comment(&client(&state).await?, &comment).await
}

/// Removes a comment from the bank.
#[tauri::command]
pub async fn forget_banked_comment(
    state: State<'_, DesktopState>,
    id: i32,
) -> Result<(), CommandError> {
    scoring::forget_banked_comment(&client(&state).await?, id).await
}

/// Grade by question: the questions with tasks to score, each with its progress.
#[tauri::command]
pub async fn questions_to_grade(
    state: State<'_, DesktopState>,
) -> Result<Vec<QuestionProgress>, CommandError> {
    scoring::questions_to_grade(&client(&state).await?).await
}

/// Where one question stands (grade by question's "12 of 65 done").
#[tauri::command]
pub async fn question_progress(
    state: State<'_, DesktopState>,
    question_id: String,
) -> Result<QuestionProgress, CommandError> {
    scoring::question_progress(&client(&state).await?, &question_id).await
}

/// Decodes the scan of the task "next" will open, without taking the task; returns
/// the image to show (for the web view to decode ahead), if the answer is a scan.
#[tauri::command]
pub async fn prepare_task(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
) -> Result<Option<String>, CommandError> {
    scoring::prepare(
        &client(&state).await?,
        &state.scans,
        &question_id,
        result_id,
    )
    .await
}

/// Saves (status 2) or submits (status 3) the scorer's version.
#[tauri::command]
pub async fn submit_scores(
    state: State<'_, DesktopState>,
    draft: Draft,
    status: i32,
) -> Result<SubmitOutcome, CommandError> {
    let status = TaskStatus::try_from(status).map_err(CommandError::InvalidInput)?;
    scoring::submit(&client(&state).await?, &draft, status).await
}

/// Puts a task back in the queue (Status 0).
#[tauri::command]
pub async fn release_task(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
) -> Result<(), CommandError> {
    scoring::release(&client(&state).await?, &question_id, result_id).await
}

/// The scanned answer at full resolution, for zooming in.
#[tauri::command]
pub async fn answer_image_full(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
    occurrence: i32,
    block_number: i32,
) -> Result<String, CommandError> {
    let question_id = question_id.parse::<i64>().map_err(|_| {
        CommandError::InvalidInput(format!("Question '{question_id}' is not a number."))
    })?;
    let media = client(&state)
        .await?
        .get_media(&format!(
            "Answers(QuestionID={question_id}L,ResultID={result_id},Occurrence={occurrence},BlockNumber={block_number})/$value"
        ))
        .await?;
    Ok(scoring::full_image(&media.content_type, &media.bytes))
}

/// Milliseconds since the app's process started; the UI asks once its first queue
/// is on screen (the start-up figure of docs/benchmarks.md).
#[tauri::command]
pub fn startup_elapsed_ms() -> f64 {
    crate::startup::elapsed_ms()
}

/// The drafts folder of the server in use.
async fn drafts_folder(state: &DesktopState) -> Result<std::path::PathBuf, CommandError> {
    let data_dir = state
        .data_dir()
        .ok_or_else(|| CommandError::NotConnected("The app is still starting.".into()))?;
    Ok(crate::drafts::folder(data_dir, &state.draft_scope().await))
}

/// Keeps a draft on disk until the server has it.
#[tauri::command]
pub async fn keep_draft(
    state: State<'_, DesktopState>,
    key: String,
    text: String,
) -> Result<(), CommandError> {
    crate::drafts::keep(&drafts_folder(&state).await?, &key, &text)
}

/// Forgets a draft the server now has.
#[tauri::command]
pub async fn forget_draft(state: State<'_, DesktopState>, key: String) -> Result<(), CommandError> {
    crate::drafts::forget(&drafts_folder(&state).await?, &key)
}

/// Every draft kept on disk for the server in use.
#[tauri::command]
pub async fn kept_drafts(
    state: State<'_, DesktopState>,
) -> Result<Vec<crate::drafts::KeptDraft>, CommandError> {
    Ok(crate::drafts::all(&drafts_folder(&state).await?))
}
