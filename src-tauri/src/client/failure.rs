//! Why a request gave no answer the app can use, in words for people.

use crate::error::CommandError;

/// Why a request did not give an answer.
#[derive(Debug)]
pub enum RequestFailure {
    /// 401: the user name and password are not accepted here.
    Unauthorized(String),
    /// 403: the account is accepted but may not do this (a coordinator asking for
    /// the scorers' feeds, a scorer for the delivery feeds).
    Forbidden(String),
    /// No answer at all: the server is down or the address is wrong.
    Unreachable(String),
    /// 412: someone else changed the entity since it was read.
    Stale(String),
    /// 409: the entity exists already (an attempt's ExternalAttemptID, an
    /// attempt's upload), in the server's words.
    Conflict(String),
    /// An answer, but an error; the server's own words when it gave some.
    Failed(String),
}

impl RequestFailure {
    pub fn message(&self) -> &str {
        match self {
            RequestFailure::Unauthorized(m)
            | RequestFailure::Forbidden(m)
            | RequestFailure::Unreachable(m)
            | RequestFailure::Stale(m)
            | RequestFailure::Conflict(m)
            | RequestFailure::Failed(m) => m,
        }
    }
}

/// The message of an OData error body, if the text is one.
pub(super) fn odata_message(body: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    let error = value.get("odata.error").or_else(|| value.get("error"))?;
    error["message"]["value"].as_str().map(str::to_owned)
}

pub(super) fn root_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = error;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// A failed request as a command's error, in words for people.
impl From<RequestFailure> for CommandError {
    fn from(failure: RequestFailure) -> Self {
        match failure {
            RequestFailure::Unreachable(m) => CommandError::Unreachable(m),
            RequestFailure::Unauthorized(m) | RequestFailure::Forbidden(m) => {
                CommandError::Unauthorized(m)
            }
            RequestFailure::Stale(m) | RequestFailure::Conflict(m) | RequestFailure::Failed(m) => {
                CommandError::Server(m)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_of_an_odata_error_body_is_read_in_both_formats() {
        let light =
            r#"{"odata.error":{"code":"Forbidden","message":{"lang":"en-US","value":"no"}}}"#;
        let verbose = r#"{"error":{"code":"Forbidden","message":{"lang":"en-US","value":"nope"}}}"#;
        assert_eq!(odata_message(light).as_deref(), Some("no"));
        assert_eq!(odata_message(verbose).as_deref(), Some("nope"));
        assert_eq!(odata_message("<html>"), None);
    }
}
