//! The error every command returns: serialisable, with words for people.

use serde::Serialize;
use ts_rs::TS;

#[derive(Debug, thiserror::Error, Serialize, TS)]
#[serde(tag = "kind", content = "message", rename_all = "camelCase")]
#[ts(export)]
pub enum CommandError {
    /// The input the UI sent is not usable; the message names the field.
    #[error("{0}")]
    InvalidInput(String),
    /// The server cannot be reached: the UI shows a banner and tries again.
    #[error("{0}")]
    Unreachable(String),
    /// The server refused the account.
    #[error("{0}")]
    Unauthorized(String),
    /// The server answered with an error, in its words.
    #[error("{0}")]
    Server(String),
    /// There is no active server yet (the embedded one is starting).
    #[error("{0}")]
    NotConnected(String),
}
