//! The commands of flags and second marking: thin wrappers that take the active
//! server's client.

use tauri::State;

use super::{annotations, figures, flags, pauses, second_desk, second_marking, seeds};
use super::{
    Annotation, FiguresQuestion, FlagDesk, MarkerFigures, MarkingDraft, MarkingOutcome,
    MarkingView, NewAnnotation, SecondMarkingDesk, SeedsDesk,
};
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

/// The open pauses this account reads and, for a lead, the latest seed markings.
#[tauri::command]
pub async fn seeds_desk(state: State<'_, DesktopState>) -> Result<SeedsDesk, CommandError> {
    pauses::seeds_desk(&state.connected_client().await?).await
}

/// Releases a marker from a pause, with the note he reads.
#[tauri::command]
pub async fn release_pause(
    state: State<'_, DesktopState>,
    id: i32,
    note: String,
) -> Result<(), CommandError> {
    pauses::release_pause(&state.connected_client().await?, id, &note).await
}

/// Makes a script this lead scored a check script (seed), with its reasons.
#[tauri::command]
pub async fn make_seed(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
    reasons: String,
) -> Result<(), CommandError> {
    let client = state.connected_client().await?;
    seeds::make_seed(&client, &question_id, result_id, &reasons).await
}

/// The rounds waiting for this account and the markings taken but not submitted.
#[tauri::command]
pub async fn second_marking_desk(
    state: State<'_, DesktopState>,
) -> Result<SecondMarkingDesk, CommandError> {
    second_desk::second_marking_desk(&state.connected_client().await?).await
}

/// Takes the round a task waits in and opens it to mark.
#[tauri::command]
pub async fn take_marking(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
) -> Result<MarkingView, CommandError> {
    let client = state.connected_client().await?;
    second_marking::take_marking(&client, &state.scans, &question_id, result_id).await
}

/// Opens a marking this account took, to go on with it.
#[tauri::command]
pub async fn open_marking(
    state: State<'_, DesktopState>,
    marking_id: i32,
) -> Result<MarkingView, CommandError> {
    let client = state.connected_client().await?;
    second_marking::open_marking(&client, &state.scans, marking_id).await
}

/// Keeps the marking's scores for later, or submits them (`submit`).
#[tauri::command]
pub async fn save_marking(
    state: State<'_, DesktopState>,
    draft: MarkingDraft,
    submit: bool,
) -> Result<MarkingOutcome, CommandError> {
    second_marking::save_marking(&state.connected_client().await?, &draft, submit).await
}

/// Gives a taken round back unmarked (a lead marker frees another's this way).
#[tauri::command]
pub async fn give_back_marking(
    state: State<'_, DesktopState>,
    marking_id: i32,
) -> Result<(), CommandError> {
    second_marking::give_back_marking(&state.connected_client().await?, marking_id).await
}

/// Whether this account reads the markers' figures (a lead or an administrator).
#[tauri::command]
pub async fn figures_access(state: State<'_, DesktopState>) -> Result<bool, CommandError> {
    figures::figures_access(&state.connected_client().await?).await
}

/// The questions to read the markers' figures of, by name.
#[tauri::command]
pub async fn figures_questions(
    state: State<'_, DesktopState>,
) -> Result<Vec<FiguresQuestion>, CommandError> {
    figures::figures_questions(&state.connected_client().await?).await
}

/// The question's figures and each marker's.
#[tauri::command]
pub async fn marker_figures(
    state: State<'_, DesktopState>,
    question_id: String,
) -> Result<MarkerFigures, CommandError> {
    figures::marker_figures(&state.connected_client().await?, &question_id).await
}

/// The annotations on an answer block this account reads.
#[tauri::command]
pub async fn annotations(
    state: State<'_, DesktopState>,
    question_id: String,
    result_id: i32,
    occurrence: i64,
    block_number: i64,
) -> Result<Vec<Annotation>, CommandError> {
    let client = state.connected_client().await?;
    annotations::annotations_of(&client, &question_id, result_id, occurrence, block_number).await
}

/// Places an annotation on the script; what the server kept.
#[tauri::command]
pub async fn place_annotation(
    state: State<'_, DesktopState>,
    annotation: NewAnnotation,
) -> Result<Annotation, CommandError> {
    annotations::place_annotation(&state.connected_client().await?, &annotation).await
}

/// Removes one of this marker's annotations.
#[tauri::command]
pub async fn remove_annotation(
    state: State<'_, DesktopState>,
    id: i32,
) -> Result<(), CommandError> {
    annotations::remove_annotation(&state.connected_client().await?, id).await
}
