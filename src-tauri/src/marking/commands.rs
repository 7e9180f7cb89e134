//! The commands of flags: thin wrappers that take the active server's client.

use tauri::State;

use super::flags;
use super::FlagDesk;
use crate::error::CommandError;
use crate::state::DesktopState;

/// Flags the task in the scoring view to the lead marker.
#[tauri::command]
pub async fn raise_flag(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
    reason: String,
    note: String,
) -> Result<(), CommandError> {
    let client = state.connected_client().await?;
    flags::raise_flag(&client, &question_id, result_id, &reason, &note).await
}

/// The open flags and the latest answered, and whether this account answers.
#[tauri::command]
pub async fn flag_desk(state: State<'_, DesktopState>) -> Result<FlagDesk, CommandError> {
    flags::flag_desk(&state.connected_client().await?).await
}

/// Answers a flag: `released` or `taken-over`.
#[tauri::command]
pub async fn answer_flag(
    state: State<'_, DesktopState>,
    id: i32,
    outcome: String,
    note: String,
) -> Result<(), CommandError> {
    flags::answer_flag(&state.connected_client().await?, id, &outcome, &note).await
}
