//! Subjective scoring: tasks, their ScoringResults and DimensionScores, rubrics,
//! and the comment bank.

mod comment_bank;
mod creation;
mod marking_guides;
mod progress;
mod reads;
mod rubrics;
mod updates;

pub use comment_bank::{ConditionalDelete, NewBankedComment, StoredBankedComment};
pub use creation::ScoringResultCreation;
pub use reads::{StoredDimensionScore, StoredScoringResult, StoredTask};
pub use rubrics::{Replaced, RubricDeletion};
pub use updates::{ConditionalUpdate, ScoringResultValues, StatusChange};
