//! The domain, knowing nothing of HTTP: question kinds, result finalisation.

pub mod finalise;
pub mod question_kind;
