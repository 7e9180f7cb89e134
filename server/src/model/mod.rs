//! The domain, knowing nothing of HTTP: question kinds, result finalisation,
//! and a result's scores.

pub mod finalise;
pub mod question_kind;
pub mod result_scores;
pub mod scoring;
