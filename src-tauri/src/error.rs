//! The error every command returns: serialisable, with words for people.

use serde::Serialize;

#[derive(Debug, thiserror::Error, Serialize)]
#[serde(tag = "kind", content = "message", rename_all = "camelCase")]
pub enum CommandError {
    /// The input the UI sent is not usable; the message names the field.
    #[error("{0}")]
    InvalidInput(String),
}
