//! The scorer's work through the OData API: the queue, taking a task into the
//! scoring view, saving or submitting scores, and releasing a task. The UI calls
//! these through the commands in `commands.rs`; the types mirror ui/src/lib/api.ts.

mod answer_groups;
mod comment_bank;
mod filters;
mod grading;
mod history;
mod other_answers;
mod queue;
mod submit;
mod take;

pub use crate::reading::{for_display, full_image, PreparedScans};
pub use answer_groups::{answers_alike, apply_answer_group, GroupApplied};
pub use comment_bank::{
    bank_comment, comment_bank, edit_banked_comment, forget_banked_comment, BankedComment,
};
pub use filters::{filter_options, FilterOptions};
pub use grading::{question_progress, questions_to_grade, QuestionProgress};
pub use history::{scoring_history, ScoredEvent};
pub use other_answers::{other_answer, other_answers};
pub use queue::{load_queue, Queue, QueueFilter};
pub use submit::{release, submit, Draft, SubmitOutcome};
pub use take::{prepare, take, Opening, ScoringView};

use crate::literals::{int64_key, literal};

/// The path of a task from its key (QuestionID is an Int64 and needs its `L`).
fn task_path(question_id: &str, result_id: i32) -> String {
    format!("ScoringTasks(QuestionID={question_id}L,ResultID={result_id})")
}

fn scoring_result_path(question_id: &str, rubric_id: i64, result_id: i32) -> String {
    format!("ScoringResults(QuestionID={question_id}L,RubricID={rubric_id},ResultID={result_id})")
}
