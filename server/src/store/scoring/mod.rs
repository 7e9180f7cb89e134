//! Subjective scoring: tasks, their ScoringResults and DimensionScores, rubrics,
//! and the comment bank.

mod comment_bank;
mod creation;
mod latest_event;
mod marking_guides;
mod progress;
mod reads;
mod rubrics;
mod updates;

pub use comment_bank::{ConditionalDelete, NewBankedComment, RevisedRow, StoredBankedComment};
pub use creation::ScoringResultCreation;
pub(in crate::store) use latest_event::latest_event_id;
pub use reads::{StoredDimensionScore, StoredScoringResult, StoredTask};
pub(in crate::store) use rubrics::current_rubric_of;
pub use rubrics::{Replaced, RubricDeletion};
pub use updates::{ConditionalUpdate, ScoringResultValues, StatusChange};
