//! The error every command returns: serialisable, with words for people.

use serde::Serialize;

#[derive(Debug, thiserror::Error, Serialize)]
#[serde(tag = "kind", content = "message", rename_all = "camelCase")]
pub enum CommandError {
    /// The input the UI sent is not usable; the message names the field.
    #[error("{0}")]
    InvalidInput(String),
    /// Our own failure; details are in the log.
    #[error("{0}")]
    Internal(String),
}

impl CommandError {
    /// Serialises as `{ "kind": ..., "message": ... }`, which the UI reads.
    pub fn internal(error: impl std::fmt::Display) -> Self {
        tracing::error!(%error, "command failed");
        CommandError::Internal("Something went wrong inside ScoreDesk; see the log for details.".into())
    }
}
