//! Why a filter (or a literal) did not parse.

/// Why a filter did not parse, in words a client can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid $filter at position {position}: {message}")]
pub struct FilterError {
    pub position: usize,
    pub message: String,
}

/// The error at `position`, in words.
pub fn error(position: usize, message: impl Into<String>) -> FilterError {
    FilterError {
        position,
        message: message.into(),
    }
}
